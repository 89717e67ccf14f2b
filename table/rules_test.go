package table_test

import (
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/table"
)

// TestHelpRules: HELP RULES by mail, in each language's keywords, answers
// with the rules of the game in the player's language, worked examples
// and all, from the player's table, within the reply bound.
func TestHelpRules(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{Mail: "replies_per_hour = 3"})
	const name = "rules"
	if err := h.Lobby.CreateTable(h.Ctx, name, "main", lexiotest.Emails("alice", "bob", "carol"), 5); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"alice", "bob", "carol"} {
		h.WaitMail(p, 1)
	}
	h.Expect(h.Fresh("bob", name, "IDIOMA es"), table.OutcomeApplied, "LANG es")
	h.Expect(h.Fresh("carol", name, "LANGUE fr"), table.OutcomeApplied, "LANG fr")

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
			id = h.SendMail(tc.player, lexiotest.MailSpec{Body: tc.command})
		} else {
			id = h.Fresh(tc.player, name, tc.command)
		}
		h.Expect(id, table.OutcomeApplied, "HELP RULES")
		m := h.LastOf(tc.player, "help-rules")
		if !strings.Contains(m.Subject, tc.subject) {
			t.Errorf("%s: subject %q, want %q", tc.command, m.Subject, tc.subject)
		}
		lexiotest.MustContain(t, tc.command+" text", m.Text, append(sums, tc.ending)...)
		lexiotest.MustContain(t, tc.command+" html", m.HTML, tc.ending)
		// From the player's table, so that a move in answer is played.
		if want := "lexio+" + h.Token(name, tc.player) + "@localhost"; m.ReplyTo != want {
			t.Errorf("%s: Reply-To %q, want %q", tc.command, m.ReplyTo, want)
		}
	}

	// Counted against the reply bound like every answer: alice's fourth
	// answer of the hour is the notice that replies are paused.
	h.Expect(h.Fresh("alice", name, "HELP RULES"), table.OutcomeApplied, "HELP RULES")
	h.Expect(h.Fresh("alice", name, "HELP RULES"), table.OutcomeApplied, "HELP RULES")
	h.Expect(h.Fresh("alice", name, "HELP RULES"), table.OutcomeApplied, "HELP RULES")
	h.OutboxEmpty()
	msgs := h.Inbox("alice")
	if n := len(lexiotest.OfKind(msgs, "help-rules")); n != 3 {
		t.Errorf("alice got %d rules mails, want 3", n)
	}
	if n := len(lexiotest.OfKind(msgs, "replies-paused")); n != 1 {
		t.Errorf("alice got %d notices that replies are paused, want 1", n)
	}
}
