package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/lexio-mail/lexio/engine/board"
)

// midGame plays a random game until the board holds about 40 tiles and
// returns it with a valid placement for the player on turn.
func midGame(b *testing.B) (*Game, []board.Placement) {
	cfg := Config{Players: 2, Seed: 5, Start: t0}
	g, err := New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for g.board.Tiles() < 40 && !g.Over() {
		p := g.Turn()
		ps := randomPlacement(g, p, rng)
		if ps == nil {
			mustPass(b, g, p, t0)
			continue
		}
		if _, err := g.PlaceTiles(p, ps, anyWord{}, t0); err != nil {
			b.Fatal(err)
		}
	}
	for {
		// Prefer a placement of several tiles with cross words.
		ps := randomPlacement(g, g.Turn(), rng)
		if len(ps) >= 3 {
			return g, ps
		}
	}
}

func BenchmarkValidateScore(b *testing.B) {
	g, ps := midGame(b)
	p, _ := board.Evaluate(&g.board, ps, g.cfg.Rules)
	b.Logf("board of %d tiles, play of %d tiles, %d words, %d points", g.board.Tiles(), len(ps), len(p.Words), p.Score)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := board.Evaluate(&g.board, ps, g.cfg.Rules); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPlaceCheckRack(b *testing.B) {
	g, ps := midGame(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := g.evaluate(g.Turn(), ps); err != nil {
			b.Fatal(err)
		}
	}
}
