package board

import (
	"fmt"
)

// BlankTile is how a blank is written on a rack and in exchanges.
const BlankTile byte = '?'

// RackSize is the number of tiles a rack is refilled to (RULES §3.2, §4.5).
const RackSize = 7

// LetterValue is the value of letter A–Z (RULES §3.1); 0 for anything else,
// the blank included.
func LetterValue(letter byte) int {
	switch letter {
	case 'E', 'A', 'I', 'O', 'N', 'R', 'S', 'T', 'U', 'L':
		return 1
	case 'C', 'D', 'M', 'P':
		return 2
	case 'B', 'G':
		return 3
	case 'F', 'H', 'V':
		return 4
	case 'J', 'Q', 'X':
		return 8
	case 'K', 'W', 'Y', 'Z':
		return 10
	}
	return 0
}

// TileValue is the value of a rack tile: a letter's value, 0 for a blank.
func TileValue(t byte) int { return LetterValue(t) }

// LetterCount is how many tiles of letter A–Z the bag holds (RULES §3.1).
func LetterCount(letter byte) int {
	switch letter {
	case 'E':
		return 14
	case 'A':
		return 9
	case 'I':
		return 8
	case 'O', 'N', 'R', 'S', 'T', 'U':
		return 6
	case 'L':
		return 5
	case 'C', 'D', 'M':
		return 3
	case 'P', 'B', 'G', 'F', 'H', 'V':
		return 2
	case 'J', 'Q', 'X', 'K', 'W', 'Y', 'Z':
		return 1
	}
	return 0
}

// isLetter reports whether b is A–Z.
func isLetter(b byte) bool { return b >= 'A' && b <= 'Z' }

// TileSet returns the full set of tiles of a table in canonical order: the
// letters A–Z with their counts, then the blanks when the rules have them.
func TileSet(r Rules) []byte {
	set := make([]byte, 0, 102)
	for l := byte('A'); l <= 'Z'; l++ {
		for range LetterCount(l) {
			set = append(set, l)
		}
	}
	if r.Blanks() {
		set = append(set, BlankTile, BlankTile)
	}
	return set
}

// Variant names a rule set (RULES §12).
type Variant string

// The variants.
const (
	Lexio  Variant = "lexio"
	Lexico Variant = "lexico"
)

// Rules is what changes the scoring and shape rules from one table to
// another. The zero value is lexio.
type Rules struct {
	Variant Variant `json:"variant,omitempty"`
	// Plain is lexico with multipliers = false: no bonus cells and no
	// blanks (RULES §12). Only lexico has it.
	Plain bool `json:"plain,omitempty"`
}

// Validate reports a rules setting the engine does not know.
func (r Rules) Validate() error {
	switch r.Variant {
	case "", Lexio:
		if r.Plain {
			return fmt.Errorf("engine: multipliers can only be turned off in lexico: %w", ErrConfig)
		}
	case Lexico:
	default:
		return fmt.Errorf("engine: unknown variant %q: %w", r.Variant, ErrConfig)
	}
	return nil
}

func (r Rules) lexico() bool { return r.Variant == Lexico }

// AllTilesBonus is what a placement of all 7 tiles adds (RULES §5.6, §12).
func (r Rules) AllTilesBonus() int {
	if r.lexico() {
		return 50
	}
	return 30
}

// FirstMinTiles is the least number of tiles of the first placement
// (RULES §4.2, §12).
func (r Rules) FirstMinTiles() int {
	if r.lexico() {
		return 3
	}
	return 2
}

// Blanks reports whether the bag holds the 2 blanks (RULES §3.1, §12).
func (r Rules) Blanks() bool { return !r.Plain }

// Bonus is what cell c pays at a table with these rules: walls and the
// fountain as laid out, no bonus at all in plain lexico, crosses plain in
// lexico (RULES §12).
func (r Rules) Bonus(c Cell) Bonus {
	k := Layout(c)
	switch {
	case k == Wall || k == FountainCell:
		return k
	case r.Plain:
		return NoBonus
	case k == Cross && r.lexico():
		return NoBonus
	}
	return k
}
