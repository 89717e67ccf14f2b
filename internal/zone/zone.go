// Package zone reads the IANA time zone names players and hosts write
// ("Europe/Paris", "UTC") and writes a zone's abbreviation. It carries the
// tz database (time/tzdata), so that a static binary on a machine without
// /usr/share/zoneinfo knows every zone.
package zone

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // the tz database, for machines without one
)

// ErrUnknown is the error of Load for a name that is no zone.
var ErrUnknown = errors.New("zone: unknown time zone")

// Load returns the zone of an IANA name, in any case: "Europe/Paris",
// "europe/paris" and "EUROPE/PARIS" are one zone, named by its canonical
// spelling. The tz database is case-sensitive, so other spellings are
// tried in turn: as written, each word capitalised (with the small words
// of "Dar_es_Salaam" and "Port-au-Prince" in lowercase), and in capitals
// ("UTC", "EST5EDT", "Etc/GMT+3"). A name none of them finds is
// ErrUnknown; "Local" (the server's own zone) and "" are refused.
func Load(name string) (*time.Location, error) {
	name = strings.TrimSpace(name)
	if name == "" || len(name) > 64 || strings.EqualFold(name, "Local") ||
		strings.ContainsFunc(name, func(r rune) bool { return r <= ' ' || r == '\\' || r > '~' }) ||
		strings.HasPrefix(name, "/") || strings.Contains(name, "..") {
		return nil, ErrUnknown
	}
	for _, cand := range spellings(name) {
		if loc, err := time.LoadLocation(cand); err == nil {
			return loc, nil
		}
	}
	return nil, ErrUnknown
}

// smallWords stay in lowercase inside a zone's name.
var smallWords = map[string]bool{"es": true, "au": true, "of": true, "de": true}

// spellings lists the spellings of name Load tries, name first.
func spellings(name string) []string {
	parts := strings.Split(name, "/")
	title := make([]string, len(parts))
	small := make([]string, len(parts))
	upperTail := make([]string, len(parts))
	for i, p := range parts {
		title[i] = words(p, false)
		small[i] = words(p, true)
		upperTail[i] = strings.ToUpper(p)
	}
	upperTail[0] = title[0]
	return []string{name, strings.Join(title, "/"), strings.Join(small, "/"),
		strings.ToUpper(name), strings.Join(upperTail, "/")}
}

// words capitalises each word of a name's part, words being separated by
// '_' or '-'; keepSmall leaves smallWords after the first in lowercase.
func words(p string, keepSmall bool) string {
	var b strings.Builder
	first, start := true, 0
	for i := 0; i <= len(p); i++ {
		if i < len(p) && p[i] != '_' && p[i] != '-' {
			continue
		}
		w := strings.ToLower(p[start:i])
		if w != "" && !(keepSmall && !first && smallWords[w]) {
			w = strings.ToUpper(w[:1]) + w[1:]
		}
		b.WriteString(w)
		if i < len(p) {
			b.WriteByte(p[i])
		}
		first = false
		start = i + 1
	}
	return b.String()
}

// Abbrev is the abbreviation of t's zone at t ("CET", "CEST", "UTC"), or
// its offset from UTC when the zone has none that is not a number, as
// the tz database writes "-03" for America/Sao_Paulo: "UTC−3",
// "UTC+5:30" (a minus sign, U+2212).
func Abbrev(t time.Time) string {
	name, off := t.Zone()
	if name != "" && name[0] != '+' && name[0] != '-' {
		return name
	}
	if off == 0 {
		return "UTC"
	}
	sign := "+"
	if off < 0 {
		sign, off = "\u2212", -off
	}
	h, m := off/3600, off%3600/60
	s := "UTC" + sign + strconv.Itoa(h)
	if m != 0 {
		s += fmt.Sprintf(":%02d", m)
	}
	return s
}
