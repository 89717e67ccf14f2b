package league

import (
	"cmp"
	"slices"
)

// Seat is one player's end of a finished table.
type Seat struct {
	Player string // the address of whoever held the seat at the end
	Score  int    // final score
	// Left is 0 for a player still in at the end, else the order in which
	// they resigned or forfeited: 1 for the first to leave.
	Left int
}

// Finished is a table that has ended, by play, resignation, forfeit or
// adjudication.
type Finished struct {
	Table string
	Seats []Seat
}

// Pair is the result of one pair of players at one table (LEAGUES §8.1):
// A's score against B (1 win, 0.5 tie, 0 loss) and A's spread; B's are
// the complements.
type Pair struct {
	A, B   string
	Score  float64
	Spread int
}

// above reports whether seat a ranks above seat b at their table, and
// whether they are level (LEAGUES §2.2, §8.1): players still in by score;
// below them those who left, the later one higher.
func above(a, b Seat) (higher, level bool) {
	switch {
	case a.Left == 0 && b.Left == 0:
		return a.Score > b.Score, a.Score == b.Score
	case a.Left == 0:
		return true, false
	case b.Left == 0:
		return false, false
	}
	return a.Left > b.Left, false
}

// Pairs returns every pair result of a finished table, in seat order.
func Pairs(f Finished) []Pair {
	var out []Pair
	for i, a := range f.Seats {
		for _, b := range f.Seats[i+1:] {
			p := Pair{A: a.Player, B: b.Player, Spread: a.Score - b.Score}
			higher, level := above(a, b)
			switch {
			case level:
				p.Score = 0.5
			case higher:
				p.Score = 1
				// A loser who left never gains a positive spread.
				if b.Left > 0 && p.Spread < 0 {
					p.Spread = 0
				}
			default:
				if a.Left > 0 && p.Spread > 0 {
					p.Spread = 0
				}
			}
			out = append(out, p)
		}
	}
	return out
}

// Points are the league points of a pair result (LEAGUES §7.1).
type Points struct{ Win, Tie, Loss int }

// DefaultPoints are 2 for a win, 1 for a tie, 0 for a loss.
var DefaultPoints = Points{Win: 2, Tie: 1, Loss: 0}

func (p Points) of(score float64) int {
	switch score {
	case 1:
		return p.Win
	case 0.5:
		return p.Tie
	}
	return p.Loss
}

// Row is one player's line of a division's standings (LEAGUES §9.1).
type Row struct {
	Rank      int    `json:"rank"`
	Player    string `json:"player"`
	Played    int    `json:"played"` // pairs played
	Won       int    `json:"won"`
	Tied      int    `json:"tied"`
	Lost      int    `json:"lost"`
	Points    int    `json:"points"`     // league points
	Spread    int    `json:"spread"`     // sum of pair spreads
	PointsFor int    `json:"points_for"` // sum of final scores
}

// Standings orders a division's players by league points, then spread;
// players still level on both are ordered, as one group, by the league
// points of the pairs among themselves; then by points for, then by
// address. Every player of the division has a row, played or not; only
// the finished tables given count.
func Standings(players []string, tables []Finished, pts Points) []Row {
	rows := make(map[string]*Row, len(players))
	for _, p := range players {
		rows[p] = &Row{Player: p}
	}
	var pairs []Pair
	for _, f := range tables {
		for _, s := range f.Seats {
			if r := rows[s.Player]; r != nil {
				r.PointsFor += s.Score
			}
		}
		pairs = append(pairs, Pairs(f)...)
	}
	for _, p := range pairs {
		record(rows[p.A], p.Score, p.Spread, pts)
		record(rows[p.B], 1-p.Score, -p.Spread, pts)
	}
	out := make([]Row, 0, len(players))
	for _, p := range players {
		out = append(out, *rows[p])
	}
	slices.SortStableFunc(out, func(a, b Row) int {
		return cmp.Or(cmp.Compare(b.Points, a.Points), cmp.Compare(b.Spread, a.Spread))
	})
	// Each run of players level on points and spread is ordered by the
	// league points of their pairs among themselves.
	for i := 0; i < len(out); {
		j := i + 1
		for j < len(out) && out[j].Points == out[i].Points && out[j].Spread == out[i].Spread {
			j++
		}
		if j-i > 1 {
			group := out[i:j]
			among := amongPoints(group, pairs, pts)
			slices.SortStableFunc(group, func(a, b Row) int {
				return cmp.Or(cmp.Compare(among[b.Player], among[a.Player]),
					cmp.Compare(b.PointsFor, a.PointsFor), cmp.Compare(a.Player, b.Player))
			})
		}
		i = j
	}
	for i := range out {
		out[i].Rank = i + 1
	}
	return out
}

func record(r *Row, score float64, spread int, pts Points) {
	if r == nil {
		return // a player no longer in the division
	}
	r.Played++
	switch score {
	case 1:
		r.Won++
	case 0.5:
		r.Tied++
	default:
		r.Lost++
	}
	r.Points += pts.of(score)
	r.Spread += spread
}

// amongPoints is each group member's league points from the pairs
// within the group.
func amongPoints(group []Row, pairs []Pair, pts Points) map[string]int {
	in := make(map[string]bool, len(group))
	for _, r := range group {
		in[r.Player] = true
	}
	among := make(map[string]int, len(group))
	for _, p := range pairs {
		if in[p.A] && in[p.B] {
			among[p.A] += pts.of(p.Score)
			among[p.B] += pts.of(1 - p.Score)
		}
	}
	return among
}
