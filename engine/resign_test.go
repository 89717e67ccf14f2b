package engine

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lexio-mail/lexio/engine/board"
)

// placeAny has player p place tiles from their own rack (no rigging, so
// that the game rebuilds) and returns the points scored.
func placeAny(t *testing.T, g *Game, p int, when int) int {
	t.Helper()
	rng := rand.New(rand.NewPCG(uint64(when), 1))
	ps := randomPlacement(g, p, rng)
	if ps == nil {
		t.Fatalf("no placement for %d", p)
	}
	res, err := g.PlaceTiles(p, ps, anyWord{}, at(when))
	if err != nil {
		t.Fatal(err)
	}
	return res.Play.Score
}

// scoreSome has player 0 open the game: 0 has points, it is 1's turn.
func scoreSome(t *testing.T, g *Game) int {
	t.Helper()
	s := placeAny(t, g, 0, 1)
	if s <= 0 || g.Turn() != 1 {
		t.Fatalf("scored %d, turn %d", s, g.Turn())
	}
	return s
}

func TestResignTwoPlayers(t *testing.T) {
	// LEAGUES §2.1: with two players the game ends at once, the resigner
	// loses whatever the scores, no rack adjustments, every rack revealed.
	for _, forfeit := range []bool{false, true} {
		g := newGame(t, Config{Seed: 3})
		s0 := scoreSome(t, g) // player 0 leads, and it is 1's turn
		racks := []string{string(g.Rack(0)), string(g.Rack(1))}
		// Off turn: player 0, ahead, resigns while 1 is to play.
		if err := g.Resign(0, at(5), forfeit); err != nil {
			t.Fatal(err)
		}
		r := g.Result()
		want := EndResign
		if forfeit {
			want = EndForfeit
		}
		if !g.Over() || r.Reason != want {
			t.Fatalf("over %v reason %s, want %s", g.Over(), r.Reason, want)
		}
		if !slices.Equal(r.Scores, []int{s0, 0}) {
			t.Errorf("scores %v: no adjustment wanted", r.Scores)
		}
		if !slices.Equal(r.Winners, []int{1}) || !slices.Equal(r.Ranking, []int{1, 0}) || !slices.Equal(r.Places, []int{2, 1}) {
			t.Errorf("winners %v ranking %v places %v", r.Winners, r.Ranking, r.Places)
		}
		if !slices.Equal(r.Racks, racks) {
			t.Errorf("racks %q, want %q revealed", r.Racks, racks)
		}
		if len(r.Left) != 1 || r.Left[0].Player != 0 || r.Left[0].Forfeit != forfeit {
			t.Errorf("left %+v", r.Left)
		}
		for _, e := range g.Log() {
			if e.Kind == LogAdjust {
				t.Errorf("adjustment %+v", e)
			}
		}
		// LEAGUES §2.4: the log, which everyone reads, records it.
		v, _ := g.View(1, at(6))
		n := len(v.Log)
		if n < 2 || v.Log[n-2].Kind != LogResign || v.Log[n-2].Player != 0 || v.Log[n-2].Forfeit != forfeit || v.Log[n-1].Reason != want {
			t.Errorf("log tail %+v", v.Log[max(0, n-2):])
		}
		wantKind(t, g.Resign(1, at(7), false), board.KindGameOver)
		checkRebuild(t, g)
	}
}

