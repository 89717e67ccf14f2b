package player

import (
	"errors"
	"time"

	"github.com/lexio-mail/lexio/notice"
	"github.com/lexio-mail/lexio/parser"
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/templates"
)

// This file is GIVE's mail side (issue #28): a player gives the player on
// move at one of their tables more time on the current turn. The rule is
// the table's (table.Service.Give, issue #35: the bounds, the refusals,
// the gift recorded and the deadline moved on the receiver's clock, its
// reminders following, the gift dying with the turn); here are the
// table and seat a mail names, a reply to a mail of an earlier turn, the
// refusals in the templates' words, and telling every player still in,
// the receiver with their turn's calendar entry again (same UID, higher
// SEQUENCE).

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
	giver, d := t.SeatOf(h.Msg.From), time.Duration(c.Hours)*time.Hour
	// The rule's refusal first, as it says more; a gift the rule would
	// take is refused when the message answers a mail of an earlier turn.
	if t.CheckGive(giver, d) == nil && staleGift(h, t) {
		r := templates.Reason{Kind: templates.ReasonGiveStale, Detail: table.Names(t.Seats)[t.Game.Turn()]}
		return h.Refuse(t, cmd, []templates.Reason{r}, false)
	}
	gift, err := s.Tables.Give(h.Tx, t, giver, d, h.Now)
	var ge *table.GiveError
	if errors.As(err, &ge) {
		return h.Refuse(t, cmd, []templates.Reason{giveReason(ge)}, false)
	}
	if err != nil {
		return err
	}
	h.Outcome(table.OutcomeApplied, cmd)
	p := gift.To
	h.Log.Info("time given", "giver", giver, "player", p, "time", d, "deadline", gift.Deadline)
	names := table.Names(t.Seats)
	for q := range t.Seats {
		if t.Game.Left(q) {
			continue // out of the game until its end (LEAGUES §2.2)
		}
		// To each, whatever they chose with NOTIFY: a deadline moved is
		// not a turn's notice.
		to := t.Recipient(q)
		msg := templates.GiftMsg{Head: s.Notices.Head(t.Row.Name, to, h.Now), Giver: names[giver], Player: names[p],
			Time: d, Deadline: gift.Deadline, You: q == p, Giving: q == giver}
		if q == giver {
			msg.Left = gift.Left
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

// giveReason is the refusal of a gift the table's rule refused.
func giveReason(e *table.GiveError) templates.Reason {
	hours := int(e.Time / time.Hour)
	switch e.Kind {
	case table.GiveNotStarted:
		return templates.Reason{Kind: templates.ReasonTooFewPlayers, Have: e.Seats, Need: 2, Detail: "START"}
	case table.GiveGameOver:
		return templates.Reason{Kind: templates.ReasonGameOver}
	case table.GiveResigned:
		return templates.Reason{Kind: templates.ReasonResigned}
	case table.GiveOwnTurn:
		return templates.Reason{Kind: templates.ReasonGiveOwnTurn}
	case table.GiveComputer:
		return templates.Reason{Kind: templates.ReasonGiveComputer}
	case table.GiveRange:
		return templates.Reason{Kind: templates.ReasonGiveRange, Have: hours}
	default: // table.GiveCap
		return templates.Reason{Kind: templates.ReasonGiveCap, Have: int(e.Left / time.Hour), Need: hours}
	}
}
