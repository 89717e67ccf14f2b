package engine

// What a move generator needs from the engine: the score of a placement
// without the allocations of Evaluate, so that every candidate of a
// position is scored by the engine's rules and not by a second copy of
// them. Score and evaluate apply RULES §5 alike; TestScoreIsEvaluate holds
// them to the same figure on every placement of random positions.

// Score returns the score Evaluate gives ps (RULES §5), without
// allocating. ps must be a placement whose shape Check accepts on b, and
// dir the direction Check returns for it; b is the board before the
// placement.
func (b *Board) Score(ps []Placement, dir Dir, r Rules) int {
	// The placed tiles by their coordinate along the line.
	var line [Size]Square
	lo := Size
	for _, p := range ps {
		a := along(p.Cell, dir)
		line[a] = Square{Letter: p.Letter, Blank: p.Blank}
		lo = min(lo, a)
	}
	crosses := r.Variant != Lexico && !r.Plain
	other := dir.Other()
	at := func(c Cell) (Square, bool) { // the square after the placement, and whether it is placed
		if !c.OnBoard() {
			return Square{}, false
		}
		if s := b.sq[c.index()]; s.Letter != 0 {
			return s, false
		}
		if s := line[along(c, dir)]; s.Letter != 0 && sameLine(c, ps[0].Cell, dir) {
			return s, true
		}
		return Square{}, false
	}

	// The main word: back from the first placed cell over the board's
	// tiles, then forward while the cells hold a tile.
	start := ps[0].Cell
	if dir == Down {
		start.Row = lo
	} else {
		start.Col = lo
	}
	for b.occupied(start.Next(dir, -1)) {
		start = start.Next(dir, -1)
	}
	n := 0
	for c := start; ; c = c.Next(dir, 1) {
		if s, _ := at(c); s.Letter == 0 {
			break
		}
		n++
	}
	mainOK := n >= 2
	total := 0
	if mainOK {
		sum, mult := 0, 1
		for k := range n {
			c := start.Next(dir, k)
			s, placed := at(c)
			v := s.Value()
			if placed {
				v, mult = applyBonus(b, c, v, mult, r, crosses, other)
			}
			sum += v
		}
		total += sum * mult
	}

	// The cross word of each placed tile: only the board's tiles lie
	// across the line besides it.
	for _, p := range ps {
		c := p.Cell
		s, m := c, 1
		for b.occupied(s.Next(other, -1)) {
			s = s.Next(other, -1)
			m++
		}
		for e := c.Next(other, 1); b.occupied(e); e = e.Next(other, 1) {
			m++
		}
		if m < 2 {
			continue
		}
		sum, mult := 0, 1
		for k := range m {
			q := s.Next(other, k)
			if q == c {
				var v int
				v, mult = applyBonus(b, c, Square{Letter: p.Letter, Blank: p.Blank}.Value(), mult, r, crosses && mainOK, other)
				sum += v
				continue
			}
			sum += b.sq[q.index()].Value()
		}
		total += sum * mult
	}
	if len(ps) == RackSize {
		total += r.AllTilesBonus()
	}
	return total
}

// applyBonus applies the bonus of c, where a tile worth v is placed, to
// the tile's value and to the word's multiplier (RULES §5.2–§5.4). A cross
// doubles only when the tile belongs to two words of the play: the main
// word (the caller passes crosses false when it is not a word) and a cross
// word along other of 2 tiles or more.
func applyBonus(b *Board, c Cell, v, mult int, r Rules, crosses bool, other Dir) (int, int) {
	switch r.Bonus(c) {
	case DL:
		v *= 2
	case TL:
		v *= 3
	case DW:
		mult *= 2
	case TW:
		mult *= 3
	case Cross:
		if crosses && (b.occupied(c.Next(other, -1)) || b.occupied(c.Next(other, 1))) {
			mult *= 2
		}
	}
	return v, mult
}

// sameLine reports whether c lies on the line along dir through d.
func sameLine(c, d Cell, dir Dir) bool {
	if dir == Down {
		return c.Col == d.Col
	}
	return c.Row == d.Row
}
