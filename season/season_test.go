package season_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/internal/tablename"
	"github.com/lexio-mail/lexio/league"
	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/rating"
	"github.com/lexio-mail/lexio/season"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/leagues"
)

// seasonLeagues are two leagues with seasons: club, a 2-player round
// robin of five, and Trio Club!, 3-player tables for six.
const seasonLeagues = `
[[league]]
name = "club"
season_days = 30
[[league.division]]
name = "top"
players = ["alice@localhost", "bob@localhost", "carol@localhost", "dave@localhost", "eve@localhost"]
[[league]]
name = "Trio Club!"
table_size = 3
[[league.division]]
name = "one"
players = ["alice@localhost", "bob@localhost", "carol@localhost", "dave@localhost", "eve@localhost", "frank@localhost"]
[[league]]
name = "solo"
signup = true
`

func seasonHarness(t *testing.T, config string) *lexiotest.Harness {
	t.Helper()
	return seasonHarnessWith(t, lexiotest.Options{Config: config})
}

func seasonHarnessWith(t *testing.T, o lexiotest.Options) *lexiotest.Harness {
	t.Helper()
	h := lexiotest.New(t, o)
	for _, u := range []string{"frank", "gina"} {
		h.AddUser(u)
	}
	return h
}

// pairsOf counts how often each pair of players meets at the tables.
func pairsOf(tables []season.SeasonTable) map[[2]string]int {
	met := map[[2]string]int{}
	for _, st := range tables {
		for i, a := range st.Players {
			for _, b := range st.Players[i+1:] {
				met[[2]string{min(a, b), max(a, b)}]++
			}
		}
	}
	return met
}

// openers checks that the numbers of tables each player opens differ by
// at most one.
func openers(t *testing.T, players []string, tables []season.SeasonTable) {
	t.Helper()
	opens := map[string]int{}
	for _, p := range players {
		opens[p] = 0
	}
	for _, st := range tables {
		opens[st.Players[0]]++
	}
	lo, hi := len(tables), 0
	for _, n := range opens {
		lo, hi = min(lo, n), max(hi, n)
	}
	if hi-lo > 1 {
		t.Errorf("openings %v: differ by %d", opens, hi-lo)
	}
}

