package table_test

import (
	"testing"

	"github.com/lexio-mail/lexio/table"
)

// TestNoLeagueSeason: STANDINGS, SIGNUP and WITHDRAW are read in every
// language and answered, from the sender's table, that there is no league
// season here yet; nothing changes.
func TestNoLeagueSeason(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOpts{})
	if err := h.lobby.CreateTable(h.ctx, "t1", "main", emails("alice", "bob"), 3); err != nil {
		t.Fatal(err)
	}
	notice := latestNotice(h.waitMail("alice", 1))
	for i, tc := range []struct{ cmd, want string }{
		{"STANDINGS", "STANDINGS"},
		{"inscrire autumn", "SIGNUP autumn"},
		{"retirar autumn", "WITHDRAW autumn"},
	} {
		id := h.replyTo("alice", notice, tc.cmd)
		h.expect(id, table.OutcomeRejected, "no-league-season")
		answers := ofKind(h.waitMail("alice", 2+i), "rejected")
		if len(answers) != i+1 {
			t.Fatalf("%d refusals after %q, want %d", len(answers), tc.cmd, i+1)
		}
		a := answers[len(answers)-1]
		mustContain(t, tc.cmd, a.Text, tc.want)
		if a.ReplyTo != notice.ReplyTo {
			t.Errorf("answer to %q from %q, want the table's reply address %q", tc.cmd, a.ReplyTo, notice.ReplyTo)
		}
	}
	if g := h.game("t1"); len(g.Actions()) != 0 {
		t.Errorf("the game changed: %d actions", len(g.Actions()))
	}
}
