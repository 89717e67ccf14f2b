// Package player owns what is a player's own: their list of tables
// (GAMES), the language and time zone of their mail (LANG, TZ), their
// vacations and yearly allowance (VACATION, LEAGUES §3.2) and what they
// do: their tables' deadlines follow, the other players are told when one
// begins and ends (a scheduler job), a move ends a running one (the
// table calls EndByMove); which mail they get (NOTIFY, the
// List-Unsubscribe address and the web's one-click unsubscribe; LEAGUES
// §5) and the daily digest; the mail side of the time they give the
// player on move at one of their tables (GIVE, whose rule is the
// table's: table.Service.Give); their private note on each of their
// tables (NOTE), which their notices and page show to them alone. It
// answers the commands the inbox routes to it and runs its jobs for the
// scheduler.
//
// It knows nothing of the rules of the game, of how mail is read or
// authenticated, or of leagues. How a vacation or a gift moves a
// deadline, and what a gift may be, are the table's
// (table.Service.Reschedule, Replan, Give); it writes mail through
// package notice.
package player

import (
	"log/slog"

	"github.com/lexio-mail/lexio/table"
)

// Service answers a player's preferences.
type Service struct {
	table.Part
}

// New returns the preferences of the players at tables, logging to log
// (the tables' own when nil).
func New(tables *table.Service, log *slog.Logger) *Service {
	return &Service{Part: tables.Part(log)}
}
