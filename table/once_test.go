package table_test

import (
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/table"
)

// TestSaidOnce: the mail a newcomer gets says each thing once (#34). A
// refusal says what is left of the probe reserve when it spent a try or
// few are left, never for a shape mistake or a move out of turn while the
// reserve is full (RULES §6, EMAIL §4.1); a refused play is told in the
// answer to it and in LOG, never in a later notice; a turn notice tells
// the last move once, in words.
func TestSaidOnce(t *testing.T) {
	t.Parallel()
	lex := &lexiotest.Lexicon{}
	h := lexiotest.New(t, lexiotest.Options{Dict: lex, Config: `
[[league]]
name = "five"
reserve_size = 5
reserve_refill = "24h"
`})
	const name = "once"
	if err := h.Lobby.CreateTable(h.Ctx, name, "five", lexiotest.Emails("alice", "bob"), 7); err != nil {
		t.Fatal(err)
	}
	h.WaitMail("alice", 1)
	h.WaitMail("bob", 1)
	g := h.Game(name)
	cmd, play := lexiotest.FindPlay(g, 0)
	refusal := func(who string) string {
		t.Helper()
		return h.LastOf(who, "rejected").Text
	}

	// Out of turn, and a shape mistake: nothing spent, the reserve full.
	h.Expect(h.Fresh("bob", name, cmd), table.OutcomeRejected, "not-your-turn")
	lexiotest.MustNotContain(t, "not your turn", refusal("bob"), "Probe reserve")
	h.Expect(h.Fresh("alice", name, "PLACE G7 ACROSS "+absent(g.Rack(0), 2)), table.OutcomeRejected, "not-on-rack")
	lexiotest.MustNotContain(t, "not on the rack", refusal("alice"), "Probe reserve")

	// An unknown word spends a try: said, though the reserve is not low.
	h.Expect(h.Fresh("alice", name, cmd), table.OutcomeRejected, "unknown-words")
	lexiotest.MustContain(t, "an unknown word", refusal("alice"), "Probe reserve: 4 of 5")
	h.Expect(h.Fresh("alice", name, cmd), table.OutcomeRejected, "unknown-words")
	// Three left: low, so even a shape mistake says it.
	h.Expect(h.Fresh("alice", name, cmd), table.OutcomeRejected, "unknown-words")
	h.Expect(h.Fresh("alice", name, "PLACE G7 ACROSS "+absent(g.Rack(0), 2)), table.OutcomeRejected, "not-on-rack")
	lexiotest.MustContain(t, "a shape mistake, the reserve low", refusal("alice"), "Probe reserve: 2 of 5")

	// Alice plays; Bob passes. Neither notice tells Alice's refusals, and
	// each tells the last move once.
	lex.Add(play)
	h.Expect(h.Fresh("alice", name, cmd), table.OutcomeApplied, "PLACE")
	word := play.Words[0].Text
	for _, who := range []string{"alice", "bob"} {
		text := oneLine(h.LastOf(who, "turn-notice").Text)
		lexiotest.MustNotContain(t, who+"'s notice of Alice's move", text, "was refused", "Probe reserve")
		if n := strings.Count(text, word); n != 2 { // told, and among the board's words
			t.Errorf("%s's notice of Alice's move names %s %d times, want twice (the move, the board's words):\n%s", who, word, n, text)
		}
	}
	lexiotest.MustContain(t, "bob's notice", oneLine(h.LastOf("bob", "turn-notice").Text), "Alice played "+word+" at ")
	h.Expect(h.Fresh("bob", name, "PASS"), table.OutcomeApplied, "PASS")
	text := oneLine(h.LastOf("alice", "turn-notice").Text)
	lexiotest.MustNotContain(t, "alice's notice of bob's pass", text, "was refused")
	if n := strings.Count(text, "Bob passed."); n != 1 {
		t.Errorf("alice's notice says Bob's pass %d times, want once:\n%s", n, text)
	}
	if n := strings.Count(text, "Alice played "+word); n != 1 {
		t.Errorf("alice's notice lists her move %d times, want once:\n%s", n, text)
	}
	if at, pass := strings.Index(text, "Hello Alice, "), strings.Index(text, "Bob passed."); at < 0 || pass != at+len("Hello Alice, ") {
		t.Errorf("alice's notice does not open with Bob's pass:\n%s", text)
	}

	// LOG, the whole record, keeps them: what spent the tries.
	h.Expect(h.Fresh("alice", name, "LOG"), table.OutcomeApplied, "LOG")
	if n := strings.Count(h.LastOf("alice", "log-reply").Text, "was refused"); n != 3 {
		t.Errorf("alice's LOG tells %d refused plays, want 3", n)
	}
}

// oneLine is a text part's words on one line, its wrapping undone.
func oneLine(text string) string { return strings.Join(strings.Fields(text), " ") }
