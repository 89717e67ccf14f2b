// Package lobby gathers players at tables by mail (LEAGUES §6): NEW
// opens a table, for anyone who JOINs or for its invitees only; REMATCH
// opens one for the players of an ended game, turned by a seat; JOIN,
// START, DECLINE, and STOP (never invite me again), through a table's or
// an invitation's reply address; the invitations themselves, their
// bounds on mail to people who never played here, their expiry, and the
// lapse of open tables never started; and the tables opened with their
// players known: the operator's, the configuration's and a league
// season's (Create). Once a game starts, the table is package table's.
//
// It knows nothing of how mail is read or whose it is (package inbox
// routes to it), nor of the rules of the game.
package lobby

import (
	"log/slog"
	"strings"

	"github.com/lexio-mail/lexio/table"
)

// Service answers the lobby's commands and runs its jobs.
type Service struct {
	table.Part
	// local and domain split the service's address.
	local, domain string
}

// New returns the lobby of tables, logging to log (the tables' own when
// nil).
func New(tables *table.Service, log *slog.Logger) *Service {
	s := &Service{Part: tables.Part(log)}
	s.local, s.domain, _ = strings.Cut(s.Cfg.Mail.Address, "@")
	return s
}
