package bot

import "github.com/lexio-mail/lexio/engine/board"

// Leave values: what the tiles a move leaves on the rack are worth to the
// turns after it, in points, for Lexio's French tiles (RULES §3.1). It is
// a heuristic in the manner of the tables Quackle and macondo derive by
// self-play, written by hand rather than trained:
//
//   - each tile has a worth of its own (tileLeave): the blank most, for the
//     all-tiles bonus it makes likely; S, E and R, the letters of French
//     endings, next; the tiles few French words take (K, W, Y, Q) least;
//   - every copy of a letter beyond the first costs dupCost: duplicates
//     make fewer words;
//   - a leave far from as many vowels as consonants costs balanceCost for
//     each tile of difference beyond one;
//   - a Q without a U costs qCost more.
const (
	dupCost     = 3.0
	balanceCost = 2.0
	qCost       = 4.0
)

// tileLeave is the worth of tile t (A–Z, '?' a blank) left on the rack.
func tileLeave(t byte) float64 {
	switch t {
	case board.BlankTile:
		return 18
	case 'S':
		return 6
	case 'E':
		return 2.5
	case 'R':
		return 2
	case 'A', 'N', 'T', 'Z':
		return 1
	case 'I', 'L':
		return 0.5
	case 'C', 'D', 'M', 'X':
		return 0
	case 'P':
		return -0.5
	case 'O', 'J':
		return -1
	case 'H':
		return -1.5
	case 'U', 'B', 'G', 'F':
		return -2
	case 'V':
		return -4
	case 'Y':
		return -5
	case 'Q':
		return -6
	case 'K':
		return -7
	case 'W':
		return -8
	}
	return 0
}

func isVowel(t byte) bool {
	switch t {
	case 'A', 'E', 'I', 'O', 'U':
		return true
	}
	return false
}

// counts is a rack by tile: counts[l] the letter 'A'+l, counts[blank]
// the blanks.
type counts [27]int

const blank = 26

func countsOf(rack []byte) counts {
	var c counts
	for _, t := range rack {
		c[slot(t)]++
	}
	return c
}

// slot is tile t's index in counts.
func slot(t byte) int {
	if t == board.BlankTile {
		return blank
	}
	return int(t - 'A')
}

// leave is the worth of the tiles c (RULES §3.1) kept on the rack.
func leave(c *counts) float64 {
	v := float64(c[blank]) * tileLeave(board.BlankTile)
	vowels, consonants := 0, 0
	for l := range 26 {
		n := c[l]
		if n == 0 {
			continue
		}
		t := byte('A' + l)
		v += float64(n) * tileLeave(t)
		v -= float64(n-1) * dupCost
		if isVowel(t) {
			vowels += n
		} else {
			consonants += n
		}
	}
	if d := vowels - consonants; d > 1 || d < -1 {
		v -= balanceCost * float64(max(d, -d)-1)
	}
	if c['Q'-'A'] > 0 && c['U'-'A'] == 0 {
		v -= qCost
	}
	return v
}
