// Package movegen finds every legal placement of a rack on a position:
// Gordon's GADDAG walk ("A faster Scrabble move generation algorithm",
// 1994) from Appel and Jacobson's anchors with their cross-checks ("The
// world's fastest Scrabble program", 1988), on Lexio's board: walls end a
// line like the edge, blanks stand for any letter, the first placement
// covers the fountain with the variant's least number of tiles (RULES §2,
// §3.3, §4). Every move is scored by the engine's rules: the Factors of
// its empty cells (board.Board.Factors) summed by an board.Tally, as
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
	"github.com/lexio-mail/lexio/engine/board"
)

// Move is one legal placement. It is small (32 bytes): a generator
// writes hundreds of them a position, thousands with a blank, and every
// byte written pushes the GADDAG out of the cache.
type Move struct {
	// The N tiles put down, in order along the line: the index
	// row·13+col of each cell, and its letter, lowercase for a blank.
	cells   [board.RackSize]uint8
	letters [board.RackSize]byte
	// Dir is the direction Board.Check gives the placement.
	Dir board.Dir
	N   int
	// Score is what the engine scores it (RULES §5).
	Score int
}

// Tile returns the i-th tile the move puts down (0 ≤ i < N).
func (m *Move) Tile(i int) board.Placement {
	c, l := int(m.cells[i]), m.letters[i]
	p := board.Placement{Cell: board.Cell{Col: c % size, Row: c / size}, Letter: l}
	if l >= 'a' {
		p.Letter, p.Blank = l-('a'-'A'), true
	}
	return p
}

// Placements returns the tiles the move puts down, in a new slice.
func (m *Move) Placements() []board.Placement {
	ps := make([]board.Placement, m.N)
	for i := range ps {
		ps[i] = m.Tile(i)
	}
	return ps
}

// ErrBadRack is wrapped by Generate's error for a rack it cannot play.
var ErrBadRack = errors.New("movegen: bad rack")

