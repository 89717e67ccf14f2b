package templates

import (
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/lexio-mail/lexio/internal/zone"
)

// Langs are the interface languages, the first being the fallback.
func Langs() []string { return []string{"en", "es", "fr"} }

// lang holds what a language needs beyond its templates: dates, durations,
// plurals and the short labels of bonus cells.
type lang struct {
	code     string
	months   [12]string
	weekdays [7]string // Sunday first, as time.Weekday
	// date formats a day: weekday, day, month name, year.
	date func(wd string, d int, m string, y int) string
	at   string // between the date and the clock, e.g. " at "
	and  string // last separator of a list
	// units of relative durations: one/other day, hour, minute.
	day, days    string
	future, past string // "in %s", "%s ago"
	lessMinute   string // "less than a minute"
	zeroSingular bool   // 0 takes the singular (French)
	labels       [8]string
	kb, mb       string // units of message sizes
	comma        bool   // decimal comma
}

func newLang(code string) *lang {
	switch code {
	case "es":
		return &lang{
			code:     "es",
			months:   [12]string{"enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"},
			weekdays: [7]string{"domingo", "lunes", "martes", "miércoles", "jueves", "viernes", "sábado"},
			date: func(wd string, d int, m string, y int) string {
				return wd + " " + strconv.Itoa(d) + " de " + m + " de " + strconv.Itoa(y)
			},
			at: " a las ", and: " y ",
			day: "día", days: "días", future: "en %s", past: "hace %s",
			lessMinute: "menos de un minuto",
			kb:         "KB", mb: "MB", comma: true,
			labels: [8]string{Fountain: "★", TW: "PT", DW: "PD", TL: "LT", DL: "LD", Cross: "X"},
		}
	case "fr":
		return &lang{
			code:     "fr",
			months:   [12]string{"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"},
			weekdays: [7]string{"dimanche", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi"},
			date: func(wd string, d int, m string, y int) string {
				ds := strconv.Itoa(d)
				if d == 1 {
					ds = "1er"
				}
				return wd + " " + ds + " " + m + " " + strconv.Itoa(y)
			},
			at: " à ", and: " et ",
			day: "jour", days: "jours", future: "dans %s", past: "il y a %s",
			lessMinute:   "moins d’une minute",
			zeroSingular: true,
			kb:           "Ko", mb: "Mo", comma: true,
			labels: [8]string{Fountain: "★", TW: "MT", DW: "MD", TL: "LT", DL: "LD", Cross: "X"},
		}
	}
	return &lang{
		code:     "en",
		months:   [12]string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"},
		weekdays: [7]string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"},
		date: func(wd string, d int, m string, y int) string {
			return wd + " " + strconv.Itoa(d) + " " + m + " " + strconv.Itoa(y)
		},
		at: " at ", and: " and ",
		day: "day", days: "days", future: "in %s", past: "%s ago",
		lessMinute: "less than a minute",
		kb:         "KB", mb: "MB",
		labels: [8]string{Fountain: "★", TW: "3W", DW: "2W", TL: "3L", DL: "2L", Cross: "X"},
	}
}

// plural picks one or other for n.
func (l *lang) plural(n int, one, other string) string {
	if n == 1 || n == -1 || (n == 0 && l.zeroSingular) {
		return one
	}
	return other
}

// when writes an absolute time in the reader's zone:
// "Friday 6 March 2026 at 15:04 UTC".
func (l *lang) when(tz *time.Location, t time.Time) string {
	if tz == nil {
		tz = time.UTC
	}
	t = t.In(tz)
	return l.date(l.weekdays[t.Weekday()], t.Day(), l.months[t.Month()-1], t.Year()) +
		l.at + t.Format("15:04") + " " + zoneName(t)
}

// dateOnly writes the date of t in the reader's zone, without the time:
// "Monday 2 March 2026".
func (l *lang) dateOnly(tz *time.Location, t time.Time) string {
	if tz == nil {
		tz = time.UTC
	}
	t = t.In(tz)
	return l.date(l.weekdays[t.Weekday()], t.Day(), l.months[t.Month()-1], t.Year())
}

// zoneName is the zone's abbreviation at t (CET, CEST), or its offset
// when the tz database has only a number for it ("-03"): UTC−3.
func zoneName(t time.Time) string { return zone.Abbrev(t) }

// span writes a duration without its direction: "2 days 3 h", "3 h 20 min",
// "45 min", "less than a minute". Above a day it counts whole hours.
func (l *lang) span(d time.Duration) string {
	if d < 0 {
		d = -d
	}
	if d < time.Minute {
		return l.lessMinute
	}
	if d >= 24*time.Hour {
		h := int((d + 30*time.Minute) / time.Hour)
		days, hours := h/24, h%24
		s := strconv.Itoa(days) + " " + l.plural(days, l.day, l.days)
		if hours > 0 {
			s += " " + strconv.Itoa(hours) + " h"
		}
		return s
	}
	m := int((d + 30*time.Second) / time.Minute)
	if m >= 60 {
		s := strconv.Itoa(m/60) + " h"
		if m%60 > 0 {
			s += " " + strconv.Itoa(m%60) + " min"
		}
		return s
	}
	return strconv.Itoa(m) + " min"
}

// rel writes t relative to now: "in 2 days 3 h" or "2 h ago".
func (l *lang) rel(now, t time.Time) string {
	d := t.Sub(now)
	if d >= 0 {
		return strings.Replace(l.future, "%s", l.span(d), 1)
	}
	return strings.Replace(l.past, "%s", l.span(d), 1)
}

// list joins words as a sentence does: "A, B and C".
func (l *lang) list(xs []string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + l.and + xs[len(xs)-1]
}

// size writes a byte count: "512 KB", "1.5 MB" ("1,5 Mo" in French).
func (l *lang) size(n int64) string {
	if n < 1<<20 {
		return strconv.FormatInt((n+1023)/1024, 10) + "\u00a0" + l.kb
	}
	s := strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64)
	s = strings.TrimSuffix(s, ".0")
	if l.comma {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s + "\u00a0" + l.mb
}

// elide writes word before name as French does: "d’Alice", "qu’Élodie",
// but "de Bob". A word ending in e ("de", "que", "le") loses it before a
// vowel, accented or not, and before a Y that a consonant follows ("d’Yves",
// "de Yann"). Not before an H: nothing tells a mute one ("d’Hélène") from
// an aspirate one ("de Hugues"), and "de" before either is understood.
func elide(word, name string) string {
	if strings.HasSuffix(word, "e") && startsWithVowel(name) {
		return strings.TrimSuffix(word, "e") + "’" + name
	}
	return word + " " + name
}

func startsWithVowel(name string) bool {
	rs := []rune(name)
	if len(rs) == 0 {
		return false
	}
	isVowel := func(r rune) bool {
		return strings.ContainsRune("aeiouàâäéèêëîïôöùûüœæ", unicode.ToLower(r))
	}
	switch {
	case isVowel(rs[0]):
		return true
	case unicode.ToLower(rs[0]) == 'y':
		return len(rs) > 1 && unicode.IsLetter(rs[1]) && !isVowel(rs[1])
	}
	return false
}
