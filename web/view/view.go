// Package view holds the data of the web side's pages: a table as a
// player or a spectator sees it, a league's seasons. Package table and
// package season fill them from the store; package web renders them. It
// knows nothing of either.
package view

import (
	"time"

	"github.com/lexio-mail/lexio/league"
	"github.com/lexio-mail/lexio/templates"
)

// Table is a table's page.
type Table struct {
	Name, League, Variant string
	// Lang and TZ are the viewer's: the player's own, the
	// configuration's for a spectator.
	Lang string
	TZ   *time.Location
	Now  time.Time
	// Viewer is the player's name, "" on the spectators' page.
	Viewer string
	// Started is false while the table waits for its players; then only
	// Notice.State.Players holds anything.
	Started, Over bool
	// Notice is the state as a notice shows it, the whole log included;
	// its Rack is the viewer's, and empty on the spectators' page.
	Notice templates.NoticeMsg
	// GameOver is the end as the game-over mail shows it, every rack
	// revealed; set once Over.
	GameOver templates.GameOverMsg
	// Spectators: the league allows spectators (the spectators' page
	// exists). Seasons: the league plays seasons (its page exists).
	Spectators, Seasons bool
}

// League is a league's page: its current season and the past ones.
type League struct {
	Name string
	Lang string
	TZ   *time.Location
	Now  time.Time
	// Current is the last season, nil before the first; Past the ones
	// before it, the latest first.
	Current *Season
	Past    []Season
}

// Season is one season of a league's page.
type Season struct {
	Number           int
	Started, Ends    time.Time
	Closed           bool
	Divisions        []Division
	TZ               *time.Location // for the phrases that write its dates
	TablesInProgress int
}

// Division is one division's standings, as Standings computes them,
// and its results matrix.
type Division struct {
	Name      string
	Standings []Standing
	// Results[i][j] is the record of the i-th player of Standings
	// against the j-th, over the division's finished tables.
	Results [][]Result
}

// Result is one player's record against another: pair results won,
// tied and lost (LEAGUES §8.1).
type Result struct {
	Won, Tied, Lost int
	Self            bool // the diagonal
}

// Played reports whether the two met at a finished table.
func (r Result) Played() bool { return r.Won+r.Tied+r.Lost > 0 }

// Standing is one line of a division's standings (LEAGUES §9.1): the
// player's results, their name as the division shows it, and their
// rating in the variant's pool.
type Standing struct {
	Division string
	league.Row
	Name       string
	Rating, RD float64
}
