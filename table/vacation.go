package table

import (
	"slices"
	"time"

	"github.com/lexio-mail/lexio/clock"
	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/store"
)

// This file is the time of LEAGUES §3: each player's time bank, derived
// from the log's times, and their vacations, which stop their clocks on
// every table of a league that honours them.

// loadVacations reads the vacations of the table's players, unless its
// league ignores them.
func (t *Table) loadVacations(tx *store.Tx) error {
	t.vacs = make([][]store.Vacation, len(t.Seats))
	if t.Row.IgnoreVacations {
		return nil
	}
	ids := make([]int64, len(t.Seats))
	for i, st := range t.Seats {
		ids[i] = st.PlayerID
	}
	vs, err := tx.Vacations(ids...)
	if err != nil {
		return err
	}
	for _, v := range vs {
		for i, st := range t.Seats {
			if st.PlayerID == v.PlayerID {
				t.vacs[i] = append(t.vacs[i], v)
			}
		}
	}
	return nil
}

// stops are seat p's vacations as stops of their clock at this table.
func (t *Table) stops(p int) []clock.Interval {
	if t.Row.IgnoreVacations || p < 0 || p >= len(t.vacs) {
		return nil
	}
	out := make([]clock.Interval, len(t.vacs[p]))
	for i, v := range t.vacs[p] {
		out[i] = clock.Interval{From: v.From, To: v.To}
	}
	return out
}

// bank is the table's time bank.
func (t *Table) bank() clock.Bank {
	return clock.Bank{Max: t.Row.TimeBank, PerMove: t.Row.BankPerMove}
}

// banks is each player's bank at the start of the current turn, replayed
// from the log: the turns' times are the actions' (a turn begins with the
// action that ended the one before), the stops the vacations stored.
func (t *Table) banks() []time.Duration {
	g := t.Game
	b := t.bank()
	if !b.On() {
		return make([]time.Duration, g.Players())
	}
	var turns []clock.Turn
	at := g.Config().Start
	for _, a := range g.Actions() {
		if !IsTurn(a.Kind) {
			continue
		}
		turns = append(turns, clock.Turn{Player: a.Player, Start: at, End: a.At, Expired: a.Kind == engine.ActExpire})
		at = a.At
	}
	stops := make([][]clock.Interval, g.Players())
	for p := range stops {
		stops[p] = t.stops(p)
	}
	return b.Banks(g.Players(), t.Row.TurnTime, turns, stops)
}

// bankLeft is what seat p has left at now of banks[p], their bank at the
// start of the turn (banks): for the player to move, what their clock
// has not taken yet.
func (t *Table) bankLeft(banks []time.Duration, p int, now time.Time) time.Duration {
	if !t.bank().On() || t.Game == nil {
		return 0
	}
	left := banks[p]
	g := t.Game
	if !g.Over() && g.Turn() == p && !g.Away(p) {
		used := clock.Used(g.TurnStart(), now, t.stops(p))
		left -= max(used-t.Row.TurnTime, 0)
	}
	return max(left, 0)
}

// runningVacation is seat p's vacation at now at this table, or nil.
func (t *Table) runningVacation(p int, now time.Time) *store.Vacation {
	if t.Row.IgnoreVacations || p < 0 || p >= len(t.vacs) {
		return nil
	}
	for i, v := range t.vacs[p] {
		if !v.From.After(now) && v.To.After(now) {
			return &t.vacs[p][i]
		}
	}
	return nil
}

// onVacation is when seat p's vacation at now ends, zero if they are not
// on one (or the table ignores vacations).
func (t *Table) onVacation(p int, now time.Time) time.Time {
	if v := t.runningVacation(p, now); v != nil {
		return v.To
	}
	return time.Time{}
}

// vacationEdits counts the changes to seat p's vacations (one made, one
// ended early) since since: each may have moved the deadline of a turn
// that began then, and counts in its calendar entry's SEQUENCE.
func (t *Table) vacationEdits(p int, since time.Time) int {
	if t.Row.IgnoreVacations || p < 0 || p >= len(t.vacs) {
		return 0
	}
	n := 0
	for _, v := range t.vacs[p] {
		if !v.CreatedAt.Before(since) {
			n++
		}
		if v.EndedAt != nil && !v.EndedAt.Before(since) {
			n++
		}
	}
	return n
}

// Reschedule gives seat p of t, loaded before the change, the vacations
// vs: the deadline, reminder and due time follow, and are written in tx
// when they changed, so that the scheduler's due query stays right.
// moved says that the deadline of p's own turn moved.
func (s *Service) Reschedule(tx *store.Tx, t *Table, p int, vs []store.Vacation, now time.Time) (moved bool, err error) {
	t.vacs[p] = slices.Clone(vs)
	return s.Replan(tx, t, p, now)
}

// Replan is Reschedule after any change the deadline derives from (a
// vacation, a gift: GIVE), already made to t.
func (s *Service) Replan(tx *store.Tx, t *Table, p int, now time.Time) (moved bool, err error) {
	before, beforeReminder := t.Row.Deadline, t.Row.NextReminder
	s.schedule(t, now)
	if sameTime(before, t.Row.Deadline) && sameTime(beforeReminder, t.Row.NextReminder) {
		return false, nil
	}
	if err := tx.SaveTable(t.Row, t.prevSeq); err != nil {
		return false, err
	}
	if !sameTime(before, t.Row.Deadline) && t.Game.Turn() == p {
		s.log.Info("the deadline moved", "table", t.Row.Name, "player", p, "deadline", *t.Row.Deadline)
		return true, nil
	}
	return false, nil
}

// RunningOrNext is seat p's vacation running at now, else the next one to
// come, or nil.
func (t *Table) RunningOrNext(p int, now time.Time) *store.Vacation {
	if v := t.runningVacation(p, now); v != nil {
		return v
	}
	for i, v := range t.vacs[p] {
		if v.From.After(now) && v.To.After(v.From) {
			return &t.vacs[p][i]
		}
	}
	return nil
}
