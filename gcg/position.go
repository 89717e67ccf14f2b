package gcg

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/lexio-mail/lexio/engine/board"
)

// A position to play from, for `lexio moves`: the board a record leaves,
// and a rack written as on a record's line that the game's tiles can hold.

// Position replays rec as `lexio replay --check` does, stopping at its
// first problem, and returns the board after its last move. A game over
// has no move to make: an error.
func Position(rec *Record, opt Options) (board.Board, error) {
	opt.Check = true
	sum, err := Replay(rec, opt, io.Discard)
	if err != nil {
		var p Problem
		if errors.As(err, &p) {
			return board.Board{}, fmt.Errorf("%v (lexio replay tells every problem)", p)
		}
		return board.Board{}, err
	}
	if sum.Over {
		return board.Board{}, errors.New("the game is over: no move to make")
	}
	return sum.Board, nil
}

// ParseRack reads a rack as written in a GCG record: 1 to 7 letters, any
// case, '?' a blank (none in plain lexico).
func ParseRack(s string, r board.Rules) ([]byte, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("rack %q: "+format, append([]any{s}, args...)...)
	}
	if len(s) == 0 || len(s) > board.RackSize {
		return nil, bad("1 to %d tiles", board.RackSize)
	}
	rack := []byte(strings.ToUpper(s))
	for _, t := range rack {
		switch {
		case t >= 'A' && t <= 'Z':
		case t == board.BlankTile && !r.Blanks():
			return nil, bad("plain lexico has no blanks (RULES §12)")
		case t == board.BlankTile:
		default:
			return nil, bad("letters A–Z and '?' for a blank only")
		}
	}
	return rack, nil
}

// RackFits checks that the game's tiles, less those on the board, hold the
// rack (RULES §3.1): no rack of two Z.
func RackFits(rack []byte, b *board.Board, r board.Rules) error {
	left := map[byte]int{}
	for _, t := range board.TileSet(r) {
		left[t]++
	}
	for row := range board.Size {
		for col := range board.Size {
			sq := b.At(board.Cell{Col: col, Row: row})
			switch {
			case sq.Empty():
			case sq.Blank:
				left[board.BlankTile]--
			default:
				left[sq.Letter]--
			}
		}
	}
	for _, t := range rack {
		if left[t]--; left[t] < 0 {
			n := strings.Count(string(rack), string(rune(t)))
			return fmt.Errorf("rack %s holds %d %c, but the game has %d left off the board (RULES §3.1)", rack, n, t, n+left[t])
		}
	}
	return nil
}
