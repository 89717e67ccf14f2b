package table

import (
	"context"
	"errors"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/lexio-mail/lexio/mailer"
	"github.com/lexio-mail/lexio/notice"
	"github.com/lexio-mail/lexio/parser"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/templates"
)

// This file is the mail a player chooses (LEAGUES §5): NOTIFY, the daily
// digest, the List-Unsubscribe address, and SAY.

// digestHour is when the digest goes, in each player's zone (LEAGUES §5.1).
const digestHour = 8

// notifyMode is the mail seat p chose at t: the seat's own choice, else
// the player's, else store.NotifyAll.
func (t *Table) notifyMode(p int) string {
	if m := t.Seats[p].Notify; m != "" {
		return m
	}
	if pl := t.Seats[p].Player; pl != nil && pl.Notify != "" {
		return pl.Notify
	}
	return store.NotifyAll
}

// wantsNotice reports whether seat p gets the notice of the state after
// the game's last action: always with NOTIFY all; with turn or digest when
// the turn is theirs, or when the news is not a turn passing to another
// (the game's first notice, with their rack and the order of play; a
// resignation, which everyone is told of, LEAGUES §2.4).
func (t *Table) wantsNotice(p int) bool {
	acts := t.Game.Actions()
	return t.notifyMode(p) == store.NotifyAll || t.Game.Turn() == p ||
		len(acts) == 0 || !isTurn(acts[len(acts)-1].Kind)
}

// notify answers NOTIFY: the sender's choice for every table, or for the
// table named, confirmed from that table (or as LANG is, replyTable).
func (h *Request) notify(t *Table, mode, table string) error {
	cmd := h.Msg.Command.String()
	if table != "" {
		named, err := h.load(table)
		switch {
		case errors.Is(err, store.ErrNotFound):
			from, err := h.replyTable(t)
			if err != nil {
				return err
			}
			return h.refuseAlike(from, cmd, templates.ReasonNotAtTable, table, templates.ReasonNoSuchTable)
		case err != nil:
			return err
		}
		if named.seatOf(h.Msg.From) < 0 {
			from, err := h.replyTable(t)
			if err != nil {
				return err
			}
			return h.refuseAlike(from, cmd, templates.ReasonNotAtTable, table, templates.ReasonNotAPlayer)
		}
		h.Rec.TableID = &named.Row.ID
		return h.setNotify(named, mode, table, false)
	}
	from, err := h.replyTable(t)
	if err != nil {
		return err
	}
	return h.setNotify(from, mode, "", false)
}

// setNotify stores the sender's choice, for table (by name, the table t
// is) or for every table (""), and confirms it from t.
func (h *Request) setNotify(t *Table, mode, table string, unsubscribed bool) error {
	pl, err := h.Tx.EnsurePlayer(h.Msg.From, h.senderLang(t))
	if err != nil {
		return err
	}
	if table != "" {
		err = h.Tx.SetSeatNotify(t.Row.ID, h.Msg.From, mode)
	} else {
		err = h.Tx.SetPlayerNotify(h.Msg.From, mode)
	}
	if err != nil {
		return err
	}
	reason := "NOTIFY " + mode
	if table != "" {
		reason += " " + table
	}
	if unsubscribed {
		reason += " (List-Unsubscribe)"
	}
	h.outcome(store.OutcomeApplied, reason)
	to := h.sender(t)
	msg := templates.NotifyMsg{Head: h.s.notices.Head(tableName(t), to, h.Now), Mode: mode, For: table, Unsubscribed: unsubscribed}
	if mode == store.NotifyDigest {
		// The first digest is the next 08:00 to come: today's, decided
		// now, when the morning has begun (no digest right after this).
		day, due := digestDue(h.Now, to.TZ, pl.DigestDay)
		if due {
			if err := h.Tx.SetDigestDay(pl.ID, pl.DigestDay, day); err != nil {
				return err
			}
		}
		msg.Digest = nextDigest(h.Now, to.TZ)
	}
	return h.replyAs(t, to, templates.NotifyChanged, msg)
}

