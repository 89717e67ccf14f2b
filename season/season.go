package season

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lexio-mail/lexio/config"
	"github.com/lexio-mail/lexio/internal/botseat"
	"github.com/lexio-mail/lexio/internal/tablename"
	"github.com/lexio-mail/lexio/league"
	"github.com/lexio-mail/lexio/lobby"
	"github.com/lexio-mail/lexio/notice"
	"github.com/lexio-mail/lexio/rating"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/leagues"
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/web/view"
)

// ErrNoSeason is returned for a league that has played no season yet.
var ErrNoSeason = errors.New("season: the league has no season yet")

// SeasonTable is one table of a season.
type SeasonTable struct {
	Name     string
	Division string
	Round    int
	Status   store.TableStatus
	Players  []string // addresses, in seat order: the first opens
	ToMove   string   // the address whose turn it is; "" unless playing
}

// Season is a season of a league as the admin sees it.
type Season struct {
	League    string
	Number    int
	Started   time.Time
	Ends      time.Time
	Closed    bool
	Divisions []league.Division
	Tables    []SeasonTable
}

// Running reports whether the season is under way: not closed, with a
// table still to finish.
func (s *Season) Running() bool {
	if s.Closed {
		return false
	}
	for _, t := range s.Tables {
		if t.Status != store.StatusOver {
			return true
		}
	}
	return false
}

// State says where a league's last season is, s (nil for none yet), as
// the admin's commands show it.
func State(s *Season) string {
	switch {
	case s == nil:
		return "none yet"
	case s.Running():
		return fmt.Sprintf("%d running (%d of %d tables over, ends %s)", s.Number, len(s.Tables)-unfinished(s), len(s.Tables), s.Ends.Local().Format("2006-01-02"))
	}
	return fmt.Sprintf("%d over", s.Number)
}

