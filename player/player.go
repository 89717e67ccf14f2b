// Package player owns what is a player's own: their list of tables
// (GAMES), the language and time zone of their mail (LANG, TZ), their
// vacations and yearly allowance (VACATION, LEAGUES §3.2), which mail
// they get (NOTIFY, the List-Unsubscribe address and the web's one-click
// unsubscribe; LEAGUES §5) and the daily digest. It answers the commands
// the inbox routes to it and runs the digest job for the scheduler.
//
// It knows nothing of the rules of the game, of how mail is read or
// authenticated, or of leagues. What a vacation does to a table's
// deadlines, and telling the other players, is the table's
// (table.Service.Reclock); it writes mail through package notice.
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
