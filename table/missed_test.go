package table_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/analysis"
	"github.com/lexio-mail/lexio/dict"
	"github.com/lexio-mail/lexio/engine/board"
	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/movegen"
)

// missedWords is a small French list of short words, enough for a few
// placements from most racks.
var missedWords = []string{
	"ai", "an", "as", "at", "de", "du", "en", "es", "et", "eu", "il", "in", "la", "le", "lu", "ne", "ni", "nu",
	"on", "or", "ou", "re", "sa", "se", "si", "ta", "te", "tu", "un", "us", "air", "ane", "ans", "art", "ais",
	"des", "dit", "due", "est", "ete", "les", "lie", "lit", "mer", "mes", "net", "nez", "nid", "nos", "ode",
	"ose", "oui", "pas", "pie", "rat", "rit", "rue", "sel", "son", "sur", "tes", "tir", "ton", "tri", "une",
	"use", "vie", "rien", "tard", "sont", "tout", "rose", "note", "toile", "reste", "salut",
}

// TestGameOverMissed: with a GADDAG, the game-over mail tells what each
// player left on the table and their biggest misses. The players play
// their weakest placement, pass now and then, then both pass to the end
// (RULES §11.2); the test works out the best placement of each turn
// itself as the turns go, with the generator, as `lexio moves` lists
// them first: the highest score, then the least command.
func TestGameOverMissed(t *testing.T) {
	t.Parallel()
	d, _, err := dict.Build(strings.NewReader(strings.Join(missedWords, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	gd, err := dict.BuildGaddag(d)
	if err != nil {
		t.Fatal(err)
	}
	h := lexiotest.New(t, lexiotest.Options{Dict: d, Gaddag: gd})
	players := []string{"alice", "bob"}
	if err := h.Lobby.CreateTable(h.Ctx, "missed", "main", lexiotest.Emails(players...), 5); err != nil {
		t.Fatal(err)
	}
	for _, p := range players {
		h.WaitMail(p, 1)
	}
	type judged struct {
		turn, left      int
		best, bestScore string
		word, wordScore string
		kind            string
	}
	turns := make([][]judged, len(players))
	gen := movegen.New(gd)
	for turn := 1; turn <= 40; turn++ {
		g := h.Game("missed")
		if g.Over() {
			break
		}
		p := g.Turn()
		b := g.Board()
		moves, err := gen.Generate(&b, g.Rack(p), g.Rules(), nil)
		if err != nil {
			t.Fatal(err)
		}
		type cand struct {
			cmd   string
			score int
			word  string
		}
		var cands []cand
		for _, m := range moves {
			play, err := board.Evaluate(&b, m.Placements(), g.Rules())
			if err != nil {
				t.Fatal(err)
			}
			w := []byte(play.Words[0].Text)
			for i, c := range play.Words[0].Cells {
				for _, tl := range play.Tiles {
					if tl.Cell == c && tl.Blank {
						w[i] += 'a' - 'A'
					}
				}
			}
			cands = append(cands, cand{analysis.PlaceCommand(play), play.Score, string(w)})
		}
		// Best first: the highest score, then the least command.
		slices.SortFunc(cands, func(a, b cand) int {
			if a.score != b.score {
				return b.score - a.score
			}
			return strings.Compare(a.cmd, b.cmd)
		})
		cmd, j := "PASS", judged{turn: turn, kind: "pass"}
		if len(cands) > 0 {
			j.best, j.bestScore = cands[0].cmd, fmt.Sprint(cands[0].score)
			j.left = cands[0].score
			if turn%3 != 0 && turn < 14 {
				worst := cands[len(cands)-1]
				cmd, j.kind, j.word, j.wordScore = worst.cmd, "place", worst.word, fmt.Sprint(worst.score)
				j.left -= worst.score
			}
		}
		turns[p] = append(turns[p], j)
		id := h.Send(players[p], cmd)
		if rec := h.Handled(id); rec.Outcome != "applied" {
			t.Fatalf("turn %d: %s sent %q: %s %s", turn, players[p], cmd, rec.Outcome, rec.Reason)
		}
		h.OutboxEmpty()
	}
	if !h.Game("missed").Over() {
		t.Fatal("the game did not end")
	}
	missedSome := false
	for p, name := range players {
		left := 0
		var misses []judged
		for _, j := range turns[p] {
			left += j.left
			if j.left > 0 {
				misses = append(misses, j)
			}
		}
		slices.SortStableFunc(misses, func(a, b judged) int { return b.left - a.left })
		misses = misses[:min(len(misses), 3)]
		missedSome = missedSome || len(misses) > 0
		want := []string{"== Missed points ==", fmt.Sprintf("%s: %d point", strings.ToUpper(name[:1])+name[1:], left)}
		for _, m := range misses {
			line := fmt.Sprintf("%d. %s %s ", m.turn, m.best, m.bestScore)
			if m.kind == "place" {
				line += "instead of " + m.word + " " + m.wordScore
			} else {
				line += "instead of giving up the turn"
			}
			want = append(want, line)
		}
		for _, to := range players {
			over := h.LastOf(to, "game-over")
			lexiotest.MustContain(t, to+"'s game over", over.Text, want...)
			lexiotest.MustContain(t, to+"'s game over (HTML)", over.HTML, want[1:]...)
		}
	}
	if !missedSome {
		t.Error("nobody missed anything: the game tests nothing")
	}
}
