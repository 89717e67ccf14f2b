// Package movegen finds every legal placement of a rack on a position:
// Gordon's GADDAG walk ("A faster Scrabble move generation algorithm",
// 1994) from Appel and Jacobson's anchors with their cross-checks ("The
// world's fastest Scrabble program", 1988), on Lexio's board: walls end a
// line like the edge, blanks stand for any letter, the first placement
// covers the fountain with the variant's least number of tiles (RULES §2,
// §3.3, §4). Every move is scored by the engine's rules: the Factors of
// its empty cells (engine.Board.Factors) summed by an engine.Tally, as
// Evaluate scores; the generator only decides which tiles may go where.
//
// A move is the set of tiles it puts down: a single tile that forms a word
// each way is one move (in the direction Board.Check gives it: across when
// it has a neighbour left or right), and a blank standing for a letter the
// rack also holds is a move of its own.
package movegen

import (
	"errors"
	"fmt"
	"math/bits"

	"github.com/lexio-mail/lexio/dict"
	"github.com/lexio-mail/lexio/engine"
)

// Move is one legal placement.
type Move struct {
	// Tiles holds the N tiles put down, in order along the line.
	Tiles [engine.RackSize]engine.Placement
	N     int
	// Dir is the direction Board.Check gives the placement.
	Dir engine.Dir
	// Score is what the engine scores it (RULES §5).
	Score int
}

// Placements returns the tiles the move puts down.
func (m *Move) Placements() []engine.Placement { return m.Tiles[:m.N] }

// ErrBadRack is wrapped by Generate's error for a rack it cannot play.
var ErrBadRack = errors.New("movegen: bad rack")

const (
	size     = engine.Size
	allCross = 1<<26 - 1 // every letter may go on the cell
	blank    = 26        // the blank's slot in the rack counts
)

// Generator finds moves. It keeps its working memory from one call to the
// next, so that generating allocates nothing once the move slice it is
// given has grown; it is not safe for concurrent use (make one per
// goroutine: they may share the GADDAG).
type Generator struct {
	gd *dict.Gaddag

	// The position of the current call.
	board    *engine.Board
	rules    engine.Rules
	first    bool // the board is empty: the fountain is the only anchor
	rack     [27]int
	rackMask uint32 // the letters the rack holds now, blanks aside
	tiles    int    // how many tiles a move may put down: the rack's, at most 7
	moves    []Move

	// The line being walked.
	dir    engine.Dir
	cells  [size]engine.Cell
	letter [size]byte // the board's letter, 0 for an empty cell
	// boardSum[i]: the values of the board's tiles before cell i (an
	// empty cell's is 0), so that a word's are boardSum[end+1]-boardSum[start].
	boardSum [size + 1]int
	factors  [size]engine.Factors // an empty cell's, for a play along the line
	// mask: the letters a tile on the empty cell may take, so that the
	// word across the line is one (allCross without one); 0 on a tile or
	// a wall.
	mask       [size]uint32
	anchor     int        // the empty cell every move of the walk covers
	right      int        // where the walk starts going left: the anchor or the tiles after it
	lastAnchor int        // the anchor before: moves covering it were found from it
	placed     [size]byte // letters put down by the walk, 0 for none
	isBlank    [size]bool
	nplaced    int
	placedBits uint16     // bit i: the walk put a letter on cell i
	horizontal [size]bool // down lines: the cell has a neighbour left or right
}

// New returns a generator walking gd, which must be the GADDAG of the
// table's dictionary (dict.Gaddag.Pair checks it).
func New(gd *dict.Gaddag) *Generator { return &Generator{gd: gd} }

// Generate appends to dst every legal placement of rack (letters A–Z, '?'
// a blank) on b under rules r, each once, in no particular order, and
// returns the extended slice. A rack holding anything else, or a blank
// in plain lexico, is an error wrapping ErrBadRack.
func (g *Generator) Generate(b *engine.Board, rack []byte, r engine.Rules, dst []Move) ([]Move, error) {
	if err := r.Validate(); err != nil {
		return dst, err
	}
	g.rack = [27]int{}
	for _, t := range rack {
		switch {
		case t >= 'A' && t <= 'Z':
			g.rack[t-'A']++
		case t == engine.BlankTile && r.Blanks():
			g.rack[blank]++
		case t == engine.BlankTile:
			return dst, fmt.Errorf("%w: plain lexico has no blanks (RULES §12)", ErrBadRack)
		default:
			return dst, fmt.Errorf("%w: %q is neither a letter A–Z nor '?'", ErrBadRack, t)
		}
	}
	g.rackMask = 0
	for l := range 26 {
		if g.rack[l] > 0 {
			g.rackMask |= 1 << l
		}
	}
	g.board, g.rules, g.moves = b, r, dst
	g.tiles = min(len(rack), engine.RackSize)
	g.first = b.Empty()
	if len(rack) == 0 || g.gd.Len() == 0 {
		return dst, nil
	}
	for _, d := range []engine.Dir{engine.Across, engine.Down} {
		g.dir = d
		for line := range size {
			g.walkLine(line)
		}
	}
	dst, g.moves, g.board = g.moves, nil, nil
	return dst, nil
}

