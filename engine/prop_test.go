package engine

import (
	"encoding/json"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/engine/board"
)

// mostWords accepts every word but about one in eight, so that random
// games also spend the probe reserve.
type mostWords struct{}

func (mostWords) Contains(w string) bool {
	h := fnv.New32a()
	h.Write([]byte(w))
	return h.Sum32()%8 != 0
}

// randomPlacement looks for a placement of player p that passes the shape
// and rack checks, or returns nil.
func randomPlacement(g *Game, p int, rng *rand.Rand) []board.Placement {
	rack := g.players[p].rack
	if len(rack) == 0 {
		return nil
	}
	var occupied []board.Cell
	for r := range board.Size {
		for c := range board.Size {
			if !g.board.At(board.Cell{Col: c, Row: r}).Empty() {
				occupied = append(occupied, board.Cell{Col: c, Row: r})
			}
		}
	}
	for range 80 {
		anchor := board.Fountain()
		if len(occupied) > 0 {
			o := occupied[rng.IntN(len(occupied))]
			anchor = o.Next(board.Dir(rng.IntN(2)), []int{-1, 1}[rng.IntN(2)])
		}
		d := board.Dir(rng.IntN(2))
		k := 1 + rng.IntN(len(rack))
		c := anchor.Next(d, -rng.IntN(k))
		perm := rng.Perm(len(rack))[:k]
		var ps []board.Placement
		for _, i := range perm {
			for c.OnBoard() && !g.board.At(c).Empty() {
				c = c.Next(d, 1)
			}
			if !board.Playable(c) {
				break
			}
			t := rack[i]
			p := board.Placement{Cell: c, Letter: t}
			if t == board.BlankTile {
				p = board.Placement{Cell: c, Letter: byte('A' + rng.IntN(26)), Blank: true}
			}
			ps = append(ps, p)
			c = c.Next(d, 1)
		}
		if len(ps) == 0 {
			continue
		}
		if _, _, err := g.evaluate(p, ps); err == nil {
			return ps
		}
	}
	return nil
}

// playRandom plays one random game and checks the invariants after every
// step.
func playRandom(t testing.TB, cfg Config, check func(g *Game, step int)) *Game {
	t.Helper()
	return playRandomWith(t, cfg, false, check)
}

// playRandomWith is playRandom; with leave, players also resign, forfeit
// and change hands now and then (LEAGUES §2, §4), on their turn or not.
// Without it the random draws are those of playRandom, which the golden
// game pins.
func playRandomWith(t testing.TB, cfg Config, leave bool, check func(g *Game, step int)) *Game {
	t.Helper()
	g, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 99))
	now := cfg.Start
	for step := 0; !g.Over(); step++ {
		if step > 3000 {
			t.Fatalf("seed %d: game not over after %d steps", cfg.Seed, step)
		}
		now = now.Add(time.Duration(rng.IntN(20)) * time.Second)
		p := g.Turn()
		if rng.IntN(20) == 0 {
			if err := g.Present(rng.IntN(g.Players()), now); err != nil {
				t.Fatal(err)
			}
		}
		if leave && rng.IntN(60) == 0 {
			q := rng.IntN(g.Players())
			if rng.IntN(4) == 0 {
				if err := g.Substitute(q, "old", "new", now); err != nil && kindOf(err) != board.KindResigned {
					t.Fatal(err)
				}
			} else {
				before := g.Score(q)
				err := g.Resign(q, now, rng.IntN(2) == 0)
				switch {
				case g.players[q].left && err == nil:
					if g.Score(q) != before {
						t.Fatalf("seed %d: resigning changed the score", cfg.Seed)
					}
				case kindOf(err) != board.KindResigned:
					t.Fatalf("seed %d: resign: %v", cfg.Seed, err)
				}
			}
			check(g, step)
			if g.Over() {
				break
			}
			p = g.Turn()
		}
		r := rng.IntN(100)
		switch {
		case r < 3:
			if err := g.Expire(p, now); err != nil {
				t.Fatal(err)
			}
		case r < 6:
			mustPass(t, g, p, now)
		case r < 12:
			n := 1 + rng.IntN(len(g.players[p].rack))
			slots := rng.Perm(len(g.players[p].rack))[:n]
			for i := range slots {
				slots[i]++
			}
			if _, err := g.Exchange(p, Selection{Slots: slots}, now); err != nil {
				switch kindOf(err) {
				case board.KindBagTooSmall, board.KindExchangeNotAllowed:
					mustPass(t, g, p, now)
				default:
					t.Fatal(err)
				}
			}
		default:
			ps := randomPlacement(g, p, rng)
			if ps == nil {
				mustPass(t, g, p, now)
				break
			}
			if _, err := g.PlaceTiles(p, ps, mostWords{}, now); err != nil {
				switch kindOf(err) {
				case board.KindUnknownWords, board.KindReserveEmpty:
				default:
					t.Fatalf("seed %d: generated placement refused: %v", cfg.Seed, err)
				}
			}
		}
		check(g, step)
	}
	check(g, -1)
	return g
}

