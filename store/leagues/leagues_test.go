package leagues_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/leagues"
)

// TestSeasons: a league's seasons are numbered once each and read back in
// order, in UTC, closed once; their members come back by division and
// seed, their tables by division, round and name, and a table belongs to
// one season only.
func TestSeasons(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		ctx := context.Background()
		est := time.FixedZone("EST", -5*3600)
		s1 := &store.Season{League: "club", Number: 1, Started: t0.In(est), Ends: t0.Add(90 * 24 * time.Hour)}
		tb := newTable(t, s, "club-1-1-2", 2)
		ta := newTable(t, s, "club-1-1-1", 2)
		mustTx(t, s, func(tx *store.Tx) error {
			if err := leagues.Create(tx, s1); err != nil {
				return err
			}
			if err := leagues.Create(tx, &store.Season{League: "other", Number: 1, Started: t0, Ends: t0}); err != nil {
				return err
			}
			var ms []store.SeasonMember
			for i, addr := range []string{"p1@example.org", "p0@example.org", "z@example.org"} {
				p, err := tx.EnsurePlayer(addr, "en")
				if err != nil {
					return err
				}
				div, order, seed := "top", 0, i
				if i == 0 {
					div, order, seed = "second", 1, 0
				}
				ms = append(ms, store.SeasonMember{SeasonID: s1.ID, Division: div, DivisionOrder: order, Seed: seed, PlayerID: p.ID})
			}
			if err := leagues.AddMembers(tx, ms); err != nil {
				return err
			}
			for _, lt := range []*store.LeagueTable{{TableID: tb.ID, SeasonID: s1.ID, Round: 1}, {TableID: ta.ID, SeasonID: s1.ID, Round: 1}} {
				if err := leagues.AddTable(tx, lt); err != nil {
					return err
				}
			}
			return nil
		})
		mustTx(t, s, func(tx *store.Tx) error {
			if err := leagues.Create(tx, &store.Season{League: "club", Number: 1, Started: t0, Ends: t0}); !errors.Is(err, store.ErrDuplicate) {
				t.Errorf("a second season 1: %v, want store.ErrDuplicate", err)
			}
			p, err := tx.PlayerByAddress("p0@example.org")
			if err != nil {
				return err
			}
			if err := leagues.AddMembers(tx, []store.SeasonMember{{SeasonID: s1.ID, Division: "x", PlayerID: p.ID}}); !errors.Is(err, store.ErrDuplicate) {
				t.Errorf("a player twice in a season: %v, want store.ErrDuplicate", err)
			}
			if err := leagues.AddTable(tx, &store.LeagueTable{TableID: ta.ID, SeasonID: s1.ID}); !errors.Is(err, store.ErrDuplicate) {
				t.Errorf("a table twice in a season: %v, want store.ErrDuplicate", err)
			}
			return nil
		})
		mustTx(t, s, func(tx *store.Tx) error {
			if err := leagues.Create(tx, &store.Season{League: "club", Number: 2, Started: t0, Ends: t0}); err != nil {
				return err
			}
			if err := leagues.Close(tx, s1.ID, t0.Add(time.Hour).In(est)); err != nil {
				return err
			}
			if err := leagues.Close(tx, s1.ID, t0); !errors.Is(err, store.ErrConflict) {
				t.Errorf("closing a closed season: %v, want store.ErrConflict", err)
			}
			if err := leagues.Close(tx, -1, t0); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("closing no season: %v, want store.ErrNotFound", err)
			}
			return nil
		})
		err := s.View(ctx, func(tx *store.Tx) error {
			ss, err := leagues.Seasons(tx, "club")
			if err != nil {
				return err
			}
			if len(ss) != 2 || ss[0].Number != 1 || ss[1].Number != 2 {
				t.Fatalf("seasons of club: %+v, want 1 and 2", ss)
			}
			if got := ss[0]; !got.Started.Equal(t0) || got.Started.Location() != time.UTC ||
				got.ClosedAt == nil || !got.ClosedAt.Equal(t0.Add(time.Hour)) || got.ClosedAt.Location() != time.UTC {
				t.Errorf("season 1: started %v closed %v, want %v and an hour later, in UTC", got.Started, got.ClosedAt, t0)
			}
			if ss[1].ClosedAt != nil {
				t.Errorf("season 2 closed at %v, want running", ss[1].ClosedAt)
			}
			ms, err := leagues.Members(tx, s1.ID, -1)
			if err != nil {
				return err
			}
			var got []string
			for _, m := range ms {
				got = append(got, m.Division+":"+m.Player.Address)
			}
			if want := []string{"top:p0@example.org", "top:z@example.org", "second:p1@example.org"}; !slices.Equal(got, want) {
				t.Errorf("members: %v, want %v", got, want)
			}
			lts, err := leagues.Tables(tx, s1.ID, -1)
			if err != nil {
				return err
			}
			got = nil
			for _, lt := range lts {
				got = append(got, lt.Table.Name)
			}
			if want := []string{"club-1-1-1", "club-1-1-2"}; !slices.Equal(got, want) {
				t.Errorf("league tables: %v, want %v", got, want)
			}
			lt, err := leagues.TableOf(tx, ta.ID)
			if err != nil || lt.SeasonID != s1.ID {
				t.Errorf("LeagueTableOf: %+v, %v", lt, err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

// TestSignups: sign-ups and withdrawals stay pending, in order, until a
// season uses them, once.
func TestSignups(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		ctx := context.Background()
		var ids []int64
		var season store.Season
		mustTx(t, s, func(tx *store.Tx) error {
			season = store.Season{League: "club", Number: 1, Started: t0, Ends: t0}
			if err := leagues.Create(tx, &season); err != nil {
				return err
			}
			for i, addr := range []string{"b@example.org", "a@example.org", "b@example.org"} {
				p, err := tx.EnsurePlayer(addr, "en")
				if err != nil {
					return err
				}
				kind := store.SignupJoin
				if i == 2 {
					kind = store.SignupWithdraw
				}
				sg := &store.Signup{League: "club", PlayerID: p.ID, Kind: kind, At: t0.Add(time.Duration(i) * time.Minute)}
				if err := leagues.AddSignup(tx, sg); err != nil {
					return err
				}
				ids = append(ids, sg.ID)
			}
			if err := leagues.AddSignup(tx, &store.Signup{League: "club", PlayerID: 1, Kind: "maybe"}); err == nil {
				t.Error("a signup of kind maybe was recorded")
			}
			return leagues.AddSignup(tx, &store.Signup{League: "other", PlayerID: 1, Kind: store.SignupJoin})
		})
		pending := func() []string {
			var out []string
			err := s.View(ctx, func(tx *store.Tx) error {
				sgs, err := leagues.PendingSignups(tx, "club")
				for _, sg := range sgs {
					out = append(out, sg.Kind+":"+sg.Player.Address)
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			return out
		}
		if got, want := pending(), []string{"signup:b@example.org", "signup:a@example.org", "withdraw:b@example.org"}; !slices.Equal(got, want) {
			t.Errorf("pending: %v, want %v", got, want)
		}
		mustTx(t, s, func(tx *store.Tx) error { return leagues.UseSignups(tx, ids[:2], season.ID) })
		if got, want := pending(), []string{"withdraw:b@example.org"}; !slices.Equal(got, want) {
			t.Errorf("pending after use: %v, want %v", got, want)
		}
		mustTx(t, s, func(tx *store.Tx) error {
			if err := leagues.UseSignups(tx, ids, season.ID); !errors.Is(err, store.ErrConflict) {
				t.Errorf("using used signups: %v, want store.ErrConflict", err)
			}
			return nil
		})
	})
}

// TestRatings: a rating is per variant and player, replaced by the next,
// read back to the last bit.
func TestRatings(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		ctx := context.Background()
		var a, b *store.Player
		mustTx(t, s, func(tx *store.Tx) error {
			var err error
			if a, err = tx.EnsurePlayer("a@example.org", "en"); err != nil {
				return err
			}
			if b, err = tx.EnsurePlayer("b@example.org", "en"); err != nil {
				return err
			}
			for _, r := range []*store.PlayerRating{
				{Variant: "lexio", PlayerID: a.ID, Rating: 1600, RD: 200, Volatility: 0.06, Games: 1},
				{Variant: "lexico", PlayerID: a.ID, Rating: 1400, RD: 300, Volatility: 0.06, Games: 1},
				{Variant: "lexio", PlayerID: a.ID, Rating: 1337.689107120704, RD: 290.318962799502, Volatility: 0.05999936373572239, Games: 2},
			} {
				if err := leagues.SaveRating(tx, r); err != nil {
					return err
				}
			}
			return nil
		})
		err := s.View(ctx, func(tx *store.Tx) error {
			rs, err := leagues.Ratings(tx, "lexio", a.ID, b.ID)
			if err != nil {
				return err
			}
			if len(rs) != 1 {
				t.Fatalf("lexio ratings: %+v, want a's only", rs)
			}
			r := rs[a.ID]
			// Every bit of a float64 comes back: ratings are recomputed
			// from them.
			if r.Rating != 1337.689107120704 || r.RD != 290.318962799502 || r.Volatility != 0.05999936373572239 || r.Games != 2 || !r.UpdatedAt.Equal(t0) {
				t.Errorf("a's lexio rating: %+v, want the second one to the last bit", r)
			}
			rs, err = leagues.Ratings(tx, "lexico", a.ID)
			if err != nil {
				return err
			}
			if rs[a.ID].Rating != 1400 {
				t.Errorf("a's lexico rating: %+v, want 1400", rs[a.ID])
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

// TestSeasonResults: a season table's end is recorded once with its
// seats' results; they come back by division, table and seat; a season's unfinished tables are counted; seasons past their
// end are due until closed; a player's seasons and last membership are
// found; the weekly standings are marked once a week.
func TestSeasonResults(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		s1 := &store.Season{League: "club", Number: 1, Started: t0, Ends: t0.Add(24 * time.Hour)}
		tabs := []*store.Table{newTable(t, s, "club-1-1-1", 2), newTable(t, s, "club-1-2-1", 2), newTable(t, s, "club-1-1-2", 2)}
		var ids []int64
		mustTx(t, s, func(tx *store.Tx) error {
			if err := leagues.Create(tx, s1); err != nil {
				return err
			}
			for i, addr := range []string{"p0@example.org", "p1@example.org"} {
				p, err := tx.PlayerByAddress(addr)
				if err != nil {
					return err
				}
				ids = append(ids, p.ID)
				if err := leagues.AddMembers(tx, []store.SeasonMember{{SeasonID: s1.ID, Division: "top", DivisionOrder: i, PlayerID: p.ID}}); err != nil {
					return err
				}
			}
			for i, tb := range tabs {
				if err := leagues.AddTable(tx, &store.LeagueTable{TableID: tb.ID, SeasonID: s1.ID, DivisionOrder: []int{0, 1, 0}[i], Round: 1}); err != nil {
					return err
				}
			}
			return nil
		})
		finish := func(i int, at time.Time, scores ...int) error {
			return s.Tx(context.Background(), func(tx *store.Tx) error {
				return leagues.FinishTable(tx, tabs[i].ID, at, []store.SeatResult{
					{Seat: 0, PlayerID: ids[0], Score: scores[0]}, {Seat: 1, PlayerID: ids[1], Score: scores[1], LeftOrder: 1}})
			})
		}
		if err := finish(2, t0.Add(time.Hour), 300, 200); err != nil {
			t.Fatal(err)
		}
		if err := finish(0, t0.Add(2*time.Hour), 250, 260); err != nil {
			t.Fatal(err)
		}
		if err := finish(0, t0.Add(3*time.Hour), 1, 1); !errors.Is(err, store.ErrConflict) {
			t.Errorf("a second end of a table: %v, want store.ErrConflict", err)
		}
		mustTx(t, s, func(tx *store.Tx) error {
			got, err := leagues.Results(tx, s1.ID, 0)
			if err != nil {
				return err
			}
			want := []leagues.FinishedSeat{
				{TableID: tabs[0].ID, Address: "p0@example.org", Score: 250},
				{TableID: tabs[0].ID, Address: "p1@example.org", Score: 260, LeftOrder: 1},
				{TableID: tabs[2].ID, Address: "p0@example.org", Score: 300},
				{TableID: tabs[2].ID, Address: "p1@example.org", Score: 200, LeftOrder: 1},
			}
			if !slices.Equal(got, want) {
				t.Errorf("results %+v\nwant %+v", got, want)
			}
			if other, err := leagues.Results(tx, s1.ID, 1); err != nil || len(other) != 0 {
				t.Errorf("division 1: %+v %v", other, err)
			}
			if n, err := leagues.Unfinished(tx, s1.ID); err != nil || n != 1 {
				t.Errorf("unfinished %d %v, want 1", n, err)
			}
			due, err := leagues.Due(tx, t0.Add(23*time.Hour), 10)
			if err != nil || len(due) != 0 {
				t.Errorf("due before the end: %+v %v", due, err)
			}
			due, err = leagues.Due(tx, t0.Add(24*time.Hour), 10)
			if err != nil || len(due) != 1 || due[0].ID != s1.ID {
				t.Errorf("due at the end: %+v %v", due, err)
			}
			open, err := leagues.PlayerSeasons(tx, ids[1])
			if err != nil || len(open) != 1 || open[0].DivisionOrder != 1 || open[0].Season.League != "club" {
				t.Errorf("player seasons %+v %v", open, err)
			}
			m, err := leagues.LastMembership(tx, "club", ids[0])
			if err != nil || m.Season.Number != 1 {
				t.Errorf("last membership %+v %v", m, err)
			}
			if _, err := leagues.LastMembership(tx, "other", ids[0]); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("membership of another league: %v", err)
			}
			all, err := leagues.OpenMembers(tx)
			if err != nil || len(all) != 2 || all[0].Player == nil || all[0].Season == nil {
				t.Errorf("open season members %+v %v", all, err)
			}
			if err := leagues.MarkWeekly(tx, all[0].ID, "2026-W10"); err != nil {
				return err
			}
			if err := leagues.MarkWeekly(tx, all[0].ID, "2026-W10"); !errors.Is(err, store.ErrConflict) {
				t.Errorf("a second mark of the week: %v", err)
			}
			if err := leagues.Close(tx, s1.ID, t0.Add(24*time.Hour)); err != nil {
				return err
			}
			if due, err := leagues.Due(tx, t0.Add(48*time.Hour), 10); err != nil || len(due) != 0 {
				t.Errorf("due once closed: %+v %v", due, err)
			}
			if open, err := leagues.PlayerSeasons(tx, ids[1]); err != nil || len(open) != 0 {
				t.Errorf("player seasons once closed: %+v %v", open, err)
			}
			return nil
		})
	})
}

// TestTimeBounds: a season closed in year 10000 is refused with the rest
// of its transaction, as every write of the store is (store's
// TestTimeBounds), and nothing is stored.
func TestTimeBounds(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		y10000 := time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
		err := s.Tx(t.Context(), func(tx *store.Tx) error {
			sn := &store.Season{League: "main", Number: 1, Started: t0, Ends: t0.Add(time.Hour)}
			if err := leagues.Create(tx, sn); err != nil {
				return err
			}
			return leagues.Close(tx, sn.ID, y10000)
		})
		if !errors.Is(err, store.ErrTimeRange) {
			t.Errorf("season closed in year 10000: %v, want ErrTimeRange", err)
		}
		mustTx(t, s, func(tx *store.Tx) error {
			if sns, err := leagues.Seasons(tx, "main"); err != nil || len(sns) != 0 {
				t.Errorf("seasons: %+v, %v", sns, err)
			}
			return nil
		})
	})
}
