package season_test

import (
	"testing"

	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/table"
)

// TestNoLeagueSeason: STANDINGS, SIGNUP and WITHDRAW are read in every
// language and answered, from the sender's table, that there is no league
// season here yet; nothing changes.
func TestNoLeagueSeason(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{})
	if err := h.Lobby.CreateTable(h.Ctx, "t1", "main", lexiotest.Emails("alice", "bob"), 3); err != nil {
		t.Fatal(err)
	}
	notice := lexiotest.LatestNotice(h.WaitMail("alice", 1))
	for i, tc := range []struct{ cmd, want string }{
		{"STANDINGS", "STANDINGS"},
		{"inscrire autumn", "SIGNUP autumn"},
		{"retirar autumn", "WITHDRAW autumn"},
	} {
		id := h.ReplyTo("alice", notice, tc.cmd)
		h.Expect(id, table.OutcomeRejected, "no-league-season")
		answers := lexiotest.OfKind(h.WaitMail("alice", 2+i), "rejected")
		if len(answers) != i+1 {
			t.Fatalf("%d refusals after %q, want %d", len(answers), tc.cmd, i+1)
		}
		a := answers[len(answers)-1]
		lexiotest.MustContain(t, tc.cmd, a.Text, tc.want)
		if a.ReplyTo != notice.ReplyTo {
			t.Errorf("answer to %q from %q, want the table's reply address %q", tc.cmd, a.ReplyTo, notice.ReplyTo)
		}
	}
	if g := h.Game("t1"); len(g.Actions()) != 0 {
		t.Errorf("the game changed: %d actions", len(g.Actions()))
	}
}