// unsubscribe handles a message to a List-Unsubscribe address (LEAGUES
// §5.2): whatever it says, NOTIFY turn for the table the address names,
// or for every table (the digest's), and an answer saying so. An address
// that is not the sender's changes nothing.
func (h *Request) unsubscribe() error {
	if mailer.IsNoInvite(h.Msg.Token) {
		// An invitation's: no more invitations (LEAGUES §6).
		return h.noInviteAddress()
	}
	name, ok := h.s.tokens.VerifyUnsubscribe(h.Msg.Token, h.Msg.From)
	if !ok {
		return h.badToken()
	}
	h.Proven = true
	if name == "" {
		from, err := h.replyTable(nil)
		if err != nil {
			return err
		}
		return h.setNotify(from, store.NotifyTurn, "", true)
	}
	t, err := h.load(name)
	if errors.Is(err, store.ErrNotFound) {
		h.Log.Warn("unsubscribe address of an unknown table", "table", name)
		h.outcome(store.OutcomeRejected, "no such table "+name)
		return nil
	}
	if err != nil {
		return err
	}
	h.Rec.TableID = &t.Row.ID
	h.Log = h.Log.With("table", name)
	if t.seatOf(h.Msg.From) < 0 {
		h.Log.Warn("valid unsubscribe address from a player without a seat")
		h.outcome(store.OutcomeRejected, string(templates.ReasonNotAPlayer))
		return nil
	}
	return h.setNotify(t, store.NotifyTurn, name, true)
}

// say passes a player's line on to the other players of the table it came
// through, or of their one table not over (LEAGUES §5.3), each in a mail of
// its own. The lines a player may say are bounded per hour by
// mail.error_replies_per_hour, on a counter of their own; a refusal counts
// as an error reply. Nothing comes back to the author.
func (h *Request) say(t *Table, text string) error {
	cmd := "SAY"
	if t == nil {
		var err error
		if t, err = h.replyTable(nil); err != nil {
			return err
		}
		if t == nil {
			rows, err := h.Tx.TablesOfPlayer(h.Msg.From)
			if err != nil {
				return err
			}
			running := slices.DeleteFunc(rows, func(r store.Table) bool { return r.Status == store.StatusOver })
			return h.refuse(nil, cmd, []templates.Reason{{Kind: templates.ReasonSayWhere, Have: len(running)}}, true)
		}
		h.Rec.TableID = &t.Row.ID
	}
	if n := utf8.RuneCountInString(text); n > parser.MaxSay {
		// The parser refuses it first; this keeps the bound where the
		// mail goes out.
		return h.refuse(t, cmd, []templates.Reason{{Kind: templates.ReasonSayTooLong, Need: parser.MaxSay, Have: n}}, true)
	}
	// One line of printable text, whoever made the command (the parser
	// makes it so): never a line break below the quoting.
	text = parser.OneLine(text, parser.MaxSay)
	limit := h.s.cfg.Mail.ErrorReplies
	ok, err := h.Tx.TakeRate("say:"+h.Msg.From, limit, time.Hour, h.Now)
	if err != nil {
		return err
	}
	if !ok {
		h.Log.Info("SAY rate-limited: not passed on", "limit", limit)
		return h.refuse(t, cmd, []templates.Reason{{Kind: templates.ReasonSayLimit, Need: limit}}, true)
	}
	h.outcome(store.OutcomeApplied, cmd)
	author := t.seatOf(h.Msg.From)
	from := names(t.Seats)[author]
	for p := range t.Seats {
		if p == author {
			continue
		}
		// Addressed to each of them, whatever they chose with NOTIFY:
		// a line from the table is not a turn's notice. The Message-ID
		// names the message said, so that each gets it once.
		to := t.recipient(p)
		e := notice.Envelope{Table: t.Row.Name, Seq: int64(len(t.actions())), Kind: templates.Said, To: to,
			TableID: &t.Row.ID, Extra: notice.ShortHash(h.Rec.MessageID)}
		h.Out.Add(e, templates.SaidMsg{Head: h.s.notices.Head(t.Row.Name, to, h.Now), From: from, Text: text})
	}
	return nil
}

// digestDue reports whether the digest of the local day of now is due in
// loc, last being the day last decided: from 08:00, once per day.
func digestDue(now time.Time, loc *time.Location, last string) (day string, due bool) {
	local := now.In(loc)
	day = local.Format(time.DateOnly)
	return day, local.Hour() >= digestHour && day > last
}

