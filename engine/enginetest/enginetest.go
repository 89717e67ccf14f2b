// Package enginetest plays games for tests: it finds placements that the
// board's shape rules accept, without a dictionary, so that tests can play
// whole games with a permissive word list, and writes them as players do.
// Reading the mails back is templates/noticetest's.
package enginetest

import (
	"fmt"
	"strings"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/engine/board"
)

// AnyWord accepts every word.
type AnyWord struct{}

// Contains is always true.
func (AnyWord) Contains(string) bool { return true }

// FindPlay returns a placement of player p's tiles that the shape rules
// accept, trying the longest runs first (at most maxTiles tiles; 0 for no
// limit) from every empty cell next to a tile (from G7 leftwards on an
// empty board); ok is false when it finds none. A blank is played as an E.
func FindPlay(g *engine.Game, p, maxTiles int) (play board.Play, ok bool) {
	b := g.Board()
	rack := g.Rack(p)
	rules := g.Rules()
	var starts []board.Cell
	if b.Empty() {
		f := board.Fountain()
		for i := 0; i < board.RackSize; i++ {
			starts = append(starts, board.Cell{Col: f.Col - i, Row: f.Row})
		}
	} else {
		for r := range board.Size {
			for c := range board.Size {
				cell := board.Cell{Col: c, Row: r}
				if board.Playable(cell) && b.At(cell).Empty() && touches(&b, cell) {
					starts = append(starts, cell)
				}
			}
		}
	}
	if maxTiles <= 0 {
		maxTiles = board.RackSize
	}
	for k := min(len(rack), maxTiles); k >= 1; k-- {
		for _, start := range starts {
			for _, dir := range []board.Dir{board.Across, board.Down} {
				ps := run(&b, rack[:k], start, dir)
				if ps == nil {
					continue
				}
				if play, err := board.Evaluate(&b, ps, rules); err == nil {
					return play, true
				}
			}
		}
	}
	return board.Play{}, false
}

func touches(b *board.Board, c board.Cell) bool {
	for _, d := range []board.Dir{board.Across, board.Down} {
		for _, n := range []board.Cell{c.Next(d, -1), c.Next(d, 1)} {
			if n.OnBoard() && !b.At(n).Empty() {
				return true
			}
		}
	}
	return false
}

// run lays tiles on the empty cells from start along dir, nil when the
// line ends first.
func run(b *board.Board, tiles []byte, start board.Cell, dir board.Dir) []board.Placement {
	var ps []board.Placement
	for cur := start; len(ps) < len(tiles); cur = cur.Next(dir, 1) {
		if !cur.OnBoard() || !board.Playable(cur) {
			return nil
		}
		if !b.At(cur).Empty() {
			continue
		}
		t := tiles[len(ps)]
		pl := board.Placement{Cell: cur, Letter: t}
		if t == board.BlankTile {
			pl.Letter, pl.Blank = 'E', true
		}
		ps = append(ps, pl)
	}
	return ps
}

// Command writes a play as a player does: PLACE, the main word's first
// cell and direction, the word with the tiles already on the board in
// parentheses and blanks in brackets.
func Command(play board.Play) string {
	w := play.Words[0]
	placed := map[board.Cell]board.Placement{}
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
	if w.Dir == board.Down {
		dir = "DOWN"
	}
	return fmt.Sprintf("PLACE %s %s %s", w.Start, dir, sb.String())
}