const (
	size     = board.Size
	stride   = size + 2  // a row of the bordered grid
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
	board *board.Board
	rules board.Rules
	// The board's letters (0 for none) and tile values, with a border of
	// empty cells around it, so that a neighbour is always an index away.
	grid    [stride * stride]byte
	value   [stride * stride]int8
	anchors [2][size]uint16 // per direction and line, bit i: cell i of the line is an anchor
	// lone: the factors of a cell with no tile beside it under loneRules.
	lone      [size * size]board.Factors
	loneRules board.Rules
	loneSet   bool
	first     bool    // the board is empty: the fountain is the only anchor
	rack      [32]int // of each letter (0–25) and of blanks (26); 32 wide: a 5-bit index needs no bounds check
	rackMask  uint32  // the letters the rack holds now, blanks aside
	tiles     int     // how many tiles a move may put down: the rack's, at most 7
	moves     []Move

	// The line being walked.
	dir    board.Dir
	index  [size]uint8 // row·13+col of each cell
	letter [size]byte  // the board's letter, 0 for an empty cell
	// boardSum[i]: the values of the board's tiles before cell i (an
	// empty cell's is 0), so that a word's are boardSum[end+1]-boardSum[start].
	boardSum [size + 1]int
	factors  [size]board.Factors // an empty cell's, for a play along the line
	// mask: the letters a tile on the empty cell may take, so that the
	// word across the line is one (allCross without one); 0 on a tile or
	// a wall.
	mask       [size]uint32
	anchor     int        // the empty cell every move of the walk covers
	right      int        // where the walk starts going left: the anchor or the tiles after it
	lastAnchor int        // the anchor before: moves covering it were found from it
	turn       bool       // the cell after g.right takes a tile: moves may go on right of it
	placed     [size]byte // letters put down by the walk (lowercase for a blank), 0 for none
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
func (g *Generator) Generate(b *board.Board, rack []byte, r board.Rules, dst []Move) ([]Move, error) {
	if err := r.Validate(); err != nil {
		return dst, err
	}
	g.rack = [32]int{}
	for _, t := range rack {
		switch {
		case t >= 'A' && t <= 'Z':
			g.rack[t-'A']++
		case t == board.BlankTile && r.Blanks():
			g.rack[blank]++
		case t == board.BlankTile:
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
	g.tiles = min(len(rack), board.RackSize)
	g.first = b.Empty()
	if len(rack) == 0 || g.gd.Len() == 0 {
		return dst, nil
	}
	g.readBoard(b, r)
	for _, d := range []board.Dir{board.Across, board.Down} {
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

// playable[i]: a tile may lie on the cell of index row·13+col.
var playable = func() (t [size * size]bool) {
	for i := range t {
		t[i] = board.Playable(board.Cell{Col: i % size, Row: i / size})
	}
	return t
}()

// letterValue[l] is the value of the tile 'A'+l.
var letterValue = func() (v [26]int) {
	for l := range v {
		v[l] = board.LetterValue(byte('A' + l))
	}
	return v
}()

// at is the index of a cell in the bordered grid.
func at(col, row int) int { return (row+1)*stride + col + 1 }

// readBoard copies b into the bordered grid, finds the anchors (the empty
// playable cells next to a tile, or the fountain on an empty board), and
// the factors of a cell with no tile beside it under r, which depend on
// the rules only.
func (g *Generator) readBoard(b *board.Board, r board.Rules) {
	if !g.loneSet || g.loneRules != r {
		var empty board.Board
		for i := range g.lone {
			g.lone[i] = empty.Factors(board.Cell{Col: i % size, Row: i / size}, board.Across, r)
		}
		g.loneSet, g.loneRules = true, r
	}
	for row := range size {
		for col := range size {
			sq := b.At(board.Cell{Col: col, Row: row})
			g.grid[at(col, row)], g.value[at(col, row)] = sq.Letter, int8(sq.Value())
		}
	}
	g.anchors = [2][size]uint16{}
	for row := range size {
		for col := range size {
			p := at(col, row)
			if g.grid[p] != 0 || !playable[row*size+col] {
				continue
			}
			if g.first && (board.Cell{Col: col, Row: row}) == board.Fountain() ||
				!g.first && g.grid[p-1]|g.grid[p+1]|g.grid[p-stride]|g.grid[p+stride] != 0 {
				g.anchors[board.Across][row] |= 1 << col
				g.anchors[board.Down][col] |= 1 << row
			}
		}
	}
}

// crossCheck returns the letters of the rack (any letter with a blank)
// that may go on the empty cell at grid index p given the tiles next to
// it (there is one at least), step apart in the grid: those L for which
// the run before p, L and the run after p spell a word. In the GADDAG
// that word is its entry rev(word): the run after p backwards, L, the
// run before p backwards.
func (g *Generator) crossCheck(p, step int) uint32 {
	before, after := 0, 0
	for g.grid[p-(before+1)*step] != 0 {
		before++
	}
	for g.grid[p+(after+1)*step] != 0 {
		after++
	}
	gd := g.gd
	node := gd.Root()
	for k := after; k >= 1; k-- {
		next, _, ok := gd.Next(node, g.grid[p+k*step]-'A')
		if !ok || next == 0 {
			return 0
		}
		node = next
	}
	var allowed uint32
	// Only the letters the rack can put down matter.
	for ls := gd.Labels(node) & g.avail(); ls != 0; ls &= ls - 1 {
		l := byte(bits.TrailingZeros32(ls))
		next, final := gd.Arc(node, l)
		ok := true
		for k := 1; k <= before && ok; k++ { // the run before p, nearest first
			if next == 0 {
				ok = false
				break
			}
			next, final, ok = gd.Next(next, g.grid[p-k*step]-'A')
		}
		if ok && final {
			allowed |= 1 << l
		}
	}
	return allowed
}

// walkLine generates the moves along one row (across) or column (down).
func (g *Generator) walkLine(line int) {
	anchors := g.anchors[g.dir][line]
	if anchors == 0 {
		return // no move lies along the line
	}
	// p0: the line's first cell in the grid; step: the next cell along
	// the line; cross: the next one across it.
	p0, step, cross := at(0, line), 1, stride
	if g.dir == board.Down {
		p0, step, cross = at(line, 0), stride, 1
	}
	for i := range size {
		p := p0 + i*step
		c := board.Cell{Col: i, Row: line}
		if g.dir == board.Down {
			c = board.Cell{Col: line, Row: i}
		}
		g.index[i], g.letter[i] = uint8(c.Row*size+c.Col), g.grid[p]
		g.boardSum[i+1] = g.boardSum[i] + int(g.value[p])
		// A wall takes no tile and holds none: it ends a word as the
		// edge does (RULES §2.2).
		g.mask[i] = 0
		beside := g.grid[p-cross]|g.grid[p+cross] != 0
		if k := c.Row*size + c.Col; g.letter[i] == 0 && playable[k] {
			if beside {
				g.mask[i] = g.crossCheck(p, cross)
				g.factors[i] = g.board.Factors(c, g.dir, g.rules)
			} else {
				g.mask[i], g.factors[i] = allCross, g.lone[k]
			}
		}
		g.horizontal[i] = g.dir == board.Down && beside
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
		// Moves may go right of g.right when the cell after it takes a tile.
		g.turn = g.right < size-1 && g.mask[g.right+1] != 0
		node := g.gd.Root()
		ok := true
		if g.right > i {
			_, node, _, ok = g.through(g.right+1, -1, node, false)
		}
		if ok && g.open(i, node) {
			g.fill(i, node, true, 0)
		}
		g.lastAnchor = i
	}
}

// avail is the set of letters a tile of the rack may stand for now.
func (g *Generator) avail() uint32 {
	if g.rack[blank] > 0 {
		return allCross
	}
	return g.rackMask
}

// open reports whether a tile of the rack may go on the empty cell pos
// from node. It reads no memory of the GADDAG, so that a walk going
// nowhere ends before it follows an edge.
func (g *Generator) open(pos int, node dict.Node) bool {
	return g.gd.Labels(node)&g.mask[pos]&g.avail() != 0 && g.room()
}

// through follows node's edges for the board's tiles from cell pos on,
// step cells apart (-1 going left, 1 going right), as far as they go:
// it returns the last of them, the state after it and whether the
// letters so far make a whole entry; ok is false when the GADDAG has no
// edge for one of them.
func (g *Generator) through(pos, step int, node dict.Node, final bool) (last int, next dict.Node, fin, ok bool) {
	for p := pos + step; p >= 0 && p < size && g.letter[p] != 0; p += step {
		l := g.letter[p] - 'A'
		if g.gd.Labels(node)&(1<<l) == 0 {
			return 0, 0, false, false
		}
		node, final = g.gd.Arc(node, l)
		pos = p
	}
	return pos, node, final, true
}

// fill puts a tile of the rack on the empty cell pos of the line, each
// letter node's edges and the cell allow in turn (open(pos, node) holds),
// and goes on from it through the board's tiles beside it: left, while
// the walk still goes left from the anchor (before ◇), or right, the word
// starting at start.
func (g *Generator) fill(pos int, node dict.Node, left bool, start int) {
	// The letters to try: bit l for 'A'+l from the rack, bit 32+l for a
	// blank standing for it; those the state, the cross-check and the
	// rack allow.
	labels := g.gd.Labels(node) & g.mask[pos] & g.avail()
	letters := uint64(labels & g.rackMask)
	if g.rack[blank] > 0 {
		letters |= uint64(labels) << 32
	}
	g.nplaced++
	g.placedBits |= 1 << pos
	step := 1
	if left {
		step = -1
	}
	// Whether the board's tiles lie next to pos the way the walk goes:
	// the word then runs through them, whatever the letter.
	tiles := pos+step >= 0 && pos+step < size && g.letter[pos+step] != 0
	for ls := letters; ls != 0; ls &= ls - 1 {
		k := bits.TrailingZeros64(ls)
		l := byte(k & 31)
		g.take(pos, l, k >= 32)
		next, final := g.gd.Arc(node, l)
		// The word now runs to end (going left, from end to g.right),
		// the cell after it empty or off the line.
		end, ok := pos, true
		if tiles {
			end, next, final, ok = g.through(pos, step, next, final)
		}
		if ok && left {
			if final {
				g.record(end, g.right)
			}
			if next != 0 && end > 0 && end-1 != g.lastAnchor && g.open(end-1, next) {
				g.fill(end-1, next, true, 0)
			}
			// Cross ◇ and go right from the cell after g.right.
			if g.turn && g.gd.Labels(next)&(1<<dict.Separator) != 0 {
				if sep, _ := g.gd.Arc(next, dict.Separator); g.open(g.right+1, sep) {
					g.fill(g.right+1, sep, false, end)
				}
			}
		} else if ok {
			if final {
				g.record(start, end)
			}
			if next != 0 && end < size-1 && g.open(end+1, next) {
				g.fill(end+1, next, false, start)
			}
		}
		g.giveBack(l, k >= 32)
	}
	g.placed[pos] = 0
	g.nplaced--
	g.placedBits &^= 1 << pos
}

// take puts the rack's tile for letter l (a blank standing for it when
// isBlank) on cell pos; giveBack returns it to the rack.
func (g *Generator) take(pos int, l byte, isBlank bool) {
	g.placed[pos] = 'A' + l
	if isBlank {
		g.placed[pos] = 'a' + l
		g.rack[blank]--
		return
	}
	if g.rack[l]--; g.rack[l] == 0 {
		g.rackMask &^= 1 << l
	}
}

func (g *Generator) giveBack(l byte, isBlank bool) {
	if isBlank {
		g.rack[blank]++
		return
	}
	g.rack[l]++
	g.rackMask |= 1 << l
}

// record adds the word from start to end, if its tiles make a move.
func (g *Generator) record(start, end int) {
	n := g.nplaced
	switch {
	case end == start: // one letter is no word (RULES §4.3)
		return
	case g.first && n < g.rules.FirstMinTiles():
		return
	case n == 1 && g.dir == board.Down && g.horizontal[g.anchor]:
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
	t := board.NewTally().Board(g.boardSum[end+1] - g.boardSum[start])
	for k, bs := 0, g.placedBits; bs != 0; k, bs = k+1, bs&(bs-1) {
		i := bits.TrailingZeros16(bs)
		m.cells[k], m.letters[k] = g.index[i], g.placed[i]
		v := 0 // a blank's
		if l := g.placed[i]; l < 'a' {
			v = letterValue[l-'A']
		}
		t = t.Place(v, g.factors[i])
	}
	m.Score = t.Score(n, g.rules)
}
