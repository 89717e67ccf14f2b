package season_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/rating"
	"github.com/lexio-mail/lexio/season"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/leagues"
	"github.com/lexio-mail/lexio/table"
)

// expectStandings computes a division's standings lines from the
// engine's results of its finished tables, independently of the league
// package (LEAGUES §8.1, §9.1): every pair of a table, a player who left
// losing to everyone ranked above them, no positive spread for one who
// left.
func expectStandings(players []string, finished map[string]engine.Result, seats map[string][]string, pts [3]int) map[string]*wantRow {
	want := map[string]*wantRow{}
	for _, p := range players {
		want[p] = &wantRow{}
	}
	for name, r := range finished {
		at := seats[name]
		left := make([]int, len(at)) // 0 in; else the order they left
		for k, d := range r.Left {
			left[d.Player] = k + 1
		}
		for i := range at {
			w := want[at[i]]
			w.played += len(at) - 1 // pairs (LEAGUES §9.1)
			w.pointsFor += r.Scores[i]
			for j := range at {
				if i == j {
					continue
				}
				var res int // 1 win, 0 tie, -1 loss of i against j
				switch {
				case left[i] > 0 && (left[j] == 0 || left[i] < left[j]):
					res = -1 // i left, before j or while j stayed in
				case left[j] > 0 && (left[i] == 0 || left[j] < left[i]):
					res = 1
				case r.Scores[i] > r.Scores[j]:
					res = 1
				case r.Scores[i] < r.Scores[j]:
					res = -1
				}
				d := r.Scores[i] - r.Scores[j]
				if res == -1 && left[i] > 0 && d > 0 || res == 1 && left[j] > 0 && d < 0 {
					d = 0 // the one who left was ahead
				}
				w.spread += d
				switch res {
				case 1:
					w.won++
					w.points += pts[0]
				case 0:
					w.tied++
					w.points += pts[1]
				default:
					w.lost++
					w.points += pts[2]
				}
			}
		}
	}
	return want
}