// checkInvariants checks what must hold after any step.
func checkInvariants(t testing.TB, g *Game, step int) {
	t.Helper()
	// Tiles are conserved: board + racks + bag = the table's set.
	var all []byte
	for r := range board.Size {
		for c := range board.Size {
			if s := g.board.At(board.Cell{Col: c, Row: r}); !s.Empty() {
				if s.Blank {
					all = append(all, board.BlankTile)
				} else {
					all = append(all, s.Letter)
				}
			}
		}
	}
	for i, p := range g.players {
		if p.left && !g.over && len(p.rack) > 0 {
			t.Fatalf("step %d: player %d left with a rack", step, i)
		}
		if p.left && !g.over && g.turn == i {
			t.Fatalf("step %d: the turn is with %d, who left", step, i)
		}
		all = append(all, p.rack...)
		if len(p.rack) > board.RackSize {
			t.Fatalf("rack of %d tiles", len(p.rack))
		}
	}
	all = append(all, g.bag.tiles...)
	slices.Sort(all)
	want := board.TileSet(g.cfg.Rules)
	slices.Sort(want)
	if string(all) != string(want) {
		t.Fatalf("step %d: tiles not conserved: %d of %d", step, len(all), len(want))
	}
	// Each score is the sum of its log entries; no bonus paid twice.
	sums := make([]int, len(g.players))
	paid := map[board.Cell]bool{}
	for _, e := range g.log {
		if e.Player >= 0 {
			sums[e.Player] += e.Score
		}
		if e.Play == nil {
			continue
		}
		for _, c := range e.Play.Paid {
			if paid[c] {
				t.Fatalf("step %d: bonus %v paid twice", step, c)
			}
			if b := g.cfg.Bonus(c); !b.IsWord() && !b.IsLetter() && b != board.Cross {
				t.Fatalf("step %d: %v paid but is %v", step, c, b)
			}
			paid[c] = true
		}
		w := e.Play.AllTiles
		for _, x := range e.Play.Words {
			w += x.Score
		}
		if w != e.Score {
			t.Fatalf("step %d: words sum to %d, entry scores %d", step, w, e.Score)
		}
	}
	for i, p := range g.players {
		if p.score != sums[i] {
			t.Fatalf("step %d: player %d scores %d, log sums to %d", step, i, p.score, sums[i])
		}
	}
}

// checkRebuild checks that seed + actions give the same state, the
// actions through JSON (as the log stores them).
func checkRebuild(t testing.TB, g *Game) {
	t.Helper()
	back := rebuildThroughJSON(t, g)
	if a, b := dumpState(t, back), dumpState(t, g); a != b {
		t.Fatalf("rebuilt state differs:\n%s\n%s", a, b)
	}
}

// rebuildThroughJSON rebuilds g from its configuration and its actions,
// each written to JSON and read back.
func rebuildThroughJSON(t testing.TB, g *Game) *Game {
	t.Helper()
	acts := g.Actions()
	for i := range acts {
		data, err := json.Marshal(acts[i])
		if err != nil {
			t.Fatal(err)
		}
		acts[i] = Action{}
		if err := json.Unmarshal(data, &acts[i]); err != nil {
			t.Fatal(err)
		}
	}
	back, err := Rebuild(g.Config(), acts)
	if err != nil {
		t.Fatal(err)
	}
	return back
}

func configs(seed uint64) []Config {
	return []Config{
		{Players: 2, Seed: seed, Start: t0},
		{Players: 3, Seed: seed, Start: t0},
		{Players: 4, Seed: seed, Start: t0},
		{Rules: board.Rules{Variant: board.Lexico}, Players: 2, Seed: seed, Start: t0},
		{Rules: board.Rules{Variant: board.Lexico, Plain: true}, Players: 2, Seed: seed, Start: t0},
	}
}

