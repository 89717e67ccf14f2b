package gcg

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/engine/board"
	"github.com/lexio-mail/lexio/engine/enginetest"
)

func tl(s string) tiles { return countTiles([]byte(s)) }

// RULES §3.1, §3.2, §12: 102 tiles, 100 in plain lexico; 7 each dealt.
func TestTrackerDeal(t *testing.T) {
	for _, tt := range []struct {
		rules   board.Rules
		players int
		bag     int
	}{
		{board.Rules{}, 2, 88}, {board.Rules{}, 4, 74},
		{board.Rules{Variant: board.Lexico}, 2, 88}, {board.Rules{Variant: board.Lexico, Plain: true}, 2, 86},
	} {
		tr := newTracker(tt.rules, []string{"a", "b", "c", "d"}[:tt.players])
		if tr.bag != tt.bag || tr.full[kindOf('E')] != 14 || tr.full[kindOf('Z')] != 1 {
			t.Errorf("%+v: bag %d, E %d, Z %d", tt.rules, tr.bag, tr.full[kindOf('E')], tr.full[kindOf('Z')])
		}
		for p, h := range tr.hands {
			if h.count != 7 || tr.exact(p) {
				t.Errorf("%+v: player %d holds %d, exact %v", tt.rules, p, h.count, tr.exact(p))
			}
		}
	}
}

// Each step of a short story of two players, with what check says of a
// rack at that point.
func TestTrackerCheck(t *testing.T) {
	tr := newTracker(board.Rules{}, []string{"ann", "ben"})
	refuse := func(p int, rack, want string) {
		t.Helper()
		err := tr.check(p, []byte(rack))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("check(%d, %s) = %v; want %q", p, rack, err, want)
		}
	}
	accept := func(p int, rack string, line int) {
		t.Helper()
		if err := tr.check(p, []byte(rack)); err != nil {
			t.Fatalf("check(%d, %s): %v", p, rack, err)
		}
		tr.show(p, []byte(rack), line)
	}
	refuse(0, "ZAEIRS", "has 6 tiles, but ann holds 7")
	refuse(0, "ZZAEIRS", "holds 2 Z, but the game has 1 Z in all (")
	refuse(0, "???AEIR", "holds 3 ?")
	accept(0, "ZAEIRST", 1)
	tr.place(0, tl("ZE")) // keeps AIRST, draws 2
	if h := tr.hands[0]; h.count != 7 || h.hold != tl("AIRST") || tr.bag != 86 {
		t.Fatalf("after placing ZE: %+v, bag %d", h, tr.bag)
	}
	refuse(1, "ZAEIRST", "1 on the board")
	refuse(1, "SSSSSSA", "holds 6 S, but the game has 6 S in all, 1 held by ann since line 1 (")
	refuse(0, "AIRTEEX", "ann kept AIRST at line 1, but the rack AIRTEEX lacks S (RULES §4.5)")

	// RULES §7.1: ben returns the Q after drawing: he cannot hold it next.
	accept(1, "QUOILNE", 2)
	tr.exchange(1, tl("Q"))
	if h := tr.hands[1]; h.count != 7 || h.hold != tl("UOILNE") || tr.bag != 86 {
		t.Fatalf("after the exchange: %+v, bag %d", h, tr.bag)
	}
	refuse(1, "QUOILNE", "the rack QUOILNE holds Q, which ben could not draw at the exchange of line 2")
	accept(1, "UOILNEB", 3)

	// A pass shows the rack unchanged: it must be the same next time.
	accept(0, "AIRSTEE", 4) // a pass: nothing to apply
	refuse(0, "AIRSTEU", "ann holds exactly AEEIRST since line 4 (no tile drawn since), not AIRSTEU")

	// An exchange of a number of tiles only: nothing is certain.
	tr.exchange(0, tiles{})
	accept(0, "BCDFGHJ", 5)
}

