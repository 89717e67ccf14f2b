package inbox

// This file holds the bounds on the answers to a message (EMAIL §2.6):
// per sender and hour, to unproven mail per address and day, the day's
// mail to outsiders (notice), and one answer an hour to a message
// without a command. Each bound of one sender counts per person
// (store.PersonKey, EMAIL §1.8): victim+1@x and victim+2@x are one
// mailbox.

import (
	"errors"
	"time"

	"github.com/lexio-mail/lexio/notice"
	"github.com/lexio-mail/lexio/parser"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/templates"
)

// withinUnprovenBound counts one answer to mail that proved nothing of
// its sender against the day's bounds, for its address and in all; past
// them nothing is answered, not even a notice (answering would serve
// whoever forged the From).
func (s *Service) withinUnprovenBound(h *table.Request, addr string) (bool, error) {
	cfg := s.Cfg.Mail
	bounds := []struct {
		key   string
		limit int
	}{{"unproven:" + store.PersonKey(addr), cfg.UnprovenAnswers}, {"unproven-all", cfg.UnprovenAnswersTotal}}
	for _, b := range bounds {
		ok, err := h.Tx.TakeRate(b.key, b.limit, 24*time.Hour, h.Now)
		if err != nil {
			return false, err
		}
		if !ok {
			h.Log.Info("bound on answers to unproven mail reached: not answered", "bound", b.key)
			return false, nil
		}
	}
	if !s.Notices.PlainAddress(addr) {
		// Not an address we write to (LEAGUES §6): its owner cannot have
		// sent anything worth answering.
		h.Log.Info("the sender's address is not plain: not answered")
		return false, nil
	}
	return true, nil
}

// WithinBound counts one answer to h's author against
// mail.replies_per_hour (and, to an address that never played here,
// against mail.outsider_mails_per_day; to unproven mail, against the
// day's bounds of withinUnprovenBound) and reports whether it may go. The first answer
// over the bound is replaced by one short notice saying until when
// replies are paused; after it nothing goes until the hour's window
// closes. Commands are still applied meanwhile.
func (s *Service) WithinBound(h *table.Request, t *table.Table, to notice.Recipient) (bool, error) {
	if !h.Proven {
		if ok, err := s.withinUnprovenBound(h, to.Addr); err != nil || !ok {
			return false, err
		}
	}
	if ok, err := s.Notices.MayMailOutsider(h.Tx, to.Addr, h.Now); err != nil || !ok {
		if err == nil {
			h.Log.Info("the day's mail to outsiders is spent: not answered")
		}
		return false, err
	}
	key, limit := "answers:"+store.PersonKey(h.Msg.From), s.Cfg.Mail.Replies
	ok, err := h.Tx.TakeRate(key, limit+1, time.Hour, h.Now)
	if err != nil {
		return false, err
	}
	if !ok {
		h.Log.Info("reply bound reached: not answered")
		return false, nil
	}
	start, hits, err := h.Tx.RateWindow(key, time.Hour, h.Now)
	if err != nil || hits <= limit {
		return err == nil, err
	}
	until := start.Add(time.Hour)
	h.Log.Info("reply bound reached: replies paused", "until", until)
	h.Queue(t, to, templates.PausedMsg{Head: s.Notices.Head(table.TableName(t), to, h.Now), Limit: limit, Until: until})
	return false, nil
}

// NoCommandOnce lets one message without a command be answered per
// sender and hour; it reports whether h may be. An auto-responder
// that answers our mail with prose (or our own text, which holds no
// command) gets one "no command found" and then nothing, so the exchange
// stops; a person who wrote no command is told once, and HELP always
// answers.
func (s *Service) NoCommandOnce(h *table.Request) (bool, error) {
	var pe *parser.Error
	if !errors.As(h.Msg.Err, &pe) || pe.Kind != parser.NoCommand {
		return true, nil
	}
	ok, err := h.Tx.TakeRate("no-command:"+store.PersonKey(h.Msg.From), 1, time.Hour, h.Now)
	if err != nil || ok {
		return ok, err
	}
	h.Outcome(table.OutcomeRejected, string(templates.ReasonNoCommand))
	h.Log.Info("no command, not answered: one message without a command was answered this hour")
	return false, nil
}
