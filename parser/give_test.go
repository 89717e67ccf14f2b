package parser

import (
	"errors"
	"reflect"
	"testing"
)

// TestParseGive: GIVE (DAR, DONNER) reads a table and a time in whole
// hours or days, the unit after each number, together or apart, in
// en/es/fr; its canonical form counts hours (GIVE t42 24h), and reads back
// as the same command. The bounds (1 h to 7 days) are the service's.
func TestParseGive(t *testing.T) {
	for _, tc := range []struct {
		in, want, lang string
		hours          int
	}{
		{"GIVE t42 24h", "GIVE t42 24h", "en", 24},
		{"give T42 2d", "GIVE t42 48h", "en", 48},
		{"GIVE t42 1d12h", "GIVE t42 36h", "en", 36},
		{"GIVE t42 1d 12h", "GIVE t42 36h", "en", 36},
		{"Give t42 1 day 12 hours.", "GIVE t42 36h", "en", 36},
		{"GIVE t42 7 days", "GIVE t42 168h", "en", 168},
		{"DAR t42 2 días", "GIVE t42 48h", "es", 48},
		{"dar t42 12 horas", "GIVE t42 12h", "es", 12},
		{"DONNER t42 1j12h", "GIVE t42 36h", "fr", 36},
		{"donner t42 3 jours", "GIVE t42 72h", "fr", 72},
		{"Donner t42 5 heures", "GIVE t42 5h", "fr", 5},
		{"GIVE t42 0h", "GIVE t42 0h", "en", 0}, // read; refused by the service
	} {
		c, err := ParseCommand(tc.in)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if c.Kind != KindGive || c.String() != tc.want || c.Language != tc.lang || c.Hours != tc.hours || c.Table != "t42" {
			t.Errorf("%q: %+v, %q; want %q in %s, %d h", tc.in, c, c.String(), tc.want, tc.lang, tc.hours)
		}
		again, err := ParseCommand(c.String())
		if err != nil {
			t.Errorf("%q written %q: %v", tc.in, c.String(), err)
			continue
		}
		again.Language = c.Language
		if c.Unnamed != nil {
			t.Errorf("%q: read as naming no table too, %q", tc.in, c.Unnamed)
		}
		if !reflect.DeepEqual(again, c) {
			t.Errorf("%q written %q reads back as %+v", tc.in, c.String(), again)
		}
	}
	for _, tc := range []struct {
		in   string
		want error
	}{
		{"GIVE", ErrMissingArgument},
		{"GIVE t42", ErrMissingArgument},
		{"GIVE 24", ErrBadDuration},
		{"GIVE soon", ErrMissingArgument},
		{"GIVE t42 24", ErrBadDuration},    // no unit
		{"GIVE t42 h", ErrBadDuration},     // no number
		{"GIVE t42 90m", ErrBadDuration},   // minutes: whole hours only
		{"GIVE t42 1.5d", ErrBadDuration},  // whole numbers only
		{"GIVE t42 -3h", ErrBadDuration},   // no sign
		{"GIVE t42 1d 2x", ErrBadDuration}, // an unknown unit
		{"GIVE t42 100000h", ErrBadDuration},
		{"GIVE t42 4166d24h", ErrBadDuration}, // 99,984 h and a day: the sum too is bounded
		{"GIVE t/42 24h", ErrBadTable},
	} {
		_, err := ParseCommand(tc.in)
		if !errors.Is(err, tc.want) {
			t.Errorf("%q: %v, want %v", tc.in, err, tc.want)
		}
	}
	for _, tc := range []struct {
		in      string
		attempt bool
	}{
		{"GIVE t42 24h", true},
		{"GIVE t42 24", true}, // meant, and answered with its error
		{"GIVE 24h", true},
		{"GIVE 24", true},
		{"Give me a minute", false},
		{"Give it 5 minutes", false},
		{"Dar las gracias a todos", false},
		{"Donner sa langue au chat", false},
	} {
		if _, _, attempt := parseLine(tc.in); attempt != tc.attempt {
			t.Errorf("parseLine(%q) attempt = %v, want %v", tc.in, attempt, tc.attempt)
		}
	}
}

// TestParseGiveUnnamed: GIVE without a table (#34) is the time alone,
// for the table whose mail it answers; where the first word may be a
// table's name or the start of the time, both readings are kept.
func TestParseGiveUnnamed(t *testing.T) {
	for _, tc := range []struct {
		in, want, unnamed string
	}{
		{"GIVE 24h", "GIVE 24h", ""},
		{"donner 2 jours", "GIVE 48h", ""},
		{"DAR 1 día 12 horas", "GIVE 36h", ""},
		{"GIVE 1d 12h", "GIVE 1d 12h", "GIVE 36h"}, // a table called 1d, or a day and a half
	} {
		c, err := ParseCommand(tc.in)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		got := ""
		if c.Unnamed != nil {
			got = c.Unnamed.String()
		}
		if c.Kind != KindGive || c.String() != tc.want || got != tc.unnamed {
			t.Errorf("%q: %q, unnamed %q; want %q, unnamed %q", tc.in, c.String(), got, tc.want, tc.unnamed)
		}
		if tc.unnamed == "" && c.Table != "" {
			t.Errorf("%q: table %q, want none", tc.in, c.Table)
		}
		again, err := ParseCommand(c.String())
		if err != nil || again.String() != c.String() {
			t.Errorf("%q written %q reads back as %v, %v", tc.in, c.String(), again, err)
		}
	}
}
