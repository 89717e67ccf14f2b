package board

import (
	"math/rand/v2"
	"testing"
)

// layRandom lays k tiles with random letters (some blanks) on the
// empty cells from start along dir, nil when the line ends first.
func layRandom(rng *rand.Rand, b *Board, start Cell, dir Dir, k int, blanks bool) []Placement {
	var ps []Placement
	for c := start; len(ps) < k; c = c.Next(dir, 1) {
		if !c.OnBoard() || !Playable(c) {
			return nil
		}
		if b.occupied(c) {
			continue
		}
		ps = append(ps, Placement{Cell: c, Letter: byte('A' + rng.IntN(26)), Blank: blanks && rng.IntN(5) == 0})
	}
	return ps
}

// RULES §5: the placed tiles' Factors, summed by a Tally with the main
// word's other tiles read off the board, give Evaluate's score on every
// shape Check accepts, in every rule set, single tiles, crosses, walls
// and 7-tile plays included.
func TestFactorsScoreAsEvaluate(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	rules := []Rules{{Variant: Lexio}, {Variant: Lexico}, {Variant: Lexico, Plain: true}}
	checked, sevens, singles, crossed := 0, 0, 0, 0
	for game := range 60 {
		r := rules[game%len(rules)]
		var b Board
		for range 400 {
			start := Cell{Col: rng.IntN(Size), Row: rng.IntN(Size)}
			dir := Dir(rng.IntN(2))
			k := 1 + rng.IntN(RackSize)
			if rng.IntN(3) == 0 {
				k = 1 + rng.IntN(2)
			}
			ps := layRandom(rng, &b, start, dir, k, r.Blanks())
			if ps == nil {
				continue
			}
			if rng.IntN(2) == 0 { // Score must not depend on the order of the tiles
				rng.Shuffle(len(ps), func(i, j int) { ps[i], ps[j] = ps[j], ps[i] })
			}
			d, err := b.Check(ps, r)
			if err != nil {
				continue
			}
			play := evaluate(&b, ps, d, r)
			if got := scoreOf(&b, r, ps, d); got != play.Score {
				t.Fatalf("%+v on\n%s%v: Score %d, Evaluate %d (%+v)", r, b.String(), ps, got, play.Score, play.Words)
			}
			checked++
			if len(ps) == RackSize {
				sevens++
			}
			if len(ps) == 1 {
				singles++
			}
			for _, c := range play.Paid {
				if Layout(c) == Cross {
					crossed++
				}
			}
			if rng.IntN(4) == 0 {
				if err := b.Apply(ps); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if checked < 3000 || sevens == 0 || singles < 100 || crossed == 0 {
		t.Errorf("only %d placements checked (%d of 7 tiles, %d single tiles, %d crosses paid)", checked, sevens, singles, crossed)
	}
	t.Logf("%d placements, %d of 7 tiles, %d single tiles, %d crosses paid", checked, sevens, singles, crossed)
}

// scoreOf scores ps on b as a move generator does: the placed tiles'
// Factors and the main word's other tiles, read off the board, summed by
// a Tally. ps must be a placement whose shape Check
// accepts there, and dir the direction Check returns for it.
func scoreOf(b *Board, r Rules, ps []Placement, dir Dir) int {
	t := NewTally()
	lo, hi := Size, -1
	for _, p := range ps {
		t = t.Place(Square{Letter: p.Letter, Blank: p.Blank}.Value(), b.Factors(p.Cell, dir, r))
		a := along(p.Cell, dir)
		lo, hi = min(lo, a), max(hi, a)
	}
	// The board's tiles of the main word: those between lo and hi (Check
	// saw to it that there is no gap) and the runs before lo and after hi.
	at := func(a int) Cell { // the cell at coordinate a along the line
		if dir == Down {
			return Cell{Col: ps[0].Cell.Col, Row: a}
		}
		return Cell{Col: a, Row: ps[0].Cell.Row}
	}
	for a := lo - 1; b.occupied(at(a)); a-- {
		t = t.Board(b.sq[at(a).index()].Value())
	}
	for a := lo + 1; a <= hi || b.occupied(at(a)); a++ {
		if sq := b.At(at(a)); sq.Letter != 0 {
			t = t.Board(sq.Value())
		}
	}
	return t.Score(len(ps), r)
}
