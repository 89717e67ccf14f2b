package tableview

import (
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/engine"
)

// TestLogTextLeaving: table show names resignations, forfeits and
// substitutions (LEAGUES §2.4, §4.1).
func TestLogTextLeaving(t *testing.T) {
	players := []string{"alice@localhost", "bob@localhost"}
	for _, tc := range []struct {
		e    engine.LogEntry
		want string
	}{
		{engine.LogEntry{Kind: engine.LogResign, Player: 1, Count: 7}, "resigned, 7 tiles back in the bag"},
		{engine.LogEntry{Kind: engine.LogResign, Player: 0, Forfeit: true}, "forfeited (turns expired in a row)"},
		{engine.LogEntry{Kind: engine.LogSubst, Player: 1, From: "Bob", To: "Dave"}, "seat passed from Bob to Dave"},
	} {
		if got := LogText(tc.e, players); !strings.Contains(got, tc.want) {
			t.Errorf("%q lacks %q", got, tc.want)
		}
	}
}
