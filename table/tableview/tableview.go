// Package tableview reads tables for those who look at them from outside
// the mail, in read transactions that change nothing: the operator's
// list and description of each table (lexio table list and show, the
// spectators' link) and the web's pages (web.Source, EMAIL §7).
//
// It knows nothing of commands, deadlines or mail: a table is loaded and
// rebuilt by package table, its notices' data drawn by it too.
package tableview

import (
	"log/slog"

	"github.com/lexio-mail/lexio/table"
)

// Service reads tables.
type Service struct {
	table.Part
}

// New returns the reads of tables, logging to log (the tables' own when
// nil).
func New(tables *table.Service, log *slog.Logger) *Service {
	return &Service{Part: tables.Part(log)}
}
