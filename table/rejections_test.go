package table_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/table"
)

// TestRejections: refused moves by mail keep the turn and change nothing
// but the probe reserve (RULES §1.3, §6, EMAIL §1.5, §4.1).
func TestRejections(t *testing.T) { lexiotest.EachDriver(t, testRejections) }

func testRejections(t *testing.T, driver string) {
	lex := &lexiotest.Lexicon{}
	h := lexiotest.New(t, lexiotest.Options{Driver: driver, Dict: lex, Config: `
[[league]]
name = "tight"
reserve_size = 2
reserve_refill = "15s"
`})
	const name = "rej"
	if err := h.Lobby.CreateTable(h.Ctx, name, "tight", lexiotest.Emails("alice", "bob"), 7); err != nil {
		t.Fatal(err)
	}
	h.WaitMail("alice", 1)
	h.WaitMail("bob", 1)
	g := h.Game(name)
	cmd, play := lexiotest.FindPlay(g, 0)
	if cmd == "" {
		t.Fatal("no first move")
	}

	// Not your turn: refused, naming whose turn it is.
	id := h.Send("bob", cmd)
	h.Expect(id, table.OutcomeRejected, "not-your-turn")
	lexiotest.MustContain(t, "not-your-turn reply", lexiotest.Intro(h.LastOf("bob", "rejected").Text), "Alice")

	// RULES §6.4: tiles not on the rack name the problem and spend
	// nothing: the reserve, full, goes unsaid (EMAIL §4.1).
	id = h.Send("alice", "PLACE G7 ACROSS "+absent(g.Rack(0), 2))
	h.Expect(id, table.OutcomeRejected, "not-on-rack")
	lexiotest.MustNotContain(t, "not-on-rack reply", h.LastOf("alice", "rejected").Text, "Probe reserve")

	// RULES §6.1–6.2: an unknown word keeps the turn, names every word,
	// spends one attempt.
	id = h.Send("alice", cmd)
	h.Expect(id, table.OutcomeRejected, "unknown-words")
	r := h.LastOf("alice", "rejected")
	lexiotest.MustContain(t, "unknown-words reply", r.Text, "Probe reserve: 1 of 2")
	for _, w := range play.Words {
		lexiotest.MustContain(t, "unknown-words reply", r.Text, w.Text)
	}
	g = h.Game(name)
	if lexiotest.Turns(g) != 0 || g.Turn() != 0 {
		t.Fatalf("after a rejection: %d turns, turn %d", lexiotest.Turns(g), g.Turn())
	}
	if left, _ := g.Reserve(0, h.Clock.Now()); left != 1 {
		t.Errorf("alice's reserve %d, want 1", left)
	}

	// The next valid move is applied.
	lex.Add(play)
	h.Expect(h.Send("alice", cmd), table.OutcomeApplied, "PLACE")
	if g = h.Game(name); lexiotest.Turns(g) != 1 || g.Turn() != 1 {
		t.Fatalf("alice's move: %d turns, turn %d", lexiotest.Turns(g), g.Turn())
	}

	// RULES §6.3: bob spends his reserve; then even a valid word is
	// refused without its words being checked, until the clock refills it.
	cmd, play = lexiotest.FindPlay(g, 1)
	for i := 0; i < 2; i++ {
		h.Expect(h.Send("bob", cmd), table.OutcomeRejected, "unknown-words")
	}
	lexiotest.MustContain(t, "second probe", h.LastOf("bob", "rejected").Text, "Probe reserve: 0 of 2")
	lex.Add(play)
	// Refused for the reserve alone: the words were not judged.
	if rec := h.Expect(h.Send("bob", cmd), table.OutcomeRejected, "reserve-empty"); strings.Contains(rec.Reason, "unknown-words") {
		t.Errorf("reserve-empty judged the words: %q", rec.Reason)
	}
	lexiotest.MustContain(t, "reserve-empty reply", h.LastOf("bob", "rejected").Text, "Probe reserve: 0 of 2")
	if g = h.Game(name); lexiotest.Turns(g) != 1 || g.Turn() != 1 {
		t.Fatalf("after reserve-empty: %d turns, turn %d", lexiotest.Turns(g), g.Turn())
	}
	h.Clock.Add(15 * time.Second)
	h.Expect(h.Send("bob", cmd), table.OutcomeApplied, "PLACE")

	// EMAIL §1.5: alice answers her first notice although she has played
	// since: refused as stale, nothing changes.
	g = h.Game(name)
	cmd, play = lexiotest.FindPlay(g, 0)
	lex.Add(play)
	first := lexiotest.OfKind(h.Inbox("alice"), "turn-notice")[0]
	if lexiotest.Seq(first) != 0 {
		t.Fatalf("first notice %s", first.MessageID)
	}
	before := len(g.Actions())
	h.Expect(h.ReplyTo("alice", &first, cmd), table.OutcomeRejected, "stale")
	h.LastOf("alice", "rejected")
	if g = h.Game(name); len(g.Actions()) != before {
		t.Fatalf("a stale move changed the game: %d actions, had %d", len(g.Actions()), before)
	}
	// A fresh message, with no In-Reply-To, is meant for now.
	h.Expect(h.Fresh("alice", name, cmd), table.OutcomeApplied, "PLACE")
	if g = h.Game(name); lexiotest.Turns(g) != 3 || g.Turn() != 1 {
		t.Fatalf("fresh move: %d turns, turn %d", lexiotest.Turns(g), g.Turn())
	}
}

