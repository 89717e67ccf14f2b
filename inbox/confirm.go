package inbox

import (
	"errors"
	"time"
	"unicode/utf8"

	"github.com/lexio-mail/lexio/notice"
	"github.com/lexio-mail/lexio/parser"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/templates"
)

// confirmTTL is how long a confirmation may be answered (EMAIL §1.7).
const confirmTTL = 24 * time.Hour

// askConfirmation answers a command that would change state but came with
// no proof of its sender: it is kept, and the From address is asked to
// confirm it from a one-time reply address. Nothing else happens until
// that mail is answered (confirmed).
func (s *Service) askConfirmation(h *table.Request, c *parser.Command) error {
	h.Outcome(table.OutcomePending, "confirm: "+c.Kind.String())
	cmd := c.String()
	if utf8.RuneCountInString(cmd) > store.MaxCommand {
		// Longer than any command a person writes (SAY and NOTE are
		// bounded far below it): not kept, not answered.
		h.Outcome(table.OutcomeRejected, "confirm: command too long")
		return nil
	}
	to := h.Sender(nil)
	ok, err := s.WithinBound(h, nil, to)
	if err != nil || !ok {
		return err
	}
	lang := c.Language
	if lang == "" {
		lang = to.Lang
	}
	conf := &store.Confirmation{Address: h.Msg.From, Command: cmd, Lang: lang, MessageID: h.Rec.MessageID,
		CreatedAt: h.Now, Expires: h.Now.Add(confirmTTL)}
	if err := h.Tx.AddConfirmation(conf); err != nil {
		return err
	}
	token := s.Tokens.Confirm(conf.ID, h.Msg.From)
	head := s.Notices.Head("", to, h.Now)
	if s.Cfg.Mail.TokenInSubject {
		head.Tag = "[Lexio confirm " + token + "]"
	}
	h.Log.Info("command kept until its sender confirms it", "command", c.Kind.String())
	e := notice.Envelope{To: to, Reply: h.Rec.MessageID, Token: token}
	h.Out.Add(e, templates.ConfirmMsg{Head: head, Command: cmd, Expires: conf.Expires})
	return nil
}

// confirmed handles a message to a confirmation's reply address, and
// reports whether that is all it does. CONFIRM alone on the first
// non-blank line of the reply's own text, from the address the
// confirmation was written to, puts the kept command in h.Msg, once and
// within confirmTTL, with h.Proven set: the caller then routes it as if
// that address had proved itself. CONFIRM anywhere else (below other
// lines, in the subject) is refused: it may be our mail sent back. Any
// other command through the address proves nothing (an auto-responder's
// echo of our mail must not act): it is read as if sent to the plain
// address.
func (s *Service) confirmed(h *table.Request) (done bool, err error) {
	id, ok := s.Tokens.VerifyConfirm(h.Msg.Token, h.Msg.From)
	if !ok {
		// The From may be forged: answering could reach a victim.
		h.Log.Warn("forged or damaged confirmation token")
		h.Outcome(table.OutcomeRejected, string(templates.ReasonBadToken))
		return true, nil
	}
	m := *h.Msg
	m.Token = ""
	h.Msg = &m
	if m.Err != nil || m.Command.Kind != parser.KindConfirm {
		return false, nil
	}
	if m.CommandSource != "body" || m.Line != 1 {
		// A reply that sends our mail back, or a wrapped line of it,
		// unquoted, holds CONFIRM below the first line (#35): it
		// confirms nothing, and the confirmation stays open.
		h.Log.Info("CONFIRM not on the reply's first line: nothing confirmed", "confirmation", id, "source", m.CommandSource, "line", m.Line)
		return true, h.Refuse(nil, "", []templates.Reason{{Kind: templates.ReasonConfirmLine}}, true)
	}
	conf, fresh, err := h.Tx.UseConfirmation(id, m.From, h.Now)
	if errors.Is(err, store.ErrNotFound) {
		h.Log.Warn("a valid confirmation token of no stored confirmation", "confirmation", id)
		h.Outcome(table.OutcomeRejected, "confirmation unknown")
		return true, nil
	}
	if err != nil {
		return true, err
	}
	// The address proved that it reads its mail: answers to it are
	// bounded as any player's.
	h.Proven = true
	switch {
	case !fresh && conf.UsedAt != nil:
		return true, h.Refuse(nil, "", []templates.Reason{{Kind: templates.ReasonConfirmUsed, Detail: conf.Command}}, true)
	case !fresh:
		return true, h.Refuse(nil, "", []templates.Reason{{Kind: templates.ReasonConfirmExpired, Detail: conf.Command}}, true)
	}
	c, err := parser.ParseCommand(conf.Command)
	if err != nil {
		// It was written from a parsed command: it reads back.
		return true, store.Permanent(err)
	}
	h.Log.Info("confirmed", "confirmation", id, "command", c.Kind.String(), "asked_by", conf.MessageID)
	m.Command, m.Lang = c, conf.Lang
	return false, nil
}
