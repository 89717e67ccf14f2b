package player

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"time"

	"github.com/lexio-mail/lexio/clock"
	"github.com/lexio-mail/lexio/notice"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/templates"
)

// This file is what a change to a player's vacations does (LEAGUES
// §3.2): each of their tables' deadlines follows (the table's
// Reschedule), they are told where their own deadline moved, and the
// other players are told when a vacation begins and when it ends.

// playerTables loads the games in progress of the player at addr. A
// table that cannot be read (a row the driver cannot read back, a log
// that disagrees with its row) is left out, and logged: it must not keep
// the player from their vacation at the others. An error worth trying
// again (store.IsTemporary) fails the whole.
func (s *Service) playerTables(tx *store.Tx, addr string) ([]*table.Table, error) {
	refs, err := tx.TableRefsOfPlayer(addr)
	if err != nil {
		return nil, err
	}
	var out []*table.Table
	for _, ref := range refs {
		row, err := tx.TableByID(ref.ID)
		if err == nil && row.Status != store.StatusPlaying {
			continue
		}
		var t *table.Table
		if err == nil {
			t, err = s.Tables.LoadRow(tx, row)
		}
		if err != nil {
			if store.IsTemporary(err) {
				return nil, err
			}
			s.Log.Error("a table of the player cannot be read: left out", "table", ref.Name, "err", err)
			continue
		}
		if t.Game != nil && !t.Game.Over() {
			out = append(out, t)
		}
	}
	return out, nil
}

// endVacation ends v at now: a running one stops there and charges only
// the days begun, and its end is due to be told (reclock tells it); one
// still to come is cancelled, charges none, and is never told.
func endVacation(v *store.Vacation, now time.Time, loc *time.Location) {
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

// EndByMove ends the running vacation of pl, who just moved at a table
// that honours vacations (LEAGUES §3.2), in the move's transaction.
func (s *Service) EndByMove(tx *store.Tx, pl *store.Player, now time.Time, log *slog.Logger, out *notice.Batch) error {
	if err := tx.LockPlayer(pl.ID); err != nil {
		return err
	}
	vs, err := tx.Vacations(pl.ID)
	if err != nil {
		return err
	}
	tables, err := s.playerTables(tx, pl.Address)
	if err != nil {
		return err
	}
	for i := range vs {
		if !vs[i].From.After(now) && vs[i].To.After(now) {
			endVacation(&vs[i], now, s.Tables.ZoneOf(vs[i].Zone))
			if err := tx.SaveVacation(&vs[i]); err != nil {
				return err
			}
		}
	}
	log.Info("a move ended the player's vacation")
	return s.reclock(tx, tables, pl.ID, vs, now, out)
}

// reclock applies a player's changed vacations vs to their tables, loaded
// before the change: each deadline, reminder and due time follows, in
// this transaction. Where the player's own deadline moved they are told,
// with their turn's calendar entry again (same UID, higher SEQUENCE).
// Then every vacation of theirs due to be told (begun or ended by now) is
// told.
func (s *Service) reclock(tx *store.Tx, tables []*table.Table, playerID int64, vs []store.Vacation, now time.Time, out *notice.Batch) error {
	for _, t := range tables {
		if t.Row.IgnoreVacations {
			continue
		}
		p := slices.IndexFunc(t.Seats, func(st store.Seat) bool { return st.PlayerID == playerID })
		if p < 0 {
			continue
		}
		moved, err := s.Tables.Reschedule(tx, t, p, vs, now)
		if err != nil {
			return err
		}
		if moved {
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
func (s *Service) tellDue(tx *store.Tx, tables []*table.Table, v *store.Vacation, now time.Time, out *notice.Batch) error {
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
func (s *Service) tellVacation(t *table.Table, p int, v *store.Vacation, now time.Time, out *notice.Batch, end bool) {
	ns := table.Names(t.Seats)
	for q := range t.Seats {
		if (v == nil) != (q == p) {
			continue
		}
		msg := templates.VacationNoticeMsg{Head: s.Notices.Head(t.Row.Name, t.Recipient(q), now), Player: ns[p], You: q == p, Over: end}
		if v != nil {
			msg.Begins, msg.Ends = v.From, v.To
		} else if cur := t.RunningOrNext(p, now); cur != nil {
			msg.Begins, msg.Ends = cur.From, cur.To
		} else {
			msg.Over = true
		}
		if t.Game.Turn() == p && t.Row.Deadline != nil {
			msg.Deadline = *t.Row.Deadline
		}
		e := notice.Envelope{Table: t.Row.Name, Seq: t.Row.Seq, To: t.Recipient(q), TableID: &t.Row.ID}
		if v == nil {
			e.Cal = s.Tables.CalendarEvent(t, templates.VacationNotice, p, true, now)
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

// TellVacations tells the other players of every vacation whose start or
// end came by now (LEAGUES §3.2), each player in a transaction of its
// own. The deadlines need nothing: they were moved when the vacation was
// set. It returns how many vacations it told of.
func (s *Service) TellVacations(ctx context.Context, now time.Time) (int, error) {
	playerOf := map[int64]int64{} // vacation → player, as found due
	return s.Notices.EachDue(ctx, s.Store, now, "telling a vacation",
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
				return store.Permanent(fmt.Errorf("player: vacation %d without its player", id))
			}
			tables, err := s.playerTables(tx, vs[i].Player.Address)
			if err != nil {
				return err
			}
			return s.tellDue(tx, tables, &vs[i], now, out)
		})
}
