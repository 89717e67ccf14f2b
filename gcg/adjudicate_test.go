package gcg

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/engine/board"
	"github.com/lexio-mail/lexio/engine/enginetest"
)

// A game adjudicated at a season's end (LEAGUES §7.3), written as GCG,
// has #adjudicated and each rack still in lost, and replays with --check
// to the engine's scores, in lexio (also after a resignation) and lexico.
func TestAdjudicateRoundTrip(t *testing.T) {
	for _, s := range []struct {
		rules   board.Rules
		players int
		resign  bool
	}{
		{board.Rules{}, 2, false}, {board.Rules{}, 3, true}, {board.Rules{Variant: board.Lexico}, 2, false},
	} {
		for seed := uint64(1); seed <= 4; seed++ {
			t.Run(fmt.Sprintf("%s-%dp-seed%d", s.rules.Variant, s.players, seed), func(t *testing.T) {
				cfg := engine.Config{Rules: s.rules, Players: s.players, Seed: seed, Start: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
				g, err := engine.New(cfg)
				if err != nil {
					t.Fatal(err)
				}
				at := cfg.Start
				for i := 0; i < 6; i++ {
					at = at.Add(time.Hour)
					p := g.Turn()
					if play, ok := enginetest.FindPlay(g, p, 0); ok {
						_, err = g.PlaceTiles(p, play.Tiles, enginetest.AnyWord{}, at)
					} else {
						err = g.Pass(p, at)
					}
					if err != nil {
						t.Fatal(err)
					}
				}
				if s.resign {
					if err := g.Resign(1, at, false); err != nil {
						t.Fatal(err)
					}
				}
				if err := g.Adjudicate(at.Add(time.Hour)); err != nil {
					t.Fatal(err)
				}
				rec, err := FromGame(g.Config(), g.Actions(), testNames[:s.players])
				if err != nil {
					t.Fatal(err)
				}
				var buf bytes.Buffer
				if _, err := rec.WriteTo(&buf); err != nil {
					t.Fatal(err)
				}
				text := buf.String()
				if !strings.Contains(text, "\n#adjudicated\n") {
					t.Fatalf("no #adjudicated line\n%s", text)
				}
				back, err := Read(bytes.NewReader(buf.Bytes()))
				if err != nil {
					t.Fatalf("%v\n%s", err, text)
				}
				var out bytes.Buffer
				sum, err := Replay(back, Options{Rules: s.rules, Dict: enginetest.AnyWord{}, Check: true}, &out)
				if err != nil {
					t.Fatalf("%v\n%s\n%s", err, text, out.String())
				}
				if res := g.Result(); !slices.Equal(sum.Scores, res.Scores) || !sum.Over {
					t.Fatalf("replayed scores %v (over %v), the engine's %v\n%s", sum.Scores, sum.Over, res.Scores, text)
				}
				// Without its losses the record is refused: they are part of it.
				cut := strings.Join(slices.DeleteFunc(strings.Split(text, "\n"), func(l string) bool {
					return strings.HasPrefix(l, ">") && strings.Contains(l, ": (")
				}), "\n")
				back, err = Read(strings.NewReader(cut))
				if err != nil {
					t.Fatal(err)
				}
				if _, err := Replay(back, Options{Rules: s.rules, Dict: enginetest.AnyWord{}, Check: true}, &out); err == nil && strings.Count(text, ": (") > 0 {
					t.Errorf("replayed without the rack losses\n%s", cut)
				}
			})
		}
	}
}
