package engine

import (
	"errors"
	"slices"
	"testing"

	"github.com/lexio-mail/lexio/engine/board"
)

func newGame(t testing.TB, cfg Config) *Game {
	t.Helper()
	if cfg.Players == 0 {
		cfg.Players = 2
	}
	cfg.Start = t0
	g, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// rig gives player p the rack want, swapping tiles with the bag so that
// the tiles stay conserved.
func rig(t testing.TB, g *Game, p int, want string) {
	t.Helper()
	g.bag.tiles = append(g.bag.tiles, g.players[p].rack...)
	g.players[p].rack = nil
	for i := 0; i < len(want); i++ {
		j := slices.Index(g.bag.tiles, want[i])
		if j < 0 {
			t.Fatalf("no %c left in the bag", want[i])
		}
		g.bag.tiles = slices.Delete(g.bag.tiles, j, j+1)
		g.players[p].rack = append(g.players[p].rack, want[i])
	}
}

// setBag replaces the bag's content (tiles are no longer conserved).
func setBag(g *Game, tiles string) { g.bag.tiles = []byte(tiles) }

func TestNewDeals(t *testing.T) {
	// RULES §3.2: 7 tiles each at the start; RULES §1.2: player 0 opens.
	g := newGame(t, Config{Players: 4, Seed: 7})
	for p := range 4 {
		if n := len(g.Rack(p)); n != 7 {
			t.Errorf("player %d holds %d tiles", p, n)
		}
	}
	if g.BagCount() != 102-28 || g.Turn() != 0 || !g.TurnStart().Equal(t0) {
		t.Errorf("bag %d turn %d start %v", g.BagCount(), g.Turn(), g.TurnStart())
	}
	if g2 := newGame(t, Config{Players: 4, Seed: 7}); !slices.Equal(g2.Rack(3), g.Rack(3)) {
		t.Error("same seed dealt differently")
	}
}

func TestPlaceAndTurns(t *testing.T) {
	// RULES §1.2–1.3, §4.5.
	g := newGame(t, Config{Players: 3, Seed: 1})
	rig(t, g, 0, "CHATEES")
	d := words("CHAT", "CHATS")
	_, err := g.Place(1, move(t, "D7 across CHAT"), d, at(1))
	wantKind(t, err, board.KindNotYourTurn)
	res, err := g.Place(0, move(t, "D7 across CHAT"), d, at(2))
	if err != nil {
		t.Fatal(err)
	}
	if res.Play.Score != 8 || res.Drawn != 4 || res.Over {
		t.Errorf("result %+v", res)
	}
	if got := string(g.Rack(0)[:3]); got != "EES" || len(g.Rack(0)) != 7 {
		t.Errorf("rack %q: kept tiles first, in order, then the draws", g.Rack(0))
	}
	if g.Turn() != 1 || !g.TurnStart().Equal(at(2)) || g.Score(0) != 8 {
		t.Errorf("turn %d start %v score %d", g.Turn(), g.TurnStart(), g.Score(0))
	}
	if g.BagCount() != 102-21-4 {
		t.Errorf("bag %d", g.BagCount())
	}
	// RULES §1.3: a rejected placement is not an action.
	rig(t, g, 1, "SAAAAAA")
	_, err = g.Place(1, move(t, "C7 across S(CHAT)"), d, at(3))
	wantKind(t, err, board.KindUnknownWords)
	_, err = g.Place(1, move(t, "D10 across AA"), d, at(4))
	wantKind(t, err, board.KindNotTouching)
	if g.Turn() != 1 || !g.TurnStart().Equal(at(2)) {
		t.Errorf("after rejections: turn %d start %v", g.Turn(), g.TurnStart())
	}
	res, err = g.Place(1, move(t, "D7 across (CHAT)S"), d, at(5))
	if err != nil || res.Play.Score != 9 || g.Turn() != 2 {
		t.Errorf("CHATS: %+v %v turn %d", res, err, g.Turn())
	}
	_, err = g.Place(1, move(t, "D8 across AA"), d, at(6))
	wantKind(t, err, board.KindNotYourTurn)
	if _, err := g.Place(5, move(t, "D8 across AA"), d, at(6)); !errors.Is(err, ErrNoPlayer) {
		t.Errorf("player 5: %v", err)
	}
}
