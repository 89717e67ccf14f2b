package gcg

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/engine/board"
	"github.com/lexio-mail/lexio/engine/enginetest"
)

var testNames = []string{"ann@x.org", "ben@x.org", "cat@x.org", "dan@x.org"}

// playRandom plays a whole game: placements found by enginetest, some
// exchanges and passes thrown in, expiries too. Once the bag holds
// stopPlacing tiles or fewer, nobody places any more, so that the game
// ends idle (RULES §11.2, §12); -1 places to the end.
func playRandom(t *testing.T, cfg engine.Config, r *rand.Rand, stopPlacing int) *engine.Game {
	t.Helper()
	g, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	at := cfg.Start
	for i := 0; i < 500 && !g.Over(); i++ {
		at = at.Add(time.Hour)
		p := g.Turn()
		play, ok := enginetest.FindPlay(g, p, 0)
		x := r.IntN(10)
		if g.BagCount() <= stopPlacing {
			ok = false
			if r.IntN(2) == 0 {
				x = 9 // pass more often, or lexico never ends (RULES §12)
			}
		}
		switch {
		case ok && x < 7:
			if _, err := g.PlaceTiles(p, play.Tiles, enginetest.AnyWord{}, at); err != nil {
				t.Fatal(err)
			}
		case x < 9:
			n := 1 + r.IntN(len(g.Rack(p)))
			slots := r.Perm(len(g.Rack(p)))[:n]
			for j := range slots {
				slots[j]++
			}
			if _, err := g.Exchange(p, engine.Selection{Slots: slots}, at); err == nil {
				break
			}
			fallthrough
		default:
			if r.IntN(2) == 0 {
				err = g.Pass(p, at)
			} else {
				err = g.Expire(p, at)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	if !g.Over() {
		t.Fatal("no end after 500 turns")
	}
	return g
}

// A game the engine played, written as GCG, replays with --check to the
// same scores: the writer, the reader and the replayer agree with the
// engine on every rule they both know (RULES §4–§7, §11, §12), and on
// every rack the record shows. Each setup plays games that end both ways:
// a player going out, and rounds without a placement (with the bag empty
// or not).
func TestFromGameReplays(t *testing.T) {
	setups := []struct {
		rules   board.Rules
		players int
		idle    engine.EndReason
	}{
		{board.Rules{}, 2, engine.EndIdle}, {board.Rules{}, 3, engine.EndIdle}, {board.Rules{}, 4, engine.EndIdle},
		{board.Rules{Variant: board.Lexico}, 2, engine.EndPasses}, {board.Rules{Variant: board.Lexico, Plain: true}, 2, engine.EndPasses},
	}
	for _, s := range setups {
		endings := map[engine.EndReason]int{}
		for seed := uint64(1); seed <= 24; seed++ {
			stop := []int{-1, 0, 20}[seed%3]
			name := fmt.Sprintf("%s-plain=%v-%dp-seed%d-stop%d", s.rules.Variant, s.rules.Plain, s.players, seed, stop)
			t.Run(name, func(t *testing.T) {
				cfg := engine.Config{Rules: s.rules, Players: s.players, Seed: seed, Start: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
				g := playRandom(t, cfg, rand.New(rand.NewPCG(seed, 7)), stop)
				endings[g.Result().Reason]++
				rec, err := FromGame(g.Config(), g.Actions(), testNames[:s.players])
				if err != nil {
					t.Fatal(err)
				}
				var buf bytes.Buffer
				if _, err := rec.WriteTo(&buf); err != nil {
					t.Fatal(err)
				}
				back, err := Read(bytes.NewReader(buf.Bytes()))
				if err != nil {
					t.Fatalf("%v\n%s", err, buf.String())
				}
				var out bytes.Buffer
				sum, err := Replay(back, Options{Rules: s.rules, Dict: enginetest.AnyWord{}, Check: true}, &out)
				if err != nil {
					t.Fatalf("%v\n%s\n%s", err, buf.String(), out.String())
				}
				if want := g.Result().Scores; !slices.Equal(sum.Scores, want) || !sum.Over {
					t.Fatalf("replayed scores %v (over %v), the engine's %v\n%s", sum.Scores, sum.Over, want, buf.String())
				}
				if sum.Board.String() != func() string { b := g.Board(); return b.String() }() {
					t.Fatal("replayed board differs from the engine's")
				}
			})
		}
		if endings[engine.EndOut] == 0 || endings[s.idle] == 0 {
			t.Errorf("%s %d players: endings %v, want both %s and %s", s.rules.Variant, s.players, endings, engine.EndOut, s.idle)
		}
	}
}
