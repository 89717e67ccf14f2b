// Package table is the service that runs tables by mail: one inbound
// message becomes one database transaction that dedupes it, authenticates
// its sender (EMAIL §1), applies its command through the engine, appends
// to the table's log and writes every outgoing mail to the outbox.
package table

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/lexio-mail/lexio/config"
	"github.com/lexio-mail/lexio/dict"
	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/internal/weblink"
	"github.com/lexio-mail/lexio/internal/zone"
	"github.com/lexio-mail/lexio/mailer"
	"github.com/lexio-mail/lexio/notice"
	"github.com/lexio-mail/lexio/parser"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/templates"
)

// Options are the service's dependencies; all but Logger, Now and Poke
// are required.
type Options struct {
	Config    *config.Config
	Store     *store.Store
	Dict      engine.Dictionary
	Templates *templates.Set
	Secret    []byte
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Poke is called after a commit that wrote mail to the outbox, to wake
	// the dispatcher.
	Poke   func()
	Logger *slog.Logger
	// Links, when set, are the web side's links (EMAIL §7): every mail
	// about a table to one of its players links to the player's page,
	// List-Unsubscribe carries the one-click URL. Nil: the web side is
	// off, and no mail speaks of it.
	Links *weblink.Links
	// Gaddag holds Dict's words for move generation: the computer's seats
	// and what a player missed. Nil: neither.
	Gaddag *dict.Gaddag
}

// Service handles messages and deadlines. It is safe for concurrent use:
// every change goes through one store transaction.
type Service struct {
	cfg    *config.Config
	store  *store.Store
	dict   engine.Dictionary
	tmpl   *templates.Set
	tokens *mailer.Tokens
	links  *weblink.Links // nil when the web side is off
	gaddag *dict.Gaddag   // nil: no move generation
	now    func() time.Time
	log    *slog.Logger
	// notices write the service's mail.
	notices *notice.Writer
	// local and domain split the service's address.
	local, domain string
	// zone is the configuration's time zone, a player's until they
	// write TZ.
	zone *time.Location
	// prefs answer the commands about a player's preferences.
	prefs Preferences
	// seasons hear of the tables of league seasons.
	seasons Seasons
	// tickHook, nil but in tests (export_test.go), runs in each table's
	// deadline transaction (EnforceDeadlines) between its read and its writes.
	tickHook func(tableID int64)
}

