package player

import (
	"testing"
	"time"
)

// TestDigestDay: the digest of a local day is due from 08:00 in the
// player's zone, once (LEAGUES §5.1); the next one is the first 08:00 to
// come, across a change of clocks.
func TestDigestDay(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	at := func(s string) time.Time {
		v, err := time.ParseInLocation("2006-01-02 15:04", s, paris)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, c := range []struct {
		now, last, day string
		due            bool
	}{
		{"2026-03-02 07:59", "2026-03-01", "2026-03-02", false}, // before 08:00
		{"2026-03-02 08:00", "2026-03-01", "2026-03-02", true},
		{"2026-03-02 23:59", "2026-03-02", "2026-03-02", false}, // decided today
		{"2026-03-05 09:00", "2026-03-01", "2026-03-05", true},  // after days down: one digest
	} {
		day, due := digestDue(at(c.now), paris, c.last)
		if day != c.day || due != c.due {
			t.Errorf("digestDue(%s, last %s) = %s, %v; want %s, %v", c.now, c.last, day, due, c.day, c.due)
		}
	}
	for _, c := range []struct{ now, want string }{
		{"2026-03-02 07:00", "2026-03-02 08:00"},
		{"2026-03-02 08:00", "2026-03-03 08:00"},
		{"2026-03-28 12:00", "2026-03-29 08:00"}, // the night the clocks go forward
	} {
		if got := nextDigest(at(c.now), paris); !got.Equal(at(c.want)) {
			t.Errorf("nextDigest(%s) = %v, want %s", c.now, got.In(paris), c.want)
		}
	}
}