func TestRandomGames(t *testing.T) {
	n := uint64(12)
	if testing.Short() {
		n = 3
	}
	ends := map[EndReason]int{}
	for seed := uint64(1); seed <= n; seed++ {
		for _, cfg := range configs(seed) {
			g := playRandom(t, cfg, func(g *Game, step int) {
				checkInvariants(t, g, step)
				if step%25 == 0 || step < 0 {
					checkRebuild(t, g)
				}
			})
			ends[g.reason]++
		}
	}
	t.Logf("endings: %v", ends)
	if ends[EndOut] == 0 {
		t.Error("no random game ended by a player going out")
	}
}

// TestRandomGamesWithResignations keeps the invariants (tiles conserved,
// scores equal the log, rebuild equal) with players leaving at random
// (LEAGUES §2.1–2.3) and seats changing hands (LEAGUES §4.1).
func TestRandomGamesWithResignations(t *testing.T) {
	n := uint64(12)
	if testing.Short() {
		n = 3
	}
	ends := map[EndReason]int{}
	for seed := uint64(1); seed <= n; seed++ {
		for _, cfg := range configs(seed) {
			g := playRandomWith(t, cfg, true, func(g *Game, step int) {
				checkInvariants(t, g, step)
				if step%25 == 0 || step < 0 {
					checkRebuild(t, g)
				}
			})
			checkRebuild(t, g)
			ends[g.reason]++
		}
	}
	t.Logf("endings: %v", ends)
	if ends[EndResign]+ends[EndForfeit] == 0 || ends[EndOut] == 0 {
		t.Errorf("endings %v: want some by resignation and some by going out", ends)
	}
}

func FuzzGame(f *testing.F) {
	for _, s := range []uint64{1, 2, 42} {
		f.Add(s, uint8(0))
	}
	f.Fuzz(func(t *testing.T, seed uint64, variant uint8) {
		cfg := configs(seed)[int(variant)%5]
		playRandom(t, cfg, func(g *Game, step int) {
			checkInvariants(t, g, step)
			if step < 0 {
				checkRebuild(t, g)
			}
		})
	})
}

// TestViewHidesRacks proves that a player's view depends on nothing they
// may not see (RULES §3.2, §7.3, §10): the other racks and the bag's order
// are changed and the view must not change, across many seeds and moves.
func TestViewHidesRacks(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		for _, cfg := range configs(seed)[:4] {
			rng := rand.New(rand.NewPCG(seed, 7))
			playRandom(t, cfg, func(g *Game, step int) {
				if g.Over() || step%3 != 0 {
					return
				}
				now := g.turnStart.Add(time.Second)
				for p := range g.Players() {
					v, err := g.View(p, now)
					if err != nil {
						t.Fatal(err)
					}
					before, _ := json.Marshal(v)
					for _, e := range v.Log {
						if e.Private && e.Player != p {
							t.Fatalf("player %d sees a private entry of %d", p, e.Player)
						}
					}
					if v.Result != nil || strings.Contains(string(before), `"racks"`) {
						t.Fatal("racks revealed before the end")
					}
					// Shuffle every hidden tile: other racks and the bag.
					saved := dumpState(t, g)
					savedRacks := make([][]byte, g.Players())
					savedBag := slices.Clone(g.bag.tiles)
					var pool []byte
					for q := range g.players {
						savedRacks[q] = slices.Clone(g.players[q].rack)
						if q != p {
							pool = append(pool, g.players[q].rack...)
						}
					}
					pool = append(pool, g.bag.tiles...)
					rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
					for q := range g.players {
						if q != p {
							n := len(g.players[q].rack)
							g.players[q].rack, pool = slices.Clone(pool[:n]), pool[n:]
						}
					}
					g.bag.tiles = pool
					w, _ := g.View(p, now)
					after, _ := json.Marshal(w)
					for q := range g.players {
						g.players[q].rack = savedRacks[q]
					}
					g.bag.tiles = savedBag
					if dumpState(t, g) != saved {
						t.Fatal("test did not restore the game")
					}
					if string(before) != string(after) {
						t.Fatalf("seed %d player %d: view depends on hidden tiles:\n%s\n%s", seed, p, before, after)
					}
					// And the JSON does not hold another rack as such.
					for q := range g.players {
						if q != p && len(savedRacks[q]) == board.RackSize && strings.Contains(string(before), string(savedRacks[q])) {
							t.Fatalf("player %d's view holds %d's rack %q", p, q, savedRacks[q])
						}
					}
				}
			})
		}
	}
}
