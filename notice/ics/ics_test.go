package ics

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/templates"
	"github.com/lexio-mail/lexio/templates/noticetest"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// parsed is the templates' Set the tests share, parsed once.
var parsed = sync.OnceValues(templates.New)

// render writes e in lang as notice does: the title from the templates,
// the entry around it.
func render(lang string, e Event) ([]byte, error) {
	s, err := parsed()
	if err != nil {
		return nil, err
	}
	title, err := s.CalendarTitle(lang, e.Table, e.Deadline, e.TZ, e.Cancel)
	if err != nil {
		return nil, err
	}
	return Encode(e, title), nil
}

// firstDiff names the first line where got differs from want.
func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(wl), len(gl)) {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d:\nwant: %s\ngot:  %s", i+1, w, g)
		}
	}
	return ""
}

var (
	calDeadline = time.Date(2026, 3, 6, 16, 4, 0, 0, time.FixedZone("CET", 3600))
	calStamp    = time.Date(2026, 3, 3, 9, 30, 15, 0, time.UTC)
)

func sampleEvent(cancel bool) Event {
	return Event{UID: "lexio.t42.turn12.1@lexio.example.org", Sequence: 3, Cancel: cancel, Table: "t42",
		Deadline: calDeadline, Stamp: calStamp, Organizer: "lexio@lexio.example.org", OrganizerName: "Lexio",
		Attendee: "bob@example.org"}
}

func calendar(t *testing.T, lang string, e Event) *noticetest.ICS {
	t.Helper()
	raw, err := render(lang, e)
	if err != nil {
		t.Fatal(err)
	}
	c, err := noticetest.ParseICS(raw)
	if err != nil {
		t.Fatalf("%v in\n%s", err, raw)
	}
	if c.Name != "VCALENDAR" || c.Sub("VEVENT") == nil {
		t.Fatalf("no VCALENDAR with a VEVENT:\n%s", raw)
	}
	return c
}

// TestCalendarGolden keeps the bytes of a request and a cancel in every
// language in testdata/golden/<lang>/calendar-*.ics.
func TestCalendarGolden(t *testing.T) {
	for _, lang := range templates.Langs() {
		for name, cancel := range map[string]bool{"calendar-request": false, "calendar-cancel": true} {
			got, err := render(lang, sampleEvent(cancel))
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "golden", lang, name+".ics")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if string(got) != string(want) {
				t.Errorf("%s differs from the golden file (run go test -update and review the diff)\n%s", path, firstDiff(string(want), string(got)))
			}
		}
	}
}

func TestCalendarRequest(t *testing.T) {
	c := calendar(t, "en", sampleEvent(false))
	if got := c.Get("METHOD"); got != "REQUEST" {
		t.Errorf("METHOD %q", got)
	}
	ev := c.Sub("VEVENT")
	for prop, want := range map[string]string{
		"UID":      "lexio.t42.turn12.1@lexio.example.org",
		"SEQUENCE": "3",
		// DTSTAMP is when the mail was written, not the deadline.
		"DTSTAMP":   "20260303T093015Z",
		"DTSTART":   "20260306T143400Z",
		"DTEND":     "20260306T150400Z",
		"SUMMARY":   "Lexio t42: your turn ends Friday 6 March 2026 at 15:04 UTC",
		"STATUS":    "CONFIRMED",
		"TRANSP":    "TRANSPARENT",
		"ORGANIZER": "mailto:lexio@lexio.example.org",
		"ATTENDEE":  "mailto:bob@example.org",
	} {
		if got := ev.Get(prop); got != want {
			t.Errorf("%s = %q, want %q", prop, got, want)
		}
	}
	if cn := ev.Prop("ORGANIZER").Params["CN"]; cn != "Lexio" {
		t.Errorf("ORGANIZER CN %q", cn)
	}
	// RFC 5546 §3.2.2: a request names its attendee; no answer is
	// wanted from them.
	att := ev.Prop("ATTENDEE").Params
	if att["RSVP"] != "FALSE" || att["PARTSTAT"] != "NEEDS-ACTION" {
		t.Errorf("ATTENDEE parameters %v", att)
	}
	alarm := ev.Sub("VALARM")
	if alarm == nil {
		t.Fatal("no alarm")
	}
	// An hour before the deadline, which is the end: relative to the
	// start it would ring 90 minutes before.
	if tr := alarm.Prop("TRIGGER"); tr == nil || tr.Value != "-PT1H" || tr.Params["RELATED"] != "END" {
		t.Errorf("TRIGGER %+v", tr)
	}
}

