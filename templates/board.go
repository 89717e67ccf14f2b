package templates

import (
	"sync"

	lru "github.com/hashicorp/golang-lru/v2"
)

// square is one cell of the board as both formats' "part.board" draw it
// (the HTML's "square.bg" and "square.ink" give an empty one's colours by
// its kind, the text board its mark).
type square struct {
	// The kind of an empty cell, as one flag a template tests without a
	// call; all false for a tile. Plain first: it is most of the board.
	Plain, Wall, Fountain, TW, DW, TL, DL, Cross bool

	Letter string // the tile, uppercase, lowercase for a blank; "" when empty
	Label  string // the language's label of an empty bonus cell ("3W"), or ""
	Blank  bool
	Value  int    // the tile's value
	Last   bool   // the tile was placed by the last move
	Kind   string // CellKind.String(), for the legend's words: "plain", "TW"...
	At     string // its coordinate, "H8", in its accessible name; "" in the legend
}

// newSquare is an empty cell of kind k; labels are the language's labels
// of bonus cells.
func newSquare(k CellKind, labels *[8]string) square {
	if k < 0 || int(k) >= len(labels) {
		k = Plain
	}
	sq := square{Kind: k.String(), Label: labels[k]}
	switch k {
	case Plain:
		sq.Plain = true
	case Wall:
		sq.Wall = true
	case Fountain:
		sq.Fountain = true
	case TW:
		sq.TW = true
	case DW:
		sq.DW = true
	case TL:
		sq.TL = true
	case DL:
		sq.DL = true
	case Cross:
		sq.Cross = true
	}
	return sq
}

// squares lays the board out in rows for a template.
func squares(b *Board, labels *[8]string) *[Size][Size]square {
	var out [Size][Size]square
	for r := range Size {
		for c := range Size {
			cell := b.Cells[r][c]
			sq := newSquare(cell.Kind, labels)
			if cell.Letter != 0 {
				l := upper(cell.Letter)
				if cell.Blank {
					l += 'a' - 'A'
				}
				sq = square{Kind: sq.Kind, Letter: string(rune(l)), Blank: cell.Blank, Value: cell.Value, Last: cell.Last}
			}
			sq.At = Pos{Row: r, Col: c}.String()
			out[r][c] = sq
		}
	}
	return &out
}

// legend lists the kinds of square the HTML board's legend explains.
func legend(labels *[8]string) []square {
	var out []square
	for _, k := range []CellKind{TW, DW, TL, DL, Cross, Fountain, Wall} {
		out = append(out, newSquare(k, labels))
	}
	return out
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// boardCache keeps the drawings of recent boards in one language and
// format. The notices of a move, one per player and rendered at once,
// show the same board: it is drawn once and the others wait for it. The
// board is the key: part.board reads nothing else but the language (no
// recipient: a drawing may go to every player).
type boardCache struct {
	drawn *lru.Cache[Board, func() (string, error)]
}

// boardCacheSize is more boards than moves are ever rendered at once.
const boardCacheSize = 64

func newBoardCache() *boardCache {
	c, err := lru.New[Board, func() (string, error)](boardCacheSize)
	if err != nil {
		panic(err) // only for a size below 1
	}
	return &boardCache{drawn: c}
}

// draw returns b drawn by draw, the first time it is asked for.
func (c *boardCache) draw(b Board, draw func() (string, error)) (string, error) {
	once := sync.OnceValues(draw)
	if first, ok, _ := c.drawn.PeekOrAdd(b, once); ok {
		once = first
	}
	return once()
}
