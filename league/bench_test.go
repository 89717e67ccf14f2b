package league

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/rating"
)

// BenchmarkRecompute: the standings of every division and the rating
// pool of a league of 10,000 players (1,000 divisions of 10) and 50,000
// finished 2-player tables, from scratch (target ≤ 1 s).
func BenchmarkRecompute(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 7))
	const players, size, tables = 10000, 10, 50000
	divs := make([][]string, players/size)
	for i := range players {
		divs[i/size] = append(divs[i/size], fmt.Sprintf("p%05d@example.org", i))
	}
	byDiv := make([][]Finished, len(divs))
	rated := make([]Rated, 0, tables)
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range tables {
		d := rng.IntN(len(divs))
		a, c := rng.IntN(size), rng.IntN(size-1)
		if c >= a {
			c++
		}
		f := Finished{Table: fmt.Sprintf("t%d", i), Seats: []Seat{
			{Player: divs[d][a], Score: 250 + rng.IntN(200)}, {Player: divs[d][c], Score: 250 + rng.IntN(200)}}}
		byDiv[d] = append(byDiv[d], f)
		rated = append(rated, Rated{Finished: f, Ended: start.Add(time.Duration(i) * time.Minute)})
	}
	b.ResetTimer()
	for b.Loop() {
		for d := range divs {
			Standings(divs[d], byDiv[d], DefaultPoints)
		}
		Rate(rating.System{}, map[string]rating.Rating{}, rated)
	}
}

// BenchmarkRateOneTable: one finished table applied to a pool.
func BenchmarkRateOneTable(b *testing.B) {
	pool := map[string]rating.Rating{"a": {R: 1600, RD: 80, Vol: 0.06}, "b": {R: 1500, RD: 90, Vol: 0.06}}
	f := Finished{Table: "t", Seats: []Seat{{Player: "a", Score: 300}, {Player: "b", Score: 280}}}
	for b.Loop() {
		RateTable(rating.System{}, pool, f)
	}
}
