package rating

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPaperExample reproduces the worked example of Glickman's paper: a
// player at 1500/200/0.06 beats a 1400/30 and loses to a 1550/100 and a
// 1700/300, τ = 0.5. Computed without the paper's rounding of
// intermediate values the result is 1464.05 / 151.52 / 0.059996 (the
// paper prints 1464.06 and 0.05999).
func TestPaperExample(t *testing.T) {
	player := Rating{R: 1500, RD: 200, Vol: 0.06}
	got := System{Tau: 0.5}.Update(player, []Result{
		{Opponent: Rating{R: 1400, RD: 30, Vol: 0.06}, Score: 1},
		{Opponent: Rating{R: 1550, RD: 100, Vol: 0.06}, Score: 0},
		{Opponent: Rating{R: 1700, RD: 300, Vol: 0.06}, Score: 0},
	})
	if math.Abs(got.R-1464.05) > 0.02 || math.Abs(got.RD-151.52) > 0.02 || math.Abs(got.Vol-0.059996) > 0.000001 {
		t.Fatalf("got %.4f / %.4f / %.7f, want 1464.05 / 151.52 / 0.059996", got.R, got.RD, got.Vol)
	}
}

// TestNoGames: a period without games changes nothing (no deviation
// growth for inactivity).
func TestNoGames(t *testing.T) {
	r := Rating{R: 1620, RD: 80, Vol: 0.05}
	if got := (System{}).Update(r, nil); got != r {
		t.Fatalf("got %+v, want %+v", got, r)
	}
}

func randomRating(rng *rand.Rand) Rating {
	return Rating{R: 1000 + 1200*rng.Float64(), RD: 30 + 320*rng.Float64(), Vol: 0.04 + 0.04*rng.Float64()}
}

// TestWinNeverLowers: in any period, a win in place of a tie or a loss
// (or a tie in place of a loss) never lowers the new rating, and a period
// of wins alone never lowers it below the old one.
func TestWinNeverLowers(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	sys := System{}
	for range 5000 {
		r := randomRating(rng)
		n := 1 + rng.IntN(6)
		res := make([]Result, n)
		for i := range res {
			res[i] = Result{Opponent: randomRating(rng), Score: float64(rng.IntN(3)) / 2}
		}
		base := sys.Update(r, res)
		i := rng.IntN(n)
		if res[i].Score < 1 {
			better := append([]Result(nil), res...)
			better[i].Score += 0.5
			if up := sys.Update(r, better); up.R < base.R-1e-9 {
				t.Fatalf("%+v with %+v: a better result %.6f lowers the rating %.6f → %.6f", r, res, better[i].Score, base.R, up.R)
			}
		}
		wins := append([]Result(nil), res...)
		for j := range wins {
			wins[j].Score = 1
		}
		if w := sys.Update(r, wins); w.R < r.R {
			t.Fatalf("%+v: wins only lower the rating to %.6f", r, w.R)
		}
	}
}

// TestDeviationShrinksWithGames: a new player's RD falls with every period
// of games, and more games in a period shrink it more; it never grows
// beyond what the volatility alone allows (step 6).
func TestDeviationShrinksWithGames(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	sys := System{}
	r := New()
	for period := range 30 {
		res := []Result{{Opponent: randomRating(rng), Score: float64(rng.IntN(3)) / 2}}
		next := sys.Update(r, res)
		if r.RD > 60 && next.RD >= r.RD {
			t.Fatalf("period %d: RD %.3f → %.3f", period, r.RD, next.RD)
		}
		if bound := math.Sqrt(r.RD*r.RD + next.Vol*next.Vol*Scale*Scale); next.RD > bound {
			t.Fatalf("period %d: RD %.3f beyond %.3f", period, next.RD, bound)
		}
		r = next
	}
	for range 1000 {
		r := randomRating(rng)
		opp := randomRating(rng)
		one := sys.Update(r, []Result{{Opponent: opp, Score: 0.5}})
		three := sys.Update(r, []Result{{Opponent: opp, Score: 0.5}, {Opponent: opp, Score: 0.5}, {Opponent: opp, Score: 0.5}})
		if three.RD > one.RD+1e-9 {
			t.Fatalf("%+v vs %+v: three games RD %.4f > one game %.4f", r, opp, three.RD, one.RD)
		}
	}
}