// RULES §4.5, §11.1: with the bag empty a placement draws nothing, the
// rack left is known, and the last unknown rack is what nobody else holds.
func TestTrackerBagEmpty(t *testing.T) {
	tr := newTracker(board.Rules{}, []string{"ann", "ben"})
	tr.bag = 3
	tr.show(0, []byte("ABCDEFG"), 10)
	tr.place(0, tl("ABCDE")) // FG left, draws the 3
	if h := tr.hands[0]; h.count != 5 || tr.bag != 0 || tr.exact(0) {
		t.Fatalf("after the last draw: %+v, bag %d", h, tr.bag)
	}
	tr.show(1, []byte("HIJKLMN"), 11)
	tr.place(1, tl("HI"))
	if h := tr.hands[1]; h.count != 5 || !tr.exact(1) || h.most != tl("JKLMN") {
		t.Fatalf("a placement from an empty bag: %+v", h)
	}
	if err := tr.check(1, []byte("JKLMNO")); err == nil || !strings.Contains(err.Error(), "has 6 tiles, but ben holds 5 (the bag is empty)") {
		t.Fatalf("check: %v", err)
	}
}

// The tracker never contradicts the engine: at every move of random games
// it accepts the real rack, and what it holds certain, at most and in
// count agrees with every real rack (RULES §3, §4.5, §7.1).
func TestTrackerFollowsEngine(t *testing.T) {
	for _, s := range []struct {
		rules   board.Rules
		players int
	}{{board.Rules{}, 2}, {board.Rules{}, 4}, {board.Rules{Variant: board.Lexico, Plain: true}, 2}} {
		for seed := uint64(1); seed <= 6; seed++ {
			t.Run(fmt.Sprintf("%s-%dp-seed%d", s.rules.Variant, s.players, seed), func(t *testing.T) {
				cfg := engine.Config{Rules: s.rules, Players: s.players, Seed: seed, Start: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
				played := playRandom(t, cfg, rand.New(rand.NewPCG(seed, 3)), []int{-1, 0, 20}[seed%3])
				g, err := engine.New(played.Config())
				if err != nil {
					t.Fatal(err)
				}
				tr := newTracker(s.rules, testNames[:s.players])
				for i, a := range played.Actions() {
					if a.Kind == engine.ActPresent {
						if err := g.Present(a.Player, a.At); err != nil {
							t.Fatal(err)
						}
						continue
					}
					rack := g.Rack(a.Player)
					if err := tr.check(a.Player, rack); err != nil {
						t.Fatalf("action %d: %v", i, err)
					}
					tr.show(a.Player, rack, i)
					switch a.Kind {
					case engine.ActPlace:
						tr.place(a.Player, placedTiles(a.Tiles))
						_, err = g.PlaceTiles(a.Player, a.Tiles, enginetest.AnyWord{}, a.At)
					case engine.ActExchange:
						var back []byte
						for _, sl := range a.Slots {
							back = append(back, rack[sl-1])
						}
						tr.exchange(a.Player, countTiles(back))
						_, err = g.Exchange(a.Player, engine.Selection{Slots: a.Slots}, a.At)
					case engine.ActPass:
						err = g.Pass(a.Player, a.At)
					case engine.ActExpire:
						err = g.Expire(a.Player, a.At)
					default:
						t.Fatalf("action %d: %s", i, a.Kind)
					}
					if err != nil {
						t.Fatal(err)
					}
					if tr.bag != g.BagCount() {
						t.Fatalf("action %d: bag %d, the engine's %d", i, tr.bag, g.BagCount())
					}
					for q, h := range tr.hands {
						real := countTiles(g.Rack(q))
						if h.count != real.size() || h.hold.minus(real).size() > 0 || real.minus(h.most).size() > 0 {
							t.Fatalf("action %d: player %d holds %s; tracked %d, certain %s, at most %s", i, q, real, h.count, h.hold, h.most)
						}
						if k, ok := tr.known(q); ok && k != real {
							t.Fatalf("action %d: player %d holds %s, known as %s", i, q, real, k)
						}
					}
				}
			})
		}
	}
}