func TestResignThreePlayers(t *testing.T) {
	// LEAGUES §2.2: with three, the resigner's rack goes back into the
	// bag, they are skipped, their score frozen; when one is left the
	// game ends as in §2.1, the later to leave ranked higher.
	g := newGame(t, Config{Players: 3, Seed: 4})
	s0 := scoreSome(t, g) // turn 1
	bag := g.BagCount()
	// On turn: player 1 resigns and the turn goes to 2 from that moment.
	if err := g.Resign(1, at(10), false); err != nil {
		t.Fatal(err)
	}
	if g.Over() || g.Turn() != 2 || !g.TurnStart().Equal(at(10)) {
		t.Fatalf("over %v turn %d start %v", g.Over(), g.Turn(), g.TurnStart())
	}
	if g.BagCount() != bag+board.RackSize || len(g.Rack(1)) != 0 || !g.Left(1) || g.Active() != 2 {
		t.Errorf("bag %d (was %d), rack %q, left %v", g.BagCount(), bag, g.Rack(1), g.Left(1))
	}
	wantKind(t, g.Resign(1, at(11), false), board.KindResigned)
	wantKind(t, g.Pass(1, at(11)), board.KindResigned)
	v, _ := g.View(0, at(11))
	if !slices.Equal(v.Left, []bool{false, true, false}) || v.TileCounts[1] != 0 {
		t.Errorf("view left %v counts %v", v.Left, v.TileCounts)
	}
	if e := v.Log[len(v.Log)-1]; e.Kind != LogResign || e.Count != board.RackSize {
		t.Errorf("log %+v", e)
	}
	// Skipped from then on: 2, 0, 2, 0.
	mustPass(t, g, 2, at(12))
	if g.Turn() != 0 {
		t.Fatalf("turn %d after 2, want 0", g.Turn())
	}
	mustPass(t, g, 0, at(13))
	if g.Turn() != 2 {
		t.Fatalf("turn %d after 0, want 2 (1 left)", g.Turn())
	}
	// Off turn: player 0 leaves while 2 is to play; 2 alone wins, 0
	// (later) above 1. No adjustment: 0 keeps their points.
	if err := g.Resign(0, at(14), true); err != nil {
		t.Fatal(err)
	}
	r := g.Result()
	if !r.Over || r.Reason != EndForfeit || !slices.Equal(r.Scores, []int{s0, 0, 0}) {
		t.Fatalf("result %+v", r)
	}
	if !slices.Equal(r.Winners, []int{2}) || !slices.Equal(r.Ranking, []int{2, 0, 1}) || !slices.Equal(r.Places, []int{2, 3, 1}) {
		t.Errorf("winners %v ranking %v places %v", r.Winners, r.Ranking, r.Places)
	}
	if len(r.Racks[0]) != board.RackSize || len(r.Racks[2]) != board.RackSize || r.Racks[1] != "" {
		t.Errorf("racks %q: the last two kept and revealed", r.Racks)
	}
	checkRebuild(t, g)
}

func TestResignFourPlayers(t *testing.T) {
	// LEAGUES §2.2, RULES §11.2, §11.4: with four, two leave; the idle
	// ending counts the two still in (4 turns), they tie and share the
	// first place, the two who left below, the later one higher.
	g := newGame(t, Config{Players: 4, Seed: 5})
	s0 := scoreSome(t, g) // turn 1
	// Off turn: 3 leaves while 1 is to play; the turn stays with 1.
	if err := g.Resign(3, at(2), false); err != nil {
		t.Fatal(err)
	}
	if g.Turn() != 1 || !g.TurnStart().Equal(at(1)) {
		t.Errorf("turn %d start %v: an off-turn resignation keeps the turn", g.Turn(), g.TurnStart())
	}
	mustPass(t, g, 1, at(3))
	mustPass(t, g, 2, at(4))
	if g.Turn() != 0 {
		t.Fatalf("turn %d after 2, want 0 (3 left)", g.Turn())
	}
	if err := g.Resign(0, at(5), false); err != nil { // on turn, ahead
		t.Fatal(err)
	}
	if g.Turn() != 1 {
		t.Fatalf("turn %d, want 1", g.Turn())
	}
	v1, v2 := rackValue(g.players[1].rack), rackValue(g.players[2].rack)
	// Idle so far: 1 and 2 passed (2 turns); 2 × 2 still in ends it after
	// two more.
	mustPass(t, g, 1, at(6))
	if g.Over() {
		t.Fatal("over after 3 idle turns")
	}
	mustPass(t, g, 2, at(7))
	r := g.Result()
	if !r.Over || r.Reason != EndIdle {
		t.Fatalf("result %+v, want idle", r)
	}
	// Each still in loses their rack's value; 0's points stay frozen.
	if !slices.Equal(r.Scores, []int{s0, -v1, -v2, 0}) {
		t.Errorf("scores %v", r.Scores)
	}
	// 0 ranks below both, whatever the scores (LEAGUES §2.2).
	ranking, places, winners := []int{1, 2, 0, 3}, []int{3, 1, 2, 4}, []int{1}
	switch {
	case v1 == v2:
		places[2], winners = 1, []int{1, 2}
	case v2 < v1:
		ranking, places, winners = []int{2, 1, 0, 3}, []int{3, 2, 1, 4}, []int{2}
	}
	if !slices.Equal(r.Winners, winners) || !slices.Equal(r.Ranking, ranking) || !slices.Equal(r.Places, places) {
		t.Errorf("winners %v ranking %v places %v", r.Winners, r.Ranking, r.Places)
	}
	if len(r.Left) != 2 || r.Left[0].Player != 3 || r.Left[1].Player != 0 {
		t.Errorf("left %+v", r.Left)
	}
	for _, e := range g.Log() {
		if e.Kind == LogAdjust && (e.Player == 0 || e.Player == 3) {
			t.Errorf("adjustment for a player who left: %+v", e)
		}
	}
	checkRebuild(t, g)
}

