package table_test

import (
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/table"
)

// TestHelpRules: HELP RULES by mail, in each language's keywords, answers
// with the rules of the game in the player's language, worked examples
// and all, from the player's table, within the reply bound.
func TestHelpRules(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOpts{mail: "replies_per_hour = 3"})
	const name = "rules"
	if err := h.lobby.CreateTable(h.ctx, name, "main", emails("alice", "bob", "carol"), 5); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"alice", "bob", "carol"} {
		h.waitMail(p, 1)
	}
	h.expect(h.fresh("bob", name, "IDIOMA es"), table.OutcomeApplied, "LANG es")
	h.expect(h.fresh("carol", name, "LANGUE fr"), table.OutcomeApplied, "LANG fr")

	sums := []string{"C 2 + H 4 + A 1 + T 1 = 8", "T 1 + A 1 + X 8 + I 1 × 2 = 12", "4 + 10 + 2 = 16", "90 + 2 + 30 = 122"}
	tests := []struct {
		player, command, subject, ending string
		plain                            bool // to the plain address, without a token
	}{
		{"alice", "HELP RULES", "The rules of Lexio", "Bob loses 9, Carol loses 10, Alice gains 19", false},
		{"bob", "AYUDA REGLAS", "Las reglas de Lexio", "Bruno pierde 9, Carla pierde 10, Alicia gana 19", false},
		{"carol", "Aide règles", "Les règles de Lexio", "Bob perd 9, Carole perd 10, Alice gagne 19", true},
	}
	for _, tc := range tests {
		var id string
		if tc.plain {
			id = h.sendMail(tc.player, mailSpec{Body: tc.command})
		} else {
			id = h.fresh(tc.player, name, tc.command)
		}
		h.expect(id, table.OutcomeApplied, "HELP RULES")
		m := h.lastOf(tc.player, "help-rules")
		if !strings.Contains(m.Subject, tc.subject) {
			t.Errorf("%s: subject %q, want %q", tc.command, m.Subject, tc.subject)
		}
		mustContain(t, tc.command+" text", m.Text, append(sums, tc.ending)...)
		mustContain(t, tc.command+" html", m.HTML, tc.ending)
		// From the player's table, so that a move in answer is played.
		if want := "lexio+" + h.token(name, tc.player) + "@localhost"; m.ReplyTo != want {
			t.Errorf("%s: Reply-To %q, want %q", tc.command, m.ReplyTo, want)
		}
	}

	// Counted against the reply bound like every answer: alice's fourth
	// answer of the hour is the notice that replies are paused.
	h.expect(h.fresh("alice", name, "HELP RULES"), table.OutcomeApplied, "HELP RULES")
	h.expect(h.fresh("alice", name, "HELP RULES"), table.OutcomeApplied, "HELP RULES")
	h.expect(h.fresh("alice", name, "HELP RULES"), table.OutcomeApplied, "HELP RULES")
	h.outboxEmpty()
	msgs := h.inbox("alice")
	if n := len(ofKind(msgs, "help-rules")); n != 3 {
		t.Errorf("alice got %d rules mails, want 3", n)
	}
	if n := len(ofKind(msgs, "replies-paused")); n != 1 {
		t.Errorf("alice got %d notices that replies are paused, want 1", n)
	}
}