func TestCalendarCancel(t *testing.T) {
	c := calendar(t, "en", sampleEvent(true))
	if got := c.Get("METHOD"); got != "CANCEL" {
		t.Errorf("METHOD %q", got)
	}
	ev := c.Sub("VEVENT")
	for prop, want := range map[string]string{
		"UID": "lexio.t42.turn12.1@lexio.example.org", "SEQUENCE": "3", "STATUS": "CANCELLED",
		"DTSTAMP": "20260303T093015Z", "ORGANIZER": "mailto:lexio@lexio.example.org",
		"ATTENDEE": "mailto:bob@example.org", "SUMMARY": "Lexio t42: your turn is over",
	} {
		if got := ev.Get(prop); got != want {
			t.Errorf("%s = %q, want %q", prop, got, want)
		}
	}
	if ev.Sub("VALARM") != nil || ev.Prop("DTSTART") != nil {
		t.Error("a cancel holds an alarm or a start")
	}
}

// TestCalendarLanguages: the title is in the player's language, its time
// in their zone (UTC without one), while the event's times stay UTC.
func TestCalendarLanguages(t *testing.T) {
	for lang, want := range map[string]string{
		"en": "Lexio t42: your turn ends Friday 6 March 2026 at 15:04 UTC",
		"es": "Lexio t42: tu turno termina el viernes 6 de marzo de 2026 a las 15:04 UTC",
		"fr": "Lexio t42\u00a0: votre tour se termine le vendredi 6 mars 2026 à 15:04 UTC",
		"de": "Lexio t42: your turn ends Friday 6 March 2026 at 15:04 UTC", // the fallback
	} {
		if got := calendar(t, lang, sampleEvent(false)).Sub("VEVENT").Get("SUMMARY"); got != want {
			t.Errorf("%s: SUMMARY %q, want %q", lang, got, want)
		}
	}
	e := sampleEvent(false)
	e.TZ = time.FixedZone("CET", 3600)
	ev := calendar(t, "en", e).Sub("VEVENT")
	if got := ev.Get("SUMMARY"); got != "Lexio t42: your turn ends Friday 6 March 2026 at 16:04 CET" {
		t.Errorf("SUMMARY in CET %q", got)
	}
	if got := ev.Get("DTEND"); got != "20260306T150400Z" {
		t.Errorf("DTEND in CET %q", got)
	}
	if got := calendar(t, "fr", sampleEvent(true)).Sub("VEVENT").Get("SUMMARY"); got != "Lexio t42\u00a0: votre tour est terminé" {
		t.Errorf("fr cancel SUMMARY %q", got)
	}
}

// TestCalendarEscapingFolding: TEXT values are escaped, parameters quoted,
// long lines folded at 75 octets between characters; ParseICS checks the
// octets and the CRLFs.
func TestCalendarEscapingFolding(t *testing.T) {
	e := sampleEvent(false)
	e.Table = strings.Repeat("é", 60) + `,;\` + "\n"
	e.UID = "a,b;c"
	e.OrganizerName = `Lexio: "the" game; by mail`
	raw, err := render("en", e)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), "\r\n ") {
		t.Fatalf("nothing folded:\n%s", raw)
	}
	c, err := noticetest.ParseICS(raw)
	if err != nil {
		t.Fatalf("%v in\n%s", err, raw)
	}
	ev := c.Sub("VEVENT")
	if got, want := ev.Get("SUMMARY"), "Lexio "+e.Table+": your turn ends Friday 6 March 2026 at 15:04 UTC"; got != want {
		t.Errorf("SUMMARY %q, want %q", got, want)
	}
	if got := ev.Sub("VALARM").Get("DESCRIPTION"); got != ev.Get("SUMMARY") {
		t.Errorf("alarm DESCRIPTION %q", got)
	}
	if got := ev.Get("UID"); got != "a,b;c" {
		t.Errorf("UID %q", got)
	}
	if got := ev.Prop("ORGANIZER").Params["CN"]; got != "Lexio: the game; by mail" {
		t.Errorf("ORGANIZER CN %q", got)
	}
}

// TestCalendarDeterministic: the same event gives the same bytes; the
// stamp changes only DTSTAMP, the sequence only SEQUENCE.
func TestCalendarDeterministic(t *testing.T) {
	e := sampleEvent(false)
	a, _ := render("fr", e)
	b, _ := render("fr", e)
	if string(a) != string(b) {
		t.Fatal("two renderings differ")
	}
	e.Stamp = e.Stamp.Add(time.Hour)
	e.Sequence++
	c, _ := render("fr", e)
	var changed []string
	al, cl := strings.Split(string(a), "\r\n"), strings.Split(string(c), "\r\n")
	if len(al) != len(cl) {
		t.Fatalf("%d lines, then %d", len(al), len(cl))
	}
	for i := range al {
		if al[i] != cl[i] {
			changed = append(changed, cl[i])
		}
	}
	if strings.Join(changed, "|") != "SEQUENCE:4|DTSTAMP:20260303T103015Z" {
		t.Errorf("changed lines %q", changed)
	}
}
