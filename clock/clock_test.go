package clock

import (
	"testing"
	"time"
)

var t0 = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

func at(h float64) time.Time { return t0.Add(time.Duration(h * float64(time.Hour))) }

func iv(from, to float64) Interval { return Interval{From: at(from), To: at(to)} }

func TestDeadline(t *testing.T) {
	for _, c := range []struct {
		name  string
		limit time.Duration
		stops []Interval
		want  time.Time
	}{
		{"no stop", 72 * time.Hour, nil, at(72)},
		{"a stop after the deadline", 72 * time.Hour, []Interval{iv(80, 100)}, at(72)},
		{"a stop before the turn", 72 * time.Hour, []Interval{iv(-50, -1)}, at(72)},
		{"a stop inside the window moves it by its length", 72 * time.Hour, []Interval{iv(10, 30)}, at(92)},
		{"the turn begins during a stop: counted from its end", 72 * time.Hour, []Interval{iv(-5, 24)}, at(96)},
		{"a second stop reached only once the first moved the deadline", 72 * time.Hour, []Interval{iv(10, 30), iv(80, 90)}, at(102)},
		{"out of order and overlapping stops count once", 72 * time.Hour, []Interval{iv(20, 40), iv(10, 30)}, at(102)},
		{"a stop that begins at the deadline does not move it", 72 * time.Hour, []Interval{iv(72, 90)}, at(72)},
		{"an empty stop", 72 * time.Hour, []Interval{iv(10, 10), iv(20, 5)}, at(72)},
		{"a zero limit during a stop", 0, []Interval{iv(-1, 3)}, at(0)},
	} {
		if got := Deadline(t0, c.limit, c.stops); !got.Equal(c.want) {
			t.Errorf("%s: deadline %v, want %v", c.name, got.Sub(t0), c.want.Sub(t0))
		}
	}
}

func TestUsed(t *testing.T) {
	for _, c := range []struct {
		name     string
		end      time.Time
		stops    []Interval
		wantHour float64
	}{
		{"no stop", at(30), nil, 30},
		{"end before start", at(-3), nil, 0},
		{"a stop inside", at(30), []Interval{iv(10, 20)}, 20},
		{"a stop across the start", at(30), []Interval{iv(-10, 5)}, 25},
		{"a stop across the end", at(30), []Interval{iv(25, 50)}, 25},
		{"overlapping stops count once", at(30), []Interval{iv(10, 20), iv(15, 25)}, 15},
		{"a stop outside", at(30), []Interval{iv(40, 50)}, 30},
	} {
		if got := Used(t0, c.end, c.stops); got != time.Duration(c.wantHour*float64(time.Hour)) {
			t.Errorf("%s: used %v, want %vh", c.name, got, c.wantHour)
		}
	}
}

// Used and Deadline agree: at the deadline the whole limit is used.
func TestUsedAtDeadline(t *testing.T) {
	stops := []Interval{iv(5, 7), iv(30, 31), iv(40, 90), iv(100, 101)}
	for _, h := range []float64{0.5, 5, 10, 35, 72, 200} {
		limit := time.Duration(h * float64(time.Hour))
		d := Deadline(t0, limit, stops)
		if got := Used(t0, d, stops); got != limit {
			t.Errorf("limit %v: deadline %v, used %v", limit, d.Sub(t0), got)
		}
	}
}

func TestLimit(t *testing.T) {
	if got := Limit(72*time.Hour, 10*time.Hour, 2*time.Hour, false); got != 82*time.Hour {
		t.Errorf("present: %v", got)
	}
	if got := Limit(72*time.Hour, 10*time.Hour, 2*time.Hour, true); got != 2*time.Hour {
		t.Errorf("away: %v, want the grace alone", got)
	}
}

