package bot

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/dict"
	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/engine/board"
	"github.com/lexio-mail/lexio/movegen"
)

// tiny is a dictionary of the given words with its GADDAG.
func tiny(t *testing.T, list ...string) words {
	t.Helper()
	d, _, err := dict.Build(strings.NewReader(strings.Join(list, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	gd, err := dict.BuildGaddag(d)
	if err != nil {
		t.Fatal(err)
	}
	return words{d, gd}
}

func cell(t *testing.T, s string) board.Cell {
	t.Helper()
	c, err := board.ParseCell(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// laid lays tiles on an empty board: "G7W" puts a W on G7.
func laid(t *testing.T, tiles ...string) board.Board {
	t.Helper()
	var b board.Board
	for _, s := range tiles {
		p := board.Placement{Cell: cell(t, s[:len(s)-1]), Letter: s[len(s)-1]}
		if err := b.Apply([]board.Placement{p}); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

func choose(t *testing.T, w words, v View, level Level) engine.Action {
	t.Helper()
	a, err := New(w.gd).Choose(v, level, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func score(t *testing.T, v View, a engine.Action) int {
	t.Helper()
	p, err := board.Evaluate(&v.Board, a.Tiles, v.Rules)
	if err != nil {
		t.Fatalf("%+v: %v", a, err)
	}
	return p.Score
}

// The view holds the player's own rack and, as unseen, the bag and the
// other racks together; once the bag is empty, exactly the other rack.
func TestViewOf(t *testing.T) {
	w := mustWords(t, frenchSample)
	at := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	g, err := engine.New(engine.Config{Rules: board.Rules{Variant: board.Lexio}, Players: 2, Seed: 2, Start: at})
	if err != nil {
		t.Fatal(err)
	}
	b := New(w.gd)
	rng := rand.New(rand.NewPCG(3, 3))
	checkedEmpty := false
	for turn := 0; !g.Over(); turn++ {
		p := g.Turn()
		ev, _ := g.View(p, at)
		v := ViewOf(ev)
		other := g.Rack(1 - p)
		if string(v.Rack) != string(g.Rack(p)) {
			t.Fatalf("turn %d: rack %q, the engine's %q", turn, v.Rack, g.Rack(p))
		}
		if len(v.Unseen) != g.BagCount()+len(other) || v.Bag != g.BagCount() || !slices.IsSorted(v.Unseen) {
			t.Fatalf("turn %d: unseen %q (bag %d), want the bag's %d tiles and %q", turn, v.Unseen, v.Bag, g.BagCount(), other)
		}
		if g.BagCount() == 0 {
			slices.Sort(other)
			if string(v.Unseen) != string(other) {
				t.Fatalf("turn %d: unseen %q with the bag empty, the other rack is %q", turn, v.Unseen, other)
			}
			checkedEmpty = true
		}
		if v.Turns != turn/2 || v.Opponents != 1 || v.Players != 2 || v.Player != p {
			t.Fatalf("turn %d: %d turns, %d opponents, %d players, player %d", turn, v.Turns, v.Opponents, v.Players, v.Player)
		}
		a, err := b.Choose(v, Medium, rng)
		if err != nil {
			t.Fatal(err)
		}
		if err := play(g, a, w.d, at); err != nil {
			t.Fatal(err)
		}
	}
	if !checkedEmpty {
		t.Error("the game ended before its bag was empty")
	}
}

// Medium plays the best score; easy a random move of the weaker half.
func TestLevels(t *testing.T) {
	w := mustWords(t, frenchSample)
	v := View{Rules: board.Rules{Variant: board.Lexio}, Board: laid(t, "G7M", "H7E", "I7R"),
		Rack: []byte("ASETRIN"), Bag: 60, Opponents: 1, Players: 2, Turns: 1}
	moves, err := movegen.New(w.gd).Generate(&v.Board, v.Rack, v.Rules, nil)
	if err != nil {
		t.Fatal(err)
	}
	scores := make([]int, len(moves))
	for i, m := range moves {
		scores[i] = m.Score
	}
	slices.Sort(scores)
	slices.Reverse(scores)
	if len(scores) < 20 {
		t.Fatalf("only %d moves", len(scores))
	}
	if got := score(t, v, choose(t, w, v, Medium)); got != scores[0] {
		t.Errorf("medium scores %d, the best move %d", got, scores[0])
	}
	b := New(w.gd)
	seen := map[string]bool{}
	for seed := range 40 {
		a, err := b.Choose(v, Easy, rand.New(rand.NewPCG(uint64(seed), 0)))
		if err != nil {
			t.Fatal(err)
		}
		if s := score(t, v, a); s > scores[len(scores)/2] {
			t.Errorf("easy scores %d, above the weaker half (%d and less)", s, scores[len(scores)/2])
		}
		seen[key(a.Tiles)] = true
	}
	if len(seen) < 10 {
		t.Errorf("easy chose %d moves in 40 draws", len(seen))
	}
	if _, err := b.Choose(v, "grand", nil); err == nil {
		t.Error("an unknown level chosen without an error")
	}
	if _, err := ParseLevel("strong"); err != nil {
		t.Error(err)
	}
	if _, err := ParseLevel("grand"); err == nil {
		t.Error("ParseLevel took grand")
	}
}

func key(ps []board.Placement) string {
	var sb strings.Builder
	for _, p := range ps {
		sb.WriteString(p.Cell.String())
		sb.WriteByte(p.Letter)
	}
	return sb.String()
}

// Strong exchanges a rack whose plays leave it poor, keeping its
// best tile; not when the rules forbid it (lexico's first turn, RULES §12)
// nor after a round without a placement (the game must end).
func TestStrongExchanges(t *testing.T) {
	w := tiny(t, "KU", "KUW")
	v := View{Rules: board.Rules{Variant: board.Lexio}, Rack: []byte("QKWVYZU"), Bag: 80, Opponents: 1, Players: 2, Turns: 1}
	if a := choose(t, w, v, Medium); a.Kind != engine.ActPlace {
		t.Fatalf("medium: %+v, want KUW", a)
	}
	a := choose(t, w, v, Strong)
	if a.Kind != engine.ActExchange || !slices.Equal(a.Slots, []int{1, 2, 3, 4, 5, 7}) {
		t.Fatalf("strong: %+v, want an exchange of all but the Z (slot 6)", a)
	}
	first := v
	first.Rules, first.Turns = board.Rules{Variant: board.Lexico}, 0
	if a := choose(t, w, first, Strong); a.Kind != engine.ActPlace {
		t.Errorf("strong on its first lexico turn: %+v, want KUW (KU is too short)", a)
	}
	stuck := v
	stuck.Idle = 2
	if a := choose(t, w, stuck, Strong); a.Kind != engine.ActPlace {
		t.Errorf("strong after a round without a placement: %+v, want a placement", a)
	}
	stuck.Rack = []byte("QWVYZXJ")
	if a := choose(t, w, stuck, Medium); a.Kind != engine.ActPass {
		t.Errorf("medium without a move after a round without a placement: %+v, want a pass", a)
	}
}

// With the bag empty strong goes out when the opponent's tiles make it
// worth more than the best score (lexio, RULES §11.1); in lexico, without
// rack adjustments, it takes the best score.
func TestStrongEndgame(t *testing.T) {
	w := tiny(t, "WA", "AK", "EAS")
	v := View{Rules: board.Rules{Variant: board.Lexio}, Board: laid(t, "G7W", "H8K", "J11S"),
		Rack: []byte("AE"), Bag: 0, Unseen: []byte("QZ"), Opponents: 1, Players: 2, Turns: 9}
	if a := choose(t, w, v, Medium); score(t, v, a) != 22 || len(a.Tiles) != 1 {
		t.Fatalf("medium: %+v, want A on H7 or G8 (22)", a)
	}
	if a := choose(t, w, v, Strong); len(a.Tiles) != 2 || score(t, v, a) != 3 {
		t.Errorf("strong in lexio: %+v, want EAS (3) going out", a)
	}
	v.Rules = board.Rules{Variant: board.Lexico}
	if a := choose(t, w, v, Strong); score(t, v, a) != 22 {
		t.Errorf("strong in lexico: %+v, want the 22", a)
	}
}

// Strong weighs the opponent's reply: of two moves of 22 it takes the
// one after which the opponent cannot go out with ZAK. (Medium takes the
// other, the first found: row 7 is walked before row 8.)
func TestStrongBlocks(t *testing.T) {
	w := tiny(t, "WA", "AK", "ZAK")
	// A on H7 makes WA across and AK down, and lets Z on H6 go out; A on
	// G8 makes WA down and AK across, and the E on E8 spoils EZAK.
	v := View{Rules: board.Rules{Variant: board.Lexio}, Board: laid(t, "G7W", "H8K", "E8E"),
		Rack: []byte("AE"), Bag: 0, Unseen: []byte("Z"), Opponents: 1, Players: 2, Turns: 9}
	if a := choose(t, w, v, Medium); len(a.Tiles) != 1 || a.Tiles[0].Cell != cell(t, "H7") {
		t.Fatalf("medium: %+v, want A on H7", a)
	}
	if a := choose(t, w, v, Strong); len(a.Tiles) != 1 || a.Tiles[0].Cell != cell(t, "G8") {
		t.Errorf("strong: %+v, want A on G8", a)
	}
}
