package analysis

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/dict"
	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/engine/board"
	"github.com/lexio-mail/lexio/movegen"
)

// smallGaddag is the GADDAG of a few words.
func smallGaddag(t testing.TB, words ...string) *dict.Gaddag {
	t.Helper()
	d, _, err := dict.Build(strings.NewReader(strings.Join(words, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	gd, err := dict.BuildGaddag(d)
	if err != nil {
		t.Fatal(err)
	}
	return gd
}

// put returns placements of word from cell start in direction d; a
// lowercase letter is a blank.
func put(start board.Cell, d board.Dir, word string) []board.Placement {
	var ps []board.Placement
	for i := range len(word) {
		l := word[i]
		p := board.Placement{Cell: start.Next(d, i), Letter: l}
		if l >= 'a' && l <= 'z' {
			p.Letter, p.Blank = l-'a'+'A', true
		}
		ps = append(ps, p)
	}
	return ps
}

var g7 = board.Cell{Col: 6, Row: 6} // the fountain (RULES §2.3)

// TestKnownGame: a small game whose misses are worked out by hand. Row 7
// and column G hold no bonus cell but the fountain, which pays nothing
// (RULES §2.4); C 2, H 4, A, I, T, S 1 (RULES §3.1).
func TestKnownGame(t *testing.T) {
	gd := smallGaddag(t, "chat", "chats", "ha", "hai")
	var b1 board.Board
	b2 := b1
	ha := put(g7, board.Across, "HA") // G7 H7
	if err := b2.Apply(ha); err != nil {
		t.Fatal(err)
	}
	b3 := b2
	cat := []board.Placement{{Cell: board.Cell{Col: 5, Row: 6}, Letter: 'C'}, {Cell: board.Cell{Col: 8, Row: 6}, Letter: 'T'}} // C(HA)T
	if err := b3.Apply(cat); err != nil {
		t.Fatal(err)
	}
	turns := []Turn{
		// alice passes with CHAT on her rack: CHAT through G7 scores
		// 2+4+1+1 = 8 from D7, E7, F7 or G7 across, G4 to G7 down; the
		// least command is D7's.
		{Number: 1, Player: 0, Board: b1, Rack: []byte("CHATXZK"), Kind: Pass},
		// bob plays HA (5) holding HAI (6): 1 left.
		{Number: 2, Player: 1, Board: b1, Rack: []byte("HAIEEEE"), Kind: Place, Tiles: ha, Score: 5},
		// alice plays C(HA)T for 8 holding an S: C(HA)TS is 9, 1 left.
		{Number: 3, Player: 0, Board: b2, Rack: []byte("CTSXZKQ"), Kind: Place, Tiles: cat, Score: 8},
		// bob has no legal placement: nothing left, no miss.
		{Number: 4, Player: 1, Board: b3, Rack: []byte("KQZXWYV"), Kind: Exchange, Exchanged: "KQ"},
		// alice's rack is not known: skipped.
		{Number: 5, Player: 0, Board: b3, Kind: Pass},
	}
	rep, err := Analyze(turns, 2, board.Rules{}, gd)
	if err != nil {
		t.Fatal(err)
	}
	alice := Player{
		Left: 9,
		Turns: []Miss{
			{Turn: 1, Kind: Pass, Played: "PASS", Best: "PLACE D7 ACROSS CHAT", BestScore: 8},
			{Turn: 3, Kind: Place, Played: "PLACE F7 ACROSS C(HA)T", Word: "CHAT", Score: 8, Best: "PLACE F7 ACROSS C(HA)TS", BestScore: 9},
		},
		Skipped: 1,
	}
	alice.Misses = []Miss{alice.Turns[0], alice.Turns[1]}
	bob := Player{
		Left: 1,
		Turns: []Miss{
			{Turn: 2, Kind: Place, Played: "PLACE G7 ACROSS HA", Word: "HA", Score: 5, Best: "PLACE E7 ACROSS HAI", BestScore: 6},
			{Turn: 4, Kind: Exchange, Played: "EXCHANGE KQ"},
		},
	}
	bob.Misses = []Miss{bob.Turns[0]}
	want := Report{Players: []Player{alice, bob}, Skipped: 1}
	if !reflect.DeepEqual(rep, want) {
		t.Errorf("analysis\n%+v\nwant\n%+v", rep, want)
	}

	// A word of blanks only is written in brackets: lowercase letters
	// are blanks only beside capitals.
	if got := PlaceCommand(mustPlay(t, &b1, put(g7, board.Across, "ha"))); got != "PLACE G7 ACROSS [H][A]" {
		t.Errorf("blanks only: %q", got)
	}
}

func mustPlay(t *testing.T, b *board.Board, ps []board.Placement) board.Play {
	t.Helper()
	p, err := board.Evaluate(b, ps, board.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestTopMisses: the three biggest misses, an earlier turn first on a tie.
func TestTopMisses(t *testing.T) {
	gd := smallGaddag(t, "chat", "ha", "hai")
	var b board.Board
	// Passes holding HA (5), CHAT (8), HAI (6), CHAT (8), HA (5): the
	// misses are 8 (turn 2), 8 (turn 4), 6 (turn 3).
	racks := []string{"HAXXXXX", "CHATXXX", "HAIXXXX", "CHATXXX", "HAXXXXX"}
	var turns []Turn
	for i, r := range racks {
		turns = append(turns, Turn{Number: i + 1, Player: 0, Board: b, Rack: []byte(r), Kind: Pass})
	}
	rep, err := Analyze(turns, 1, board.Rules{}, gd)
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, m := range rep.Players[0].Misses {
		got = append(got, m.Turn)
	}
	if !slices.Equal(got, []int{2, 4, 3}) || rep.Players[0].Left != 5+8+6+8+5 {
		t.Errorf("misses at turns %v, left %d", got, rep.Players[0].Left)
	}
}

// TestFromGame: the turns of an engine game carry the racks the engine
// dealt, the position before each move and what it scored.
func TestFromGame(t *testing.T) {
	cfg := engine.Config{Players: 2, Seed: 7}
	g, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rack0 := g.Rack(0)
	if err := g.Pass(0, cfg.Start); err != nil {
		t.Fatal(err)
	}
	rack1 := g.Rack(1)
	if _, err := g.Exchange(1, engine.Selection{Slots: []int{1, 2}}, cfg.Start); err != nil {
		t.Fatal(err)
	}
	if err := g.Expire(0, cfg.Start); err != nil {
		t.Fatal(err)
	}
	if err := g.Resign(1, cfg.Start, false); err != nil {
		t.Fatal(err)
	}
	turns, err := FromGame(cfg, g.Actions())
	if err != nil {
		t.Fatal(err)
	}
	want := []Turn{
		{Number: 1, Player: 0, Rack: rack0, Kind: Pass},
		{Number: 2, Player: 1, Rack: rack1, Kind: Exchange, Exchanged: string(rack1[:2])},
		{Number: 3, Player: 0, Rack: rack0, Kind: Expire},
	}
	if !reflect.DeepEqual(turns, want) {
		t.Errorf("turns %+v, want %+v", turns, want)
	}
}

// TestProperties: on random games of a small dictionary, every turn
// leaves at least 0, a player's points left are the sum over their turns,
// the misses are the biggest turns in order, and no move played beats
// the best one found.
func TestProperties(t *testing.T) {
	words := []string{"chat", "chats", "ha", "hai", "ai", "tas", "as", "sa", "ta", "ca", "cas", "echo", "ode", "de", "te", "thé", "hot", "si", "sic", "ici"}
	gd := smallGaddag(t, words...)
	missed := 0
	for seed := range uint64(40) {
		cfg := engine.Config{Players: 2 + int(seed%3), Seed: seed}
		g := playRandom(t, cfg, gd, rand.New(rand.NewPCG(seed, 1)))
		turns, err := FromGame(cfg, g.Actions())
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Analyze(turns, cfg.Players, board.Rules{}, gd)
		if err != nil {
			t.Fatal(err)
		}
		for p, pl := range rep.Players {
			sum := 0
			for _, m := range pl.Turns {
				if m.Left() < 0 || m.Score > m.BestScore && m.Kind == Place {
					t.Fatalf("seed %d: turn %d: %d played, best %d", seed, m.Turn, m.Score, m.BestScore)
				}
				sum += m.Left()
			}
			if sum != pl.Left {
				t.Errorf("seed %d, player %d: left %d, the turns sum to %d", seed, p, pl.Left, sum)
			}
			var lefts []int
			for _, m := range pl.Turns {
				if m.Left() > 0 {
					lefts = append(lefts, m.Left())
				}
			}
			slices.Sort(lefts)
			slices.Reverse(lefts)
			lefts = lefts[:min(len(lefts), TopMisses)]
			var got []int
			for i, m := range pl.Misses {
				got = append(got, m.Left())
				if i > 0 && m.Left() == pl.Misses[i-1].Left() && m.Turn < pl.Misses[i-1].Turn {
					t.Errorf("seed %d: a tie not in turn order: %+v", seed, pl.Misses)
				}
			}
			missed += len(got)
			if !slices.Equal(got, lefts) {
				t.Errorf("seed %d, player %d: misses %v, the biggest turns %v", seed, p, got, lefts)
			}
		}
	}
	if missed < 40 {
		t.Errorf("%d misses in 40 random games: the games test little", missed)
	}
}

// playRandom plays a game to its end: a random legal placement when
// there is one (often not the best), else a pass.
func playRandom(t *testing.T, cfg engine.Config, gd *dict.Gaddag, r *rand.Rand) *engine.Game {
	t.Helper()
	g, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	gen := movegen.New(gd)
	for n := 0; !g.Over() && n < 200; n++ {
		p := g.Turn()
		b := g.Board()
		moves, err := gen.Generate(&b, g.Rack(p), g.Rules(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(moves) == 0 || r.IntN(5) == 0 {
			if err := g.Pass(p, cfg.Start); err != nil {
				t.Fatal(err)
			}
			continue
		}
		m := moves[r.IntN(len(moves))]
		if _, err := g.PlaceTiles(p, m.Placements(), anyWord{}, cfg.Start); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// TestNeverNegative: a move better than any the GADDAG knows (a word
// outside it: a record played with another dictionary) leaves 0, not less.
func TestNeverNegative(t *testing.T) {
	gd := smallGaddag(t, "ha")
	var b board.Board
	turns := []Turn{{Number: 1, Player: 0, Board: b, Rack: []byte("CHATXXX"), Kind: Place, Tiles: put(g7, board.Across, "CHAT"), Score: 8}}
	rep, err := Analyze(turns, 1, board.Rules{}, gd)
	if err != nil {
		t.Fatal(err)
	}
	if pl := rep.Players[0]; pl.Left != 0 || len(pl.Misses) != 0 || pl.Turns[0].BestScore != 5 {
		t.Errorf("%+v", pl)
	}
}
