package table

import (
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
