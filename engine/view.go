package engine

import (
	"time"

	"github.com/lexio-mail/lexio/engine/board"
)

// RackTile is one tile of a rack as its owner sees it.
type RackTile struct {
	Slot   int    `json:"slot"`   // 1-based, rack order
	Letter string `json:"letter"` // A–Z, "?" a blank
	Value  int    `json:"value"`
}

// View is what one player may see of a game (RULES §3.2, §7.3, §10): the
// board, the scores, how many tiles each player holds and the bag holds,
// their own rack, whose turn it is, the log entries they may read and,
// once the game is over, every rack.
type View struct {
	Player      int          `json:"player"`
	Rules       board.Rules  `json:"rules"`
	Board       board.Board  `json:"board"`
	LastPlay    []board.Cell `json:"last_play,omitempty"`
	Scores      []int        `json:"scores"`
	TileCounts  []int        `json:"tile_counts"`
	Bag         int          `json:"bag"`
	Rack        []RackTile   `json:"rack"`
	Turn        int          `json:"turn"`
	TurnStart   time.Time    `json:"turn_start"`
	Away        []bool       `json:"away"`
	Left        []bool       `json:"left,omitempty"` // resigned or forfeited; nil while nobody left (LEAGUES §2)
	Reserve     int          `json:"reserve"`
	NextAttempt time.Time    `json:"next_attempt,omitzero"`
	Log         []LogEntry   `json:"log"`
	Over        bool         `json:"over"`
	Result      *Result      `json:"result,omitempty"` // set once the game is over
}

// View returns what player p may see at time at (the time only sets the
// probe reserve shown).
func (g *Game) View(p int, at time.Time) (View, error) {
	if err := g.checkPlayer(p); err != nil {
		return View{}, err
	}
	v := View{
		Player:     p,
		Rules:      g.cfg.Rules,
		Board:      g.board,
		LastPlay:   append([]board.Cell(nil), g.lastPlay...),
		Scores:     make([]int, len(g.players)),
		TileCounts: make([]int, len(g.players)),
		Away:       make([]bool, len(g.players)),
		Bag:        len(g.bag.tiles),
		Turn:       g.turn,
		TurnStart:  g.turnStart,
		Over:       g.over,
	}
	if len(g.left) > 0 {
		v.Left = make([]bool, len(g.players))
	}
	for i, pl := range g.players {
		if v.Left != nil {
			v.Left[i] = pl.left
		}
		v.Scores[i] = pl.score
		v.TileCounts[i] = len(pl.rack)
		v.Away[i] = pl.away
	}
	v.Rack = rackTiles(g.players[p].rack)
	v.Reserve, v.NextAttempt = g.Reserve(p, at)
	for _, e := range g.log {
		if e.Visible(p) {
			v.Log = append(v.Log, e)
		}
	}
	if g.over {
		r := g.Result()
		v.Result = &r
	}
	return v, nil
}

func rackTiles(rack []byte) []RackTile {
	out := make([]RackTile, len(rack))
	for i, t := range rack {
		out[i] = RackTile{Slot: i + 1, Letter: string(rune(t)), Value: board.TileValue(t)}
	}
	return out
}
