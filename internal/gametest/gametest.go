// Package gametest plays games for tests: it finds placements that the
// board's shape rules accept, without a dictionary, so that tests can
// play whole games with a permissive word list, writes them as players
// do, and reads back what the English notices say and the calendar
// entries they carry.
package gametest

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lexio-mail/lexio/engine"
)

// AnyWord accepts every word.
type AnyWord struct{}

// Contains is always true.
func (AnyWord) Contains(string) bool { return true }

// FindPlay returns a placement of player p's tiles that the shape rules
// accept, trying the longest runs first (at most maxTiles tiles; 0 for no
// limit) from every empty cell next to a tile (from G7 leftwards on an
// empty board); ok is false when it finds none. A blank is played as an E.
func FindPlay(g *engine.Game, p, maxTiles int) (play engine.Play, ok bool) {
	b := g.Board()
	rack := g.Rack(p)
	rules := g.Rules()
	var starts []engine.Cell
	if b.Empty() {
		f := engine.Fountain()
		for i := 0; i < engine.RackSize; i++ {
			starts = append(starts, engine.Cell{Col: f.Col - i, Row: f.Row})
		}
	} else {
		for r := range engine.Size {
			for c := range engine.Size {
				cell := engine.Cell{Col: c, Row: r}
				if engine.Playable(cell) && b.At(cell).Empty() && touches(&b, cell) {
					starts = append(starts, cell)
				}
			}
		}
	}
	if maxTiles <= 0 {
		maxTiles = engine.RackSize
	}
	for k := min(len(rack), maxTiles); k >= 1; k-- {
		for _, start := range starts {
			for _, dir := range []engine.Dir{engine.Across, engine.Down} {
				ps := run(&b, rack[:k], start, dir)
				if ps == nil {
					continue
				}
				if play, err := engine.Evaluate(&b, ps, rules); err == nil {
					return play, true
				}
			}
		}
	}
	return engine.Play{}, false
}

func touches(b *engine.Board, c engine.Cell) bool {
	for _, d := range []engine.Dir{engine.Across, engine.Down} {
		for _, n := range []engine.Cell{c.Next(d, -1), c.Next(d, 1)} {
			if n.OnBoard() && !b.At(n).Empty() {
				return true
			}
		}
	}
	return false
}

// run lays tiles on the empty cells from start along dir, nil when the
// line ends first.
func run(b *engine.Board, tiles []byte, start engine.Cell, dir engine.Dir) []engine.Placement {
	var ps []engine.Placement
	for cur := start; len(ps) < len(tiles); cur = cur.Next(dir, 1) {
		if !cur.OnBoard() || !engine.Playable(cur) {
			return nil
		}
		if !b.At(cur).Empty() {
			continue
		}
		t := tiles[len(ps)]
		pl := engine.Placement{Cell: cur, Letter: t}
		if t == engine.BlankTile {
			pl.Letter, pl.Blank = 'E', true
		}
		ps = append(ps, pl)
	}
	return ps
}

// Command writes a play as a player does: PLACE, the main word's first
// cell and direction, the word with the tiles already on the board in
// parentheses and blanks in brackets.
func Command(play engine.Play) string {
	w := play.Words[0]
	placed := map[engine.Cell]engine.Placement{}
	for _, p := range play.Tiles {
		placed[p.Cell] = p
	}
	var sb strings.Builder
	open := false
	for i, c := range w.Cells {
		p, isPlaced := placed[c]
		if !isPlaced != open {
			if open {
				sb.WriteByte(')')
			} else {
				sb.WriteByte('(')
			}
			open = !isPlaced
		}
		if isPlaced && p.Blank {
			fmt.Fprintf(&sb, "[%c]", p.Letter)
		} else {
			sb.WriteByte(w.Text[i])
		}
	}
	if open {
		sb.WriteByte(')')
	}
	dir := "ACROSS"
	if w.Dir == engine.Down {
		dir = "DOWN"
	}
	return fmt.Sprintf("PLACE %s %s %s", w.Start, dir, sb.String())
}

// DisplayName is how the notices name the player of an address: the local
// part, capitalised.
func DisplayName(addr string) string {
	local, _, _ := strings.Cut(addr, "@")
	return strings.ToUpper(local[:1]) + local[1:]
}

// HasScoreLine finds "Name [(you)] before adjust final" in the final
// scores of an English game-over mail.
func HasScoreLine(text, name string, final int) bool {
	_, after, _ := strings.Cut(text, "== Final scores ==")
	for _, l := range strings.Split(after, "\n") {
		f := strings.Fields(strings.TrimLeft(l, " *"))
		if len(f) >= 4 && f[0] == name && f[len(f)-1] == fmt.Sprint(final) {
			return true
		}
	}
	return false
}

// BoardShown reports whether the text grid in text shows every tile of
// b in its cell (blanks in lowercase, the last move in brackets).
func BoardShown(text string, b *engine.Board) bool {
	_, grid, ok := strings.Cut(text, "== The board ==")
	if !ok {
		return false
	}
	// A row is its number in 3 columns, then 3 columns a cell, the
	// letter in the last: "  7  .  . [M][E] .".
	rows := map[int]string{}
	for _, l := range strings.Split(grid, "\n") {
		if len(l) < 3+3*engine.Size {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(l[:3]))
		if err != nil || n < 1 || n > engine.Size {
			continue
		}
		if _, dup := rows[n-1]; !dup {
			rows[n-1] = l
		}
	}
	if len(rows) != engine.Size {
		return false
	}
	for r := range engine.Size {
		for c := range engine.Size {
			sq := b.At(engine.Cell{Col: c, Row: r})
			if sq.Empty() {
				continue
			}
			want := string(sq.Letter)
			if sq.Blank {
				want = strings.ToLower(want)
			}
			if got := rows[r][5+3*c : 6+3*c]; got != want {
				return false
			}
		}
	}
	return true
}