// StartSeason starts the next season of a league (LEAGUES §7.2): its
// divisions (the first season's from the configuration, a later one's by
// league.NextSeason from the last season's standings, its withdrawals and
// sign-ups), every table of every division at once, in one transaction
// with every player's first notices. A last season whose tables have all
// ended is closed on the way; one still running is a refusal.
func (s *Service) StartSeason(ctx context.Context, name string) (*Season, error) {
	l, err := s.seasonLeague(name)
	if err != nil {
		return nil, err
	}
	now := s.Now()
	var started *Season
	_, err = s.Notices.Commit(ctx, s.Store, now, func(tx *store.Tx, out *notice.Batch) error {
		last, err := s.lastSeason(tx, l, false)
		if err != nil {
			return err
		}
		number := 1
		if last != nil {
			if last.view.Running() {
				return fmt.Errorf("season: league %q: season %d is running until its last table ends (%d left) or %s",
					l.Name, last.view.Number, unfinished(last.view), last.view.Ends.Format(time.DateOnly))
			}
			if !last.view.Closed {
				if err := leagues.Close(tx, last.row.ID, now); err != nil {
					return err
				}
			}
			number = last.view.Number + 1
		}
		divs, used, err := s.nextDivisions(tx, l, last)
		if err != nil {
			return err
		}
		if len(divs) == 0 {
			return fmt.Errorf("season: league %q: nobody to play season %d (no divisions, no sign-ups)", l.Name, number)
		}
		for _, d := range divs {
			if len(d.Players) < 2 {
				return fmt.Errorf("season: league %q: division %q would have %d player(s) in season %d; a division needs at least 2",
					l.Name, d.Name, len(d.Players), number)
			}
		}
		row := &store.Season{League: l.Name, Number: number, Started: now, Ends: now.Add(l.SeasonLength())}
		if err := leagues.Create(tx, row); errors.Is(err, store.ErrDuplicate) {
			return fmt.Errorf("season: league %q: season %d was started meanwhile", l.Name, number)
		} else if err != nil {
			return err
		}
		if err := leagues.UseSignups(tx, used, row.ID); err != nil {
			return err
		}
		var members []store.SeasonMember
		for i, d := range divs {
			for j, addr := range d.Players {
				p, err := tx.EnsurePlayer(addr, s.Cfg.Language)
				if err != nil {
					return err
				}
				members = append(members, store.SeasonMember{SeasonID: row.ID, Division: d.Name, DivisionOrder: i, Seed: j, PlayerID: p.ID})
			}
		}
		if err := leagues.AddMembers(tx, members); err != nil {
			return err
		}
		started = &Season{League: l.Name, Number: number, Started: row.Started, Ends: row.Ends, Divisions: divs}
		for i, d := range divs {
			for _, st := range pairDivision(l, number, i, d) {
				t, err := s.lobby.Create(tx, st.Name, l, st.Players, 0, now, out)
				if errors.Is(err, lobby.ErrExists) {
					return fmt.Errorf("season: league %q: the name %s of a season table is taken by another table", l.Name, st.Name)
				}
				if err != nil {
					return err
				}
				if err := leagues.AddTable(tx, &store.LeagueTable{TableID: t.Row.ID, SeasonID: row.ID, DivisionOrder: i, Round: st.Round}); err != nil {
					return err
				}
				st.Status, st.ToMove = t.Row.Status, toMove(t)
				started.Tables = append(started.Tables, st)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.Log.Info("season started", "league", l.Name, "season", started.Number, "tables", len(started.Tables))
	return started, nil
}

// seasonLeague returns the league of that name if it organises seasons.
func (s *Service) seasonLeague(name string) (*config.League, error) {
	l := s.Cfg.League(name)
	switch {
	case l == nil:
		return nil, fmt.Errorf("season: no league %q in the configuration", name)
	case !l.Seasons():
		return nil, fmt.Errorf("season: league %q has no seasons: it has no [[league.division]] and no signup = true", name)
	}
	return l, nil
}

func unfinished(s *Season) int {
	n := 0
	for _, t := range s.Tables {
		if t.Status != store.StatusOver {
			n++
		}
	}
	return n
}

// pairDivision returns the tables of division i of a season, in the
// order they are named: with table_size 2 a round robin
// (league.RoundRobin), with 3 or 4 rounds of tables (league.Rounds)
// seeded from the league and season, so that the same league and season
// give the same tables.
func pairDivision(l *config.League, season, i int, d league.Division) []SeasonTable {
	n := len(d.Players)
	var rounds [][]league.Table
	if l.TableSize == 2 {
		rounds = [][]league.Table{league.RoundRobin(n, l.GamesPerPair)}
	} else {
		r := l.Rounds
		if r == 0 {
			r = league.DefaultRounds(n, l.TableSize)
		}
		rounds = league.Rounds(n, l.TableSize, r, PairingSeed(l.Name, season))
	}
	var out []SeasonTable
	for r, round := range rounds {
		for _, t := range round {
			st := SeasonTable{Name: TableName(l.Name, season, i+1, len(out)+1), Division: d.Name, Round: r + 1}
			for _, p := range t {
				st.Players = append(st.Players, d.Players[p])
			}
			out = append(out, st)
		}
	}
	return out
}

// PairingSeed is the seed of a season's 3- and 4-player pairings: a hash
// of the league's name and the season's number.
func PairingSeed(league string, season int) uint64 {
	h := fnv.New64a()
	h.Write([]byte(league + "\x00" + strconv.Itoa(season)))
	return h.Sum64()
}

// TableName is the name of table k (from 1) of division div (from
// 1, the top one) of a league's season: "<league>-<season>-<div>-<k>",
// the league's name lowercased with every run of other characters than
// a-z and 0-9 turned into one '-', cut so that the whole name is a table
// name (at most 32 characters); "league" for a name left empty.
func TableName(leagueName string, season, div, k int) string {
	suffix := fmt.Sprintf("-%d-%d-%d", season, div, k)
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(leagueName) {
		if 'a' <= c && c <= 'z' || '0' <= c && c <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(c)
			dash = false
		} else {
			dash = true
		}
	}
	slug := b.String()
	if max := tablename.MaxLen - len(suffix); len(slug) > max {
		slug = strings.TrimRight(slug[:max], "-")
	}
	if slug == "" {
		slug = "league"
	}
	return slug + suffix
}

// seasonData is a season read from the store.
type seasonData struct {
	row  store.Season
	view *Season
	// members are the season's players by division and seed.
	members []store.SeasonMember
	// seats are the stored results of its finished tables, by table and
	// seat; finished are those tables by division order.
	seats    []leagues.FinishedSeat
	finished map[int][]league.Finished
}

// lastSeason reads a league's last season, nil if it has none.
func (s *Service) lastSeason(tx *store.Tx, l *config.League, full bool) (*seasonData, error) {
	return s.readSeason(tx, l, 0, -1, full)
}

// readSeason reads season number of a league, or its last for 0; nil
// when there is no such season: all its divisions, or only the one of
// that order for division ≥ 0 (the others then have no name and no
// players). The standings come from the stored results of its finished
// tables; with full, each running table is also rebuilt to tell whose
// turn it is.
func (s *Service) readSeason(tx *store.Tx, l *config.League, number, division int, full bool) (*seasonData, error) {
	rows, err := leagues.Seasons(tx, l.Name)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	row := rows[len(rows)-1]
	if number != 0 {
		if number < 1 || number > len(rows) || rows[number-1].Number != number {
			return nil, nil
		}
		row = rows[number-1]
	}
	d := &seasonData{row: row, finished: map[int][]league.Finished{},
		view: &Season{League: l.Name, Number: row.Number, Started: row.Started, Ends: row.Ends, Closed: row.ClosedAt != nil}}
	members, err := leagues.Members(tx, row.ID, division)
	if err != nil {
		return nil, err
	}
	d.members = members
	for _, m := range members {
		for len(d.view.Divisions) <= m.DivisionOrder {
			d.view.Divisions = append(d.view.Divisions, league.Division{})
		}
		dv := &d.view.Divisions[m.DivisionOrder]
		dv.Name = m.Division
		dv.Players = append(dv.Players, m.Player.Address)
	}
	if full {
		lts, err := leagues.Tables(tx, row.ID, division)
		if err != nil {
			return nil, err
		}
		for i := range lts {
			t, err := s.Tables.LoadRow(tx, lts[i].Table)
			if err != nil {
				return nil, err
			}
			st := SeasonTable{Name: t.Row.Name, Division: d.divisionName(lts[i].DivisionOrder), Round: lts[i].Round, Status: t.Row.Status, ToMove: toMove(t)}
			for _, seat := range t.Seats {
				st.Players = append(st.Players, seat.Player.Address)
			}
			d.view.Tables = append(d.view.Tables, st)
		}
	} else {
		states, err := leagues.TableStates(tx, row.ID, division)
		if err != nil {
			return nil, err
		}
		for _, ts := range states {
			d.view.Tables = append(d.view.Tables, SeasonTable{Name: ts.Name, Division: d.divisionName(ts.DivisionOrder), Round: ts.Round, Status: ts.Status})
		}
	}
	if d.seats, err = leagues.Results(tx, row.ID, division); err != nil {
		return nil, err
	}
	d.addResults(d.seats)
	return d, nil
}

// divisionName is the name of the division of that order, "" if unknown.
func (d *seasonData) divisionName(order int) string {
	if order < len(d.view.Divisions) {
		return d.view.Divisions[order].Name
	}
	return ""
}

// addResults adds the stored seats of finished tables to the season's
// results, by division.
func (d *seasonData) addResults(seats []leagues.FinishedSeat) {
	for i := 0; i < len(seats); {
		j := i
		f := league.Finished{}
		for ; j < len(seats) && seats[j].TableID == seats[i].TableID; j++ {
			f.Seats = append(f.Seats, league.Seat{Player: seats[j].Address, Score: seats[j].Score, Left: seats[j].LeftOrder})
		}
		d.finished[seats[i].DivisionOrder] = append(d.finished[seats[i].DivisionOrder], f)
		i = j
	}
}

// toMove is the address whose turn it is at a playing table, else "".
func toMove(t *table.Table) string {
	if t.Row.Status != store.StatusPlaying || t.Game == nil || t.Game.Over() {
		return ""
	}
	return t.Seats[t.Game.Turn()].Player.Address
}

// finishedOf is a table's end for league.Finished (LEAGUES §8): each
// seat's final holder and score, and the order in which players left;
// false while the game is not over.
func finishedOf(t *table.Table) (league.Finished, bool) {
	if t.Game == nil || !t.Game.Over() {
		return league.Finished{}, false
	}
	r := t.Game.Result()
	f := league.Finished{Table: t.Row.Name}
	for i, seat := range t.Seats {
		st := league.Seat{Player: seat.Player.Address, Score: r.Scores[i]}
		for j, dep := range r.Left {
			if dep.Player == i {
				st.Left = j + 1
			}
		}
		f.Seats = append(f.Seats, st)
	}
	return f, true
}

func points(l *config.League) league.Points {
	return league.Points{Win: l.Points[0], Tie: l.Points[1], Loss: l.Points[2]}
}

// standings are the season's standings per division, in division order.
func (d *seasonData) standings(l *config.League) [][]league.Row {
	out := make([][]league.Row, len(d.view.Divisions))
	for i, dv := range d.view.Divisions {
		out[i] = league.Standings(dv.Players, d.finished[i], points(l))
	}
	return out
}

// nextDivisions returns the divisions of the season after last (nil for
// the first season), and the ids of the pending sign-ups and withdrawals
// that make them. The first season is the configuration's divisions,
// without those who withdrew, with those who signed up (league.NextSeason
// with no moves); a later one is league.NextSeason of the last season's
// standings. A player's latest SIGNUP or WITHDRAW counts.
func (s *Service) nextDivisions(tx *store.Tx, l *config.League, last *seasonData) ([]league.Division, []int64, error) {
	pending, err := leagues.PendingSignups(tx, l.Name)
	if err != nil {
		return nil, nil, err
	}
	withdrawn := map[string]bool{}
	var order []string
	var ids []int64
	for _, sg := range pending {
		ids = append(ids, sg.ID)
		addr := sg.Player.Address
		withdrawn[addr] = sg.Kind == store.SignupWithdraw
		order = append(order, addr)
	}
	var signups []string
	seen := map[string]bool{}
	for i := len(order) - 1; i >= 0; i-- { // a player's last entry decides
		if a := order[i]; !seen[a] {
			seen[a] = true
			if !withdrawn[a] {
				signups = append(signups, a)
			}
		}
	}
	for i, j := 0, len(signups)-1; i < j; i, j = i+1, j-1 {
		signups[i], signups[j] = signups[j], signups[i]
	}
	for a, w := range withdrawn {
		if !w {
			delete(withdrawn, a)
		}
	}
	moves := league.Moves{Promote: *l.Promote, Relegate: *l.Relegate, Size: l.DivisionSize}
	if last == nil {
		var divs []league.Division
		var standings [][]league.Row
		for _, d := range l.Divisions {
			divs = append(divs, league.Division{Name: d.Name, Players: d.Players})
			var rows []league.Row
			for _, p := range d.Players {
				rows = append(rows, league.Row{Player: p})
			}
			standings = append(standings, rows)
		}
		moves.Promote, moves.Relegate = 0, 0
		return league.NextSeason(divs, standings, moves, withdrawn, signups), ids, nil
	}
	return withoutBots(league.NextSeason(last.view.Divisions, last.standings(l), moves, withdrawn, signups)), ids, nil
}

// withoutBots drops the computer's seats from divisions: it may stand in
// for a player in a season, never play the next.
func withoutBots(divs []league.Division) []league.Division {
	for i := range divs {
		divs[i].Players = slices.DeleteFunc(divs[i].Players, botseat.Is)
	}
	return divs
}

// Standing is one player's line of a division's standings, with their
// display name and their current rating in the league's variant pool.
type Standing = view.Standing

// Standings returns the standings of a league's season (LEAGUES §9.1),
// division by division in §9.1 order: season 0 is the current season,
// else the last. ErrNoSeason when the league has none yet.
func (s *Service) Standings(ctx context.Context, name string, number int) (*Season, []Standing, error) {
	d, rows, err := s.seasonStandings(ctx, name, number)
	if err != nil {
		return nil, nil, err
	}
	return d.view, rows, nil
}

// seasonStandings reads season number of a league (0: the last) and its
// standings, in one transaction.
func (s *Service) seasonStandings(ctx context.Context, name string, number int) (*seasonData, []Standing, error) {
	l, err := s.seasonLeague(name)
	if err != nil {
		return nil, nil, err
	}
	var d *seasonData
	var out []Standing
	err = s.Store.View(ctx, func(tx *store.Tx) error {
		if d, err = s.readSeason(tx, l, number, -1, false); err != nil {
			return err
		}
		if d == nil {
			if number == 0 {
				return fmt.Errorf("season: league %q: %w", l.Name, ErrNoSeason)
			}
			return fmt.Errorf("season: league %q has no season %d", l.Name, number)
		}
		out, err = d.standingsWithRatings(tx, l, -1)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return d, out, nil
}

// standingsWithRatings is the season's standings of one division (all
// for division < 0) with names and each player's current rating in the
// league's variant pool.
func (d *seasonData) standingsWithRatings(tx *store.Tx, l *config.League, division int) ([]Standing, error) {
	ids := map[string]int64{}
	var all []int64
	for _, m := range d.members {
		if division < 0 || m.DivisionOrder == division {
			ids[m.Player.Address] = m.PlayerID
			all = append(all, m.PlayerID)
		}
	}
	ratings, err := leagues.Ratings(tx, l.Variant, all...)
	if err != nil {
		return nil, err
	}
	var out []Standing
	for i, dv := range d.view.Divisions {
		if division >= 0 && i != division {
			continue
		}
		// A division's players are named together (notice.Names).
		name := make(map[string]string, len(dv.Players))
		for j, n := range notice.Names(dv.Players) {
			name[dv.Players[j]] = n
		}
		for _, r := range league.Standings(dv.Players, d.finished[i], points(l)) {
			st := Standing{Division: dv.Name, Row: r, Name: name[r.Player], Rating: rating.DefaultRating, RD: rating.DefaultRD}
			if pr, ok := ratings[ids[r.Player]]; ok {
				st.Rating, st.RD = pr.Rating, pr.RD
			}
			out = append(out, st)
		}
	}
	return out, nil
}

// Show returns a league's last season (nil before the first) and the
// divisions the next season would have if it started now: from the
// last season's standings as they stand, its withdrawals and sign-ups.
func (s *Service) Show(ctx context.Context, name string) (*Season, []league.Division, error) {
	l, err := s.seasonLeague(name)
	if err != nil {
		return nil, nil, err
	}
	var cur *Season
	var next []league.Division
	err = s.Store.View(ctx, func(tx *store.Tx) error {
		last, err := s.lastSeason(tx, l, true)
		if err != nil {
			return err
		}
		if last != nil {
			cur = last.view
		}
		next, _, err = s.nextDivisions(tx, l, last)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return cur, next, nil
}

// seasonTable returns the season row of t's table, nil (and no error)
// for a table that belongs to no season.
func seasonTable(tx *store.Tx, t *table.Table) (*store.LeagueTable, error) {
	lt, err := leagues.TableOf(tx, t.Row.ID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	return lt, err
}

// Ended records the end of a season table, in the transaction of its
// last action (the table calls it once) (LEAGUES §8–§10): each seat's result, the ratings of its
// players in the pool of its variant (unless the league sets rated =
// false), and the season's end when it was its last table (§7.3). Tables
// of no season change nothing.
func (s *Service) Ended(tx *store.Tx, t *table.Table, now time.Time) error {
	if t.Game == nil || !t.Game.Over() {
		return nil
	}
	lt, err := seasonTable(tx, t)
	if lt == nil {
		return err
	}
	f, ok := finishedOf(t)
	if !ok {
		return nil
	}
	results := make([]store.SeatResult, len(f.Seats))
	for i, st := range f.Seats {
		results[i] = store.SeatResult{Seat: i, PlayerID: t.Seats[i].PlayerID, Score: st.Score, LeftOrder: st.Left}
	}
	if err := leagues.FinishTable(tx, t.Row.ID, now, results); err != nil {
		return err
	}
	if l := s.Cfg.League(t.Row.League); l != nil && *l.Rated && !t.HasBot() { // a game with the computer is never rated
		if err := s.rateTable(tx, t, f, now); err != nil {
			return err
		}
	}
	left, err := leagues.Unfinished(tx, lt.SeasonID)
	if err != nil || left > 0 {
		return err
	}
	if err := leagues.Close(tx, lt.SeasonID, now); err != nil && !errors.Is(err, store.ErrConflict) {
		return err // a conflict: the season was closed already (league close)
	}
	return nil
}

// rateTable applies a finished table to the rating pool of its variant
// (LEAGUES §10.2): one rating period for its players, against the ratings
// they had before it.
func (s *Service) rateTable(tx *store.Tx, t *table.Table, f league.Finished, now time.Time) error {
	ids := make([]int64, len(t.Seats))
	for i, seat := range t.Seats {
		ids[i] = seat.PlayerID
	}
	stored, err := leagues.Ratings(tx, t.Row.Variant, ids...)
	if err != nil {
		return err
	}
	pool := make(map[string]rating.Rating, len(t.Seats))
	for _, seat := range t.Seats {
		if r, ok := stored[seat.PlayerID]; ok {
			pool[seat.Player.Address] = rating.Rating{R: r.Rating, RD: r.RD, Vol: r.Volatility}
		}
	}
	league.RateTable(rating.System{Tau: s.Cfg.RatingTau}, pool, f)
	for _, seat := range t.Seats {
		r := pool[seat.Player.Address]
		row := &store.PlayerRating{Variant: t.Row.Variant, PlayerID: seat.PlayerID, Rating: r.R, RD: r.RD, Volatility: r.Vol,
			Games: stored[seat.PlayerID].Games + 1, UpdatedAt: now}
		if err := leagues.SaveRating(tx, row); err != nil {
			return err
		}
	}
	return nil
}

// CloseSeason ends a league's season now, whatever its end date (`lexio
// league close`, LEAGUES §7.3): see closeSeason. It returns the season as
// closed; ErrNoSeason when the league has none, an error when its last
// season is closed already.
func (s *Service) CloseSeason(ctx context.Context, name string) (*Season, error) {
	l, err := s.seasonLeague(name)
	if err != nil {
		return nil, err
	}
	now := s.Now()
	var number int
	_, err = s.Notices.Commit(ctx, s.Store, now, func(tx *store.Tx, out *notice.Batch) error {
		rows, err := leagues.Seasons(tx, l.Name)
		if err != nil {
			return err
		}
		if len(rows) == 0 {
			return fmt.Errorf("season: league %q: %w", l.Name, ErrNoSeason)
		}
		row := rows[len(rows)-1]
		if row.ClosedAt != nil {
			return fmt.Errorf("season: league %q: season %d is closed already (%s)", l.Name, row.Number, row.ClosedAt.Format(time.DateOnly))
		}
		number = row.Number
		if err := s.closeSeason(tx, l, row, now, now, out); err != nil {
			return err
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.Log.Info("season closed", "league", l.Name, "season", number)
	season, _, err := s.Standings(ctx, l.Name, number)
	return season, err
}

// closeSeason ends a season at at (LEAGUES §7.3): the turns of its tables
// that ran out by at are enforced first, in time order across its tables
// (so that tables ending on the way are rated in the order they ended),
// then every table still being played is adjudicated at at, in table-name
// order, so that their ratings are applied in that order (§10.2); the
// season is closed with the last. The mails are of now (at is in the past
// after downtime).
func (s *Service) closeSeason(tx *store.Tx, l *config.League, row store.Season, at, now time.Time, out *notice.Batch) error {
	lts, err := leagues.Tables(tx, row.ID, -1)
	if err != nil {
		return err
	}
	var open []*table.Table
	for _, lt := range lts {
		if lt.FinishedAt != nil {
			continue
		}
		t, err := s.Tables.LoadRow(tx, lt.Table)
		if err != nil {
			return err
		}
		if t.Game != nil && !t.Game.Over() {
			open = append(open, t)
		}
	}
	slices.SortFunc(open, func(a, b *table.Table) int { return strings.Compare(a.Row.Name, b.Row.Name) })
	for {
		var next *table.Table
		for _, t := range open {
			d := t.Row.Deadline
			if t.Game.Over() || d == nil || d.After(at) {
				continue
			}
			if next == nil || d.Before(*next.Row.Deadline) {
				next = t
			}
		}
		if next == nil {
			break
		}
		if _, err := s.Tables.Step(tx, next, *next.Row.Deadline, now, out); err != nil {
			return err
		}
	}
	for _, t := range open {
		if t.Game.Over() {
			continue
		}
		if err := t.Game.Adjudicate(at); err != nil {
			return store.Permanent(err)
		}
		if err := s.Tables.Save(tx, t, at); err != nil {
			return err
		}
		s.Log.Info("table adjudicated", "table", t.Row.Name, "league", l.Name, "season", row.Number)
		if err := s.Tables.Announce(tx, t, now, out, -1, nil); err != nil {
			return err
		}
	}
	if err := leagues.Close(tx, row.ID, at); err != nil && !errors.Is(err, store.ErrConflict) {
		return err // a conflict: its last table's end closed it
	}
	return nil
}

// JoinDivision makes the new holder of a season table's seat a member of
// its division (LEAGUES §8.2: the seat counts for its final holder), last
// in its seeding; nothing for a table of no season, or a member already.
func (s *Service) JoinDivision(tx *store.Tx, t *table.Table, playerID int64) error {
	lt, err := seasonTable(tx, t)
	if lt == nil {
		return err
	}
	members, err := leagues.Members(tx, lt.SeasonID, lt.DivisionOrder)
	if err != nil || len(members) == 0 {
		return err
	}
	for _, m := range members {
		if m.PlayerID == playerID {
			return nil
		}
	}
	last := members[len(members)-1]
	err = leagues.AddMembers(tx, []store.SeasonMember{{SeasonID: lt.SeasonID, Division: last.Division,
		DivisionOrder: lt.DivisionOrder, Seed: last.Seed + 1, PlayerID: playerID}})
	if errors.Is(err, store.ErrDuplicate) {
		return nil // a member of another division: their standings are there
	}
	return err
}

// EndDue closes the season of t's table if its end has come by now
// and the tick has not closed it yet (see closeSeason), in the message's
// transaction; it reports whether it did, t then being stale.
func (s *Service) EndDue(tx *store.Tx, t *table.Table, now time.Time, out *notice.Batch) (bool, error) {
	if t.Row.League == "" || t.Row.Status == store.StatusOver {
		return false, nil
	}
	lt, err := seasonTable(tx, t)
	if lt == nil {
		return false, err
	}
	row, err := leagues.ByID(tx, lt.SeasonID)
	if err != nil {
		return false, err
	}
	l := s.Cfg.League(row.League)
	if row.ClosedAt != nil || row.Ends.After(now) || l == nil {
		return false, nil
	}
	return true, s.closeSeason(tx, l, *row, row.Ends, now, out)
}

// CloseSeasons closes the seasons whose end has come by now, each at
// its end and in a transaction of its own (notice.Writer.EachDue), also those whose end
// passed while the daemon was down.
func (s *Service) CloseSeasons(ctx context.Context, now time.Time) (int, error) {
	return s.Notices.EachDue(ctx, s.Store, now, "season end",
		func(tx *store.Tx, limit int) ([]int64, error) {
			due, err := leagues.Due(tx, now, limit)
			ids := make([]int64, len(due))
			for i, d := range due {
				ids[i] = d.ID
			}
			return ids, err
		},
		func(tx *store.Tx, id int64, out *notice.Batch) error {
			row, err := leagues.ByID(tx, id)
			if err != nil {
				return err
			}
			l := s.Cfg.League(row.League)
			if l == nil {
				return store.Permanent(fmt.Errorf("season: season %d of league %q: the league is no longer in the configuration", row.Number, row.League))
			}
			return s.closeSeason(tx, l, *row, row.Ends, now, out)
		})
}