// TestStartSeason: LEAGUES §7.2. A 2-player division of five is a round
// robin (every pair once, league.RoundRobin's tables), a 3-player
// division of six the rounds league.Rounds gives for the league's seed;
// every table is created at once, playing, named by the rule, openers
// balanced, every player told of each of their tables; a second start of
// a running season is refused, and the same league and season give the
// same tables in another database.
func TestStartSeason(t *testing.T) {
	t.Parallel()
	h := seasonHarness(t, seasonLeagues)
	club := h.Cfg.League("club")
	s, err := h.Seasons.StartSeason(h.Ctx, "club")
	if err != nil {
		t.Fatal(err)
	}
	players := club.Divisions[0].Players
	if s.Number != 1 || !s.Ends.Equal(h.Clock.Now().Add(30*24*time.Hour)) || len(s.Divisions) != 1 ||
		!slices.Equal(s.Divisions[0].Players, players) {
		t.Fatalf("season %d ends %v, divisions %+v", s.Number, s.Ends, s.Divisions)
	}
	var want []season.SeasonTable
	for k, lt := range league.RoundRobin(5, 1) {
		st := season.SeasonTable{Name: season.TableName("club", 1, 1, k+1), Division: "top", Round: 1}
		for _, p := range lt {
			st.Players = append(st.Players, players[p])
		}
		want = append(want, st)
	}
	if len(s.Tables) != 10 {
		t.Fatalf("%d tables, want 10", len(s.Tables))
	}
	for i, st := range s.Tables {
		if st.Name != want[i].Name || !slices.Equal(st.Players, want[i].Players) || st.Status != store.StatusPlaying || st.ToMove != st.Players[0] {
			t.Errorf("table %d: %+v, want %+v playing, its opener to move", i, st, want[i])
		}
		if err := tablename.Check(st.Name); err != nil {
			t.Error(err)
		}
	}
	met := pairsOf(s.Tables)
	if len(met) != 10 {
		t.Errorf("%d pairs met, want all 10", len(met))
	}
	for p, n := range met {
		if n != 1 {
			t.Errorf("%v met %d times", p, n)
		}
	}
	openers(t, players, s.Tables)
	h.OutboxEmpty()
	for _, p := range []string{"alice", "bob", "carol", "dave", "eve"} {
		got := map[string]bool{}
		for _, m := range h.Inbox(p) {
			for _, st := range s.Tables {
				if strings.HasPrefix(m.MessageID, "lexio."+st.Name+".") {
					got[st.Name] = true
				}
			}
		}
		if len(got) != 4 {
			t.Errorf("%s was told of %d tables, want their 4", p, len(got))
		}
	}

	if _, err := h.Seasons.StartSeason(h.Ctx, "club"); err == nil || !strings.Contains(err.Error(), "season 1 is running") {
		t.Errorf("a second start: %v, want season 1 running", err)
	}
	for league, want := range map[string]string{"nope": `no league "nope"`, "main": `league "main" has no seasons`,
		"solo": `nobody to play season 1`} {
		if _, err := h.Seasons.StartSeason(h.Ctx, league); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("start %s: %v, want %q", league, err, want)
		}
	}

	// One sign-up is a division of one: refused, and nothing is used.
	err = h.Store.Tx(h.Ctx, func(tx *store.Tx) error {
		p, err := tx.EnsurePlayer("gina@localhost", "en")
		if err != nil {
			return err
		}
		return leagues.AddSignup(tx, &store.Signup{League: "solo", PlayerID: p.ID, Kind: store.SignupJoin})
	})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := h.Seasons.StartSeason(h.Ctx, "solo"); err == nil || !strings.Contains(err.Error(), `division "division-1" would have 1 player(s)`) {
			t.Errorf("start solo: %v", err)
		}
	}

	trio := h.Cfg.League("Trio Club!")
	s3, err := h.Seasons.StartSeason(h.Ctx, "Trio Club!")
	if err != nil {
		t.Fatal(err)
	}
	players = trio.Divisions[0].Players
	rounds := league.Rounds(6, 3, league.DefaultRounds(6, 3), season.PairingSeed("Trio Club!", 1))
	var k int
	for r, round := range rounds {
		for _, lt := range round {
			st := s3.Tables[k]
			k++
			var ps []string
			for _, p := range lt {
				ps = append(ps, players[p])
			}
			if name := season.TableName("Trio Club!", 1, 1, k); st.Name != name || st.Round != r+1 || !slices.Equal(st.Players, ps) {
				t.Errorf("table %d: %+v, want %s round %d %v", k, st, name, r+1, ps)
			}
			if !strings.HasPrefix(st.Name, "trio-club-1-1-") {
				t.Errorf("table name %s, want trio-club-1-1-k", st.Name)
			}
		}
	}
	if k != len(s3.Tables) || k != 6 {
		t.Errorf("%d tables, want the 6 of league.Rounds", len(s3.Tables))
	}
	openers(t, players, s3.Tables)

	// Another database, the same league and season: the same tables.
	other := seasonHarness(t, seasonLeagues)
	again, err := other.Seasons.StartSeason(other.Ctx, "Trio Club!")
	if err != nil {
		t.Fatal(err)
	}
	for i := range s3.Tables {
		if a, b := s3.Tables[i], again.Tables[i]; a.Name != b.Name || !slices.Equal(a.Players, b.Players) {
			t.Errorf("table %d: %+v, then %+v", i, a, b)
		}
	}
}

// TestSeasonTableName: the names are table names, the league's name
// slugged and cut to fit.
func TestSeasonTableName(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		league string
		want   string
	}{
		{"club", "club-1-2-3"},
		{"Club du Jeudi — Paris", "club-du-jeudi-paris-1-2-3"},
		{"--", "league-1-2-3"},
		{"a very long league name that does not fit", "a-very-long-league-name-th-1-2-3"},
		{"abcdefghijklmnopqrstuvwxy-z", "abcdefghijklmnopqrstuvwxy-1-2-3"},
	} {
		got := season.TableName(c.league, 1, 2, 3)
		if got != c.want {
			t.Errorf("SeasonTableName(%q) = %q, want %q", c.league, got, c.want)
		}
		if err := tablename.Check(got); err != nil {
			t.Error(err)
		}
	}
}