// room reports whether another tile may go down: a rack of more than 7
// tiles (a tool's, never a player's) places at most 7.
func (g *Generator) room() bool { return g.nplaced < g.tiles }

// crossCheck returns the letters of the rack (any letter with a blank)
// that may go on the empty cell c given the tiles next to it along d:
// those L for which the run before c, L and the run after c spell a word.
// In the GADDAG that word is its entry rev(word): the run after c
// backwards, L, the run before c backwards.
func (g *Generator) crossCheck(c engine.Cell, d engine.Dir) uint32 {
	b := g.board
	before, after := 0, 0
	for b.At(c.Next(d, -before-1)).Letter != 0 {
		before++
	}
	for b.At(c.Next(d, after+1)).Letter != 0 {
		after++
	}
	if before == 0 && after == 0 {
		return allCross
	}
	gd := g.gd
	node := gd.Root()
	for k := after; k >= 1; k-- {
		next, _, ok := gd.Next(node, b.At(c.Next(d, k)).Letter-'A')
		if !ok || next == 0 {
			return 0
		}
		node = next
	}
	// Only the letters the rack can put down matter.
	playable := g.rackMask
	if g.rack[blank] > 0 {
		playable = allCross
	}
	var allowed uint32
	labels := gd.Labels(node)
	for ls := labels & playable; ls != 0; ls &= ls - 1 {
		l := byte(bits.TrailingZeros32(ls))
		next, final := gd.Arc(node, l)
		ok := true
		for k := 1; k <= before && ok; k++ { // the run before c, nearest first
			if next == 0 {
				ok = false
				break
			}
			next, final, ok = gd.Next(next, b.At(c.Next(d, -k)).Letter-'A')
		}
		if ok && final {
			allowed |= 1 << l
		}
	}
	return allowed
}

// walkLine generates the moves along one row (across) or column (down).
func (g *Generator) walkLine(line int) {
	b := g.board
	var anchors uint16 // the empty cells next to a tile, or the fountain
	for i := range size {
		c := engine.Cell{Col: i, Row: line}
		if g.dir == engine.Down {
			c = engine.Cell{Col: line, Row: i}
		}
		g.cells[i] = c
		g.letter[i] = b.At(c).Letter
		if g.letter[i] == 0 && engine.Playable(c) && (g.first && c == engine.Fountain() || !g.first && touches(b, c)) {
			anchors |= 1 << i
		}
	}
	if anchors == 0 {
		return // no move lies along the line
	}
	other := g.dir.Other()
	for i, c := range g.cells {
		g.placed[i], g.isBlank[i] = 0, false
		g.boardSum[i+1] = g.boardSum[i] + b.At(c).Value()
		// A wall takes no tile and holds none: it ends a word as the
		// edge does (RULES §2.2).
		g.mask[i] = 0
		if g.letter[i] == 0 && engine.Playable(c) {
			g.mask[i] = g.crossCheck(c, other)
			g.factors[i] = b.Factors(c, g.dir, g.rules)
		}
		g.horizontal[i] = g.dir == engine.Down &&
			(b.At(c.Next(engine.Across, -1)).Letter != 0 || b.At(c.Next(engine.Across, 1)).Letter != 0)
	}
	g.lastAnchor = -1
	for as := anchors; as != 0; as &= as - 1 {
		i := bits.TrailingZeros16(as)
		// The walk starts at the anchor, or when tiles follow it at the
		// last of them: their letters are known, and going left through
		// them first prunes the GADDAG before any tile is tried.
		g.anchor, g.right = i, i
		for g.right < size-1 && g.letter[g.right+1] != 0 {
			g.right++
		}
		if g.mask[i] != 0 {
			g.fill(g.right, g.gd.Root(), true, 0)
		}
		g.lastAnchor = i
	}
}

func touches(b *engine.Board, c engine.Cell) bool {
	return b.At(c.Next(engine.Across, -1)).Letter != 0 || b.At(c.Next(engine.Across, 1)).Letter != 0 ||
		b.At(c.Next(engine.Down, -1)).Letter != 0 || b.At(c.Next(engine.Down, 1)).Letter != 0
}