// New checks the options and returns a Service.
func New(o Options) (*Service, error) {
	if o.Config == nil || o.Store == nil || o.Dict == nil || o.Templates == nil {
		return nil, errors.New("table: config, store, dictionary and templates are required")
	}
	if len(o.Secret) < 16 {
		return nil, errors.New("table: the token secret must hold at least 16 bytes")
	}
	local, domain, ok := strings.Cut(o.Config.Mail.Address, "@")
	if !ok {
		return nil, fmt.Errorf("table: service address %q", o.Config.Mail.Address)
	}
	s := &Service{
		cfg: o.Config, store: o.Store, dict: o.Dict, tmpl: o.Templates,
		tokens: mailer.NewTokens(o.Secret), links: o.Links, gaddag: o.Gaddag,
		now: o.Now, log: o.Logger,
		local: local, domain: domain,
	}
	s.zone = time.UTC
	if o.Config.TimeZone != "" {
		loc, err := zone.Load(o.Config.TimeZone)
		if err != nil {
			return nil, fmt.Errorf("table: time_zone %q: %w", o.Config.TimeZone, err)
		}
		s.zone = loc
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	var err error
	s.notices, err = notice.New(notice.Options{Config: o.Config, Templates: o.Templates, Tokens: s.tokens,
		Links: o.Links, Poke: o.Poke, Logger: s.log})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Preferences answers the commands that set a player's preferences
// (package player): the inbox routes them there.
type Preferences interface {
	// Lang answers LANG, Zone TZ, Notify NOTIFY.
	Lang(r *Request, t *Table, lang string) error
	Zone(r *Request, t *Table, name string) error
	Notify(r *Request, t *Table, mode, table string) error
	// Vacation answers VACATION (LEAGUES §3.2).
	Vacation(r *Request, t *Table, v *parser.Vacation) error
	// Unsubscribe answers a message to a List-Unsubscribe address.
	Unsubscribe(r *Request) error
}

// SetPreferences routes the commands about a player's preferences to p;
// the wiring calls it once, before any mail is handled.
func (s *Service) SetPreferences(p Preferences) { s.prefs = p }

// Seasons is what the tables need of the league seasons they may belong
// to (package season): each is called in the transaction of the table's
// change.
type Seasons interface {
	// Ended records the end of t's game in its season (LEAGUES §8–§10);
	// the table calls it once, with its last action.
	Ended(tx *store.Tx, t *Table, now time.Time) error
	// EndDue closes t's season if its end has come by now (LEAGUES
	// §7.3) and reports whether it did, t then being stale.
	EndDue(tx *store.Tx, t *Table, now time.Time, out *notice.Batch) (bool, error)
	// EndStandings is the division's standings for t's game-over mail
	// (LEAGUES §9.2); nil for a table of no season.
	EndStandings(tx *store.Tx, t *Table, now time.Time) (*notice.Division, error)
	// JoinDivision makes the new holder of a seat a member of its
	// division (LEAGUES §8.2).
	JoinDivision(tx *store.Tx, t *Table, playerID int64) error
	// AnswerStandings answers STANDINGS, Signup SIGNUP and WITHDRAW.
	AnswerStandings(r *Request, t *Table, league string) error
	Signup(r *Request, t *Table, league string, withdraw bool) error
}

// SetSeasons makes the tables tell s of their seasons; the wiring calls
// it once, before anything else.
func (s *Service) SetSeasons(ss Seasons) { s.seasons = ss }

// Notices is the service's mail writer.
func (s *Service) Notices() *notice.Writer { return s.notices }

// Tokens returns the service's reply tokens (the CLI's mail client and
// tests use it to address a table).
func (s *Service) Tokens() *mailer.Tokens { return s.tokens }

func (s *Service) parserOptions() parser.Options {
	return parser.Options{
		ServiceAddress: s.cfg.Mail.Address,
		MaxBytes:       s.cfg.Mail.MaxMessageBytes,
		TokenInSubject: s.cfg.Mail.TokenInSubject,
	}
}

// errHandled: the message's Message-ID is recorded, by an earlier delivery
// or by a concurrent handler that committed first.
var errHandled = errors.New("table: message already handled")

// HandleMessage applies one inbound message exactly once (EMAIL §2.2). It
// returns an error only when the message should be tried again later (the
// database is busy or unreachable, the context ended, conflicts went on);
// anything wrong with the message itself is recorded, answered where
// useful, and gives nil so that the mailbox moves on. A transaction that
// meets a conflict runs again on the fresh state: a move that raced an
// expiry is then judged after it.
func (s *Service) HandleMessage(ctx context.Context, in mailer.Inbound) error {
	if s.prefs == nil {
		return notice.Permanent(errors.New("table: no preferences service: the wiring must call SetPreferences"))
	}
	m := parser.Parse(in.Raw, s.parserOptions())
	if in.Truncated && m.Ignored == "" {
		m.Command = nil
		m.Err = &parser.Error{Kind: parser.TooLarge, Detail: fmt.Sprintf("%d bytes", in.Size)}
	}
	id := inboundID(m, in.Raw)
	log := s.log.With("message_id", id, "from", m.From)

	var rec *store.Message
	var sent int
	err := notice.Retry(ctx, log, "message", func() error {
		var err error
		rec, sent, err = s.handleOnce(ctx, in, m, id, log)
		return err
	})
	switch {
	case errors.Is(err, errHandled):
		log.Info("message already handled")
		return nil
	case err != nil && ctx.Err() == nil && !notice.Temporary(err):
		// A message we cannot handle must not block the mailbox: record
		// it as an error, without any game change, and move on.
		log.Error("message failed", "err", err)
		rec.Outcome, rec.Reason, rec.TableID = store.OutcomeError, err.Error(), nil
		err = s.store.Tx(ctx, func(tx *store.Tx) error { return recordMessage(tx, rec, log) })
		if errors.Is(err, errHandled) {
			return nil
		}
		return err
	case err != nil:
		// A cancelled context (shutdown) or a temporary error: the
		// message stays where it is, to be tried again.
		return err
	}
	log.Info("message handled", "outcome", rec.Outcome, "reason", rec.Reason, "mails", sent)
	if sent > 0 {
		s.notices.Poke()
	}
	return nil
}

// handleOnce runs the message's transaction once, on the state and at the
// time it finds, and returns its record and how many mails it queued.
func (s *Service) handleOnce(ctx context.Context, in mailer.Inbound, m *parser.Message, id string, log *slog.Logger) (*store.Message, int, error) {
	now := s.now()
	rec := inboundRecord(in, m, id, now)
	var sent int
	err := s.store.Tx(ctx, func(tx *store.Tx) error {
		// The Message-ID decides (EMAIL §2.2): a redelivered copy, or the
		// same message seen again after a crash, is not applied twice.
		seen, err := tx.MessageSeen(id)
		if err != nil {
			return err
		}
		if seen {
			return errHandled
		}
		h := &Request{s: s, Tx: tx, Msg: m, Rec: rec, Now: now, Log: log, size: in.Size, Out: s.notices.NewBatch(now)}
		if err := h.run(); err != nil {
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

// zoneOf is the zone a player's stored time zone names: the
// configuration's for "" (or, should one be stored, a name the tz
// database no longer knows).
func (s *Service) ZoneOf(name string) *time.Location {
	if name == "" {
		return s.zone
	}
	loc, err := zone.Load(name)
	if err != nil {
		s.log.Warn("a player's time zone is unknown: the configuration's applies", "zone", name)
		return s.zone
	}
	return loc
}