// nextDigest is the first 08:00 in loc after now.
func nextDigest(now time.Time, loc *time.Location) time.Time {
	local := now.In(loc)
	at := time.Date(local.Year(), local.Month(), local.Day(), digestHour, 0, 0, 0, loc)
	if !at.After(now) {
		at = time.Date(local.Year(), local.Month(), local.Day()+1, digestHour, 0, 0, 0, loc)
	}
	return at
}

// SendDigests sends the digests due at now (NOTIFY digest, LEAGUES §5.1): to
// each player who chose it, once per local day from 08:00 in their zone,
// whose turn it is and until when at each of their tables in play where
// they chose it; nothing when no such table is in play. The day is recorded
// in the transaction that queues the mail, so that a restart, a second
// tick or a day missed while the daemon was down never gives two digests
// for one day: after downtime the day's digest goes at the first tick. It
// returns how many it sent.
func (s *Service) SendDigests(ctx context.Context, now time.Time) (int, error) {
	var players []store.Player
	err := s.store.View(ctx, func(tx *store.Tx) error {
		var err error
		players, err = tx.DigestPlayers()
		return err
	})
	if err != nil {
		return 0, err
	}
	sent := 0
	for _, pl := range players {
		day, due := digestDue(now, s.zoneOf(pl.TimeZone), pl.DigestDay)
		if !due {
			continue
		}
		n, err := s.notices.Commit(ctx, s.store, now, func(tx *store.Tx, out *notice.Batch) error {
			if err := s.digest(tx, &pl, day, now, out); err != nil {
				return err
			}
			return tx.SetDigestDay(pl.ID, pl.DigestDay, day)
		})
		switch {
		case err == nil:
			sent += n
			if n > 0 {
				s.log.Info("digest sent", "player", pl.Address, "day", day)
			}
		case ctx.Err() != nil:
			return sent, err
		case errors.Is(err, store.ErrConflict):
			// Another writer decided the day first (a NOTIFY digest, or a
			// concurrent tick): nothing more to do.
			s.log.Info("digest decided elsewhere", "player", pl.Address, "day", day, "err", err)
		case notice.Temporary(err):
			return sent, err
		default:
			s.log.Error("digest failed; tried again at the next tick", "player", pl.Address, "err", err)
		}
	}
	return sent, nil
}

// digest queues pl's digest of day, if a table of theirs in play has the
// digest as its choice.
func (s *Service) digest(tx *store.Tx, pl *store.Player, day string, now time.Time, out *notice.Batch) error {
	rows, err := tx.TablesOfPlayer(pl.Address)
	if err != nil {
		return err
	}
	var games []templates.GameLine
	yours := 0
	for i := range rows {
		if rows[i].Status != store.StatusPlaying {
			continue
		}
		t, err := s.loadRow(tx, &rows[i])
		if err != nil {
			return err
		}
		p := t.seatOf(pl.Address)
		if p < 0 || t.Game == nil || t.Game.Over() || t.notifyMode(p) != store.NotifyDigest {
			continue
		}
		ns := names(t.Seats)
		line := templates.GameLine{Table: t.Row.Name, Variant: t.Row.Variant, Status: templates.StatusPlaying,
			Players: ns, Turn: ns[t.Game.Turn()], YourTurn: t.Game.Turn() == p, Score: t.Game.Score(p)}
		if t.Row.Deadline != nil {
			line.Deadline = *t.Row.Deadline
		}
		if line.YourTurn {
			yours++
		}
		games = append(games, line)
	}
	if len(games) == 0 {
		return nil // nothing to say today
	}
	// The tables waiting for their move first, each group by name.
	slices.SortStableFunc(games, func(a, b templates.GameLine) int {
		switch {
		case a.YourTurn == b.YourTurn:
			return 0
		case a.YourTurn:
			return -1
		}
		return 1
	})
	to := notice.Recipient{Addr: pl.Address, Lang: pl.Lang, TZ: s.zoneOf(pl.TimeZone), Pos: -1}
	e := notice.Envelope{Kind: templates.Digest, To: to, Extra: day + "." + notice.ShortHash(pl.Address)}
	out.Add(e, templates.DigestMsg{Head: s.notices.Head("", to, now), Games: games, Yours: yours})
	return nil
}
