package season

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/config"
	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/engine/enginetest"
	"github.com/lexio-mail/lexio/league"
	"github.com/lexio-mail/lexio/lobby"
	"github.com/lexio-mail/lexio/rating"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/leagues"
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/templates"
)

// BenchmarkSeason: a running season of 10,000 players (1,000 divisions of
// 10) with 50,000 finished tables on a SQLite file, filled once (a minute
// or two), outside the timing.
//   - table-end: one table's end: its results, its players' ratings, the
//     season's open tables counted, and its division's standings with
//     ratings, in one transaction (target ≤ 5 ms);
//   - recompute: every division's standings and the whole rating pool
//     from scratch, read from the store (target ≤ 1 s).
func BenchmarkSeason(b *testing.B) {
	ctx := context.Background()
	now := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	cfg, err := config.Parse([]byte(`
[mail]
address = "lexio@localhost"
secret = "0123456789abcdef0123456789abcdef"
[embedded]
enabled = true
[[league]]
name = "big"
signup = true
`))
	if err != nil {
		b.Fatal(err)
	}
	st, err := store.Open(ctx, store.Options{SQLitePath: filepath.Join(b.TempDir(), "bench.db"), Now: func() time.Time { return now }})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	tmpl, err := templates.New()
	if err != nil {
		b.Fatal(err)
	}
	tables, err := table.New(table.Options{Config: cfg, Store: st, Dict: enginetest.AnyWord{}, Templates: tmpl, Secret: []byte("0123456789abcdef0123456789abcdef"), Now: func() time.Time { return now }})
	if err != nil {
		b.Fatal(err)
	}
	s := New(tables, lobby.New(tables, nil), nil)
	tables.SetSeasons(s)
	l := cfg.League("big")
	const players, size, finished = 10000, 10, 50000
	season := &store.Season{League: "big", Number: 1, Started: now, Ends: now.Add(90 * 24 * time.Hour)}
	ids := make([]int64, players)
	newTable := func(tx *store.Tx, name string, a, c int) (*store.Table, error) {
		row := table.NewRow(name, l, "lexio")
		row.Status = store.StatusPlaying
		if err := tx.CreateTable(row); err != nil {
			return nil, err
		}
		for i, p := range []int{a, c} {
			if err := tx.AddSeat(&store.Seat{TableID: row.ID, Position: i, PlayerID: ids[p], CreatedAt: now}); err != nil {
				return nil, err
			}
		}
		return row, leagues.AddTable(tx, &store.LeagueTable{TableID: row.ID, SeasonID: season.ID, DivisionOrder: a / size, Round: 1})
	}
	err = st.Tx(ctx, func(tx *store.Tx) error {
		if err := leagues.Create(tx, season); err != nil {
			return err
		}
		var ms []store.SeasonMember
		for i := range players {
			p, err := tx.EnsurePlayer(fmt.Sprintf("p%05d@example.org", i), "en")
			if err != nil {
				return err
			}
			ids[i] = p.ID
			ms = append(ms, store.SeasonMember{SeasonID: season.ID, Division: fmt.Sprint("d", i/size), DivisionOrder: i / size, Seed: i % size, PlayerID: p.ID})
			if err := leagues.SaveRating(tx, &store.PlayerRating{Variant: "lexio", PlayerID: p.ID, Rating: 1500 + float64(i%300), RD: 80, Volatility: 0.06, Games: 5, UpdatedAt: now}); err != nil {
				return err
			}
		}
		for i := 0; i < len(ms); i += 1000 {
			if err := leagues.AddMembers(tx, ms[i:min(i+1000, len(ms))]); err != nil {
				return err
			}
		}
		for k := range finished {
			d, j := k%(players/size), k/(players/size) // the division, its j-th table
			a, c := d*size+j%size, d*size+(j%size+1+j/size)%size
			row, err := newTable(tx, fmt.Sprintf("big-1-%d-%d", d+1, k), a, c)
			if err != nil {
				return err
			}
			rs := []store.SeatResult{{Seat: 0, PlayerID: ids[a], Score: 250 + k%200}, {Seat: 1, PlayerID: ids[c], Score: 250 + k%170}}
			if err := leagues.FinishTable(tx, row.ID, now.Add(time.Duration(k)*time.Second), rs); err != nil {
				return err
			}
		}
		for d := range players / size { // and a table still in play in each division
			if _, err := newTable(tx, fmt.Sprintf("big-1-%d-open", d+1), d*size, d*size+1); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("recompute", func(b *testing.B) {
		for b.Loop() {
			err := st.View(ctx, func(tx *store.Tx) error {
				d, err := s.readSeason(tx, l, 1, -1, false)
				if err != nil {
					return err
				}
				if rows := d.standings(l); len(rows) != players/size {
					return fmt.Errorf("%d divisions", len(rows))
				}
				// The ratings from scratch, table after table in the order
				// they ended (Rate's order): these tables ended in the order
				// they were made, which is the seats' order.
				seats, sys := d.seats, rating.System{Tau: cfg.RatingTau}
				pool := map[string]rating.Rating{}
				for i := 0; i < len(seats); i += 2 {
					league.RateTable(sys, pool, league.Finished{Seats: []league.Seat{
						{Player: seats[i].Address, Score: seats[i].Score}, {Player: seats[i+1].Address, Score: seats[i+1].Score}}})
				}
				if len(pool) != players {
					return fmt.Errorf("%d rated", len(pool))
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("table-end", func(b *testing.B) { benchTableEnd(b, s, st, l, ids, newTable) })
}

// benchTableEnd times one season table's end and its division's
// standings, a new table each time.
func benchTableEnd(b *testing.B, s *Service, st *store.Store, l *config.League, ids []int64,
	newTable func(tx *store.Tx, name string, a, c int) (*store.Table, error)) {
	ctx := context.Background()
	now := s.Now()
	const players, size = 10000, 10
	n := 0
	for b.Loop() {
		b.StopTimer()
		n++
		var t *table.Table
		d := n % (players / size) // each division gets its share of the live tables
		err := st.Tx(ctx, func(tx *store.Tx) error {
			row, err := newTable(tx, fmt.Sprint("live-", n), d*size, d*size+1+n%(size-1))
			if err != nil {
				return err
			}
			seats, err := tx.Seats(row.ID)
			if err != nil {
				return err
			}
			g, err := engine.New(engine.Config{Players: 2, Seed: uint64(n), Start: now})
			if err == nil {
				err = g.Resign(1, now, false)
			}
			t = &table.Table{Row: row, Seats: seats, Game: g}
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		err = st.Tx(ctx, func(tx *store.Tx) error {
			if err := s.Ended(tx, t, now); err != nil {
				return err
			}
			div, err := s.divisionStandings(tx, l, 1, d)
			if err == nil && len(div.Standings.Lines) != size {
				err = fmt.Errorf("%d lines", len(div.Standings.Lines))
			}
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}