// fill puts a letter on cell pos of the line, from the board or from the
// rack, following node's edges; left tells whether the walk still goes
// left from the anchor (before ◇), and start is where the word starts
// once it goes right.
func (g *Generator) fill(pos int, node dict.Node, left bool, start int) {
	gd := g.gd
	if l := g.letter[pos] - 'A'; l < 26 { // a tile of the board
		// Labels and Arc rather than Next: they are inlined.
		if gd.Labels(node)&(1<<l) != 0 {
			next, final := gd.Arc(node, l)
			g.step(pos, next, final, left, start)
		}
		return
	}
	// The letters the state, the cross-check and the rack allow: node
	// holds its labels, so most walks end here without reading memory.
	labels := gd.Labels(node) & g.mask[pos]
	if g.rack[blank] == 0 {
		labels &= g.rackMask
	}
	if labels == 0 || !g.room() {
		return
	}
	g.nplaced++
	g.placedBits |= 1 << pos
	for ls := labels & g.rackMask; ls != 0; ls &= ls - 1 {
		l := byte(bits.TrailingZeros32(ls))
		next, final := gd.Arc(node, l)
		if g.rack[l]--; g.rack[l] == 0 {
			g.rackMask &^= 1 << l
		}
		g.placed[pos], g.isBlank[pos] = 'A'+l, false
		g.step(pos, next, final, left, start)
		g.rack[l]++
		g.rackMask |= 1 << l
	}
	if g.rack[blank] > 0 {
		g.rack[blank]--
		for ls := labels; ls != 0; ls &= ls - 1 {
			l := byte(bits.TrailingZeros32(ls))
			next, final := gd.Arc(node, l)
			g.placed[pos], g.isBlank[pos] = 'A'+l, true
			g.step(pos, next, final, left, start)
		}
		g.rack[blank]++
	}
	g.placed[pos], g.isBlank[pos] = 0, false
	g.nplaced--
	g.placedBits &^= 1 << pos
}

// step goes on from the letter just put on pos: next is the GADDAG state
// after it, final whether the letters so far make a whole entry.
func (g *Generator) step(pos int, next dict.Node, final, left bool, start int) {
	if left {
		// The word may start at pos once the anchor is covered and the
		// cell before is no tile; the cell after g.right is none.
		free := pos <= g.anchor && (pos == 0 || g.letter[pos-1] == 0)
		if final && free {
			g.record(pos, g.right)
		}
		if next == 0 {
			return
		}
		if pos > 0 && pos-1 != g.lastAnchor {
			g.fill(pos-1, next, true, 0)
		}
		// The cell after g.right is empty: going right takes a tile.
		if free && g.right < size-1 && g.mask[g.right+1] != 0 && g.room() {
			if g.gd.Labels(next)&(1<<dict.Separator) != 0 {
				if sep, _ := g.gd.Arc(next, dict.Separator); sep != 0 {
					g.fill(g.right+1, sep, false, pos)
				}
			}
		}
		return
	}
	if final && (pos == size-1 || g.letter[pos+1] == 0) {
		g.record(start, pos)
	}
	if next != 0 && pos < size-1 {
		g.fill(pos+1, next, false, start)
	}
}

// record adds the word from start to end, if its tiles make a move.
func (g *Generator) record(start, end int) {
	n := g.nplaced
	switch {
	case end == start: // one letter is no word (RULES §4.3)
		return
	case g.first && n < g.rules.FirstMinTiles():
		return
	case n == 1 && g.dir == engine.Down && g.horizontal[g.anchor]:
		// A single tile with a neighbour left or right is an across move,
		// found on its row.
		return
	}
	if len(g.moves) < cap(g.moves) {
		g.moves = g.moves[:len(g.moves)+1] // every field used is set below
	} else {
		g.moves = append(g.moves, Move{})
	}
	m := &g.moves[len(g.moves)-1]
	m.N, m.Dir = n, g.dir
	// The tiles in order along the line, and the score (RULES §5): the
	// word runs from start to end, the placed cells in it are those of
	// g.placedBits (all of them: the walk places none outside the word),
	// the others hold the board's tiles.
	t := engine.NewTally().Board(g.boardSum[end+1] - g.boardSum[start])
	for k, bs := 0, g.placedBits; bs != 0; k, bs = k+1, bs&(bs-1) {
		i := bits.TrailingZeros16(bs)
		m.Tiles[k] = engine.Placement{Cell: g.cells[i], Letter: g.placed[i], Blank: g.isBlank[i]}
		v := 0
		if !g.isBlank[i] {
			v = engine.LetterValue(g.placed[i])
		}
		t = t.Place(v, g.factors[i])
	}
	m.Score = t.Score(n, g.rules)
}
