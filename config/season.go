package config

import (
	"net/mail"
	"strings"
	"time"
)

// Season holds a league's keys for seasons (LEAGUES §7.1): how its
// divisions are paired, how long a season runs, what a result is worth,
// who moves between divisions. A league organises seasons when it has
// divisions or takes sign-ups; otherwise these keys do nothing.
type Season struct {
	TableSize    int   `toml:"table_size"`     // 2 to 4 players a table
	GamesPerPair int   `toml:"games_per_pair"` // 2-player tables: 1, or 2 with each opening once
	Rounds       int   `toml:"rounds"`         // 3-4 players: 0 is enough to meet everyone once
	SeasonDays   int   `toml:"season_days"`
	Points       []int `toml:"points"` // league points for a win, a tie and a loss
	// Promote and Relegate are nil for the default (2 each); 0 is none.
	Promote  *int `toml:"promote"`
	Relegate *int `toml:"relegate"`
	// Signup lets players SIGNUP and WITHDRAW by mail.
	Signup       bool `toml:"signup"`
	DivisionSize int  `toml:"division_size"`
	// Rated is nil for the default, true: the league's tables count for
	// the ratings of their variant.
	Rated           *bool      `toml:"rated"`
	StandingsDigest string     `toml:"standings_digest"` // weekly | off
	Divisions       []Division `toml:"division"`
}

// Division is one division of a league's first season, its players in
// seeding order.
type Division struct {
	Name    string   `toml:"name"`
	Players []string `toml:"players"`
}

// Defaults of a league's seasons and of the ratings (LEAGUES §7, §10).
const (
	DefaultSeasonDays   = 90
	DefaultMoves        = 2 // promote and relegate
	DefaultDivisionSize = 12
	DefaultRatingTau    = 0.5
)

// DefaultPoints are the league points of a win, a tie and a loss.
func DefaultPoints() []int { return []int{2, 1, 0} }

// Seasons reports whether the league organises seasons.
func (l *League) Seasons() bool { return len(l.Divisions) > 0 || l.Signup }

// SeasonLength is season_days as a duration.
func (l *League) SeasonLength() time.Duration { return time.Duration(l.SeasonDays) * 24 * time.Hour }

func (s *Season) fill() {
	if s.TableSize == 0 {
		s.TableSize = 2
	}
	if s.GamesPerPair == 0 {
		s.GamesPerPair = 1
	}
	if s.SeasonDays == 0 {
		s.SeasonDays = DefaultSeasonDays
	}
	if s.Points == nil {
		s.Points = DefaultPoints()
	}
	for _, m := range []**int{&s.Promote, &s.Relegate} {
		if *m == nil {
			n := DefaultMoves
			*m = &n
		}
	}
	if s.DivisionSize == 0 {
		s.DivisionSize = DefaultDivisionSize
	}
	if s.Rated == nil {
		t := true
		s.Rated = &t
	}
	if s.StandingsDigest == "" {
		s.StandingsDigest = "weekly"
	}
	for i := range s.Divisions {
		for j, p := range s.Divisions[i].Players {
			s.Divisions[i].Players[j] = strings.ToLower(strings.TrimSpace(p))
		}
	}
}

// validate reports the problems of a league's season keys through bad.
func (s *Season) validate(league, variant string, bad func(string, ...any)) {
	switch {
	case s.TableSize < 2 || s.TableSize > 4:
		bad("league %q: table_size %d: want 2 to 4", league, s.TableSize)
	case variant == "lexico" && s.TableSize != 2:
		bad("league %q: table_size %d: lexico is for 2 players", league, s.TableSize)
	}
	if s.GamesPerPair != 1 && s.GamesPerPair != 2 {
		bad("league %q: games_per_pair %d: want 1 or 2", league, s.GamesPerPair)
	} else if s.GamesPerPair == 2 && s.TableSize != 2 {
		bad("league %q: games_per_pair = 2 is for 2-player tables; with %d a table, set rounds", league, s.TableSize)
	}
	if s.Rounds < 0 || s.Rounds > 0 && s.TableSize == 2 {
		bad("league %q: rounds %d: want 0 (the default) or, for tables of 3 or 4, a positive number", league, s.Rounds)
	}
	if s.SeasonDays < 1 {
		bad("league %q: season_days %d: want 1 or more", league, s.SeasonDays)
	}
	if len(s.Points) != 3 || s.Points[0] < s.Points[1] || s.Points[1] < s.Points[2] || s.Points[2] < 0 {
		bad("league %q: points %v: want three numbers for a win, a tie and a loss, e.g. [2, 1, 0], none below the next or below 0", league, s.Points)
	}
	if *s.Promote < 0 || *s.Relegate < 0 {
		bad("league %q: promote %d, relegate %d: want 0 or more", league, *s.Promote, *s.Relegate)
	}
	if s.DivisionSize < s.TableSize {
		bad("league %q: division_size %d: at least table_size (%d)", league, s.DivisionSize, s.TableSize)
	}
	if s.StandingsDigest != "weekly" && s.StandingsDigest != "off" {
		bad("league %q: standings_digest %q: want weekly or off", league, s.StandingsDigest)
	}
	names := map[string]bool{}
	seen := map[string]string{}
	for i, d := range s.Divisions {
		if d.Name == "" {
			bad("league %q: division %d has no name", league, i+1)
		}
		if names[d.Name] {
			bad("league %q: division %q defined twice", league, d.Name)
		}
		names[d.Name] = true
		if len(d.Players) < 2 {
			bad("league %q: division %q: %d players, want at least 2", league, d.Name, len(d.Players))
		}
		if len(d.Players) > s.DivisionSize {
			bad("league %q: division %q: %d players, more than division_size %d", league, d.Name, len(d.Players), s.DivisionSize)
		}
		for _, p := range d.Players {
			if a, err := mail.ParseAddress(p); err != nil || a.Address != p {
				bad("league %q: division %q: player %q is not a bare email address", league, d.Name, p)
			}
			if other, ok := seen[p]; ok {
				bad("league %q: player %q is in division %q and in %q", league, p, other, d.Name)
			}
			seen[p] = d.Name
		}
	}
}

// checkTau validates the service's rating_tau.
func checkTau(tau float64, bad func(string, ...any)) {
	if tau <= 0 || tau > 2 {
		bad("rating_tau %v: want a positive number up to 2 (Glickman suggests 0.3 to 1.2)", tau)
	}
}
