package player

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lexio-mail/lexio/notice"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/templates"
)

// Notify answers NOTIFY: the sender's choice for the table named, or
// through a table's reply address for that table (#34), confirmed from
// it; at the plain address without a name, for every table, confirmed
// as LANG is (ReplyTable). NOTIFY digest without a name is for every
// table wherever it comes: the digest is one mail about them all.
func (s *Service) Notify(r *table.Request, t *table.Table, mode, name string) error {
	cmd := r.Msg.Command.String()
	if name == "" && t != nil && mode != table.NotifyDigest {
		name = t.Row.Name
	}
	if name != "" {
		named, _, err := seatAt(r, t, name, cmd)
		if named == nil {
			return err
		}
		r.Rec.TableID = &named.Row.ID
		return s.setNotify(r, named, mode, name, false)
	}
	from, err := r.ReplyTable(t)
	if err != nil {
		return err
	}
	return s.setNotify(r, from, mode, "", false)
}

// Unsubscribe answers a message to a List-Unsubscribe address of a
// table's notices or of the digest (LEAGUES §5.2): whatever it says,
// NOTIFY turn for the table the address names, or for every table (the
// digest's), and an answer saying so. An address that is not the
// sender's changes nothing.
func (s *Service) Unsubscribe(r *table.Request) error {
	name, ok := s.Tables.Tokens().VerifyUnsubscribe(r.Msg.Token, r.Msg.From)
	if !ok {
		return r.BadToken()
	}
	r.Proven = true
	if name == "" {
		from, err := r.ReplyTable(nil)
		if err != nil {
			return err
		}
		return s.setNotify(r, from, table.NotifyTurn, "", true)
	}
	t, err := r.Load(name)
	if errors.Is(err, store.ErrNotFound) {
		r.Log.Warn("unsubscribe address of an unknown table", "table", name)
		r.Outcome(table.OutcomeRejected, "no such table "+name)
		return nil
	}
	if err != nil {
		return err
	}
	r.Rec.TableID = &t.Row.ID
	r.Log = r.Log.With("table", name)
	if t.SeatOf(r.Msg.From) < 0 {
		r.Log.Warn("valid unsubscribe address from a player without a seat")
		r.Outcome(table.OutcomeRejected, string(templates.ReasonNotAPlayer))
		return nil
	}
	return s.setNotify(r, t, table.NotifyTurn, name, true)
}

// setNotify stores the sender's choice, for the table named (the table t
// is) or for every table (""), and confirms it from t.
func (s *Service) setNotify(r *table.Request, t *table.Table, mode, name string, unsubscribed bool) error {
	to := r.Sender(t)
	msg, err := s.choose(r.Tx, r.Msg.From, r.SenderLang(t), t, mode, name, unsubscribed, to, r.Now)
	if err != nil {
		return err
	}
	r.Outcome(table.OutcomeApplied, msg.reason)
	return r.ReplyAs(t, to, msg.NotifyMsg)
}

// choice is a stored choice and how it is told.
type choice struct {
	templates.NotifyMsg
	reason string // the message's outcome
}

// choose stores addr's choice mode, for the table named (the table t is)
// or for every table (""), and returns the confirmation to send to.
func (s *Service) choose(tx *store.Tx, addr, lang string, t *table.Table, mode, name string, unsubscribed bool, to notice.Recipient, now time.Time) (*choice, error) {
	pl, err := tx.EnsurePlayer(addr, lang)
	if err != nil {
		return nil, err
	}
	if name != "" {
		err = tx.SetSeatNotify(t.Row.ID, addr, mode)
	} else {
		err = tx.SetPlayerNotify(addr, mode)
	}
	if err != nil {
		return nil, err
	}
	c := &choice{reason: "NOTIFY " + mode}
	if name != "" {
		c.reason += " " + name
	}
	if unsubscribed {
		c.reason += " (List-Unsubscribe)"
	}
	c.NotifyMsg = templates.NotifyMsg{Head: s.Notices.Head(table.TableName(t), to, now), Mode: mode, For: name, Unsubscribed: unsubscribed}
	if mode == table.NotifyDigest {
		// The first digest is the next 08:00 to come: today's, decided
		// now, when the morning has begun (no digest right after this).
		day, due := digestDue(now, to.TZ, pl.DigestDay)
		if due {
			if err := tx.SetDigestDay(pl.ID, pl.DigestDay, day); err != nil {
				return nil, err
			}
		}
		c.Digest = nextDigest(now, to.TZ)
	}
	return c, nil
}

// WebUnsubscribe is the one-click unsubscribe (RFC 8058) of the player
// whose id is player from table name's mail: exactly what a message to
// the List-Unsubscribe address does (LEAGUES §5.2), NOTIFY turn for that
// table and a mail that confirms it; where the seat has NOTIFY turn
// already (the same POST again), nothing changes and no mail goes, so
// that a replay confirms once. The signed link proves the player (EMAIL
// §7.1); the web side's rate limit bounds the requests. ok is false when
// the table does not exist or the player holds none of its seats; lang
// is the player's language, for the page that answers.
func (s *Service) WebUnsubscribe(ctx context.Context, name string, player int64) (lang string, ok bool, err error) {
	err = store.Retry(ctx, s.Log, "one-click unsubscribe", func() error {
		lang, ok = "", false
		now := s.Now()
		_, err := s.Notices.Commit(ctx, s.Store, now, func(tx *store.Tx, out *notice.Batch) error {
			t, err := s.Tables.Load(tx, name)
			if errors.Is(err, store.ErrNotFound) {
				return nil
			}
			if err != nil {
				return err
			}
			p := t.SeatOfID(player)
			if p < 0 {
				return nil
			}
			lang, ok = t.Langs[p], true
			addr := t.Seats[p].Player.Address
			log := s.Log.With("table", name, "player", addr)
			if t.Seats[p].Notify == table.NotifyTurn {
				// A replay (a retried POST, a second click): the seat is as
				// asked and its confirmation went once; nothing to do.
				log.Info("one-click unsubscribe replayed: nothing changed")
				return nil
			}
			to := t.Recipient(p)
			c, err := s.choose(tx, addr, lang, t, table.NotifyTurn, name, true, to, now)
			if err != nil {
				return err
			}
			// The confirmation answers the request, under an id of its
			// own, as it would answer a message.
			id := fmt.Sprintf("<lexio.web-unsubscribe.%s.%d.%d@%s>", name, player, now.UnixNano(), s.Notices.Domain())
			out.Add(notice.Envelope{Table: name, Seq: int64(len(t.Actions())), To: to,
				Reply: id, TableID: &t.Row.ID}, c.NotifyMsg)
			log.Info("unsubscribed by the one-click URL", "outcome", table.OutcomeApplied, "reason", c.reason)
			return nil
		})
		return err
	})
	return lang, ok, err
}