// TestProbeLog: a refused placement is logged where it was played, and
// the admin's move count counts turns, not probes or previews.
func TestProbeLog(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{Dict: lexiotest.Words{}})
	const name = "probe"
	if err := h.Lobby.CreateTable(h.Ctx, name, "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.WaitMail("alice", 1)
	cmd, play := lexiotest.FindPlay(h.Game(name), 0)
	preview := "PREVIEW" + strings.TrimPrefix(cmd, "PLACE")
	h.Expect(h.Fresh("alice", name, preview), table.OutcomeApplied, "PREVIEW")
	h.Expect(h.Fresh("alice", name, cmd), table.OutcomeRejected, "unknown-words")
	h.Expect(h.Fresh("alice", name, "LOG"), table.OutcomeApplied, "LOG")
	start := play.Words[0].Start
	cell := fmt.Sprintf("%c%d", 'A'+start.Col, start.Row+1)
	lexiotest.MustContain(t, "the log", h.LastOf("alice", "log-reply").Text, play.Words[0].Text, cell)

	ts, err := h.Views.List(h.Ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 1 || ts[0].Moves != 0 {
		t.Fatalf("after a preview and a probe: %d tables, moves %d; want 0 moves", len(ts), ts[0].Moves)
	}
	h.Expect(h.Fresh("alice", name, "PASS"), table.OutcomeApplied, "PASS")
	if sum, err := h.Views.Show(h.Ctx, name); err != nil || sum.Moves != 1 {
		t.Errorf("after a pass: moves %d (%v), want 1", sum.Moves, err)
	}
}

// absent returns n letters that are not on the rack.
func absent(rack []byte, n int) string {
	var out []byte
	for c := byte('A'); c <= 'Z' && len(out) < n; c++ {
		if !strings.ContainsRune(string(rack), rune(c)) {
			out = append(out, c)
		}
	}
	return string(out)
}

// TestNotYourTurnElsewhere: a move sent to a table where it is not the
// author's turn is answered with the tables where it is (#34), by name,
// and never with "if it was your turn, it still is".
func TestNotYourTurnElsewhere(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{Dict: &lexiotest.Lexicon{}})
	for _, tb := range []struct {
		name    string
		players []string
	}{{"here", []string{"alice", "bob"}}, {"mine", []string{"bob", "carol"}}, {"theirs", []string{"carol", "bob"}}} {
		if err := h.Lobby.CreateTable(h.Ctx, tb.name, "main", lexiotest.Emails(tb.players...), 7); err != nil {
			t.Fatal(err)
		}
	}
	h.Settle()
	g := h.Game("here")
	h.Expect(h.Fresh("bob", "here", lexiotest.FindMove(g, 0)), table.OutcomeRejected, "not-your-turn")
	r := h.LastOf("bob", "rejected")
	lexiotest.MustContain(t, "not-your-turn reply", r.Text, "Alice's", "It is your turn at table mine:")
	lexiotest.MustNotContain(t, "not-your-turn reply", r.Text, "it still is", "theirs")
	lexiotest.MustContain(t, "not-your-turn reply", r.HTML, "It is your turn at table mine:")

	// Any other refusal keeps the sentence.
	h.Expect(h.Fresh("alice", "here", "PLACE H8 ACROSS QQQQ"), table.OutcomeRejected, "")
	lexiotest.MustContain(t, "another refusal", h.LastOf("alice", "rejected").Text, "If it was your turn, it still is")
}
