package league

import (
	"cmp"
	"slices"
	"time"

	"github.com/lexio-mail/lexio/rating"
)

// Rated is a finished table for the rating pool of its variant.
type Rated struct {
	Finished
	Ended time.Time
}

// Rate applies finished tables to a rating pool (LEAGUES §10.2): each
// table is one rating period for its players, with every pair result of
// the table, against the opponents' ratings as they stood before it.
// Tables are applied in the order they ended, tables that ended at the
// same instant in table-name order. A player new to the pool starts at
// rating.New. pool is updated in place.
func Rate(sys rating.System, pool map[string]rating.Rating, tables []Rated) {
	tables = slices.Clone(tables)
	slices.SortStableFunc(tables, func(a, b Rated) int {
		return cmp.Or(a.Ended.Compare(b.Ended), cmp.Compare(a.Table, b.Table))
	})
	for _, t := range tables {
		RateTable(sys, pool, t.Finished)
	}
}

// RateTable applies one finished table to pool.
func RateTable(sys rating.System, pool map[string]rating.Rating, f Finished) {
	before := make(map[string]rating.Rating, len(f.Seats))
	for _, s := range f.Seats {
		r, ok := pool[s.Player]
		if !ok {
			r = rating.New()
		}
		before[s.Player] = r
	}
	results := make(map[string][]rating.Result, len(f.Seats))
	for _, p := range Pairs(f) {
		results[p.A] = append(results[p.A], rating.Result{Opponent: before[p.B], Score: p.Score})
		results[p.B] = append(results[p.B], rating.Result{Opponent: before[p.A], Score: 1 - p.Score})
	}
	for player, res := range results {
		pool[player] = sys.Update(before[player], res)
	}
}
