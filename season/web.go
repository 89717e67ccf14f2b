package season

import (
	"context"
	"errors"
	"time"

	"github.com/lexio-mail/lexio/league"
	"github.com/lexio-mail/lexio/store"
)

// WebLeague is a league's page: its current season and the past ones.
type WebLeague struct {
	Name string
	Lang string
	TZ   *time.Location
	Now  time.Time
	// Current is the last season, nil before the first; Past the ones
	// before it, the latest first.
	Current *WebSeason
	Past    []WebSeason
}

// WebSeason is one season of a league's page.
type WebSeason struct {
	Number           int
	Started, Ends    time.Time
	Closed           bool
	Divisions        []WebDivision
	TZ               *time.Location // for the phrases that write its dates
	TablesInProgress int
}

// WebDivision is one division's standings, as Standings computes them,
// and its results matrix.
type WebDivision struct {
	Name      string
	Standings []Standing
	// Results[i][j] is the record of the i-th player of Standings
	// against the j-th, over the division's finished tables.
	Results [][]WebResult
}

// WebResult is one player's record against another: pair results won,
// tied and lost (LEAGUES §8.1).
type WebResult struct {
	Won, Tied, Lost int
	Self            bool // the diagonal
}

// Played reports whether the two met at a finished table.
func (r WebResult) Played() bool { return r.Won+r.Tied+r.Lost > 0 }

// WebLeague reads the page of league name; nil, and no error, when no
// league of that name plays seasons.
func (s *Service) WebLeague(ctx context.Context, name string) (*WebLeague, error) {
	l := s.Cfg.League(name)
	if l == nil || !l.Seasons() {
		return nil, nil
	}
	w := &WebLeague{Name: l.Name, Lang: s.Cfg.Language, TZ: s.Tables.ZoneOf(""), Now: s.Now()}
	cur, _, err := s.Standings(ctx, name, 0)
	if errors.Is(err, ErrNoSeason) {
		return w, nil
	}
	if err != nil {
		return nil, err
	}
	for n := cur.Number; n >= 1; n-- {
		season, err := s.webSeason(ctx, name, n)
		if err != nil {
			return nil, err
		}
		if n == cur.Number {
			w.Current = season
		} else {
			w.Past = append(w.Past, *season)
		}
	}
	return w, nil
}

// webSeason is season number of a league: its standings and ratings,
// and the results matrix from its finished tables.
func (s *Service) webSeason(ctx context.Context, name string, number int) (*WebSeason, error) {
	d, rows, err := s.seasonStandings(ctx, name, number)
	if err != nil {
		return nil, err
	}
	view, finished := d.view, d.finished
	out := &WebSeason{Number: view.Number, Started: view.Started, Ends: view.Ends, Closed: view.Closed, TZ: s.Tables.ZoneOf("")}
	for _, t := range view.Tables {
		if t.Status != store.StatusOver {
			out.TablesInProgress++
		}
	}
	for i, dv := range view.Divisions {
		wd := WebDivision{Name: dv.Name}
		for _, r := range rows {
			if r.Division == dv.Name {
				wd.Standings = append(wd.Standings, r)
			}
		}
		wd.Results = results(wd.Standings, finished[i])
		out.Divisions = append(out.Divisions, wd)
	}
	return out, nil
}

// results is the matrix of the pair results among a division's players
// (in the order of their standings) at its finished tables.
func results(rows []Standing, tables []league.Finished) [][]WebResult {
	at := make(map[string]int, len(rows))
	for i, r := range rows {
		at[r.Player] = i
	}
	out := make([][]WebResult, len(rows))
	for i := range out {
		out[i] = make([]WebResult, len(rows))
		out[i][i].Self = true
	}
	for _, f := range tables {
		for _, pr := range league.Pairs(f) {
			a, okA := at[pr.A]
			b, okB := at[pr.B]
			if !okA || !okB {
				continue // a substitute from outside the division
			}
			switch pr.Score {
			case 1:
				out[a][b].Won++
				out[b][a].Lost++
			case 0.5:
				out[a][b].Tied++
				out[b][a].Tied++
			default:
				out[a][b].Lost++
				out[b][a].Won++
			}
		}
	}
	return out
}
