package player

import (
	"time"

	"github.com/lexio-mail/lexio/internal/botseat"
	"github.com/lexio-mail/lexio/notice"
	"github.com/lexio-mail/lexio/parser"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/templates"
)

// This file is GIVE (issue #28): a player gives the player on move at one
// of their tables more time on the current turn. The turn's deadline moves
// by exactly that on the receiver's clock (the table's Replan, as for a
// vacation), its reminders follow, and the gift dies with the turn; every
// player still in is told, the receiver with their turn's calendar entry
// again (same UID, higher SEQUENCE). The bounds are the store's
// (store.MinGift, MaxGift, GiftCap): 1 h to 7 days a gift, 7 days a seat
// over a game.

// Give answers GIVE [table] <time>. Naming its table, it may come
// through any of the sender's tables' reply addresses or, confirmed, the
// plain address, as RESIGN; naming none, it is for the table t whose
// reply address it came through (#34), and at the plain address it acts
// on no table.
func (s *Service) Give(h *table.Request, t *table.Table, c *parser.Command) error {
	c, err := reading(h, t, c)
	if err != nil {
		return err
	}
	cmd := c.String()
	if c.Table == "" && t == nil {
		return h.RefuseWhichTable(cmd)
	}
	if c.Table != "" && (t == nil || t.Row.Name != c.Table) {
		named, _, err := seatAt(h, t, c.Table, cmd)
		if named == nil {
			return err
		}
		t = named
		h.Rec.TableID = &t.Row.ID
		h.Log = h.Log.With("table", t.Row.Name)
		// As through the table's reply address: the deadlines that
		// passed first (EMAIL §5.2); a turn that ran out takes no gift.
		if err := s.Tables.Enforce(h.Tx, t, h.Now, h.Now, h.Out); err != nil {
			return err
		}
	}
	giver := t.SeatOf(h.Msg.From)
	r := giveRefusal(t, giver, c.Hours)
	if r == nil && staleGift(h, t) {
		r = &templates.Reason{Kind: templates.ReasonGiveStale, Detail: table.Names(t.Seats)[t.Game.Turn()]}
	}
	if r != nil {
		return h.Refuse(t, cmd, []templates.Reason{*r}, false)
	}
	p, d := t.Game.Turn(), time.Duration(c.Hours)*time.Hour
	if err := h.Tx.AddGift(&t.Seats[giver], store.Gift{Turn: t.TurnNumber(), To: p, Time: d}); err != nil {
		return err
	}
	h.Outcome(table.OutcomeApplied, cmd)
	if _, err := s.Tables.Replan(h.Tx, t, p, h.Now); err != nil {
		return err
	}
	h.Log.Info("time given", "giver", giver, "player", p, "time", d, "deadline", *t.Row.Deadline)
	names := table.Names(t.Seats)
	for q := range t.Seats {
		if t.Game.Left(q) {
			continue // out of the game until its end (LEAGUES §2.2)
		}
		// To each, whatever they chose with NOTIFY: a deadline moved is
		// not a turn's notice.
		to := t.Recipient(q)
		msg := templates.GiftMsg{Head: s.Notices.Head(t.Row.Name, to, h.Now), Giver: names[giver], Player: names[p],
			Time: d, Deadline: *t.Row.Deadline, You: q == p, Giving: q == giver}
		if q == giver {
			msg.Left = store.GiftCap - t.Seats[giver].Given()
			if err := h.ReplyAs(t, to, msg); err != nil {
				return err
			}
			continue
		}
		e := notice.Envelope{Table: t.Row.Name, Seq: t.Row.Seq, To: to, TableID: &t.Row.ID,
			Extra: notice.ShortHash(h.Rec.MessageID)}
		if q == p {
			e.Cal = s.Tables.CalendarEvent(t, templates.Gift, p, true, h.Now)
		}
		h.Out.Add(e, msg)
	}
	return nil
}

// staleGift reports whether the message answers a mail of t written in an
// earlier turn (EMAIL §1.5): the player it meant to give time to may have
// moved since. A message that answers none of t's mails is meant for now.
func staleGift(h *table.Request, t *table.Table) bool {
	seq, ok := h.Answered(t)
	if !ok {
		return false
	}
	acts := t.Actions()
	for _, a := range acts[min(max(int(seq), 0), len(acts)):] {
		if table.IsTurn(a.Kind) {
			return true
		}
	}
	return false
}

// giveRefusal is why seat giver of t may not give hours now, or nil.
func giveRefusal(t *table.Table, giver, hours int) *templates.Reason {
	g := t.Game
	switch {
	case g == nil:
		return &templates.Reason{Kind: templates.ReasonTooFewPlayers, Have: len(t.Seats), Need: 2, Detail: "START"}
	case g.Over():
		return &templates.Reason{Kind: templates.ReasonGameOver}
	case g.Left(giver):
		return &templates.Reason{Kind: templates.ReasonResigned}
	case g.Turn() == giver:
		return &templates.Reason{Kind: templates.ReasonGiveOwnTurn}
	case botseat.Is(t.Seats[g.Turn()].Player.Address):
		return &templates.Reason{Kind: templates.ReasonGiveComputer}
	}
	d := time.Duration(hours) * time.Hour
	if d < store.MinGift || d > store.MaxGift {
		return &templates.Reason{Kind: templates.ReasonGiveRange, Have: hours}
	}
	if left := store.GiftCap - t.Seats[giver].Given(); d > left {
		return &templates.Reason{Kind: templates.ReasonGiveCap, Have: int(left / time.Hour), Need: hours}
	}
	return nil
}
