package table

import (
	"slices"
	"time"
	"unicode/utf8"

	"github.com/lexio-mail/lexio/notice"
	"github.com/lexio-mail/lexio/parser"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/templates"
)

// This file is the mail a player chooses (LEAGUES §5): NOTIFY, the daily
// digest, the List-Unsubscribe address, and SAY.

// NotifyMode is the mail seat p chose at t: the seat's own choice, else
// the player's, else NotifyAll.
func (t *Table) NotifyMode(p int) string {
	if m := t.Seats[p].Notify; m != "" {
		return m
	}
	if pl := t.Seats[p].Player; pl != nil && pl.Notify != "" {
		return pl.Notify
	}
	return NotifyAll
}

// wantsNotice reports whether seat p gets the notice of the state after
// the game's last action: always with NOTIFY all; with turn or digest when
// the turn is theirs, or when the news is not a turn passing to another
// (the game's first notice, with their rack and the order of play; a
// resignation, which everyone is told of, LEAGUES §2.4).
func (t *Table) wantsNotice(p int) bool {
	acts := t.Game.Actions()
	return t.NotifyMode(p) == NotifyAll || t.Game.Turn() == p ||
		len(acts) == 0 || !IsTurn(acts[len(acts)-1].Kind)
}

// Say passes a player's line on to the other players of the table it came
// through, or of their one table not over (LEAGUES §5.3), each in a mail of
// its own. The lines a player may say are bounded per hour by
// mail.error_replies_per_hour, on a counter of their own; a refusal counts
// as an error reply. The author is answered in one line, their line
// quoted, within the bound on answers (EMAIL §2.6).
func (h *Request) Say(t *Table, text string) error {
	cmd := "SAY"
	if t == nil {
		var err error
		if t, err = h.ReplyTable(nil); err != nil {
			return err
		}
		if t == nil {
			rows, err := h.Tx.TablesOfPlayer(h.Msg.From)
			if err != nil {
				return err
			}
			running := slices.DeleteFunc(rows, func(r store.Table) bool { return r.Status == store.StatusOver })
			return h.Refuse(nil, cmd, []templates.Reason{{Kind: templates.ReasonSayWhere, Have: len(running)}}, true)
		}
		h.Rec.TableID = &t.Row.ID
	}
	if n := utf8.RuneCountInString(text); n > parser.MaxSay {
		// The parser refuses it first; this keeps the bound where the
		// mail goes out.
		return h.Refuse(t, cmd, []templates.Reason{{Kind: templates.ReasonSayTooLong, Need: parser.MaxSay, Have: n}}, true)
	}
	// One line of printable text, whoever made the command (the parser
	// makes it so): never a line break below the quoting.
	text = parser.OneLine(text, parser.MaxSay)
	limit := h.s.cfg.Mail.ErrorReplies
	ok, err := h.Tx.TakeRate("say:"+store.PersonKey(h.Msg.From), limit, time.Hour, h.Now)
	if err != nil {
		return err
	}
	if !ok {
		h.Log.Info("SAY rate-limited: not passed on", "limit", limit)
		return h.Refuse(t, cmd, []templates.Reason{{Kind: templates.ReasonSayLimit, Need: limit}}, true)
	}
	h.Outcome(OutcomeApplied, cmd)
	author := t.SeatOf(h.Msg.From)
	from := Names(t.Seats)[author]
	for p := range t.Seats {
		if p == author {
			continue
		}
		// Addressed to each of them, whatever they chose with NOTIFY:
		// a line from the table is not a turn's notice. The Message-ID
		// names the message said, so that each gets it once.
		to := t.Recipient(p)
		e := notice.Envelope{Table: t.Row.Name, Seq: int64(len(t.Actions())), To: to,
			TableID: &t.Row.ID, Extra: notice.ShortHash(h.Rec.MessageID)}
		h.Out.Add(e, templates.SaidMsg{Head: h.s.notices.Head(t.Row.Name, to, h.Now), From: from, Text: text})
	}
	sender := h.Sender(t)
	return h.ReplyAs(t, sender, templates.SayPassedMsg{Head: h.s.notices.Head(t.Row.Name, sender, h.Now), Text: text})
}
