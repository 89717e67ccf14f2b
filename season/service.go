// Package season owns a league's seasons (LEAGUES §7–§10): starting one
// with its divisions and tables, recording each table's end with its
// results and ratings, closing a season at its end (adjudicating what is
// still played), the standings, STANDINGS, SIGNUP and WITHDRAW, the
// weekly standings mail, and the league's web page.
//
// A table reaches it through table.Seasons, set by the wiring, inside the
// transaction of the table's last action. It knows nothing of how mail is
// read or written beyond package notice, and leaves the rules of a season
// that need no storage (pairing, standings, ratings) to package league.
package season

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

// Service runs the seasons of the configuration's leagues.
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
		return nil, errors.New("season: config, store and tables are required")
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
