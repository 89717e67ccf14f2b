package engine

// What a move generator needs from the engine: the score of a placement
// without the allocations of Evaluate, so that every candidate of a
// position is scored by the engine's rules and not by a second copy of
// them. Scorer and evaluate apply RULES §5 alike; TestScorerIsEvaluate
// holds them to the same figure on every placement of random positions.

// crossRun is what lies across a line through an empty cell: the board's
// tiles on either side, their number and their value.
type crossRun struct {
	n   uint8 // tiles beside the cell; 0: a tile there forms no cross word
	sum int16 // their value, blanks 0
}

// Scorer scores placements on one position: a board under one rule set.
// What the placements share — each cell's bonus, the tiles across each
// line through each empty cell — is worked out once, by Reset; Score then
// allocates nothing. The zero Scorer must be Reset before use; it is
// large (about 2 KB), so keep one and Reset it for each position.
type Scorer struct {
	b       *Board
	r       Rules
	crosses bool // crosses double (lexio, RULES §5.4); plain cells in lexico
	bonus   [Size * Size]Bonus
	// across[d][i]: the run across a play along d through empty cell i.
	across [2][Size * Size]crossRun
}

// Reset prepares s for the placements on b under r; b must not change
// while s scores on it.
func (s *Scorer) Reset(b *Board, r Rules) {
	s.b, s.r = b, r
	s.crosses = r.Variant != Lexico && !r.Plain
	for i := range Size * Size {
		c := Cell{Col: i % Size, Row: i / Size}
		s.bonus[i] = r.Bonus(c)
		for d := Across; d <= Down; d++ {
			s.across[d][i] = crossRun{}
			if b.sq[i].Letter != 0 {
				continue
			}
			var run crossRun
			o := d.Other()
			for e := c.Next(o, -1); b.occupied(e); e = e.Next(o, -1) {
				run.n++
				run.sum += int16(b.sq[e.index()].Value())
			}
			for e := c.Next(o, 1); b.occupied(e); e = e.Next(o, 1) {
				run.n++
				run.sum += int16(b.sq[e.index()].Value())
			}
			s.across[d][i] = run
		}
	}
}

// Score returns the score Evaluate gives ps on the Reset board (RULES
// §5), without allocating. ps must be a placement whose shape Check
// accepts there, and dir the direction Check returns for it.
func (s *Scorer) Score(ps []Placement, dir Dir) int {
	b := s.b
	// Cells are walked by their index, step apart along the line.
	step := 1
	line := ps[0].Cell.Row // the row of an across play, the column of a down one
	if dir == Down {
		step = Size
		line = ps[0].Cell.Col
	}
	at := func(a int) int { // the index of coordinate a along the line
		if dir == Down {
			return a*Size + line
		}
		return line*Size + a
	}

	// The placed tiles by their coordinate along the line.
	var placed [Size]Square
	lo, hi := Size, -1
	for _, p := range ps {
		a := along(p.Cell, dir)
		placed[a] = Square{Letter: p.Letter, Blank: p.Blank}
		lo, hi = min(lo, a), max(hi, a)
	}
	// The main word: the tiles before lo, lo to hi (placed or on the board,
	// Check saw to it), the tiles after hi.
	first, last := at(lo), at(hi)
	for a := lo - 1; a >= 0 && b.sq[first-step].Letter != 0; a-- {
		first -= step
	}
	for a := hi + 1; a < Size && b.sq[last+step].Letter != 0; a++ {
		last += step
	}
	mainOK := last > first // a word of 2 tiles or more (RULES §4.3)

	// Each placed tile's cross word: the tiles across the line are the
	// board's.
	total := 0
	for _, p := range ps {
		i := p.Cell.index()
		run := s.across[dir][i]
		if run.n == 0 {
			continue
		}
		v, mult := Square{Letter: p.Letter, Blank: p.Blank}.Value(), 1
		switch s.bonus[i] {
		case DL:
			v *= 2
		case TL:
			v *= 3
		case DW:
			mult = 2
		case TW:
			mult = 3
		case Cross:
			if s.crosses && mainOK { // the tile is in two words of the play
				mult = 2
			}
		}
		total += (int(run.sum) + v) * mult
	}

	if mainOK {
		sum, mult := 0, 1
		for i, a := first, along(Cell{Col: first % Size, Row: first / Size}, dir); i <= last; i, a = i+step, a+1 {
			sq := placed[a]
			if sq.Letter == 0 {
				sum += b.sq[i].Value()
				continue
			}
			v := sq.Value()
			switch s.bonus[i] {
			case DL:
				v *= 2
			case TL:
				v *= 3
			case DW:
				mult *= 2
			case TW:
				mult *= 3
			case Cross:
				if s.crosses && s.across[dir][i].n > 0 {
					mult *= 2
				}
			}
			sum += v
		}
		total += sum * mult
	}
	if len(ps) == RackSize {
		total += s.r.AllTilesBonus()
	}
	return total
}
