// Package table owns the table aggregate: a table loaded in a
// transaction and rebuilt from its log (the log is the truth), saved with
// optimistic locking; the commands that act on a table — placements,
// exchanges, passes, previews, BOARD, LOG, SAY, RESIGN, a substitute, the
// computer's turns; deadlines, reminders and expiries (EMAIL §5), how a
// player's vacations move their deadlines (LEAGUES §3.2), and GIVE's rule,
// time given to the player on move (Give, an operation without mail). A
// Request is one inbound message inside its transaction, with the
// answers it gives.
//
// It knows nothing of how mail is read or whose it is, nor of the reply
// bounds (package inbox, through Front), of gathering players (lobby), of
// a player's preferences and the notices of their vacations (player,
// which a move reaches through Vacations), of the reads from outside the
// mail (tableview), or of league seasons (season), which hears of a
// season table's end through Seasons. The wiring sets Seasons and
// Vacations.
package table

import (
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
	"github.com/lexio-mail/lexio/mailer/replytoken"
	"github.com/lexio-mail/lexio/notice"
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
	tokens *replytoken.Tokens
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
	// seasons hear of the tables of league seasons.
	seasons Seasons
	// vacations end a player's vacation when they move.
	vacations Vacations
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
		tokens: replytoken.NewTokens(o.Secret), links: o.Links, gaddag: o.Gaddag,
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

// Seasons is what the tables need of the league seasons they may belong
// to (package season): each is called in the transaction of the table's
// change.
type Seasons interface {
	// Ended records the end of t's game in its season (LEAGUES §8–§10);
	// the table calls it once, with its last action.
	Ended(tx *store.Tx, t *Table, now time.Time) error
	// EndStandings is the division's standings for t's game-over mail
	// (LEAGUES §9.2); nil for a table of no season.
	EndStandings(tx *store.Tx, t *Table, now time.Time) (*notice.Division, error)
	// JoinDivision makes the new holder of a seat a member of its
	// division (LEAGUES §8.2).
	JoinDivision(tx *store.Tx, t *Table, playerID int64) error
}

// SetSeasons makes the tables tell s of their seasons; the wiring calls
// it once, before anything else.
func (s *Service) SetSeasons(ss Seasons) { s.seasons = ss }

// Vacations is what a move needs of the players' vacations (package
// player), called in the move's transaction.
type Vacations interface {
	// EndByMove ends the running vacation of pl, who just moved at a
	// table that honours vacations (LEAGUES §3.2): their tables'
	// deadlines follow (Reschedule) and the other players are told.
	EndByMove(tx *store.Tx, pl *store.Player, now time.Time, log *slog.Logger, out *notice.Batch) error
}

// SetVacations makes a move end its player's vacation through v; the
// wiring calls it once, before anything else.
func (s *Service) SetVacations(v Vacations) { s.vacations = v }

// Part is what a package that acts through the tables (lobby, player,
// season, inbox, tableview) holds of the service: its configuration,
// store, clock, mail writer, tokens and web links (nil when the web side
// is off), and the tables themselves.
type Part struct {
	Cfg     *config.Config
	Store   *store.Store
	Tables  *Service
	Notices *notice.Writer
	Tokens  *replytoken.Tokens
	Links   *weblink.Links
	Now     func() time.Time
	Log     *slog.Logger
}

// Part is the service as a package that acts through it holds it,
// logging to log (the service's own when nil).
func (s *Service) Part(log *slog.Logger) Part {
	if log == nil {
		log = s.log
	}
	return Part{Cfg: s.cfg, Store: s.store, Tables: s, Notices: s.notices, Tokens: s.tokens, Links: s.links, Now: s.now, Log: log}
}

// CanPlay reports whether the service can seat the computer: it has the
// GADDAG of its dictionary for move generation.
func (s *Service) CanPlay() bool { return s.gaddag != nil }

// Notices is the service's mail writer.
func (s *Service) Notices() *notice.Writer { return s.notices }

// Tokens returns the service's reply tokens (the CLI's mail client and
// tests use it to address a table).
func (s *Service) Tokens() *replytoken.Tokens { return s.tokens }

// ZoneOf is the zone a player's stored time zone names: the
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
