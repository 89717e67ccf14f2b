// Package player owns a player's preferences: the language and time zone
// of their mail (LANG, TZ), their vacations and yearly allowance
// (VACATION, LEAGUES §3.2), which mail they get (NOTIFY, the
// List-Unsubscribe address and the web's one-click unsubscribe; LEAGUES
// §5) and the daily digest. It answers the commands the inbox routes
// to it and runs the digest job for the scheduler.
//
// It knows nothing of the rules of the game, of how mail is read or
// authenticated, or of leagues. What a vacation does to a table's
// deadlines, and telling the other players, is the table's
// (table.Service.Reclock); it writes mail through package notice.
package player

import (
	"errors"
	"log/slog"
	"time"

	"github.com/lexio-mail/lexio/config"
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

// Service answers a player's preferences.
type Service struct {
	cfg     *config.Config
	store   *store.Store
	tables  *table.Service
	notices *notice.Writer
	now     func() time.Time
	log     *slog.Logger
}

// New checks the options and returns a Service.
func New(o Options) (*Service, error) {
	if o.Config == nil || o.Store == nil || o.Tables == nil {
		return nil, errors.New("player: config, store and tables are required")
	}
	s := &Service{cfg: o.Config, store: o.Store, tables: o.Tables, notices: o.Tables.Notices(), now: o.Now, log: o.Logger}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	return s, nil
}
