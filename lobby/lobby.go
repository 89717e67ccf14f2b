// Package lobby gathers players at tables by mail (LEAGUES §6): NEW
// opens a table, for anyone who JOINs or for its invitees only; JOIN,
// START, DECLINE, and STOP (never invite me again), through a table's or
// an invitation's reply address; the invitations themselves, their
// bounds on mail to people who never played here, their expiry, and the
// lapse of open tables never started. Once a game starts, the table is
// package table's.
//
// It knows nothing of how mail is read or whose it is (package inbox
// routes to it), nor of the rules of the game.
package lobby

import (
	"errors"
	"log/slog"
	"strings"
	"time"

	"github.com/lexio-mail/lexio/config"
	"github.com/lexio-mail/lexio/mailer"
	"github.com/lexio-mail/lexio/notice"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/table"
)

// Options are a Service's dependencies; Now and Logger may be nil.
type Options struct {
	Config *config.Config
	Store  *store.Store
	Tables *table.Service
	Now    func() time.Time
	Logger *slog.Logger
}

// Service answers the lobby's commands and runs its jobs.
type Service struct {
	cfg     *config.Config
	store   *store.Store
	tables  *table.Service
	notices *notice.Writer
	tokens  *mailer.Tokens
	now     func() time.Time
	log     *slog.Logger
	// local and domain split the service's address.
	local, domain string
}

// New checks the options and returns a Service.
func New(o Options) (*Service, error) {
	if o.Config == nil || o.Store == nil || o.Tables == nil {
		return nil, errors.New("lobby: config, store and tables are required")
	}
	s := &Service{cfg: o.Config, store: o.Store, tables: o.Tables, notices: o.Tables.Notices(), tokens: o.Tables.Tokens(), now: o.Now, log: o.Logger}
	s.local, s.domain, _ = strings.Cut(o.Config.Mail.Address, "@")
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	return s, nil
}
