package notice

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/engine/board"
	"github.com/lexio-mail/lexio/engine/enginetest"
)

// TestUnseenData plays random games of every variant at every number of
// players it allows, and after each turn checks each player's unseen
// tiles against a count of the game's own: the set less the board less
// their rack, which is the bag and the other racks (board + every rack +
// bag = the set).
func TestUnseenData(t *testing.T) {
	variants := []struct {
		rules   board.Rules
		players []int
	}{
		{board.Rules{Variant: board.Lexio}, []int{2, 3, 4}},
		{board.Rules{Variant: board.Lexico}, []int{2}},
		{board.Rules{Variant: board.Lexico, Plain: true}, []int{2}},
	}
	for _, vr := range variants {
		for _, n := range vr.players {
			endgame := 0
			for seed := uint64(1); seed <= 3; seed++ {
				endgame += playChecked(t, engine.Config{Rules: vr.rules, Players: n, Seed: seed, Start: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)})
			}
			if endgame == 0 {
				t.Errorf("%+v at %d players: no turn with the bag empty", vr.rules, n)
			}
		}
	}
}

// playChecked plays one game to its end, checking every turn, and
// returns how many turns it checked with the bag empty.
func playChecked(t *testing.T, cfg engine.Config) (endgame int) {
	t.Helper()
	g, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(cfg.Seed, uint64(cfg.Players)))
	at := cfg.Start
	for i := 0; i < 400 && !g.Over(); i++ {
		checkUnseen(t, g, at)
		if g.BagCount() == 0 {
			endgame++
		}
		at = at.Add(time.Hour)
		p := g.Turn()
		play, ok := enginetest.FindPlay(g, p, 0)
		switch x := r.IntN(20); {
		case x == 0 && g.Active() > 2:
			err = g.Resign(p, at, false) // the rack goes back in the bag
		case ok && x < 15:
			_, err = g.PlaceTiles(p, play.Tiles, enginetest.AnyWord{}, at)
		case x < 18 && g.BagCount() >= 2 && len(g.Rack(p)) >= 2:
			if _, err = g.Exchange(p, engine.Selection{Slots: []int{1, 2}}, at); err != nil {
				err = g.Pass(p, at) // lexico: no exchange on a first turn
			}
		default:
			err = g.Pass(p, at)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	checkUnseen(t, g, at)
	if !g.Over() {
		t.Fatalf("%+v: no end after 400 turns", cfg)
	}
	return endgame
}

// checkUnseen compares every player's UnseenData with a count made from
// the game itself.
func checkUnseen(t *testing.T, g *engine.Game, at time.Time) {
	t.Helper()
	set := board.TileSet(g.Rules())
	var onBoard []byte
	b := g.Board()
	for row := range board.Size {
		for col := range board.Size {
			if sq := b.At(board.Cell{Col: col, Row: row}); sq.Blank {
				onBoard = append(onBoard, board.BlankTile)
			} else if sq.Letter != 0 {
				onBoard = append(onBoard, sq.Letter)
			}
		}
	}
	held := 0
	for p := range g.Players() {
		held += len(g.Rack(p))
	}
	if len(onBoard)+held+g.BagCount() != len(set) {
		t.Fatalf("board %d + racks %d + bag %d != %d tiles", len(onBoard), held, g.BagCount(), len(set))
	}
	for p := range g.Players() {
		want := minus(t, minus(t, set, onBoard), g.Rack(p))
		others := want
		for q := range g.Players() {
			if q != p {
				others = minus(t, others, g.Rack(q))
			}
		}
		if len(others) != g.BagCount() { // what is left is the bag
			t.Fatalf("player %d: unseen %q less the other racks leaves %d tiles, the bag holds %d", p, want, len(others), g.BagCount())
		}
		v, err := g.View(p, at)
		if err != nil {
			t.Fatal(err)
		}
		u := UnseenData(v)
		// Letters in order, each as many times as unseen, blanks last.
		slices.SortFunc(want, func(a, b byte) int {
			if a == b {
				return 0
			}
			if a == board.BlankTile || (b != board.BlankTile && a > b) {
				return 1
			}
			return -1
		})
		vowels := 0
		for _, c := range want {
			if strings.ContainsRune("AEIOU", rune(c)) {
				vowels++
			}
		}
		blanks := strings.Count(string(want), "?")
		if got := strings.Join(u.Groups, ""); got != string(want) || u.Tiles != len(want) ||
			u.Vowels != vowels || u.Consonants != len(want)-vowels-blanks {
			t.Fatalf("player %d: unseen %q (%d, vowels %d, consonants %d), want %q", p, u.Groups, u.Tiles, u.Vowels, u.Consonants, want)
		}
		for i, grp := range u.Groups {
			if strings.Trim(grp, grp[:1]) != "" || (i > 0 && u.Groups[i-1][0] == grp[0]) {
				t.Fatalf("player %d: groups %q", p, u.Groups)
			}
		}
	}
}

// minus returns a less every tile of b; a tile of b not in a fails.
func minus(t *testing.T, a, b []byte) []byte {
	t.Helper()
	out := slices.Clone(a)
	for _, c := range b {
		i := slices.Index(out, c)
		if i < 0 {
			t.Fatalf("%q holds a %c that %q has not", b, c, a)
		}
		out = slices.Delete(out, i, i+1)
	}
	return out
}
