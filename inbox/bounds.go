package inbox

// This file holds the bounds on the answers to a message (EMAIL §2.6):
// per sender and hour, to unproven mail per address, domain and day, the
// day's mail to outsiders (notice), and one answer an hour to a message
// without a command; and the prune of the counters whose window closed.
// Each bound of one sender counts per person (store.PersonKey, EMAIL
// §1.8): victim+1@x and victim+2@x are one mailbox.

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/lexio-mail/lexio/notice"
	"github.com/lexio-mail/lexio/parser"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/templates"
)

// unprovenRates are the day's bounds on answers to mail that proved
// nothing of its sender, at addr: per address, per domain (a share of the
// total: many forged addresses of one domain spend only that) and in
// all. Past them nothing is answered, not even a notice (answering would
// serve whoever forged the From).
func (s *Service) unprovenRates(addr string) []store.Rate {
	cfg := s.Cfg.Mail
	return []store.Rate{
		{Key: "unproven:" + store.PersonKey(addr), Limit: cfg.UnprovenAnswers, Window: unprovenWindow},
		{Key: "unproven-domain:" + store.PersonDomain(addr), Limit: notice.DomainShare(cfg.UnprovenAnswersTotal), Window: unprovenWindow},
		{Key: "unproven-all", Limit: cfg.UnprovenAnswersTotal, Window: unprovenWindow},
	}
}

// unprovenWindow is the window of the bounds on answers to unproven mail.
const unprovenWindow = 24 * time.Hour

// WithinBound counts one answer to h's author against
// mail.replies_per_hour (and, to an address that never played here,
// against mail.outsider_mails_per_day and its domain's share; to
// unproven mail, against the day's unprovenRates; and against also) and
// reports whether it may go. Only an answer that goes spends a bound: the
// checks that may refuse come first, then every bound is counted or none
// (store.TakeRates). The first answer over the hour's bound is replaced
// by one short notice saying until when replies are paused; after it
// nothing goes until the hour's window closes. Commands are still
// applied meanwhile.
func (s *Service) WithinBound(h *table.Request, t *table.Table, to notice.Recipient, also ...store.Rate) (bool, error) {
	var rates []store.Rate
	if !h.Proven {
		if !s.Notices.PlainAddress(to.Addr) {
			// Not an address we write to (LEAGUES §6): its owner cannot
			// have sent anything worth answering.
			h.Log.Info("the sender's address is not plain: not answered")
			return false, nil
		}
		rates = s.unprovenRates(to.Addr)
	}
	outsider, err := s.Notices.OutsiderRates(h.Tx, to.Addr)
	if err != nil {
		return false, err
	}
	key, limit := "answers:"+store.PersonKey(h.Msg.From), s.Cfg.Mail.Replies
	rates = append(append(append(rates, outsider...), also...), store.Rate{Key: key, Limit: limit + 1, Window: time.Hour})
	refused, err := h.Tx.TakeRates(h.Now, rates...)
	if err != nil {
		return false, err
	}
	if refused != nil {
		h.Log.Info(refusal(refused.Key), "bound", refused.Key)
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

// refusal is what the log says of an answer that the bound key refused.
func refusal(key string) string {
	switch {
	case strings.HasPrefix(key, "reply:"):
		return "error reply rate-limited"
	case strings.HasPrefix(key, "no-command:"):
		return "no command, not answered: one message without a command was answered this hour"
	case strings.HasPrefix(key, "answers:"):
		return "reply bound reached: not answered"
	case strings.HasPrefix(key, "unproven"):
		return "bound on answers to unproven mail reached: not answered"
	}
	return "the day's mail to outsiders is spent: not answered"
}

// NoCommandOnce lets one message without a command be answered per
// sender and hour; it reports whether h may be. An auto-responder
// that answers our mail with prose (or our own text, which holds no
// command) gets one "no command found" and then nothing, so the exchange
// stops; a person who wrote no command is told once, and HELP always
// answers. The hour's one answer is counted with the answer's other
// bounds, when it goes (CountWithAnswer).
func (s *Service) NoCommandOnce(h *table.Request) (bool, error) {
	var pe *parser.Error
	if !errors.As(h.Msg.Err, &pe) || pe.Kind != parser.NoCommand {
		return true, nil
	}
	key := "no-command:" + store.PersonKey(h.Msg.From)
	if _, hits, err := h.Tx.RateWindow(key, time.Hour, h.Now); err != nil || hits == 0 {
		if err == nil {
			h.CountWithAnswer(store.Rate{Key: key, Limit: 1, Window: time.Hour})
		}
		return err == nil, err
	}
	h.Outcome(table.OutcomeRejected, string(templates.ReasonNoCommand))
	h.Log.Info("no command, not answered: one message without a command was answered this hour")
	return false, nil
}

// PruneRates deletes the rate counters whose window closed by now (a
// scheduler job), pruneBatch to a transaction, and returns how many it
// deleted. A counter counts nothing past its window, and every sender
// leaves some: without the prune they would stay for ever.
func (s *Service) PruneRates(ctx context.Context, now time.Time) (int, error) {
	pruned := 0
	for {
		var n int
		err := s.Store.Tx(ctx, func(tx *store.Tx) (err error) {
			n, err = tx.PruneRates(now, pruneBatch)
			return err
		})
		if err != nil {
			return pruned, err
		}
		pruned += n
		if n < pruneBatch {
			return pruned, nil
		}
	}
}

// pruneBatch is how many rate counters a transaction of PruneRates
// deletes at most, so that a long backlog holds no lock long.
const pruneBatch = 1000
