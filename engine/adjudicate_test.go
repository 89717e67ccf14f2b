package engine

import (
	"slices"
	"testing"

	"github.com/lexio-mail/lexio/engine/board"
)

// LEAGUES §7.3: a game its league's season ends is over as by RULES
// §11.2: every player still in loses their rack's value, nobody gains, in
// lexio and in lexico (which otherwise adjusts nothing); a player who left
// keeps their frozen score. The game then takes no move, and rebuilds.
func TestAdjudicate(t *testing.T) {
	for _, cfg := range []Config{{Seed: 3}, {Seed: 4, Players: 3}, {Seed: 5, Rules: board.Rules{Variant: board.Lexico}}} {
		g := newGame(t, cfg)
		scoreSome(t, g)
		if cfg.Players == 3 {
			if err := g.Resign(2, at(3), false); err != nil {
				t.Fatal(err)
			}
		}
		before := g.Result().Scores
		if err := g.Adjudicate(at(9)); err != nil {
			t.Fatal(err)
		}
		r := g.Result()
		if !g.Over() || r.Reason != EndAdjudicated {
			t.Fatalf("%+v: over %v, reason %s", cfg, g.Over(), r.Reason)
		}
		want := slices.Clone(before)
		for p := range want {
			if !g.Left(p) {
				want[p] -= rackValue([]byte(r.Racks[p]))
			}
		}
		if !slices.Equal(r.Scores, want) {
			t.Errorf("%+v: scores %v, want %v (each loses their rack, nobody gains)", cfg, r.Scores, want)
		}
		var adjust int
		for _, e := range g.Log() {
			if e.Kind == LogAdjust {
				adjust++
				if e.Score > 0 {
					t.Errorf("%+v: a gain %+v", cfg, e)
				}
			}
		}
		if in := len(want) - len(r.Left); adjust != in {
			t.Errorf("%+v: %d adjustments for %d players still in", cfg, adjust, in)
		}
		if last := g.Log()[len(g.Log())-1]; last.Kind != LogEnd || last.Reason != EndAdjudicated {
			t.Errorf("%+v: last log entry %+v", cfg, last)
		}
		wantKind(t, g.Adjudicate(at(10)), board.KindGameOver)
		wantKind(t, g.Pass(g.Turn(), at(10)), board.KindGameOver)
		checkRebuild(t, g)
	}
}
