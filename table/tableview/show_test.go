package tableview_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/engine/board"
	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/table/tableview"
)

// TestShowNumbersAsLog: table show and list count and number the moves
// as the players' LOG does (#34): a refusal, private to its author, is
// neither counted nor listed, where they used to count as log entries.
func TestShowNumbersAsLog(t *testing.T) {
	t.Parallel()
	lex := &lexiotest.Lexicon{}
	h := lexiotest.New(t, lexiotest.Options{Dict: lex})
	const name = "shown"
	if err := h.Lobby.CreateTable(h.Ctx, name, "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.WaitMail("alice", 1)
	// alice is refused a word, then it is a word: turn 1.
	cmd, play := lexiotest.FindPlay(h.Game(name), 0)
	h.Expect(h.Fresh("alice", name, cmd), table.OutcomeRejected, "unknown-words")
	lex.Add(play)
	h.Expect(h.Fresh("alice", name, cmd), table.OutcomeApplied, "PLACE")
	// bob is refused a word, then passes: turn 2.
	bobCmd, _ := lexiotest.FindPlay(h.Game(name), 1)
	h.Expect(h.Fresh("bob", name, bobCmd), table.OutcomeRejected, "unknown-words")
	h.Expect(h.Fresh("bob", name, "PASS"), table.OutcomeApplied, "PASS")
	h.Expect(h.Fresh("alice", name, "LOG"), table.OutcomeApplied, "LOG")
	numbered := regexp.MustCompile(`(?m)^ +(\d+)\. `)
	logMail := h.LastOf("alice", "log-reply").Text
	if n := numbered.FindAllStringSubmatch(logMail, -1); len(n) != 2 || n[1][1] != "2" {
		t.Fatalf("alice's LOG numbers %v:\n%s", n, logMail)
	}

	ts, err := h.Views.List(h.Ctx)
	if err != nil || len(ts) != 1 || ts[0].Moves != 2 {
		t.Fatalf("list: %v, %+v; want 2 moves", err, ts)
	}
	sum, err := h.Views.Show(h.Ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	tableview.WriteShow(&out, sum, "")
	got := out.String()
	dir := "across"
	if play.Dir == board.Down {
		dir = "down"
	}
	start := play.Words[0].Start
	for _, want := range []string{
		"moves 2\n",
		fmt.Sprintf("alice@localhost          placed %s at %c%d %s: %d points", play.Words[0].Text, 'A'+start.Col, start.Row+1, dir, play.Score),
		"bob@localhost            passed",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
	if n := regexp.MustCompile(`(?m)^ +(\d+)\. \d{4}-`).FindAllStringSubmatch(got, -1); len(n) != 2 || n[0][1] != "1" || n[1][1] != "2" {
		t.Errorf("show numbers %v, as LOG 1 and 2:\n%s", n, got)
	}
	if strings.Contains(got, "refused") {
		t.Errorf("show lists a refusal, private to its author:\n%s", got)
	}
}