// finish plays a season's 2-player table to its end by mail: placements
// and exchanges, everyone passing after idleAfter turns.
func finish(h *lexiotest.Harness, st season.SeasonTable, idleAfter int) {
	h.T.Helper()
	for turn := 0; turn < 400; turn++ {
		g := h.Game(st.Name)
		if g.Over() {
			return
		}
		who, _, _ := strings.Cut(st.Players[g.Turn()], "@")
		h.AnswerAt(st.Name, who, lexiotest.NextCommand(g, turn >= idleAfter))
	}
	h.T.Fatalf("table %s: no end after 400 turns", st.Name)
}

// wantRow is a standings line computed in the test from the tables'
// final scores.
type wantRow struct{ played, won, tied, lost, points, spread, pointsFor int }

// TestSeasonStandings: LEAGUES §8, §9.1. A table ended by play and one by
// resignation count (a resignation loses, and gives the one who left no
// positive spread); a table still running counts for nothing; every
// player of the division has a row, in order; in a league that is not
// rated, ratings stay 1500/350.
func TestSeasonStandings(t *testing.T) {
	t.Parallel()
	h := seasonHarness(t, `
[[league]]
name = "club"
points = [3, 1, 0]
rated = false
[[league.division]]
name = "top"
players = ["alice@localhost", "bob@localhost", "carol@localhost", "dave@localhost"]
`)
	if _, _, err := h.Seasons.Standings(h.Ctx, "club", 0); !errors.Is(err, season.ErrNoSeason) {
		t.Errorf("standings before the first season: %v", err)
	}
	s, err := h.Seasons.StartSeason(h.Ctx, "club")
	if err != nil {
		t.Fatal(err)
	}
	byPlay, byResign := s.Tables[0], s.Tables[1]
	finish(h, byPlay, 6)
	// The opener of the second table plays once, then resigns: ahead or
	// not, they lose.
	h.AnswerAt(byResign.Name, strings.TrimSuffix(byResign.Players[0], "@localhost"), lexiotest.NextCommand(h.Game(byResign.Name), false))
	h.Clock.Add(time.Hour)
	h.AnswerAt(byResign.Name, strings.TrimSuffix(byResign.Players[0], "@localhost"), "RESIGN "+byResign.Name)

	want := map[string]*wantRow{}
	for _, p := range s.Divisions[0].Players {
		want[p] = &wantRow{}
	}
	for i, st := range []season.SeasonTable{byPlay, byResign} {
		r := h.Game(st.Name).Result()
		if !r.Over {
			t.Fatalf("%s not over", st.Name)
		}
		a, b := want[st.Players[0]], want[st.Players[1]]
		a.played++
		b.played++
		a.pointsFor += r.Scores[0]
		b.pointsFor += r.Scores[1]
		d := r.Scores[0] - r.Scores[1]
		switch {
		case i == 1: // the opener resigned
			a.lost++
			b.won++
			b.points += 3
			if d > 0 {
				d = 0
			}
		case d > 0:
			a.won++
			b.lost++
			a.points += 3
		case d < 0:
			b.won++
			a.lost++
			b.points += 3
		default:
			a.tied++
			b.tied++
			a.points++
			b.points++
		}
		a.spread += d
		b.spread -= d
	}
	view, rows, err := h.Seasons.Standings(h.Ctx, "club", 0)
	if err != nil {
		t.Fatal(err)
	}
	if view.Number != 1 || len(rows) != 4 {
		t.Fatalf("season %d, %d rows", view.Number, len(rows))
	}
	for i, r := range rows {
		w := want[r.Player]
		got := wantRow{r.Played, r.Won, r.Tied, r.Lost, r.Points, r.Spread, r.PointsFor}
		if w == nil || got != *w || r.Rank != i+1 || r.Division != "top" || r.Rating != 1500 || r.RD != 350 {
			t.Errorf("row %d: %+v, want %+v, rank %d, 1500/350", i, r, w, i+1)
		}
		if name, _, _ := strings.Cut(r.Player, "@"); r.Name != strings.ToUpper(name[:1])+name[1:] {
			t.Errorf("row %d: name %q", i, r.Name)
		}
		if i > 0 && (rows[i-1].Points < r.Points || rows[i-1].Points == r.Points && rows[i-1].Spread < r.Spread) {
			t.Errorf("row %d (%d points, spread %d) above row %d (%d, %d)", i-1, rows[i-1].Points, rows[i-1].Spread, i, r.Points, r.Spread)
		}
	}
	if _, _, err := h.Seasons.Standings(h.Ctx, "club", 2); err == nil || !strings.Contains(err.Error(), "no season 2") {
		t.Errorf("standings of season 2: %v", err)
	}
}

