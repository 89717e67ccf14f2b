package board

import (
	"encoding/json"
	"fmt"
)

// Placement is one tile put on the board: a letter A–Z, and Blank when the
// tile is a blank declaring that letter (RULES §3.3).
type Placement struct {
	Cell   Cell `json:"cell"`
	Letter byte `json:"-"`
	Blank  bool `json:"blank,omitempty"`
}

type placementJSON struct {
	Cell   Cell   `json:"cell"`
	Letter string `json:"letter"`
	Blank  bool   `json:"blank,omitempty"`
}

// MarshalJSON writes the letter as a one-character string.
func (p Placement) MarshalJSON() ([]byte, error) {
	return json.Marshal(placementJSON{Cell: p.Cell, Letter: string(rune(p.Letter)), Blank: p.Blank})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (p *Placement) UnmarshalJSON(b []byte) error {
	var j placementJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	if len(j.Letter) != 1 {
		return fmt.Errorf("engine: placement letter %q", j.Letter)
	}
	*p = Placement{Cell: j.Cell, Letter: j.Letter[0], Blank: j.Blank}
	return nil
}

// tile is the rack tile the placement uses.
func (p Placement) tile() byte {
	if p.Blank {
		return BlankTile
	}
	return p.Letter
}

// Letter is one letter of a word as a player writes it.
type Letter struct {
	Char    byte // A–Z
	Blank   bool // a blank declaring Char (placed tiles only)
	Through bool // written in parentheses: must already be on the board
}

// Move is a placement as players write it: the start cell, the direction
// and the whole word, letters already on the board included.
type Move struct {
	Start Cell
	Dir   Dir
	Word  []Letter
}

// Word is a word formed by a play (RULES §4.3).
type Word struct {
	Text  string `json:"text"` // uppercase, blanks as their declared letter
	Start Cell   `json:"start"`
	Dir   Dir    `json:"dir"`
	Cells []Cell `json:"cells"`
	Score int    `json:"score"`
}

// Play is a validated placement with its words and score.
type Play struct {
	Dir   Dir         `json:"dir"`
	Tiles []Placement `json:"tiles"`
	// Words holds the main word first, then the cross words in the order
	// of the placed tiles (RULES §4.3).
	Words []Word `json:"words"`
	// AllTiles is the bonus for placing 7 tiles, 0 otherwise (RULES §5.6).
	AllTiles int `json:"all_tiles,omitempty"`
	Score    int `json:"score"`
	// Paid lists the bonus cells this play covered and used (RULES §5.5).
	Paid []Cell `json:"paid,omitempty"`
}

// WordTexts returns the texts of the play's words.
func (p *Play) WordTexts() []string {
	out := make([]string, len(p.Words))
	for i, w := range p.Words {
		out[i] = w.Text
	}
	return out
}

// Resolve maps a move written by a player onto the board: each occupied
// cell must hold the written letter, each empty cell takes a tile. It checks
// the cells (on the board, not walled) and the letters, not the shape rules.
func (b *Board) Resolve(m Move) ([]Placement, error) {
	if len(m.Word) == 0 {
		return nil, &MoveError{Kind: KindNoTiles}
	}
	var off, walled, through, mismatch []Cell
	var badLetters, boardLetters []byte
	ps := make([]Placement, 0, min(len(m.Word), RackSize))
	for i, l := range m.Word {
		c := m.Start.Next(m.Dir, i)
		switch {
		case !c.OnBoard():
			off = append(off, c)
			continue
		case !Playable(c):
			walled = append(walled, c)
			continue
		case !isLetter(l.Char):
			badLetters = append(badLetters, l.Char)
			continue
		}
		sq := b.At(c)
		switch {
		case !sq.Empty() && sq.Letter != l.Char:
			mismatch = append(mismatch, c)
			boardLetters = append(boardLetters, sq.Letter)
		case sq.Empty() && l.Through:
			through = append(through, c)
		case sq.Empty():
			ps = append(ps, Placement{Cell: c, Letter: l.Char, Blank: l.Blank})
		}
	}
	switch {
	case len(off) > 0:
		return nil, &MoveError{Kind: KindOffBoard, Cells: off}
	case len(walled) > 0:
		return nil, &MoveError{Kind: KindWalled, Cells: walled}
	case len(badLetters) > 0:
		return nil, &MoveError{Kind: KindBadLetter, Letters: string(badLetters)}
	case len(mismatch) > 0:
		return nil, &MoveError{Kind: KindMismatch, Cells: mismatch, Letters: string(boardLetters)}
	case len(through) > 0:
		return nil, &MoveError{Kind: KindNotThrough, Cells: through}
	case len(ps) == 0:
		return nil, &MoveError{Kind: KindNoTiles}
	}
	return ps, nil
}

// cellSet is a set of board cells.
type cellSet [3]uint64

func (s *cellSet) add(c Cell)      { i := c.index(); s[i>>6] |= 1 << (i & 63) }
func (s *cellSet) has(c Cell) bool { i := c.index(); return s[i>>6]&(1<<(i&63)) != 0 }

// Cells lists the cells of a placement, in its order.
func Cells(ps []Placement) []Cell { return appendCells(nil, ps) }

func appendCells(dst []Cell, ps []Placement) []Cell {
	for _, p := range ps {
		dst = append(dst, p.Cell)
	}
	return dst
}

// Check validates the shape of a placement against the board (RULES §4.1,
// §4.2, §6.4): 1 to 7 tiles, letters A–Z, on free playable cells, in one
// line without gaps, covering G7 with enough tiles on an empty board,
// touching a tile otherwise. It returns the direction of the play: the
// line of the tiles, or for a single tile Across when it has a horizontal
// neighbour and Down otherwise.
func (b *Board) Check(ps []Placement, r Rules) (Dir, error) {
	n := len(ps)
	if n == 0 {
		return Across, &MoveError{Kind: KindNoTiles}
	}
	if n > RackSize {
		return Across, &MoveError{Kind: KindTooManyTiles, Cells: Cells(ps), Need: RackSize, Have: n}
	}
	var seen cellSet
	for i, p := range ps {
		c := p.Cell
		var kind Kind
		switch {
		case !c.OnBoard():
			kind = KindOffBoard
		case !Playable(c):
			kind = KindWalled
		case !isLetter(p.Letter):
			return Across, &MoveError{Kind: KindBadLetter, Cells: []Cell{c}, Letters: string(rune(p.Letter))}
		case b.occupied(c):
			kind = KindOccupied
		case seen.has(c):
			kind = KindDuplicateCell
		default:
			seen.add(c)
			continue
		}
		// Gather every cell with the same problem.
		bad := []Cell{c}
		for _, q := range ps[i+1:] {
			if problem(b, q.Cell, kind) {
				bad = append(bad, q.Cell)
			}
		}
		return Across, &MoveError{Kind: kind, Cells: bad}
	}

	first := ps[0].Cell
	sameRow, sameCol := true, true
	for _, p := range ps[1:] {
		sameRow = sameRow && p.Cell.Row == first.Row
		sameCol = sameCol && p.Cell.Col == first.Col
	}
	var dir Dir
	switch {
	case n == 1:
		dir = Down
		if b.occupied(first.Next(Across, -1)) || b.occupied(first.Next(Across, 1)) {
			dir = Across
		}
	case sameRow:
		dir = Across
	case sameCol:
		dir = Down
	default:
		return Across, &MoveError{Kind: KindNotInLine, Cells: Cells(ps)}
	}

	// No gap: every cell between the first and the last holds a tile.
	lo, hi := first, first
	for _, p := range ps[1:] {
		if along(p.Cell, dir) < along(lo, dir) {
			lo = p.Cell
		}
		if along(p.Cell, dir) > along(hi, dir) {
			hi = p.Cell
		}
	}
	var gaps []Cell
	for c := lo; along(c, dir) < along(hi, dir); c = c.Next(dir, 1) {
		if !seen.has(c) && !b.occupied(c) {
			gaps = append(gaps, c)
		}
	}
	if len(gaps) > 0 {
		return dir, &MoveError{Kind: KindGap, Cells: gaps}
	}

	if b.Empty() {
		if !seen.has(Fountain()) {
			return dir, &MoveError{Kind: KindFirstNotCentre, Cells: Cells(ps)}
		}
		if n < r.FirstMinTiles() {
			return dir, &MoveError{Kind: KindFirstTooShort, Cells: Cells(ps), Need: r.FirstMinTiles(), Have: n}
		}
		return dir, nil
	}
	for _, p := range ps {
		c := p.Cell
		if b.occupied(c.Next(Across, -1)) || b.occupied(c.Next(Across, 1)) ||
			b.occupied(c.Next(Down, -1)) || b.occupied(c.Next(Down, 1)) {
			return dir, nil
		}
	}
	return dir, &MoveError{Kind: KindNotTouching, Cells: Cells(ps)}
}

func problem(b *Board, c Cell, k Kind) bool {
	switch k {
	case KindOffBoard:
		return !c.OnBoard()
	case KindWalled:
		return c.OnBoard() && !Playable(c)
	case KindOccupied:
		return b.occupied(c)
	}
	return false
}

// along is the coordinate of c along d.
func along(c Cell, d Dir) int {
	if d == Down {
		return c.Row
	}
	return c.Col
}

// TakeTiles removes the tiles a placement uses from rack and returns what
// is left, in rack order; rack itself is not modified. A blank placement
// takes a '?' tile, a letter placement the same letter: a blank is never
// used in place of a missing letter. Missing tiles give KindNotOnRack with
// the missing letters.
func TakeTiles(rack []byte, ps []Placement) ([]byte, error) {
	left := append([]byte(nil), rack...)
	var missing []byte
	for _, p := range ps {
		t := p.tile()
		i := indexByte(left, t)
		if i < 0 {
			missing = append(missing, t)
			continue
		}
		left = append(left[:i], left[i+1:]...)
	}
	if len(missing) > 0 {
		return nil, &MoveError{Kind: KindNotOnRack, Cells: Cells(ps), Letters: string(missing)}
	}
	return left, nil
}

func indexByte(s []byte, c byte) int {
	for i, b := range s {
		if b == c {
			return i
		}
	}
	return -1
}

// Evaluate checks the shape of a placement on b (Check) and returns the
// play with its words and score under rules r (RULES §4.3, §5). It does not
// consult a dictionary nor a rack: it is also the PREVIEW (RULES §5.8).
func Evaluate(b *Board, ps []Placement, r Rules) (Play, error) {
	dir, err := b.Check(ps, r)
	if err != nil {
		return Play{}, err
	}
	return evaluate(b, ps, dir, r), nil
}

// evaluate extracts and scores the words of a placement whose shape is
// valid: the main word along dir, then each placed tile's cross word
// (RULES §4.3), scored from each placed tile's Factors (RULES §5).
func evaluate(b *Board, ps []Placement, dir Dir, r Rules) Play {
	nb := *b // 340 bytes: cheaper than a map of placed cells
	var placed cellSet
	var fs [RackSize]Factors
	for k, p := range ps {
		fs[k] = b.Factors(p.Cell, dir, r)
		nb.sq[p.Cell.index()] = Square{Letter: p.Letter, Blank: p.Blank}
		placed.add(p.Cell)
	}

	// The main word, of 2 tiles or more as Check saw to it, and the
	// cross runs.
	type run struct {
		start Cell
		dir   Dir
		n     int
	}
	var runs [RackSize + 1]run
	s, n := nb.run(ps[0].Cell, dir)
	runs[0] = run{s, dir, n}
	nr, total := 1, n
	for k, p := range ps {
		if fs[k].Cross {
			s, n := nb.run(p.Cell, dir.Other())
			runs[nr] = run{s, dir.Other(), n}
			nr++
			total += n
		}
	}

	cells := make([]Cell, 0, total)
	text := make([]byte, 0, total)
	words := make([]Word, nr)
	for i := range nr {
		rn := runs[i]
		from := len(cells)
		for k := range rn.n {
			c := rn.start.Next(rn.dir, k)
			cells = append(cells, c)
			text = append(text, nb.sq[c.index()].Letter)
		}
		words[i] = Word{Start: rn.start, Dir: rn.dir, Cells: cells[from:len(cells):len(cells)]}
	}
	all := string(text)
	off := 0
	for i := range words {
		n := len(words[i].Cells)
		words[i].Text = all[off : off+n]
		off += n
	}

	t := NewTally()
	for _, c := range words[0].Cells {
		if !placed.has(c) {
			t = t.Board(nb.sq[c.index()].Value())
		}
	}
	var paid []Cell
	w := 1
	for k, p := range ps {
		v := Square{Letter: p.Letter, Blank: p.Blank}.Value()
		t = t.Place(v, fs[k])
		if fs[k].Cross {
			words[w].Score = fs[k].CrossScore(v)
			w++
		}
		if fs[k].Pays() {
			paid = append(paid, p.Cell)
		}
	}
	words[0].Score = t.Main()
	play := Play{Dir: dir, Tiles: ps, Words: words, Paid: paid, Score: t.Score(len(ps), r)}
	if len(ps) == RackSize {
		play.AllTiles = r.AllTilesBonus()
	}
	return play
}

// run returns the start and length of the maximal run of tiles through c
// along d. Walls and the edge end a run (RULES §4.3).
func (b *Board) run(c Cell, d Dir) (Cell, int) {
	s, n := c, 1
	for b.occupied(s.Next(d, -1)) {
		s = s.Next(d, -1)
		n++
	}
	for e := c.Next(d, 1); b.occupied(e); e = e.Next(d, 1) {
		n++
	}
	return s, n
}

// Words returns the words a placement with a valid shape forms, main word
// first (RULES §4.3), each with its score under r.
func (b *Board) Words(ps []Placement, r Rules) ([]Word, error) {
	p, err := Evaluate(b, ps, r)
	return p.Words, err
}

// Apply puts the tiles of a placement on the board. It only checks that
// the cells are free and playable; validate with Check or Evaluate first.
func (b *Board) Apply(ps []Placement) error {
	for _, p := range ps {
		if !Playable(p.Cell) || b.occupied(p.Cell) || !isLetter(p.Letter) {
			return fmt.Errorf("engine: cannot put %c on %v", p.Letter, p.Cell)
		}
	}
	for _, p := range ps {
		b.put(p.Cell, Square{Letter: p.Letter, Blank: p.Blank})
	}
	return nil
}
