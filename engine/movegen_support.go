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
	// Cells are walked by their index: step along the line, across it.
	step, across := 1, Size
	line := ps[0].Cell.Row // the row of an across play, the column of a down one
	if dir == Down {
		step, across = Size, 1
		line = ps[0].Cell.Col
	}
	crosses := r.Variant != Lexico && !r.Plain

	// The placed tiles by their coordinate along the line, with what their
	// cell pays.
	var placed [Size]Square
	var bonus [Size]Bonus
	var crossed [Size]bool // the tile has a neighbour across the line
	lo, hi := Size, -1
	for _, p := range ps {
		a := along(p.Cell, dir)
		placed[a] = Square{Letter: p.Letter, Blank: p.Blank}
		bonus[a] = r.Bonus(p.Cell)
		lo, hi = min(lo, a), max(hi, a)
	}
	at := func(a int) int { return line*across + a*step } // the index of coordinate a

	// The main word: the tiles before lo, lo to hi (placed or on the board,
	// Check saw to it), the tiles after hi.
	first, last := lo, hi
	for first > 0 && b.sq[at(first-1)].Letter != 0 {
		first--
	}
	for last < Size-1 && b.sq[at(last+1)].Letter != 0 {
		last++
	}
	total := 0
	mainOK := last > first // a word of 2 tiles or more (RULES §4.3)
	// The cross words first: whether a tile has one decides what a cross
	// under it does to the main word (RULES §5.4).
	for a := lo; a <= hi; a++ {
		if placed[a].Letter == 0 {
			continue
		}
		// The run across the line through the tile, from..to in that
		// direction's coordinate: only the board's tiles lie there.
		i := at(a)
		from, to := line, line
		for from > 0 && b.sq[i-(line-from+1)*across].Letter != 0 {
			from--
		}
		for to < Size-1 && b.sq[i+(to-line+1)*across].Letter != 0 {
			to++
		}
		if from == to {
			continue
		}
		crossed[a] = true
		sum, mult := placed[a].Value(), 1
		switch bonus[a] {
		case DL:
			sum *= 2
		case TL:
			sum *= 3
		case DW:
			mult = 2
		case TW:
			mult = 3
		case Cross:
			if crosses && mainOK {
				mult = 2
			}
		}
		for k := from; k <= to; k++ {
			if k != line {
				sum += b.sq[i+(k-line)*across].Value()
			}
		}
		total += sum * mult
	}
	if mainOK {
		sum, mult := 0, 1
		for a := first; a <= last; a++ {
			s := placed[a]
			if s.Letter == 0 {
				sum += b.sq[at(a)].Value()
				continue
			}
			v := s.Value()
			switch bonus[a] {
			case DL:
				v *= 2
			case TL:
				v *= 3
			case DW:
				mult *= 2
			case TW:
				mult *= 3
			case Cross:
				if crosses && crossed[a] {
					mult *= 2
				}
			}
			sum += v
		}
		total += sum * mult
	}
	if len(ps) == RackSize {
		total += r.AllTilesBonus()
	}
	return total
}
