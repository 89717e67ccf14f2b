package table

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/engine/board"
	"github.com/lexio-mail/lexio/internal/botseat"
	"github.com/lexio-mail/lexio/notice"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/templates"
)

// Resign answers RESIGN <table> (LEAGUES §2). It is not bound to the turn,
// so no reply is stale (§2.5), and it may come through the table's reply
// address or, from a seated player, to the plain address: the name says
// which table. A name that is not the sender's table is refused, and
// nothing changes.
func (h *Request) Resign(t *Table, name string) error {
	cmd := h.Msg.Command.String()
	notYours := []templates.Reason{{Kind: templates.ReasonNotYourTable, Detail: name}}
	switch {
	case t != nil && t.Row.Name != name:
		return h.Refuse(t, cmd, notYours, false)
	case t == nil:
		c, err := h.Load(name)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		if err != nil || c.SeatOf(h.Msg.From) < 0 {
			from, err := h.ReplyTable(nil)
			if err != nil {
				return err
			}
			return h.Refuse(from, cmd, notYours, true)
		}
		t = c
		h.Rec.TableID = &t.Row.ID
		h.Log = h.Log.With("table", name)
		// As through the reply address: the deadlines that passed first.
		if err := h.s.Enforce(h.Tx, t, h.Now, h.Now, h.Out); err != nil {
			return err
		}
	}
	p := t.SeatOf(h.Msg.From)
	err := h.s.Resign(h.Tx, t, p, h.Now, h.Out, h.Rec.MessageID)
	var me *board.MoveError
	switch {
	case errors.Is(err, ErrNotRunning):
		return h.Refuse(t, cmd, []templates.Reason{{Kind: templates.ReasonTooFewPlayers,
			Have: len(t.Seats), Need: 2, Detail: "START"}}, false)
	case errors.As(err, &me):
		return h.Refuse(t, cmd, notice.Reasons(err), false)
	case err != nil:
		return err
	}
	h.Outcome(OutcomeApplied, cmd)
	h.Log.Info("player resigned", "player", p)
	return nil
}

// Resign is seat's resignation at t (LEAGUES §2), the typed operation
// behind RESIGN: the game goes on without the seat, or ends; everyone is
// told in out (the mails answering the message reply, "" for none); the
// table is saved. A table whose game has not begun is ErrNotRunning; a
// seat that may not resign (already out, the game over) the engine's
// *board.MoveError; neither writes anything.
func (s *Service) Resign(tx *store.Tx, t *Table, seat int, now time.Time, out *notice.Batch, reply string) error {
	if seat < 0 || seat >= len(t.Seats) {
		return fmt.Errorf("table: resign seat %d of %d: %w", seat, len(t.Seats), ErrNotSeated)
	}
	if t.Game == nil {
		return fmt.Errorf("table %s: %w", t.Row.Name, ErrNotRunning)
	}
	if err := t.Game.Resign(seat, now, false); err != nil {
		var me *board.MoveError
		if !errors.As(err, &me) {
			return store.Permanent(err)
		}
		return err
	}
	s.settle(t, now)
	if err := s.departed(tx, t, seat, now, out, reply); err != nil {
		return err
	}
	return s.Save(tx, t, now)
}

// departed tells everyone that player p left (LEAGUES §2.4): the end of
// the game to every player when it ended; else p that they are out and
// the others still in the new state, with whose turn it is. reply is the
// message p's mail answers, "" for a forfeit.
func (s *Service) departed(tx *store.Tx, t *Table, p int, now time.Time, out *notice.Batch, reply string) error {
	g := t.Game
	if !g.Over() {
		msg := templates.ResignedMsg{Head: s.notices.Head(t.Row.Name, t.Recipient(p), now), Forfeit: g.Forfeited(p),
			Score: g.Score(p), Next: Names(t.Seats)[g.Turn()]}
		if msg.Forfeit {
			msg.Expired = t.Row.ForfeitAfter
		}
		e := notice.Envelope{Table: t.Row.Name, Seq: t.Row.Seq, To: t.Recipient(p), Reply: reply,
			TableID: &t.Row.ID, Cal: s.CalendarEvent(t, templates.Resigned, p, false, now)}
		out.Add(e, msg)
	}
	return s.Announce(tx, t, now, out, -1, nil)
}

