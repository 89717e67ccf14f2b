package league

import (
	"slices"
	"strconv"
)

// Division is one division of a season: its players in seeding order.
type Division struct {
	Name    string
	Players []string
}

// Moves are the rules between two seasons (LEAGUES §7.4).
type Moves struct {
	Promote, Relegate int // players moving up from, and down from, each division
	Size              int // the most players of a division (division_size)
}

// NextSeason returns the divisions of the season after one whose final
// standings are given, top division first (standings[i] is divs[i]'s,
// in rank order). Withdrawn players leave first, so the next in line
// takes their place in a move. Then the top Promote of every division
// but the first move up one, the bottom Relegate of every division but
// the last move down one (a player of a small division is promoted
// rather than relegated), and sign-ups join the lowest division, a new
// one being opened when it would exceed Size. A division's players are
// seeded: those relegated into it first, then those who stayed in the
// order they finished, then those promoted into it, then sign-ups.
// Divisions left empty are dropped.
func NextSeason(divs []Division, standings [][]Row, m Moves, withdrawn map[string]bool, signups []string) []Division {
	n := len(divs)
	ranked := make([][]string, n)
	for i := range divs {
		for _, r := range standings[i] {
			if !withdrawn[r.Player] {
				ranked[i] = append(ranked[i], r.Player)
			}
		}
	}
	type next struct{ down, stay, up []string }
	parts := make([]next, n)
	for i, players := range ranked {
		up, down := 0, 0
		if i > 0 {
			up = min(m.Promote, len(players))
		}
		if i < n-1 {
			down = min(m.Relegate, len(players)-up)
		}
		if up > 0 {
			parts[i-1].up = append(parts[i-1].up, players[:up]...)
		}
		if down > 0 {
			parts[i+1].down = append(parts[i+1].down, players[len(players)-down:]...)
		}
		parts[i].stay = players[up : len(players)-down]
	}
	out := make([]Division, 0, n+1)
	for i, p := range parts {
		players := slices.Concat(p.down, p.stay, p.up)
		out = append(out, Division{Name: divs[i].Name, Players: players})
	}
	// Sign-ups who already play stay where they are.
	seated := map[string]bool{}
	for _, d := range out {
		for _, p := range d.Players {
			seated[p] = true
		}
	}
	for _, s := range signups {
		if seated[s] || withdrawn[s] {
			continue
		}
		seated[s] = true
		last := len(out) - 1
		if last < 0 || m.Size > 0 && len(out[last].Players) >= m.Size {
			out = append(out, Division{Name: "division-" + strconv.Itoa(len(out)+1)})
			last++
		}
		out[last].Players = append(out[last].Players, s)
	}
	return slices.DeleteFunc(out, func(d Division) bool { return len(d.Players) == 0 })
}
