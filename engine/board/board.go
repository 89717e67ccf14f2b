package board

import (
	"encoding/json"
	"fmt"
)

// Bonus is what a cell of the layout is (RULES §2.4).
type Bonus uint8

// Cell kinds of the layout.
const (
	NoBonus      Bonus = iota // an ordinary cell
	Wall                      // a walled corner cell: not playable (RULES §2.2)
	FountainCell              // G7: multiplies nothing (RULES §2.3)
	DL                        // letter ×2
	TL                        // letter ×3
	DW                        // word ×2
	TW                        // word ×3
	Cross                     // X: doubles both words through it (RULES §5.4)
)

func (b Bonus) String() string {
	switch b {
	case NoBonus:
		return "plain"
	case Wall:
		return "wall"
	case FountainCell:
		return "fountain"
	case DL:
		return "DL"
	case TL:
		return "TL"
	case DW:
		return "DW"
	case TW:
		return "TW"
	case Cross:
		return "X"
	}
	return fmt.Sprintf("bonus(%d)", uint8(b))
}

// IsWord reports whether b multiplies words (DW, TW).
func (b Bonus) IsWord() bool { return b == DW || b == TW }

// IsLetter reports whether b multiplies a letter (DL, TL).
func (b Bonus) IsLetter() bool { return b == DL || b == TL }

// Layout returns the printed kind of c on the board of RULES §2.4, whatever
// the variant; use Rules.Bonus for what a cell pays at a given table.
// Cells off the board are reported as Wall.
func Layout(c Cell) Bonus {
	if !c.OnBoard() {
		return Wall
	}
	// Fold onto one octant: the layout is 8-fold symmetric.
	x, y := min(c.Col, Size-1-c.Col), min(c.Row, Size-1-c.Row)
	a, b := min(x, y), max(x, y)
	switch {
	case a <= 1 && b <= 1:
		return Wall
	case a == 0 && b == 3:
		return TW
	case a == 1 && b == 2:
		return DW
	case a == 1 && b == 5:
		return TL
	case a == 3 && b == 5:
		return DL
	case a == 5 && b == 5:
		return Cross
	case a == 6 && b == 6:
		return FountainCell
	}
	return NoBonus
}

// Playable reports whether a tile may lie on c: on the board and not walled.
func Playable(c Cell) bool { return Layout(c) != Wall }

// Square is the content of a board cell. Letter is 0 on an empty cell; a
// blank keeps the letter it declared (RULES §3.3).
type Square struct {
	Letter byte `json:"letter"`
	Blank  bool `json:"blank,omitempty"`
}

// Empty reports whether no tile lies on the square.
func (s Square) Empty() bool { return s.Letter == 0 }

// Value is what the tile scores before bonuses: 0 for a blank (RULES §3.3).
func (s Square) Value() int {
	if s.Blank || s.Letter == 0 {
		return 0
	}
	return LetterValue(s.Letter)
}

// Board is the grid of tiles. Its zero value is an empty board. It is a
// plain value: copying a Board copies the tiles.
type Board struct {
	sq    [Size * Size]Square
	tiles int
}

// At returns the square at c (empty when c is off the board).
func (b *Board) At(c Cell) Square {
	if !c.OnBoard() {
		return Square{}
	}
	return b.sq[c.index()]
}

// occupied reports whether a tile lies on c (false off the board).
func (b *Board) occupied(c Cell) bool {
	return c.OnBoard() && b.sq[c.index()].Letter != 0
}

// Tiles returns how many tiles lie on the board.
func (b *Board) Tiles() int { return b.tiles }

// Empty reports whether no tile has been placed yet.
func (b *Board) Empty() bool { return b.tiles == 0 }

// Rows writes the board as 13 strings of 13 characters: '#' a wall, '.' an
// empty cell, an uppercase letter a tile, a lowercase letter a blank.
func (b *Board) Rows() []string {
	rows := make([]string, Size)
	var line [Size]byte
	for r := range Size {
		for col := range Size {
			c := Cell{Col: col, Row: r}
			s := b.sq[c.index()]
			switch {
			case Layout(c) == Wall:
				line[col] = '#'
			case s.Letter == 0:
				line[col] = '.'
			case s.Blank:
				line[col] = s.Letter - 'A' + 'a'
			default:
				line[col] = s.Letter
			}
		}
		rows[r] = string(line[:])
	}
	return rows
}

// String is the board as a text grid, one row a line.
func (b *Board) String() string {
	out := make([]byte, 0, Size*(Size+1))
	for _, r := range b.Rows() {
		out = append(out, r...)
		out = append(out, '\n')
	}
	return string(out)
}

// MarshalJSON writes the board as its Rows.
func (b Board) MarshalJSON() ([]byte, error) { return json.Marshal(b.Rows()) }

// UnmarshalJSON reads a board written by MarshalJSON.
func (b *Board) UnmarshalJSON(data []byte) error {
	var rows []string
	if err := json.Unmarshal(data, &rows); err != nil {
		return fmt.Errorf("engine: board: %w", err)
	}
	var nb Board
	if len(rows) != Size {
		return fmt.Errorf("engine: board has %d rows, want %d", len(rows), Size)
	}
	for r, row := range rows {
		if len(row) != Size {
			return fmt.Errorf("engine: board row %d has %d cells, want %d", r+1, len(row), Size)
		}
		for col := range Size {
			c := Cell{Col: col, Row: r}
			ch := row[col]
			switch {
			case ch == '#' || ch == '.':
				if (ch == '#') != (Layout(c) == Wall) {
					return fmt.Errorf("engine: board cell %v: %q does not match the layout", c, ch)
				}
			case ch >= 'A' && ch <= 'Z' && Playable(c):
				nb.put(c, Square{Letter: ch})
			case ch >= 'a' && ch <= 'z' && Playable(c):
				nb.put(c, Square{Letter: ch - 'a' + 'A', Blank: true})
			default:
				return fmt.Errorf("engine: board cell %v: bad character %q", c, ch)
			}
		}
	}
	*b = nb
	return nil
}

func (b *Board) put(c Cell, s Square) {
	i := c.index()
	if b.sq[i].Letter == 0 {
		b.tiles++
	}
	b.sq[i] = s
}