func TestBankAfterMove(t *testing.T) {
	b := Bank{Max: 10 * time.Hour, PerMove: time.Hour}
	for _, c := range []struct {
		name             string
		left, used, want time.Duration
	}{
		{"within the turn time: per move added", 5 * time.Hour, 70 * time.Hour, 6 * time.Hour},
		{"beyond the turn time: taken from the bank", 5 * time.Hour, 75 * time.Hour, 3 * time.Hour},
		{"capped at time_bank", 10 * time.Hour, time.Hour, 10 * time.Hour},
		{"the whole bank used", 5 * time.Hour, 77 * time.Hour, time.Hour},
		{"beyond the bank: empty, then per move", 5 * time.Hour, 90 * time.Hour, time.Hour},
	} {
		if got := b.AfterMove(c.left, c.used, 72*time.Hour); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	if got := (Bank{}).AfterMove(time.Hour, time.Hour, 72*time.Hour); got != 0 {
		t.Errorf("no bank: %v", got)
	}
	if got := b.AfterExpiry(); got != 0 {
		t.Errorf("after an expiry: %v, want spent and nothing added", got)
	}
}

func TestBanks(t *testing.T) {
	b := Bank{Max: 10 * time.Hour, PerMove: 2 * time.Hour}
	turns := []Turn{
		{Player: 0, Start: at(0), End: at(80)},                        // 8 h beyond: 10 - 8 + 2 = 4
		{Player: 1, Start: at(80), End: at(81)},                       // full: stays 10
		{Player: 0, Start: at(81), End: at(81 + 72 + 3)},              // 3 h: 4 - 3 + 2 = 3
		{Player: 1, Start: at(156), End: at(156 + 82), Expired: true}, // spent
		{Player: 0, Start: at(238), End: at(238 + 70)},                // 3 + 2 = 5
	}
	got := b.Banks(2, 72*time.Hour, turns, nil)
	if got[0] != 5*time.Hour || got[1] != 0 {
		t.Errorf("banks %v, want [5h 0]", got)
	}
	// A vacation in the first turn: 20 of its 80 hours were on vacation,
	// so it used 60 h and the bank grows to its cap.
	got = b.Banks(2, 72*time.Hour, turns[:1], [][]Interval{{iv(10, 30)}})
	if got[0] != 10*time.Hour {
		t.Errorf("with a vacation: %v, want 10h", got[0])
	}
	if got := (Bank{}).Banks(2, 72*time.Hour, turns, nil); got[0] != 0 || got[1] != 0 {
		t.Errorf("no bank: %v", got)
	}
}

func TestDays(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	// 30 December 2026, 23:30 in Paris is 22:30 UTC.
	first := time.Date(2026, 12, 30, 23, 30, 0, 0, paris)
	if n := DaysIn(first, 5, paris, 2026); n != 2 {
		t.Errorf("2026: %d days, want 2 (30 and 31 December)", n)
	}
	if n := DaysIn(first, 5, paris, 2027); n != 3 {
		t.Errorf("2027: %d days, want 3", n)
	}
	// In UTC the same instant is still the 30th, but at 22:30: the same
	// split, counted on UTC's calendar.
	if n := DaysIn(first, 5, time.UTC, 2026); n != 2 {
		t.Errorf("UTC 2026: %d", n)
	}
	// 31 December 23:30 UTC is 1 January 00:30 in Paris: every day in
	// 2027 there, one in 2026 in UTC.
	late := time.Date(2026, 12, 31, 23, 30, 0, 0, time.UTC)
	if n := DaysIn(late, 3, paris, 2026); n != 0 {
		t.Errorf("Paris: %d days in 2026, want 0", n)
	}
	if n := DaysIn(late, 3, time.UTC, 2026); n != 1 {
		t.Errorf("UTC: %d days in 2026, want 1", n)
	}
	if ys := Years(first, 5, paris); len(ys) != 2 || ys[0] != 2026 || ys[1] != 2027 {
		t.Errorf("years %v", ys)
	}
	// A day across the end of summer time lasts 25 hours: the third day
	// of a span from 24 October 2026 12:00 begins on 26 October at 12:00
	// in Paris, 49 hours later.
	oct := time.Date(2026, 10, 24, 12, 0, 0, 0, paris)
	if d := Day(oct, 2, paris).Sub(oct); d != 49*time.Hour {
		t.Errorf("two days across the change: %v", d)
	}
	if n := Begun(oct, 5, paris, oct.Add(49*time.Hour)); n != 2 {
		t.Errorf("begun at the third day's start: %d, want 2", n)
	}
	if n := Begun(oct, 5, paris, oct.Add(49*time.Hour+time.Second)); n != 3 {
		t.Errorf("begun just after: %d, want 3", n)
	}
	if n := Begun(oct, 5, paris, oct); n != 0 {
		t.Errorf("begun at the start: %d", n)
	}
}