// TestSeasonEnd: LEAGUES §7.3, §10.2. A season's end passes while the
// daemon is down; the next tick closes it at its end: the turns that ran
// out before it are enforced first, then every table still being played
// is adjudicated at the end (each loses their rack's value, nobody
// gains), and no deadline after the end is enforced; every player gets
// the game-over mail; the standings count the adjudicated tables; the
// ratings follow the tables in the order they ended, those adjudicated
// together in name order. A league's only table ending closes its season
// at once.
func TestSeasonEnd(t *testing.T) {
	t.Parallel()
	h := seasonHarness(t, `
[[league]]
name = "club"
season_days = 20
turn_time = "300h"
[[league.division]]
name = "top"
players = ["alice@localhost", "bob@localhost", "carol@localhost", "dave@localhost"]
[[league]]
name = "pair"
[[league.division]]
name = "only"
players = ["alice@localhost", "eve@localhost"]
`)
	start := h.Clock.Now()
	s, err := h.Seasons.StartSeason(h.Ctx, "club")
	if err != nil {
		t.Fatal(err)
	}
	ends := start.Add(20 * 24 * time.Hour)
	seats := map[string][]string{}
	for _, st := range s.Tables {
		seats[st.Name] = st.Players
	}
	sys := rating.System{Tau: h.Cfg.RatingTau}
	ratings := map[string]rating.Rating{}
	get := func(a string) rating.Rating {
		if r, ok := ratings[a]; ok {
			return r
		}
		return rating.New()
	}
	rate := func(name string, r engine.Result) { // a 2-player table, one rating period
		a, b := seats[name][0], seats[name][1]
		sa := 0.5
		switch {
		case len(r.Left) > 0:
			sa = map[bool]float64{true: 0, false: 1}[r.Left[0].Player == 0]
		case r.Scores[0] > r.Scores[1]:
			sa = 1
		case r.Scores[0] < r.Scores[1]:
			sa = 0
		}
		ra, rb := get(a), get(b)
		ratings[a] = sys.Update(ra, []rating.Result{{Opponent: rb, Score: sa}})
		ratings[b] = sys.Update(rb, []rating.Result{{Opponent: ra, Score: 1 - sa}})
	}

	// The last table resigned first; the first two see a move each.
	resigned := s.Tables[len(s.Tables)-1]
	h.Clock.Add(time.Hour)
	h.AnswerAt(resigned.Name, strings.TrimSuffix(resigned.Players[1], "@localhost"), "RESIGN "+resigned.Name)
	rate(resigned.Name, h.Game(resigned.Name).Result())
	for _, st := range s.Tables[:2] {
		h.AnswerAt(st.Name, strings.TrimSuffix(st.Players[0], "@localhost"), lexiotest.NextCommand(h.Game(st.Name), false))
	}
	if v, _, _ := h.Seasons.Standings(h.Ctx, "club", 0); v.Closed {
		t.Fatal("season closed with tables still to play")
	}

	// Down from before the first deadline (300 h) until well after the
	// end (480 h) and the deadlines after it (from 600 h).
	h.OutboxEmpty()
	before := map[string]int{}
	for _, p := range s.Divisions[0].Players {
		before[p] = len(lexiotest.OfKind(h.Inbox(strings.TrimSuffix(p, "@localhost")), "game-over"))
	}
	h.Clock.Add(start.Add(700 * time.Hour).Sub(h.Clock.Now()))
	h.Tick(h.Clock.Now())
	finished := map[string]engine.Result{resigned.Name: h.Game(resigned.Name).Result()}
	var names []string
	for _, st := range s.Tables {
		if st.Name != resigned.Name {
			names = append(names, st.Name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		g := h.Game(name)
		r := g.Result()
		if !r.Over || r.Reason != engine.EndAdjudicated {
			t.Fatalf("%s: over %v, reason %s, want adjudicated", name, r.Over, r.Reason)
		}
		finished[name] = r
		rate(name, r)
		var expiries []time.Time
		var end time.Time
		adjust := 0
		for _, e := range g.Log() {
			switch e.Kind {
			case engine.LogExpire:
				expiries = append(expiries, e.At)
			case engine.LogEnd:
				end = e.At
			case engine.LogAdjust:
				adjust++
				if e.Score > 0 {
					t.Errorf("%s: a gain at adjudication %+v", name, e)
				}
			}
		}
		if !end.Equal(ends) || adjust != 2 {
			t.Errorf("%s: ended at %v with %d adjustments, want at the season's end %v with 2", name, end, adjust, ends)
		}
		if len(expiries) != 1 || !expiries[0].Before(ends) {
			t.Errorf("%s: expiries %v, want the one before the end only", name, expiries)
		}
	}
	h.OutboxEmpty()
	for _, p := range s.Divisions[0].Players {
		n := 0
		for _, st := range s.Tables {
			if st.Name != resigned.Name && slices.Contains(st.Players, p) {
				n++
			}
		}
		if got := len(lexiotest.OfKind(h.Inbox(strings.TrimSuffix(p, "@localhost")), "game-over")) - before[p]; got != n {
			t.Errorf("%s: %d game-over mails, want %d", p, got, n)
		}
	}
	view, rows, err := h.Seasons.Standings(h.Ctx, "club", 0)
	if err != nil {
		t.Fatal(err)
	}
	if !view.Closed || view.Running() {
		t.Errorf("season closed %v, running %v after its end", view.Closed, view.Running())
	}
	want := expectStandings(s.Divisions[0].Players, finished, seats, [3]int{2, 1, 0})
	for i, r := range rows {
		w := want[r.Player]
		got := wantRow{r.Played, r.Won, r.Tied, r.Lost, r.Points, r.Spread, r.PointsFor}
		if w == nil || got != *w || r.Rank != i+1 {
			t.Errorf("row %d: %+v, want %+v", i, r, w)
		}
		if wr := ratings[r.Player]; r.Rating != wr.R || r.RD != wr.RD {
			t.Errorf("%s rated %v/%v, want %v/%v (tables in the order they ended, then by name)", r.Player, r.Rating, r.RD, wr.R, wr.RD)
		}
	}
	err = h.Store.View(h.Ctx, func(tx *store.Tx) error {
		ss, err := leagues.Seasons(tx, "club")
		if err == nil && (len(ss) != 1 || ss[0].ClosedAt == nil || !ss[0].ClosedAt.Equal(ends)) {
			t.Errorf("season row %+v, want closed at %v", ss, ends)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	// A second tick finds nothing; closing again is refused.
	mails := len(h.Inbox("alice"))
	h.Tick(h.Clock.Now())
	h.OutboxEmpty()
	if n := len(h.Inbox("alice")); n != mails {
		t.Errorf("a second tick sent alice %d mails", n-mails)
	}
	if _, err := h.Seasons.CloseSeason(h.Ctx, "club"); err == nil || !strings.Contains(err.Error(), "closed already") {
		t.Errorf("closing a closed season: %v", err)
	}

	// pair: its one table's end is the season's.
	d, err := h.Seasons.StartSeason(h.Ctx, "pair")
	if err != nil {
		t.Fatal(err)
	}
	h.Clock.Add(time.Hour)
	h.AnswerAt(d.Tables[0].Name, "eve", "RESIGN "+d.Tables[0].Name)
	if v, _, err := h.Seasons.Standings(h.Ctx, "pair", 0); err != nil || !v.Closed {
		t.Errorf("pair after its last table: closed %v, %v", v != nil && v.Closed, err)
	}
}

// TestCloseSeason: `lexio league close` adjudicates a running season now,
// whatever its end date, in one transaction with the game-over mails.
func TestCloseSeason(t *testing.T) {
	lexiotest.EachDriver(t, func(t *testing.T, driver string) {
		h := seasonHarnessWith(t, lexiotest.Options{Driver: driver, Config: seasonLeagues})
		if _, err := h.Seasons.CloseSeason(h.Ctx, "club"); !errors.Is(err, season.ErrNoSeason) {
			t.Errorf("close before a season: %v", err)
		}
		s, err := h.Seasons.StartSeason(h.Ctx, "Trio Club!")
		if err != nil {
			t.Fatal(err)
		}
		first := s.Tables[0]
		h.AnswerAt(first.Name, strings.TrimSuffix(first.Players[0], "@localhost"), lexiotest.NextCommand(h.Game(first.Name), false))
		h.Clock.Add(time.Hour)
		closed, err := h.Seasons.CloseSeason(h.Ctx, "Trio Club!")
		if err != nil {
			t.Fatal(err)
		}
		if !closed.Closed || closed.Number != 1 {
			t.Errorf("closed %+v", closed)
		}
		for _, st := range s.Tables {
			g := h.Game(st.Name)
			if r := g.Result(); r.Reason != engine.EndAdjudicated {
				t.Errorf("%s: %s, want adjudicated", st.Name, r.Reason)
			}
			if log := g.Log(); !log[len(log)-1].At.Equal(h.Clock.Now()) {
				t.Errorf("%s ended at %v, want now", st.Name, log[len(log)-1].At)
			}
		}
		h.OutboxEmpty()
		for _, p := range []string{"alice", "frank"} {
			if n := len(lexiotest.OfKind(h.Inbox(p), "game-over")); n == 0 {
				t.Errorf("%s got no game-over mail", p)
			}
		}
		// The next season can start at once.
		if _, err := h.Seasons.StartSeason(h.Ctx, "Trio Club!"); err != nil {
			t.Errorf("season 2 after the close: %v", err)
		}
		var _ = season.SeasonTable{}
	})
}

// TestMoveAfterSeasonEnd: a move that comes after its season's end,
// before the tick has closed it, is too late: the message's transaction
// closes the season first (every table adjudicated at the end, as the
// tick would), and the move is refused.
func TestMoveAfterSeasonEnd(t *testing.T) {
	t.Parallel()
	h := seasonHarness(t, `
[[league]]
name = "short"
season_days = 1
turn_time = "300h"
[[league.division]]
name = "top"
players = ["alice@localhost", "bob@localhost", "carol@localhost"]
`)
	start := h.Clock.Now()
	s, err := h.Seasons.StartSeason(h.Ctx, "short")
	if err != nil {
		t.Fatal(err)
	}
	h.OutboxEmpty()
	st := s.Tables[0]
	who := strings.TrimSuffix(st.Players[0], "@localhost")
	m := lexiotest.LatestOf(h.Inbox(who), st.Name)
	h.Clock.Add(25 * time.Hour)
	h.Expect(h.ReplyTo(who, m, lexiotest.NextCommand(h.Game(st.Name), false)), table.OutcomeRejected, "game-over")
	for _, st := range s.Tables {
		g := h.Game(st.Name)
		log := g.Log()
		if r := g.Result(); r.Reason != engine.EndAdjudicated || !log[len(log)-1].At.Equal(start.Add(24*time.Hour)) {
			t.Errorf("%s: %s at %v, want adjudicated at the season's end", st.Name, r.Reason, log[len(log)-1].At)
		}
	}
	if v, _, err := h.Seasons.Standings(h.Ctx, "short", 0); err != nil || !v.Closed {
		t.Errorf("season closed %v, %v", v != nil && v.Closed, err)
	}
}
