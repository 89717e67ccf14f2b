package board

// Scoring (RULES §5) in one place, for the engine and for a move
// generator alike: what an empty cell does to the tile a play puts on it
// (Factors), and the sum of a play's words from its tiles (Tally).
// evaluate scores every play through them; a generator takes the Factors
// of the empty cells of its line from Board.Factors and sums them with a
// Tally, so that it scores each candidate without allocating and without
// a second copy of the rules.

// Factors is what an empty cell does to the tile that a play along one
// direction puts on it (RULES §5.2–5.4, §12).
type Factors struct {
	Letter uint8 // the tile's value counts Letter times in each word it is in
	Word   uint8 // each word the tile is in counts Word times
	// Cross: tiles lie across the line next to the cell, so that a tile
	// there forms a cross word; Across is their value (blanks 0).
	Cross  bool
	Across int16
}

// Factors returns the factors of the empty cell c for a play along d
// under r.
func (b *Board) Factors(c Cell, d Dir, r Rules) Factors {
	f := Factors{Letter: 1, Word: 1}
	o := d.Other()
	for e := c.Next(o, -1); b.occupied(e); e = e.Next(o, -1) {
		f.Cross = true
		f.Across += int16(b.sq[e.index()].Value())
	}
	for e := c.Next(o, 1); b.occupied(e); e = e.Next(o, 1) {
		f.Cross = true
		f.Across += int16(b.sq[e.index()].Value())
	}
	switch r.Bonus(c) { // lexico's crosses are plain, plain lexico pays none
	case DL:
		f.Letter = 2
	case TL:
		f.Letter = 3
	case DW:
		f.Word = 2
	case TW:
		f.Word = 3
	case Cross:
		// Only when the tile is in two words of the play: its cross word
		// and the main word, which every placement Check accepts has
		// (2 tiles or more along its direction).
		if f.Cross {
			f.Word = 2
		}
	}
	return f
}

// Pays reports whether the cell's bonus pays in the play (RULES §5.5).
func (f Factors) Pays() bool { return f.Letter > 1 || f.Word > 1 }

// CrossScore is the score of the cross word that a tile of value v forms
// on the cell, 0 when it forms none.
func (f Factors) CrossScore(v int) int {
	if !f.Cross {
		return 0
	}
	return (int(f.Across) + v*int(f.Letter)) * int(f.Word)
}

// Tally is a play's score in the making: the main word's tiles, the
// board's and the placed ones, are counted in any order, each placed
// tile's cross word with it. Start from NewTally.
type Tally struct {
	main  int // the main word's tiles, letter bonuses applied
	mult  int // the main word's multiplier
	cross int // the cross words' scores
}

// NewTally returns the tally of no tile.
func NewTally() Tally { return Tally{mult: 1} }

// Board counts a tile of the board, of value v, in the main word.
func (t Tally) Board(v int) Tally {
	t.main += v
	return t
}

// Place counts a tile of value v put down on a cell of factors f.
func (t Tally) Place(v int, f Factors) Tally {
	t.main += v * int(f.Letter)
	t.mult *= int(f.Word)
	t.cross += f.CrossScore(v)
	return t
}

// Main is the main word's score.
func (t Tally) Main() int { return t.main * t.mult }

// Score is the play's score when it puts down n tiles (RULES §5.6, §5.7).
func (t Tally) Score(n int, r Rules) int {
	s := t.Main() + t.cross
	if n == RackSize {
		s += r.AllTilesBonus()
	}
	return s
}
