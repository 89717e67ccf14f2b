package store

import (
	"errors"
	"fmt"
	"unicode"
	"unicode/utf8"
)

// The store's query of a player's private notes on their tables (NOTE
// t42, package player): one note per seat, in the seat's row (Seat.Note),
// read with the seats. It knows nothing of commands, of mail or of who
// may see a note.

// MaxNote bounds a note, in characters: the size of seats.note.
const MaxNote = 500

// ErrNotOneLine: a note holds what is not one line of printable text (a
// control or format character, a byte that is not UTF-8). Nothing is
// written.
var ErrNotOneLine = errors.New("store: a note is one line of printable text")

// SetNote writes the note of the player with playerID at table tableID,
// over the one before; "" removes it. It is bounded again here, whoever
// asks (ErrTooLong over MaxNote characters, ErrNotOneLine), and returns
// ErrNotFound when that player holds no seat there.
func (tx *Tx) SetNote(tableID, playerID int64, text string) error {
	if n := utf8.RuneCountInString(text); n > MaxNote {
		return fmt.Errorf("store: note of %d characters, over %d: %w", n, MaxNote, ErrTooLong)
	}
	if !utf8.ValidString(text) {
		return fmt.Errorf("store: note: %w", ErrNotOneLine)
	}
	for _, r := range text {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == 0x2028 || r == 0x2029 {
			return fmt.Errorf("store: note holding %U: %w", r, ErrNotOneLine)
		}
	}
	res := tx.db.Model(&Seat{}).Where("table_id = ? AND player_id = ?", tableID, playerID).Update("note", text)
	if res.Error != nil {
		return fmt.Errorf("store: note: %w", MapErr(res.Error))
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("store: note of player %d at table %d: %w", playerID, tableID, ErrNotFound)
	}
	return nil
}