// TestSecondSeason: LEAGUES §7.4. Once every table of season 1 has ended
// (here by resignations), the next start closes it and makes season 2's
// divisions: the winner of the lower division up, the loser of the top
// one down, a withdrawn player out, a sign-up into the lowest division;
// Show gives those divisions before the start.
func TestSecondSeason(t *testing.T) {
	t.Parallel()
	h := seasonHarness(t, `
[[league]]
name = "ladder"
promote = 1
relegate = 1
[[league.division]]
name = "a"
players = ["alice@localhost", "bob@localhost"]
[[league.division]]
name = "b"
players = ["carol@localhost", "dave@localhost", "eve@localhost"]
`)
	s, err := h.Seasons.StartSeason(h.Ctx, "ladder")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tables) != 4 {
		t.Fatalf("%d tables, want 1 + 3", len(s.Tables))
	}
	// Bob loses to Alice; in b, Dave beats both, Eve beats Carol: each
	// table's loser resigns.
	losers := map[[2]string]string{}
	for _, st := range s.Tables {
		pair := [2]string{min(st.Players[0], st.Players[1]), max(st.Players[0], st.Players[1])}
		switch pair {
		case [2]string{"alice@localhost", "bob@localhost"}:
			losers[pair] = "bob"
		case [2]string{"carol@localhost", "dave@localhost"}:
			losers[pair] = "carol"
		case [2]string{"dave@localhost", "eve@localhost"}:
			losers[pair] = "eve"
		case [2]string{"carol@localhost", "eve@localhost"}:
			losers[pair] = "carol"
		}
		if s, err := h.Seasons.StartSeason(h.Ctx, "ladder"); err == nil {
			t.Fatalf("season %d started while season 1 runs", s.Number)
		}
		h.AnswerAt(st.Name, losers[pair], "RESIGN "+st.Name)
	}
	// Eve withdraws, Gina signs up, Frank signs up and then withdraws.
	err = h.Store.Tx(h.Ctx, func(tx *store.Tx) error {
		for _, e := range []struct{ addr, kind string }{{"eve@localhost", store.SignupWithdraw},
			{"gina@localhost", store.SignupJoin}, {"frank@localhost", store.SignupJoin}, {"frank@localhost", store.SignupWithdraw}} {
			p, err := tx.EnsurePlayer(e.addr, "en")
			if err != nil {
				return err
			}
			if err := leagues.AddSignup(tx, &store.Signup{League: "ladder", PlayerID: p.ID, Kind: e.kind}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []league.Division{
		{Name: "a", Players: []string{"alice@localhost", "dave@localhost"}},
		{Name: "b", Players: []string{"bob@localhost", "carol@localhost", "gina@localhost"}},
	}
	cur, next, err := h.Seasons.Show(h.Ctx, "ladder")
	if err != nil {
		t.Fatal(err)
	}
	same := func(got []league.Division) bool {
		return slices.EqualFunc(got, want, func(a, b league.Division) bool { return a.Name == b.Name && slices.Equal(a.Players, b.Players) })
	}
	if cur == nil || cur.Number != 1 || cur.Running() || !same(next) {
		t.Errorf("show: season %+v, next %+v, want season 1 over and %+v", cur, next, want)
	}
	s2, err := h.Seasons.StartSeason(h.Ctx, "ladder")
	if err != nil {
		t.Fatal(err)
	}
	if s2.Number != 2 || !same(s2.Divisions) || len(s2.Tables) != 1+3 || s2.Tables[0].Name != "ladder-2-1-1" {
		t.Errorf("season 2: %d, %+v, tables %+v", s2.Number, s2.Divisions, s2.Tables)
	}
	// Season 1 is closed; its standings are still there.
	view, rows, err := h.Seasons.Standings(h.Ctx, "ladder", 1)
	if err != nil {
		t.Fatal(err)
	}
	if !view.Closed || len(rows) != 5 || rows[0].Player != "alice@localhost" || rows[2].Player != "dave@localhost" || rows[2].Won != 2 {
		t.Errorf("season 1: closed %v, rows %+v", view.Closed, rows)
	}
	// The sign-ups are used: a third season would not see them again.
	_, next, err = h.Seasons.Show(h.Ctx, "ladder")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range next {
		if slices.Contains(d.Players, "frank@localhost") || len(next) != 2 {
			t.Errorf("next after season 2: %+v", next)
		}
	}
}

// TestSeasonRatings: LEAGUES §10.2. When a season table ends (here by a
// resignation), both players' ratings in the pool of its variant change,
// in the same transaction, exactly as rating.System.Update computes from
// the ratings before the table; the next table starts from those. A
// table of no season and the tables of a league with rated = false
// change no rating.
func TestSeasonRatings(t *testing.T) {
	t.Parallel()
	h := seasonHarnessWith(t, lexiotest.Options{Top: "rating_tau = 0.7\n", Config: `
[[league]]
name = "rated"
[[league.division]]
name = "top"
players = ["alice@localhost", "bob@localhost", "carol@localhost"]
[[league]]
name = "friendly"
rated = false
[[league.division]]
name = "top"
players = ["alice@localhost", "bob@localhost"]
`})
	if h.Cfg.RatingTau != 0.7 {
		t.Fatalf("rating_tau %v", h.Cfg.RatingTau)
	}
	ratings := func() map[string]store.PlayerRating {
		out := map[string]store.PlayerRating{}
		err := h.Store.View(h.Ctx, func(tx *store.Tx) error {
			for _, a := range []string{"alice@localhost", "bob@localhost", "carol@localhost"} {
				p, err := tx.PlayerByAddress(a)
				if errors.Is(err, store.ErrNotFound) {
					continue
				}
				if err != nil {
					return err
				}
				rs, err := leagues.Ratings(tx, "lexio", p.ID)
				if err != nil {
					return err
				}
				if r, ok := rs[p.ID]; ok {
					out[a] = r
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	resign := func(st season.SeasonTable, who int) {
		t.Helper()
		h.AnswerAt(st.Name, strings.TrimSuffix(st.Players[who], "@localhost"), "RESIGN "+st.Name)
	}
	// A friendly season and a table of no season change nothing.
	f, err := h.Seasons.StartSeason(h.Ctx, "friendly")
	if err != nil {
		t.Fatal(err)
	}
	resign(f.Tables[0], 0)
	if err := h.Lobby.CreateTable(h.Ctx, "loose", "rated", lexiotest.Emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.AnswerAt("loose", "bob", "RESIGN loose")
	if got := ratings(); len(got) != 0 {
		t.Fatalf("ratings after unrated tables: %+v", got)
	}

	s, err := h.Seasons.StartSeason(h.Ctx, "rated")
	if err != nil {
		t.Fatal(err)
	}
	sys := rating.System{Tau: 0.7}
	want := map[string]rating.Rating{}
	get := func(a string) rating.Rating {
		if r, ok := want[a]; ok {
			return r
		}
		return rating.New()
	}
	for i, st := range s.Tables[:2] {
		loser, winner := st.Players[i%2], st.Players[1-i%2]
		lr, wr := get(loser), get(winner)
		want[winner] = sys.Update(wr, []rating.Result{{Opponent: lr, Score: 1}})
		want[loser] = sys.Update(lr, []rating.Result{{Opponent: wr, Score: 0}})
		h.Clock.Add(time.Hour)
		resign(st, i%2)
		got := ratings()
		for _, p := range st.Players {
			w, g := want[p], got[p]
			if g.Rating != w.R || g.RD != w.RD || g.Volatility != w.Vol || !g.UpdatedAt.Equal(h.Clock.Now()) {
				t.Errorf("after %s: %s rated %+v, want %+v at %v", st.Name, p, g, w, h.Clock.Now())
			}
		}
		if len(got) != len(want) {
			t.Errorf("after %s: ratings of %d players, want %d", st.Name, len(got), len(want))
		}
	}
	// Whoever played both tables has 2 games, and the standings show the rating.
	_, rows, err := h.Seasons.Standings(h.Ctx, "rated", 0)
	if err != nil {
		t.Fatal(err)
	}
	got := ratings()
	for _, r := range rows {
		games := 0
		for _, st := range s.Tables[:2] {
			if slices.Contains(st.Players, r.Player) {
				games++
			}
		}
		if got[r.Player].Games != games {
			t.Errorf("%s: %d rated games, want %d", r.Player, got[r.Player].Games, games)
		}
		if w, ok := want[r.Player]; ok && (r.Rating != w.R || r.RD != w.RD) {
			t.Errorf("standings of %s: %v/%v, want %v/%v", r.Player, r.Rating, r.RD, w.R, w.RD)
		}
	}
}

// TestStartSeasonAtomic: a season starts whole or not at all. A table
// already named as one of the season's makes the start fail with the
// name; no season, table or mail of it is left.
func TestStartSeasonAtomic(t *testing.T) {
	t.Parallel()
	h := seasonHarness(t, `
[[league]]
name = "club"
[[league.division]]
name = "top"
players = ["alice@localhost", "bob@localhost", "carol@localhost"]
`)
	taken := season.TableName("club", 1, 1, 3)
	if err := h.Lobby.CreateTable(h.Ctx, taken, "main", lexiotest.Emails("dave", "eve"), 3); err != nil {
		t.Fatal(err)
	}
	h.OutboxEmpty()
	_, err := h.Seasons.StartSeason(h.Ctx, "club")
	if err == nil || !strings.Contains(err.Error(), "the name "+taken+" of a season table is taken") {
		t.Fatalf("start: %v, want the name taken", err)
	}
	ts, err := h.Views.List(h.Ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 1 || ts[0].Name != taken {
		t.Errorf("tables after the failed start: %+v, want %s alone", ts, taken)
	}
	if cur, _, err := h.Seasons.Show(h.Ctx, "club"); err != nil || cur != nil {
		t.Errorf("show after the failed start: %+v, %v; want no season", cur, err)
	}
	h.OutboxEmpty()
	for _, p := range []string{"alice", "bob", "carol"} {
		if n := len(h.Inbox(p)); n != 0 {
			t.Errorf("%s received %d mails of a season that did not start", p, n)
		}
	}
}

// TestStartSeasonRace: two starts of the same season at once (the admin
// twice, or the scheduler and the admin): one starts it, the other is
// refused with a reason — on SQLite the season is then running, on
// PostgreSQL the two may meet on the season's number.
func TestStartSeasonRace(t *testing.T) {
	lexiotest.EachDriver(t, func(t *testing.T, driver string) {
		h := seasonHarnessWith(t, lexiotest.Options{Driver: driver, Config: `
[[league]]
name = "club"
[[league.division]]
name = "top"
players = ["alice@localhost", "bob@localhost", "carol@localhost", "dave@localhost"]
`})
		errs := make(chan error, 2)
		for range 2 {
			go func() {
				_, err := h.Seasons.StartSeason(h.Ctx, "club")
				errs <- err
			}()
		}
		var failed []error
		for range 2 {
			if err := <-errs; err != nil {
				failed = append(failed, err)
			}
		}
		if len(failed) != 1 {
			t.Fatalf("errors %v, want one start refused", failed)
		}
		if msg := failed[0].Error(); !strings.Contains(msg, "season 1 is running") && !strings.Contains(msg, "season 1 was started meanwhile") {
			t.Errorf("refusal %q, want a reason", msg)
		}
		s, _, err := h.Seasons.Standings(h.Ctx, "club", 0)
		if err != nil || s.Number != 1 || len(s.Tables) != 6 {
			t.Errorf("after the race: %+v, %v; want season 1 with its 6 tables", s, err)
		}
	})
}
