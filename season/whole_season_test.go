package season_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/rating"
	"github.com/lexio-mail/lexio/season"
)

// ratingBook computes the ratings a league's tables give, independently
// of the league package: each finished table one rating period for its
// players, with every pair result of that table against the opponents'
// ratings before it (LEAGUES §8.1, §10.2).
type ratingBook struct {
	sys rating.System
	r   map[string]rating.Rating
}

func (b *ratingBook) get(a string) rating.Rating {
	if r, ok := b.r[a]; ok {
		return r
	}
	return rating.New()
}

// table applies one finished table: its players in seat order, its result.
func (b *ratingBook) table(players []string, res engine.Result) {
	left := make([]int, len(players))
	for k, d := range res.Left {
		left[d.Player] = k + 1
	}
	before := map[string]rating.Rating{}
	for _, p := range players {
		before[p] = b.get(p)
	}
	for i, p := range players {
		var rs []rating.Result
		for j, q := range players {
			if i == j {
				continue
			}
			score := 0.5
			switch {
			case left[i] > 0 && (left[j] == 0 || left[i] < left[j]):
				score = 0
			case left[j] > 0 && (left[i] == 0 || left[j] < left[i]):
				score = 1
			case res.Scores[i] > res.Scores[j]:
				score = 1
			case res.Scores[i] < res.Scores[j]:
				score = 0
			}
			rs = append(rs, rating.Result{Opponent: before[q], Score: score})
		}
		b.r[p] = b.sys.Update(before[p], rs)
	}
}

// TestWholeSeason: LEAGUES §7–§10 by mail, on the injected clock. A
// league of two divisions — five players at 2-player tables, three below
// — and one of six players at 3-player tables play a season: games end
// by play, by resignation, by forfeit (forfeit_after = 1) and, at the end
// of season_days passed while the daemon was down, by adjudication. The
// standings and ratings equal those computed here from the games; a
// second season moves the top of the lower division up and the bottom of
// the top one down, with a sign-up by mail joining the lowest division.
// On SQLite and PostgreSQL.
func TestWholeSeason(t *testing.T) { lexiotest.EachDriver(t, testWholeSeason) }

