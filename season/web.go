package season

import (
	"context"
	"errors"

	"github.com/lexio-mail/lexio/league"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/web/view"
)

// WebLeague reads the page of league name; nil, and no error, when no
// league of that name plays seasons.
func (s *Service) WebLeague(ctx context.Context, name string) (*view.League, error) {
	l := s.Cfg.League(name)
	if l == nil || !l.Seasons() {
		return nil, nil
	}
	w := &view.League{Name: l.Name, Lang: s.Cfg.Language, TZ: s.Tables.ZoneOf(""), Now: s.Now()}
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
func (s *Service) webSeason(ctx context.Context, name string, number int) (*view.Season, error) {
	d, rows, err := s.seasonStandings(ctx, name, number)
	if err != nil {
		return nil, err
	}
	sv, finished := d.view, d.finished
	out := &view.Season{Number: sv.Number, Started: sv.Started, Ends: sv.Ends, Closed: sv.Closed, TZ: s.Tables.ZoneOf("")}
	for _, t := range sv.Tables {
		if t.Status != store.StatusOver {
			out.TablesInProgress++
		}
	}
	for i, dv := range sv.Divisions {
		wd := view.Division{Name: dv.Name}
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
func results(rows []Standing, tables []league.Finished) [][]view.Result {
	at := make(map[string]int, len(rows))
	for i, r := range rows {
		at[r.Player] = i
	}
	out := make([][]view.Result, len(rows))
	for i := range out {
		out[i] = make([]view.Result, len(rows))
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
