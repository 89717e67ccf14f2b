package board

import (
	"errors"
	"strconv"
	"strings"
	"time"
)

// Sentinel errors. A rule a move breaks is a *MoveError instead.
var (
	ErrConfig  = errors.New("engine: bad configuration")
	ErrBadCell = errors.New("engine: bad cell")
)

// Kind says which rule a rejected move broke, so that a reply can be chosen
// by kind and translated.
type Kind string

// The kinds of MoveError.
const (
	// Shape and tile errors (RULES §4, §6.4): nothing spent.
	KindNoTiles        Kind = "no-tiles"         // nothing would be placed
	KindTooManyTiles   Kind = "too-many-tiles"   // Have tiles, at most Need (7)
	KindOffBoard       Kind = "off-board"        // Cells outside the 13 × 13 square
	KindWalled         Kind = "walled"           // Cells are walled corners (§2.2)
	KindOccupied       Kind = "occupied"         // Cells already hold a tile
	KindDuplicateCell  Kind = "duplicate-cell"   // Cells given twice
	KindBadLetter      Kind = "bad-letter"       // Letters are not A–Z
	KindMismatch       Kind = "board-mismatch"   // Cells hold Letters, not what was written
	KindNotThrough     Kind = "not-on-board"     // parenthesised Cells are empty
	KindNotInLine      Kind = "not-in-line"      // Cells not in one row or column (§4.1)
	KindGap            Kind = "gap"              // empty Cells between the tiles (§4.1)
	KindNotTouching    Kind = "not-touching"     // touches no tile (§4.2)
	KindFirstNotCentre Kind = "first-not-centre" // first placement misses G7 (§4.2)
	KindFirstTooShort  Kind = "first-too-short"  // Have tiles, Need at least (§4.2, §12)
	KindNotOnRack      Kind = "not-on-rack"      // Letters missing from the rack ('?' a blank)
	// Dictionary and probe reserve (RULES §6).
	KindUnknownWords Kind = "unknown-words" // Words not in the dictionary; spent one attempt
	KindReserveEmpty Kind = "reserve-empty" // reserve at 0: rejected, words not checked
	// Turn and game state.
	KindNotYourTurn        Kind = "not-your-turn"
	KindGameOver           Kind = "game-over"
	KindResigned           Kind = "resigned"             // the player left the game (LEAGUES §2)
	KindExchangeNotAllowed Kind = "exchange-not-allowed" // lexico: first turn or bag < 7 (Have)
	KindBagTooSmall        Kind = "bag-too-small"        // Need tiles to return, bag Has
	KindBadSlot            Kind = "bad-slot"             // Slots outside the rack or repeated
)

// MoveError is a rejected move: which rule it broke and what it involved.
// Fields that do not apply to the Kind are empty.
type MoveError struct {
	Kind    Kind
	Cells   []Cell   // cells involved
	Letters string   // letters involved ('?' for a blank)
	Words   []string // unknown words (KindUnknownWords only)
	Slots   []int    // rack slots involved, 1-based
	Need    int      // a required count (max tiles, min tiles, tiles to return)
	Have    int      // the count found
	// Reserve is the probe reserve left after the attempt and NextAttempt
	// when it next grows (zero when full); set on KindUnknownWords and
	// KindReserveEmpty.
	Reserve     int
	NextAttempt time.Time
}

func (e *MoveError) Error() string {
	var b strings.Builder
	b.WriteString("engine: ")
	b.WriteString(strings.ReplaceAll(string(e.Kind), "-", " "))
	if len(e.Cells) > 0 {
		b.WriteString(": ")
		for i, c := range e.Cells {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(c.String())
		}
	}
	if e.Letters != "" {
		b.WriteString(" letters ")
		b.WriteString(e.Letters)
	}
	if len(e.Words) > 0 {
		b.WriteString(": ")
		b.WriteString(strings.Join(e.Words, " "))
	}
	for _, s := range e.Slots {
		b.WriteString(" slot ")
		b.WriteString(strconv.Itoa(s))
	}
	if e.Need != 0 || e.Have != 0 {
		b.WriteString(" (need ")
		b.WriteString(strconv.Itoa(e.Need))
		b.WriteString(", have ")
		b.WriteString(strconv.Itoa(e.Have))
		b.WriteByte(')')
	}
	return b.String()
}
