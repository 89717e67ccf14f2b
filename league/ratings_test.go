package league

import (
	"math"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/rating"
)

// TestRateTable: a 3-player table is one period per player with its two
// pair results, each against the other's rating before the table —
// computed here independently with rating.Update.
func TestRateTable(t *testing.T) {
	sys := rating.System{}
	pool := map[string]rating.Rating{"a": {R: 1600, RD: 100, Vol: 0.06}, "b": {R: 1450, RD: 200, Vol: 0.06}}
	c := rating.New()
	f := Finished{Seats: []Seat{{Player: "a", Score: 300}, {Player: "b", Score: 350}, {Player: "c", Score: 300}}}
	a0, b0 := pool["a"], pool["b"]
	RateTable(sys, pool, f)
	want := map[string]rating.Rating{
		"a": sys.Update(a0, []rating.Result{{Opponent: b0, Score: 0}, {Opponent: c, Score: 0.5}}),
		"b": sys.Update(b0, []rating.Result{{Opponent: a0, Score: 1}, {Opponent: c, Score: 1}}),
		"c": sys.Update(c, []rating.Result{{Opponent: a0, Score: 0.5}, {Opponent: b0, Score: 0}}),
	}
	for p, w := range want {
		if g := pool[p]; math.Abs(g.R-w.R) > 1e-9 || math.Abs(g.RD-w.RD) > 1e-9 {
			t.Errorf("%s: %+v, want %+v", p, g, w)
		}
	}
}

// TestRateOrder: tables apply in the order they ended, then by name; the
// order given does not matter.
func TestRateOrder(t *testing.T) {
	at := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	t1 := Rated{Finished: Finished{Table: "t1", Seats: []Seat{{Player: "a", Score: 300}, {Player: "b", Score: 200}}}, Ended: at}
	t2 := Rated{Finished: Finished{Table: "t2", Seats: []Seat{{Player: "b", Score: 300}, {Player: "a", Score: 200}}}, Ended: at}
	t0 := Rated{Finished: Finished{Table: "t9", Seats: []Seat{{Player: "a", Score: 1}, {Player: "c", Score: 2}}}, Ended: at.Add(-time.Hour)}
	one, two := map[string]rating.Rating{}, map[string]rating.Rating{}
	Rate(rating.System{}, one, []Rated{t2, t1, t0})
	for _, f := range []Rated{t0, t1, t2} {
		RateTable(rating.System{}, two, f.Finished)
	}
	for _, p := range []string{"a", "b", "c"} {
		if one[p] != two[p] {
			t.Errorf("%s: %+v, want %+v", p, one[p], two[p])
		}
	}
	three := map[string]rating.Rating{}
	for _, f := range []Rated{t0, t2, t1} {
		RateTable(rating.System{}, three, f.Finished)
	}
	if three["a"] == one["a"] {
		t.Error("the order of t1 and t2 should matter to a's rating")
	}
}
