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
	"log/slog"

	"github.com/lexio-mail/lexio/lobby"
	"github.com/lexio-mail/lexio/table"
)

// Service runs the seasons of the configuration's leagues.
type Service struct {
	table.Part
	// lobby opens a season's tables.
	lobby *lobby.Service
}

// New returns the seasons of the leagues whose tables are tables', opened
// by lob, logging to log (the tables' own when nil).
func New(tables *table.Service, lob *lobby.Service, log *slog.Logger) *Service {
	return &Service{Part: tables.Part(log), lobby: lob}
}