func testWholeSeason(t *testing.T, driver string) {
	h := seasonHarnessWith(t, lexiotest.Options{Driver: driver, Config: `
[[league]]
name = "pairs"
season_days = 20
turn_time = "300h"
forfeit_after = 1
promote = 1
relegate = 1
signup = true
[[league.division]]
name = "top"
players = ["alice@localhost", "bob@localhost", "carol@localhost", "dave@localhost", "eve@localhost"]
[[league.division]]
name = "second"
players = ["frank@localhost", "gina@localhost", "nina@localhost"]
[[league]]
name = "trio"
table_size = 3
season_days = 20
turn_time = "300h"
forfeit_after = 1
[[league.division]]
name = "all"
players = ["hank@localhost", "ivy@localhost", "jack@localhost", "kim@localhost", "lee@localhost", "mona@localhost"]
`})
	for _, u := range []string{"nina", "hank", "ivy", "jack", "kim", "lee", "mona", "olga"} {
		h.AddUser(u)
	}
	start := h.Clock.Now()
	duo, err := h.Seasons.StartSeason(h.Ctx, "pairs")
	if err != nil {
		t.Fatal(err)
	}
	trio, err := h.Seasons.StartSeason(h.Ctx, "trio")
	if err != nil {
		t.Fatal(err)
	}
	book := &ratingBook{sys: rating.System{Tau: h.Cfg.RatingTau}, r: map[string]rating.Rating{}}
	local := func(a string) string { return strings.TrimSuffix(a, "@localhost") }
	byDiv := func(s *season.Season, div string) []season.SeasonTable {
		var out []season.SeasonTable
		for _, st := range s.Tables {
			if st.Division == div {
				out = append(out, st)
			}
		}
		return out
	}
	top, second, all := byDiv(duo, "top"), byDiv(duo, "second"), byDiv(trio, "all")
	if len(top) != 10 || len(second) != 3 || len(all) != 6 {
		t.Fatalf("tables: top %d, second %d, trio %d; want 10, 3, 6", len(top), len(second), len(all))
	}
	seats := map[string][]string{}
	for _, st := range append(duo.Tables, trio.Tables...) {
		seats[st.Name] = st.Players
	}
	ended := map[string]engine.Result{}
	over := func(st season.SeasonTable) {
		t.Helper()
		r := h.Game(st.Name).Result()
		if !r.Over {
			t.Fatalf("%s is not over", st.Name)
		}
		ended[st.Name] = r
		book.table(st.Players, r)
	}

	// By play: a table of each division to its end.
	for _, st := range []season.SeasonTable{top[0], second[0], all[0]} {
		finish(h, st, 4)
		over(st)
	}
	// By resignation: at 2 players one, at 3 two.
	for _, st := range []season.SeasonTable{top[1], second[1]} {
		h.Clock.Add(time.Hour)
		h.AnswerAt(st.Name, local(st.Players[1]), "RESIGN "+st.Name)
		over(st)
	}
	h.Clock.Add(time.Hour)
	h.AnswerAt(all[1].Name, local(all[1].Players[2]), "RESIGN "+all[1].Name)
	h.AnswerAt(all[1].Name, local(all[1].Players[0]), "RESIGN "+all[1].Name)
	over(all[1])
	// A move at 200 h puts the next deadline (500 h) after the end (480
	// h): adjudicated. The tables nobody touches forfeit at 300 h; at 3
	// players the game goes on, to be adjudicated.
	h.Clock.Add(start.Add(200 * time.Hour).Sub(h.Clock.Now()))
	adjudicated := slices.Concat(top[5:], all[2:4])
	for _, st := range adjudicated {
		h.AnswerAt(st.Name, local(st.Players[0]), lexiotest.NextCommand(h.Game(st.Name), false))
	}
	forfeited := slices.Concat(top[2:5], second[2:])
	untouched := map[string]bool{all[4].Name: true, all[5].Name: true}
	adjudicated = slices.Concat(adjudicated, all[4:])

	// Down from 250 h to 700 h: one tick.
	h.Clock.Add(start.Add(700 * time.Hour).Sub(h.Clock.Now()))
	h.Tick(h.Clock.Now())
	// The forfeits (all at 300 h) are rated first, by name; then the
	// adjudicated tables, by name.
	slices.SortFunc(forfeited, func(a, b season.SeasonTable) int { return strings.Compare(a.Name, b.Name) })
	for _, st := range forfeited {
		if r := h.Game(st.Name).Result(); r.Reason != engine.EndForfeit || len(r.Left) != 1 || r.Left[0].Player != 0 {
			t.Errorf("%s: %s, left %+v; want the opener's forfeit", st.Name, r.Reason, r.Left)
		}
		over(st)
	}
	slices.SortFunc(adjudicated, func(a, b season.SeasonTable) int { return strings.Compare(a.Name, b.Name) })
	for _, st := range adjudicated {
		r := h.Game(st.Name).Result()
		if r.Reason != engine.EndAdjudicated {
			t.Errorf("%s: %s, want adjudicated", st.Name, r.Reason)
		}
		if untouched[st.Name] && (len(r.Left) != 1 || !r.Left[0].Forfeit || r.Left[0].Player != 0) {
			t.Errorf("%s: left %+v, want the opener's forfeit before the adjudication", st.Name, r.Left)
		}
		over(st)
	}

	check := func(league string, s *season.Season) []season.Standing {
		t.Helper()
		view, rows, err := h.Seasons.Standings(h.Ctx, league, s.Number)
		if err != nil {
			t.Fatal(err)
		}
		if !view.Closed {
			t.Errorf("%s: season %d not closed after its end", league, s.Number)
		}
		for _, d := range s.Divisions {
			finished := map[string]engine.Result{}
			for _, st := range s.Tables {
				if st.Division == d.Name {
					finished[st.Name] = ended[st.Name]
				}
			}
			want := expectStandings(d.Players, finished, seats, [3]int{2, 1, 0})
			rank := 0
			for _, r := range rows {
				if r.Division != d.Name {
					continue
				}
				rank++
				w := want[r.Player]
				got := wantRow{r.Played, r.Won, r.Tied, r.Lost, r.Points, r.Spread, r.PointsFor}
				if w == nil || got != *w || r.Rank != rank {
					t.Errorf("%s %s rank %d: %+v, want %+v", league, d.Name, rank, r, w)
				}
				if wr := book.get(r.Player); r.Rating != wr.R || r.RD != wr.RD {
					t.Errorf("%s: %s rated %v/%v, want %v/%v", league, r.Player, r.Rating, r.RD, wr.R, wr.RD)
				}
			}
			if rank != len(d.Players) {
				t.Errorf("%s %s: %d rows for %d players", league, d.Name, rank, len(d.Players))
			}
		}
		return rows
	}
	rows := check("pairs", duo)
	check("trio", trio)

	// Between seasons: a sign-up by mail, then season 2.
	id := h.SendMail("olga", lexiotest.MailSpec{Body: "SIGNUP pairs"})
	h.Answer("olga", id)
	var topRows, secondRows []string
	for _, r := range rows {
		if r.Division == "top" {
			topRows = append(topRows, r.Player)
		} else {
			secondRows = append(secondRows, r.Player)
		}
	}
	s2, err := h.Seasons.StartSeason(h.Ctx, "pairs")
	if err != nil {
		t.Fatal(err)
	}
	wantTop := append(slices.Clone(topRows[:4]), secondRows[0])
	wantSecond := append([]string{topRows[4]}, secondRows[1:]...)
	wantSecond = append(wantSecond, "olga@localhost")
	if s2.Number != 2 || len(s2.Divisions) != 2 {
		t.Fatalf("season %d with %d divisions", s2.Number, len(s2.Divisions))
	}
	if got := s2.Divisions[0].Players; !sameSet(got, wantTop) {
		t.Errorf("season 2 top %v, want %v (the last relegated, the first of second promoted)", got, wantTop)
	}
	if got := s2.Divisions[1].Players; !sameSet(got, wantSecond) {
		t.Errorf("season 2 second %v, want %v (with the sign-up)", got, wantSecond)
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
