package table

import (
	"strings"

	"github.com/lexio-mail/lexio/templates"
)

// RefuseAlike refuses cmd about table name with the one reason shown,
// whatever why is: where the true reasons differ only by whether a table
// exists (or is private, full, started), telling them apart would let a
// stranger probe which tables there are (LEAGUES §5, §6). The answer
// goes from t, is counted against the sender's error replies, and names
// the table only as it was written; the record keeps why, for the
// operator.
func (h *Request) RefuseAlike(t *Table, cmd string, shown templates.ReasonKind, name string, why templates.ReasonKind) error {
	if err := h.Refuse(t, cmd, []templates.Reason{{Kind: shown, Detail: name}}, true); err != nil {
		return err
	}
	h.Outcome(OutcomeRejected, string(why)+", answered "+string(shown))
	return nil
}

// RefuseWhichTable answers cmd, which acts on one table but names none
// and came through no table's reply address (NOTE, GIVE, REMATCH at the
// plain address, #34): no table is guessed. The answer names the
// sender's tables and goes from their one table not over, if any
// (ReplyTable), so that the command sent again in answer to it acts
// there.
func (h *Request) RefuseWhichTable(cmd string) error {
	rows, err := h.Tx.TablesOfPlayer(h.Msg.From)
	if err != nil {
		return err
	}
	names := make([]string, len(rows))
	for i := range rows {
		names[i] = rows[i].Name
	}
	from, err := h.ReplyTable(nil)
	if err != nil {
		return err
	}
	return h.Refuse(from, cmd, []templates.Reason{{Kind: templates.ReasonWhichTable, Detail: strings.Join(names, ", ")}}, true)
}
