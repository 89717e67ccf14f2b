// Package board is the board of Lexio and what a placement on it means
// (RULES §2, §3, §4, §5, §12): cells and directions, the bonus layout, the
// tiles' letters and values, the shape rules of a placement, the words it
// makes and their score. It knows nothing of players, turns, racks or the
// bag: that is the game, in package engine. movegen uses it alone.
package board

import (
	"fmt"
	"strconv"
	"strings"
)

// Size is the width and height of the board (RULES §2.1).
const Size = 13

// Cell is a board coordinate, 0-based: Col 0 is column A, Row 0 is row 1.
type Cell struct {
	Col, Row int
}

// Fountain returns G7, the centre of the board (RULES §2.3).
func Fountain() Cell { return Cell{Col: Size / 2, Row: Size / 2} }

// OnBoard reports whether c lies inside the 13 × 13 square (walls included).
func (c Cell) OnBoard() bool {
	return c.Col >= 0 && c.Col < Size && c.Row >= 0 && c.Row < Size
}

func (c Cell) index() int { return c.Row*Size + c.Col }

// String writes the cell column then row, "G7" (RULES §2.1). Cells off the
// board are written as "(col,row)".
func (c Cell) String() string {
	if !c.OnBoard() {
		return "(" + strconv.Itoa(c.Col) + "," + strconv.Itoa(c.Row) + ")"
	}
	return string(rune('A'+c.Col)) + strconv.Itoa(c.Row+1)
}

// MarshalText writes the cell as "G7".
func (c Cell) MarshalText() ([]byte, error) {
	if !c.OnBoard() {
		return nil, fmt.Errorf("engine: cell %v off the board: %w", c, ErrBadCell)
	}
	return []byte(c.String()), nil
}

// UnmarshalText reads a cell written as "G7" or "7G".
func (c *Cell) UnmarshalText(b []byte) error {
	p, err := ParseCell(string(b))
	if err != nil {
		return err
	}
	*c = p
	return nil
}

// ParseCell reads a cell written column then row ("G7") or row then column
// ("7G"), case-insensitively (RULES §2.1). Walled cells parse: they are on
// the board, just not playable.
func ParseCell(s string) (Cell, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	bad := fmt.Errorf("engine: bad cell %q: %w", s, ErrBadCell)
	if len(t) < 2 || len(t) > 3 {
		return Cell{}, bad
	}
	var col byte
	var digits string
	switch {
	case t[0] >= 'A' && t[0] <= 'Z':
		col, digits = t[0], t[1:]
	case t[len(t)-1] >= 'A' && t[len(t)-1] <= 'Z':
		col, digits = t[len(t)-1], t[:len(t)-1]
	default:
		return Cell{}, bad
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return Cell{}, bad
		}
	}
	row, err := strconv.Atoi(digits)
	if err != nil {
		return Cell{}, bad
	}
	c := Cell{Col: int(col - 'A'), Row: row - 1}
	if !c.OnBoard() {
		return Cell{}, bad
	}
	return c, nil
}

// Dir is the direction of a placement.
type Dir uint8

// Directions. Across runs left to right along a row, Down top to bottom
// along a column (RULES §4.3).
const (
	Across Dir = iota
	Down
)

func (d Dir) String() string {
	if d == Down {
		return "down"
	}
	return "across"
}

// MarshalText writes "across" or "down".
func (d Dir) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads "across" or "down".
func (d *Dir) UnmarshalText(b []byte) error {
	switch string(b) {
	case "across":
		*d = Across
	case "down":
		*d = Down
	default:
		return fmt.Errorf("engine: bad direction %q", b)
	}
	return nil
}

// step returns the unit offset of d.
func (d Dir) step() (dc, dr int) {
	if d == Down {
		return 0, 1
	}
	return 1, 0
}

// Other returns the perpendicular direction.
func (d Dir) Other() Dir { return 1 - d }

// Next returns the cell n steps from c along d (n may be negative).
func (c Cell) Next(d Dir, n int) Cell {
	dc, dr := d.step()
	return Cell{Col: c.Col + n*dc, Row: c.Row + n*dr}
}
