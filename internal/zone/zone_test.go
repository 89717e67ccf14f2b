package zone

import (
	"errors"
	"testing"
	"time"
)

func TestLoadCanonicalises(t *testing.T) {
	tests := map[string]string{
		"Europe/Paris":                   "Europe/Paris",
		"europe/paris":                   "Europe/Paris",
		"EUROPE/PARIS":                   "Europe/Paris",
		"america/new_york":               "America/New_York",
		"America/Argentina/Buenos_Aires": "America/Argentina/Buenos_Aires",
		"africa/dar_es_salaam":           "Africa/Dar_es_Salaam",
		"america/port-au-prince":         "America/Port-au-Prince",
		"utc":                            "UTC",
		"UTC":                            "UTC",
		"est5edt":                        "EST5EDT",
		"etc/gmt+3":                      "Etc/GMT+3",
		" Asia/Kolkata ":                 "Asia/Kolkata",
	}
	for in, want := range tests {
		loc, err := Load(in)
		if err != nil {
			t.Errorf("Load(%q): %v", in, err)
			continue
		}
		if loc.String() != want {
			t.Errorf("Load(%q) = %q, want %q", in, loc.String(), want)
		}
	}
}

func TestLoadRefuses(t *testing.T) {
	for _, in := range []string{"", "Local", "local", "Mars/Olympus", "Europe/Pariss", "../../etc/passwd",
		"/etc/localtime", "Europe\\Paris", "Europe/ Paris", "Europe/París", "CET\x00"} {
		if loc, err := Load(in); !errors.Is(err, ErrUnknown) {
			t.Errorf("Load(%q) = %v, %v; want ErrUnknown", in, loc, err)
		}
	}
}

func TestAbbrev(t *testing.T) {
	load := func(name string) *time.Location {
		loc, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		return loc
	}
	winter := time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC)
	summer := time.Date(2026, 7, 15, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		t    time.Time
		want string
	}{
		{winter.In(load("Europe/Paris")), "CET"},
		{summer.In(load("Europe/Paris")), "CEST"},
		{winter, "UTC"},
		{summer.In(load("America/Sao_Paulo")), "UTC\u22123"},
		{summer.In(load("Asia/Kolkata")), "IST"},
		{summer.In(time.FixedZone("", 5*3600+30*60)), "UTC+5:30"},
		{summer.In(load("Etc/GMT+3")), "UTC\u22123"},
		{summer.In(time.FixedZone("", 0)), "UTC"},
	}
	for _, tc := range tests {
		if got := Abbrev(tc.t); got != tc.want {
			t.Errorf("Abbrev(%v) = %q, want %q", tc.t, got, tc.want)
		}
	}
}
