// Package inbox is the mail front door: it reads each inbound message
// (package parser), records it once by its Message-ID in the transaction
// of everything it causes (EMAIL §2.2), decides who sent it — a reply
// token, require_auth's verdict, or a confirmation round trip for a
// command that changes state (EMAIL §1) — and routes its command to the
// package that owns it: a table's moves (table), gathering players at a
// table (lobby), a player's preferences (player), a league's seasons
// (season). It gives each message's table.Request what it answers by
// (table.Front): the bounds on the answers to a sender (EMAIL §2.6) and
// the answer to a reply token that does not match its sender. It also
// records a message the receiver gave up on (Failed).
//
// It knows nothing of the rules of the game or of what a command does
// once routed, nor of IMAP: mailer.Receiver hands it each message.
package inbox

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/lexio-mail/lexio/lobby"
	"github.com/lexio-mail/lexio/mailer"
	"github.com/lexio-mail/lexio/parser"
	"github.com/lexio-mail/lexio/player"
	"github.com/lexio-mail/lexio/season"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/table"
)

// Service handles inbound messages. It is safe for concurrent use: every
// message is one store transaction.
type Service struct {
	table.Part
	players *player.Service
	seasons *season.Service
	lobby   *lobby.Service
	// Handled, when set, is told the outcome of each message recorded
	// (table.Outcome*), also of one recorded as an error or given up.
	Handled func(outcome string)
}

// New returns the front door of tables, routing to players, seasons and
// lobby, logging to log (the tables' own when nil).
func New(tables *table.Service, players *player.Service, seasons *season.Service, lobby *lobby.Service, log *slog.Logger) *Service {
	return &Service{Part: tables.Part(log), players: players, seasons: seasons, lobby: lobby}
}

func (s *Service) parserOptions() parser.Options {
	return parser.Options{
		ServiceAddress: s.Cfg.Mail.Address,
		MaxBytes:       s.Cfg.Mail.MaxMessageBytes,
		TokenInSubject: s.Cfg.Mail.TokenInSubject,
	}
}

// errHandled: the message's Message-ID is recorded, by an earlier delivery
// or by a concurrent handler that committed first.
var errHandled = errors.New("inbox: message already handled")

// HandleMessage applies one inbound message exactly once (EMAIL §2.2). It
// returns an error only when the message should be tried again later (the
// database is busy or unreachable, the context ended, conflicts went on);
// anything wrong with the message itself is recorded, answered where
// useful, and gives nil so that the mailbox moves on. A transaction that
// meets a conflict runs again on the fresh state: a move that raced an
// expiry is then judged after it.
func (s *Service) HandleMessage(ctx context.Context, in mailer.Inbound) error {
	m := parser.Parse(in.Raw, s.parserOptions())
	if in.Truncated && m.Ignored == "" {
		m.Command = nil
		m.Err = &parser.Error{Kind: parser.TooLarge, Detail: fmt.Sprintf("%d bytes", in.Size)}
	}
	id := inboundID(m, in.Raw)
	log := s.Log.With("message_id", id, "from", m.From)

	var rec *store.Message
	var sent int
	err := store.Retry(ctx, log, "message", func() error {
		var err error
		rec, sent, err = s.handleOnce(ctx, in, m, id, log)
		return err
	})
	switch {
	case errors.Is(err, errHandled):
		log.Info("message already handled")
		return nil
	case err != nil && ctx.Err() == nil && !store.Temporary(err):
		// A message we cannot handle must not block the mailbox: record
		// it as an error, without any game change, and move on.
		log.Error("message failed", "err", err)
		rec.Outcome, rec.Reason, rec.TableID = table.OutcomeError, err.Error(), nil
		err = s.Store.Tx(ctx, func(tx *store.Tx) error { return recordMessage(tx, rec, log) })
		if errors.Is(err, errHandled) {
			return nil
		}
		if err == nil {
			s.handled(rec.Outcome)
		}
		return err
	case err != nil:
		// A cancelled context (shutdown) or a temporary error: the
		// message stays where it is, to be tried again.
		return err
	}
	log.Info("message handled", "outcome", rec.Outcome, "reason", rec.Reason, "mails", sent)
	s.handled(rec.Outcome)
	if sent > 0 {
		s.Notices.Poke()
	}
	return nil
}

// handled tells Handled of a message recorded with outcome.
func (s *Service) handled(outcome string) {
	if s.Handled != nil {
		s.Handled(outcome)
	}
}

// handleOnce runs the message's transaction once, on the state and at the
// time it finds, and returns its record and how many mails it queued.
func (s *Service) handleOnce(ctx context.Context, in mailer.Inbound, m *parser.Message, id string, log *slog.Logger) (*store.Message, int, error) {
	now := s.Now()
	rec := inboundRecord(in, m, id, now)
	var sent int
	err := s.Store.Tx(ctx, func(tx *store.Tx) error {
		// The Message-ID decides (EMAIL §2.2): a redelivered copy, or the
		// same message seen again after a crash, is not applied twice.
		seen, err := tx.MessageSeen(id)
		if err != nil {
			return err
		}
		if seen {
			return errHandled
		}
		h := s.Tables.NewRequest(tx, m, rec, now, log, in.Size, s.Notices.NewBatch(now), s)
		if err := s.route(h); err != nil {
			return err
		}
		if err := recordMessage(tx, rec, log); err != nil {
			return err
		}
		sent, err = h.Out.Enqueue(tx)
		return err
	})
	return rec, sent, err
}

// recordMessage records rec, or returns errHandled if its Message-ID is
// already recorded.
func recordMessage(tx *store.Tx, rec *store.Message, log *slog.Logger) error {
	err := tx.RecordMessage(rec)
	if errors.Is(err, store.ErrDuplicate) && rec.UID != nil {
		// Another message had this UID: the server reused UIDs under
		// the same UIDVALIDITY (the in-memory demo server does after
		// a restart). The Message-ID is new, so this one is new.
		log.Warn("the IMAP server reused a UID; recording the message without it", "uid", *rec.UID)
		rec.UIDValidity, rec.UID = nil, nil
		err = tx.RecordMessage(rec)
	}
	if errors.Is(err, store.ErrDuplicate) {
		// Without a UID only the Message-ID is unique: a concurrent
		// handler of the same message committed first.
		return errHandled
	}
	return err
}