// forfeits reports whether the expiry of player p's turn reaches the
// table's forfeit_after (LEAGUES §2.3).
func forfeits(t *Table, p int) bool {
	return t.Row.ForfeitAfter > 0 && t.Game.Expiries(p)+1 >= t.Row.ForfeitAfter
}

// turnBeforeLast is whose turn it was before the game's last action.
func turnBeforeLast(g *engine.Game) (int, error) {
	acts := g.Actions()
	before, err := engine.Rebuild(g.Config(), acts[:len(acts)-1])
	if err != nil {
		return 0, err
	}
	return before.Turn(), nil
}

// Errors of Substitute and Resign.
var (
	ErrNotSeated     = errors.New("table: not seated")
	ErrAlreadySeated = errors.New("table: already seated")
	ErrNotRunning    = errors.New("table: no game running")
)

// Substitute gives oldAddr's seat at a table to newAddr (LEAGUES §4.1):
// the rack, the score and the place in the turn order stay with the seat;
// the log records it; the new holder gets the table's state and a reply
// address of their own, the other players still in are told; the old
// holder's reply tokens, bound to their address, no longer name a seat.
// Deadlines that passed are enforced first. newAddr may be the computer
// ("bot:strong"): it then plays the seat, and the game is not rated.
func (s *Service) Substitute(ctx context.Context, name, oldAddr, newAddr string) error {
	oldAddr, newAddr = store.NormalizeAddress(oldAddr), store.NormalizeAddress(newAddr)
	if seat, _, ok := botseat.Parse(newAddr); ok {
		newAddr = seat // a league's dropout may be replaced by the computer
	}
	now := s.now()
	_, err := s.notices.Commit(ctx, s.store, now, func(tx *store.Tx, out *notice.Batch) error {
		t, err := s.Load(tx, name)
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("table: no table named %s: %w", name, store.ErrNotFound)
		}
		if err != nil {
			return err
		}
		if err := s.Enforce(tx, t, now, now, out); err != nil {
			return err
		}
		p := t.SeatOf(oldAddr)
		switch {
		case p < 0:
			return fmt.Errorf("table %s: %s holds no seat there: %w", name, oldAddr, ErrNotSeated)
		case t.SeatOf(newAddr) >= 0:
			return fmt.Errorf("table %s: %s holds a seat there already: %w", name, newAddr, ErrAlreadySeated)
		case t.Game == nil:
			return fmt.Errorf("table %s: it has not started: %w", name, ErrNotRunning)
		case t.Game.Over():
			return fmt.Errorf("table %s: the game is over: %w", name, ErrNotRunning)
		case t.Game.Left(p):
			return fmt.Errorf("table %s: %s left the game: %w", name, oldAddr, ErrNotRunning)
		}
		pl, err := tx.EnsurePlayer(newAddr, s.cfg.Language)
		if err != nil {
			return err
		}
		// Each named beside the others of the table (notice.Names).
		after := SeatAddrs(t.Seats)
		after[p] = newAddr
		oldName, newName := Names(t.Seats)[p], notice.Names(after)[p]
		if err := t.Game.Substitute(p, oldName, newName, now); err != nil {
			return store.Permanent(err)
		}
		if err := tx.MoveSeat(t.Row.ID, p, pl.ID); err != nil {
			return err
		}
		if t.Seats, err = tx.Seats(t.Row.ID); err != nil {
			return err
		}
		t.Langs[p], t.Zones[p] = pl.Lang, s.ZoneOf(pl.TimeZone)
		if err := s.seasons.JoinDivision(tx, t, pl.ID); err != nil {
			return err
		}
		if err := s.Save(tx, t, now); err != nil {
			return err
		}
		for q := range t.Seats {
			if q != p && t.Game.Left(q) {
				continue
			}
			msg, err := s.NoticeData(t, q, now)
			if err != nil {
				return err
			}
			if q == p {
				s.queue(t, q, templates.SeatMsg{NoticeMsg: msg, From: oldName}, now, out)
			} else {
				s.queue(t, q, msg, now, out)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.log.Info("seat substituted", "table", name, "from", oldAddr, "to", newAddr)
	return nil
}
