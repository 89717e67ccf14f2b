package season

import (
	"encoding/json"
	"math"
)

// StandingsJSON writes standings as `lexio league standings --json`
// prints them, the contract of LEAGUES §9.3: one array, an object a
// player, these keys, integers but rating and rd, which are rounded to 2
// decimals.
func StandingsJSON(rows []Standing) ([]byte, error) {
	out := make([]standingJSON, 0, len(rows))
	for _, r := range rows {
		out = append(out, standingJSON{Division: r.Division, Rank: r.Rank, Player: r.Player, Name: r.Name,
			Played: r.Played, Won: r.Won, Tied: r.Tied, Lost: r.Lost, Points: r.Points, Spread: r.Spread,
			PointsFor: r.PointsFor, Rating: round2(r.Rating), RD: round2(r.RD)})
	}
	return json.Marshal(out)
}

// standingJSON is one line of StandingsJSON.
type standingJSON struct {
	Division  string  `json:"division"`
	Rank      int     `json:"rank"`
	Player    string  `json:"player"`
	Name      string  `json:"name"`
	Played    int     `json:"played"`
	Won       int     `json:"won"`
	Tied      int     `json:"tied"`
	Lost      int     `json:"lost"`
	Points    int     `json:"points"`
	Spread    int     `json:"spread"`
	PointsFor int     `json:"points_for"`
	Rating    float64 `json:"rating"`
	RD        float64 `json:"rd"`
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }
