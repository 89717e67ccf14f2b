package table

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/lexio-mail/lexio/clock"
	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/notice"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/templates"
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
		if !isTurn(a.Kind) {
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

// PlayerTables loads the games in progress of the player at addr. A
// table that cannot be read (a row the driver cannot read back, a log
// that disagrees with its row) is left out, and logged: it must not keep
// the player from their vacation at the others. An error worth trying
// again (store.IsTemporary) fails the whole.
func (s *Service) PlayerTables(tx *store.Tx, addr string) ([]*Table, error) {
	refs, err := tx.TableRefsOfPlayer(addr)
	if err != nil {
		return nil, err
	}
	var out []*Table
	for _, ref := range refs {
		row, err := tx.TableByID(ref.ID)
		if err == nil && row.Status != StatusPlaying {
			continue
		}
		var t *Table
		if err == nil {
			t, err = s.LoadRow(tx, row)
		}
		if err != nil {
			if store.IsTemporary(err) {
				return nil, err
			}
			s.log.Error("a table of the player cannot be read: left out", "table", ref.Name, "err", err)
			continue
		}
		if t.Game != nil && !t.Game.Over() {
			out = append(out, t)
		}
	}
	return out, nil
}

// EndVacation ends v at now: a running one stops there and charges only
// the days begun, and its end is due to be told (reclock tells it); one
// still to come is cancelled, charges none, and is never told.
func EndVacation(v *store.Vacation, now time.Time, loc *time.Location) {
	if v.From.After(now) {
		v.To = v.From
		v.Days = 0
		v.Told = store.VacationEndTold // never began: nothing to tell
	} else {
		v.To = now
		v.Days = clock.Begun(v.DaysFrom, v.Days, loc, now)
	}
	v.EndedAt, v.DueAt = &now, &now
	if v.Told == store.VacationEndTold {
		v.DueAt = nil
	}
}

// endVacationByMove ends the running vacation of seat p, who just moved
// at t (LEAGUES §3.2), unless t's league ignores vacations (a move there
// says nothing about the player's other games).
func (h *Request) endVacationByMove(t *Table, p int) error {
	if t.runningVacation(p, h.Now) == nil {
		return nil
	}
	pl := t.Seats[p].Player
	if err := h.Tx.LockPlayer(pl.ID); err != nil {
		return err
	}
	vs, err := h.Tx.Vacations(pl.ID)
	if err != nil {
		return err
	}
	tables, err := h.s.PlayerTables(h.Tx, pl.Address)
	if err != nil {
		return err
	}
	for i := range vs {
		if !vs[i].From.After(h.Now) && vs[i].To.After(h.Now) {
			EndVacation(&vs[i], h.Now, h.s.ZoneOf(vs[i].Zone))
			if err := h.Tx.SaveVacation(&vs[i]); err != nil {
				return err
			}
		}
	}
	h.Log.Info("a move ended the player's vacation")
	return h.s.Reclock(h.Tx, tables, pl.ID, vs, h.Now, h.Out)
}

// Reclock applies a player's changed vacations vs to their tables, loaded
// before the change: each deadline, reminder and due time follows, in
// this transaction, so that the scheduler's due query stays right. Where
// the player's own deadline moved they are told, with their turn's
// calendar entry again (same UID, higher SEQUENCE). Then every vacation
// of theirs due to be told (begun or ended by now) is told.
func (s *Service) Reclock(tx *store.Tx, tables []*Table, playerID int64, vs []store.Vacation, now time.Time, out *notice.Batch) error {
	for _, t := range tables {
		if t.Row.IgnoreVacations {
			continue
		}
		p := slices.IndexFunc(t.Seats, func(st store.Seat) bool { return st.PlayerID == playerID })
		if p < 0 {
			continue
		}
		t.vacs[p] = slices.Clone(vs)
		before, beforeReminder := t.Row.Deadline, t.Row.NextReminder
		s.schedule(t, now)
		if sameTime(before, t.Row.Deadline) && sameTime(beforeReminder, t.Row.NextReminder) {
			continue
		}
		if err := tx.SaveTable(t.Row, t.prevSeq); err != nil {
			return err
		}
		if !sameTime(before, t.Row.Deadline) && t.Game.Turn() == p {
			s.log.Info("a vacation moved the deadline", "table", t.Row.Name, "player", p, "deadline", *t.Row.Deadline)
			s.tellVacation(t, p, nil, now, out, false)
		}
	}
	for i := range vs {
		if vs[i].DueAt != nil && !vs[i].DueAt.After(now) {
			if err := s.tellDue(tx, tables, &vs[i], now, out); err != nil {
				return err
			}
		}
	}
	return nil
}

// tellDue tells the other players of the tables of v's player (loaded)
// what of v is due by now: its start, its end, or both after downtime.
func (s *Service) tellDue(tx *store.Tx, tables []*Table, v *store.Vacation, now time.Time, out *notice.Batch) error {
	for v.DueAt != nil && !v.DueAt.After(now) {
		end := v.Told == store.VacationStartTold
		for _, t := range tables {
			if t.Row.IgnoreVacations {
				continue
			}
			p := slices.IndexFunc(t.Seats, func(st store.Seat) bool { return st.PlayerID == v.PlayerID })
			if p >= 0 {
				s.tellVacation(t, p, v, now, out, end)
			}
		}
		if end {
			v.Told, v.DueAt = store.VacationEndTold, nil
		} else {
			v.Told, v.DueAt = store.VacationStartTold, &v.To
		}
		if err := tx.SaveVacation(v); err != nil {
			return err
		}
	}
	return nil
}

// tellVacation queues the vacation notices of table t about seat p. With
// v, the other players are told that v began (end false) or ended; with v
// nil, p alone is told that their deadline moved, by the vacation now
// running or coming, or by its end when none is left, with their turn's
// calendar entry.
func (s *Service) tellVacation(t *Table, p int, v *store.Vacation, now time.Time, out *notice.Batch, end bool) {
	ns := Names(t.Seats)
	for q := range t.Seats {
		if (v == nil) != (q == p) {
			continue
		}
		msg := templates.VacationNoticeMsg{Head: s.notices.Head(t.Row.Name, t.Recipient(q), now), Player: ns[p], You: q == p, Over: end}
		if v != nil {
			msg.Begins, msg.Ends = v.From, v.To
		} else if cur := t.runningOrNext(p, now); cur != nil {
			msg.Begins, msg.Ends = cur.From, cur.To
		} else {
			msg.Over = true
		}
		if t.Game.Turn() == p && t.Row.Deadline != nil {
			msg.Deadline = *t.Row.Deadline
		}
		e := notice.Envelope{Table: t.Row.Name, Seq: t.Row.Seq, To: t.Recipient(q), TableID: &t.Row.ID}
		if v == nil {
			e.Cal = s.calendarEvent(t, templates.VacationNotice, p, true, now)
			e.Extra = "m" + strconv.FormatInt(t.Row.Deadline.Unix(), 36) + "." + strconv.FormatInt(now.UnixNano(), 36)
		} else {
			e.Extra = "v" + strconv.FormatInt(v.ID, 10) + ".start"
			if end {
				e.Extra = "v" + strconv.FormatInt(v.ID, 10) + ".end"
			}
		}
		out.Add(e, msg)
	}
}

// runningOrNext is seat p's vacation running at now, else the next one to
// come, or nil.
func (t *Table) runningOrNext(p int, now time.Time) *store.Vacation {
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

// TellVacations tells the other players of every vacation whose start or
// end came by now (LEAGUES §3.2), each player in a transaction of its
// own. The deadlines need nothing: they were moved when the vacation was
// set. It returns how many vacations it told of.
func (s *Service) TellVacations(ctx context.Context, now time.Time) (int, error) {
	playerOf := map[int64]int64{} // vacation → player, as found due
	return s.notices.EachDue(ctx, s.store, now, "telling a vacation",
		func(tx *store.Tx, limit int) ([]int64, error) {
			due, err := tx.DueVacations(now, limit)
			ids := make([]int64, len(due))
			for i, v := range due {
				ids[i], playerOf[v.ID] = v.ID, v.PlayerID
			}
			return ids, err
		},
		func(tx *store.Tx, id int64, out *notice.Batch) error {
			playerID := playerOf[id]
			if err := tx.LockPlayer(playerID); err != nil {
				return err
			}
			vs, err := tx.Vacations(playerID)
			if err != nil {
				return err
			}
			i := slices.IndexFunc(vs, func(v store.Vacation) bool { return v.ID == id })
			if i < 0 || vs[i].DueAt == nil || vs[i].DueAt.After(now) {
				return nil // told meanwhile
			}
			if vs[i].Player == nil {
				return notice.Permanent(fmt.Errorf("table: vacation %d without its player", id))
			}
			tables, err := s.PlayerTables(tx, vs[i].Player.Address)
			if err != nil {
				return err
			}
			return s.tellDue(tx, tables, &vs[i], now, out)
		})
}
