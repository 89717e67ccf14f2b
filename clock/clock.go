// Package clock is the arithmetic of a player's time (LEAGUES §3): a
// turn's deadline with the turn time, the time bank and the vacations
// that stop the player's clock; the bank after each turn, replayed from
// the log; the whole days of vacation charged to each calendar year. It
// does no I/O and reads no clock: every instant is an argument.
package clock

import (
	"slices"
	"time"
)

// Interval is a span [From, To) during which a player's clocks stop: a
// vacation. An interval with To not after From stops nothing.
type Interval struct {
	From, To time.Time
}

// sorted returns the intervals that stop something, by start.
func sorted(stops []Interval) []Interval {
	out := make([]Interval, 0, len(stops))
	for _, s := range stops {
		if s.To.After(s.From) {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b Interval) int { return a.From.Compare(b.From) })
	return out
}

// Deadline is when a turn that began at start has used limit of the
// player's clock: start + limit, pushed later by every stop that overlaps
// the window as it grows. A turn that begins during a stop starts counting
// when it ends. A deadline that falls on a stop's start stays there (the
// clock ran out before it stopped).
func Deadline(start time.Time, limit time.Duration, stops []Interval) time.Time {
	at, left := start, max(limit, 0)
	for _, s := range sorted(stops) {
		if !s.To.After(at) {
			continue // over before the clock reaches it
		}
		from := s.From
		if from.Before(at) {
			from = at
		}
		if run := from.Sub(at); run >= left {
			break // the clock runs out before this stop
		} else {
			left -= run
		}
		at = s.To
	}
	return at.Add(left)
}

// Used is the player's clock time between start and end: the time not
// covered by any stop.
func Used(start, end time.Time, stops []Interval) time.Duration {
	if !end.After(start) {
		return 0
	}
	used := end.Sub(start)
	at := start // stops are counted from here on, so that overlaps count once
	for _, s := range sorted(stops) {
		from, to := s.From, s.To
		if from.Before(at) {
			from = at
		}
		if to.After(end) {
			to = end
		}
		if to.After(from) {
			used -= to.Sub(from)
			at = to
		}
	}
	return used
}

// Bank is a table's time bank (LEAGUES §3.1): Max is time_bank (0: no
// bank), PerMove is bank_per_move.
type Bank struct {
	Max, PerMove time.Duration
}

// On reports whether the table has a time bank.
func (b Bank) On() bool { return b.Max > 0 }

// Limit is the clock time a player has for their turn: the away grace
// when they are away (RULES §9.2: the bank does not extend it), else the
// turn time plus what is left of their bank.
func Limit(turnTime, left, grace time.Duration, away bool) time.Duration {
	if away {
		return grace
	}
	return turnTime + left
}

// AfterMove is the bank after a move that used used of the player's
// clock, left in the bank before it: the time beyond turnTime is taken
// from the bank, then PerMove is added, never beyond Max.
func (b Bank) AfterMove(left, used, turnTime time.Duration) time.Duration {
	if !b.On() {
		return 0
	}
	left -= max(used-turnTime, 0)
	return min(max(left, 0)+b.PerMove, b.Max)
}

// AfterExpiry is the bank after the turn expired: spent, both turn time
// and bank ran out, and nothing is added (PerMove rewards a move, and an
// expiry is none).
func (b Bank) AfterExpiry() time.Duration { return 0 }

// Turn is one turn that ended, as the log has it.
type Turn struct {
	Player     int
	Start, End time.Time
	Expired    bool
}

// Banks replays the turns, in order, from full banks: each player's bank
// after them. stops[p] are player p's vacations (nil for a table that
// ignores them); a player's stops shorter than players may be missing.
func (b Bank) Banks(players int, turnTime time.Duration, turns []Turn, stops [][]Interval) []time.Duration {
	banks := make([]time.Duration, players)
	if !b.On() {
		return banks
	}
	for p := range banks {
		banks[p] = b.Max
	}
	for _, t := range turns {
		if t.Player < 0 || t.Player >= players {
			continue
		}
		if t.Expired {
			banks[t.Player] = b.AfterExpiry()
			continue
		}
		var s []Interval
		if t.Player < len(stops) {
			s = stops[t.Player]
		}
		banks[t.Player] = b.AfterMove(banks[t.Player], Used(t.Start, t.End, s), turnTime)
	}
	return banks
}

// Day returns the start of the n-th whole day (0 the first) of a span of
// days that begins at first, in loc: the same wall-clock time n civil
// days later, so that a day across a change of offset is 23 or 25 hours.
func Day(first time.Time, n int, loc *time.Location) time.Time {
	return first.In(loc).AddDate(0, 0, n)
}

// DaysIn is how many of the n days that begin at first (Day) begin in
// the calendar year of loc: a span across New Year counts in each year.
func DaysIn(first time.Time, n int, loc *time.Location, year int) int {
	count := 0
	for k := range n {
		if Day(first, k, loc).Year() == year {
			count++
		}
	}
	return count
}

// Begun is how many of the n days that begin at first had begun by at:
// the days charged when a span of n days ends at at. A day begun is
// charged whole.
func Begun(first time.Time, n int, loc *time.Location, at time.Time) int {
	count := 0
	for k := range n {
		if Day(first, k, loc).Before(at) {
			count++
		}
	}
	return count
}

// Years lists the calendar years, in loc, that the n days beginning at
// first fall in, in order.
func Years(first time.Time, n int, loc *time.Location) []int {
	var ys []int
	for k := range n {
		if y := Day(first, k, loc).Year(); !slices.Contains(ys, y) {
			ys = append(ys, y)
		}
	}
	return ys
}