func TestExpiries(t *testing.T) {
	// LEAGUES §2.3: consecutive expired turns, reset when the player acts.
	g := newGame(t, Config{Players: 3, Seed: 6})
	if err := g.Expire(0, at(1)); err != nil {
		t.Fatal(err)
	}
	mustPass(t, g, 1, at(2))
	placeAny(t, g, 2, 3)
	if err := g.Expire(0, at(4)); err != nil {
		t.Fatal(err)
	}
	mustPass(t, g, 1, at(5))
	mustPass(t, g, 2, at(6))
	if g.Expiries(0) != 2 || g.Expiries(1) != 0 {
		t.Errorf("expiries %d %d", g.Expiries(0), g.Expiries(1))
	}
	// Writing (present) is not acting.
	if err := g.Present(0, at(7)); err != nil {
		t.Fatal(err)
	}
	if g.Expiries(0) != 2 {
		t.Errorf("expiries %d after present", g.Expiries(0))
	}
	if _, err := g.Exchange(0, Selection{Slots: []int{1}}, at(8)); err != nil {
		t.Fatal(err)
	}
	if g.Expiries(0) != 0 {
		t.Errorf("expiries %d after an exchange", g.Expiries(0))
	}
	if err := g.Expire(1, at(9)); err != nil {
		t.Fatal(err)
	}
	back := rebuildThroughJSON(t, g)
	if back.Expiries(1) != 1 || back.Expiries(0) != 0 {
		t.Errorf("rebuilt expiries %d %d", back.Expiries(0), back.Expiries(1))
	}
}

func TestSubstitute(t *testing.T) {
	// LEAGUES §4.1: the seat keeps rack, score and turn; the log says so.
	g := newGame(t, Config{Players: 3, Seed: 7})
	s0 := scoreSome(t, g)
	before := dumpState(t, g)
	rack := string(g.Rack(0))
	if err := g.Substitute(0, "Alice", "Dora", at(3)); err != nil {
		t.Fatal(err)
	}
	if string(g.Rack(0)) != rack || g.Score(0) != s0 || g.Turn() != 1 || !g.TurnStart().Equal(at(1)) {
		t.Errorf("the substitution changed the seat: %q %d turn %d", g.Rack(0), g.Score(0), g.Turn())
	}
	v, _ := g.View(2, at(4))
	if e := v.Log[len(v.Log)-1]; e.Kind != LogSubst || e.Player != 0 || e.From != "Alice" || e.To != "Dora" {
		t.Errorf("log %+v", e)
	}
	if dumpState(t, g) == before {
		t.Error("the action was not recorded")
	}
	checkRebuild(t, g)
	if err := g.Resign(2, at(5), false); err != nil {
		t.Fatal(err)
	}
	wantKind(t, g.Substitute(2, "Carol", "Eve", at(6)), board.KindResigned)
	if err := g.Resign(1, at(7), false); err != nil {
		t.Fatal(err)
	}
	wantKind(t, g.Substitute(0, "Dora", "Eve", at(8)), board.KindGameOver)
}

func TestResignLexico(t *testing.T) {
	// LEAGUES §2.1 holds for lexico too: it is two players.
	g := newGame(t, Config{Rules: board.Rules{Variant: board.Lexico}, Seed: 8})
	if err := g.Resign(1, at(1), false); err != nil {
		t.Fatal(err)
	}
	if r := g.Result(); !r.Over || r.Reason != EndResign || !slices.Equal(r.Winners, []int{0}) {
		t.Errorf("result %+v", r)
	}
	checkRebuild(t, g)
}
