// Package notes holds the store's query of a player's private notes on
// their tables (NOTE t42, package player): one note per seat, in the
// seat's row (store.Seat.Note), read with the seats. Each function runs
// in the caller's store.Tx. It knows nothing of commands, of mail or of
// who may see a note.
package notes

import (
	"errors"
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/lexio-mail/lexio/store"
)

// Max bounds a note, in characters: the size of seats.note.
const Max = 500

// ErrNotOneLine: a note holds what is not one line of printable text (a
// control or format character, a byte that is not UTF-8). Nothing is
// written.
var ErrNotOneLine = errors.New("store: a note is one line of printable text")

// Set writes the note of the player with playerID at table tableID, over
// the one before; "" removes it. It is bounded again here, whoever asks
// (store.ErrTooLong over Max characters, ErrNotOneLine), and returns
// store.ErrNotFound when that player holds no seat there.
func Set(tx *store.Tx, tableID, playerID int64, text string) error {
	if n := utf8.RuneCountInString(text); n > Max {
		return fmt.Errorf("store: note of %d characters, over %d: %w", n, Max, store.ErrTooLong)
	}
	if !utf8.ValidString(text) {
		return fmt.Errorf("store: note: %w", ErrNotOneLine)
	}
	for _, r := range text {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == 0x2028 || r == 0x2029 {
			return fmt.Errorf("store: note holding %U: %w", r, ErrNotOneLine)
		}
	}
	res := tx.DB().Model(&store.Seat{}).Where("table_id = ? AND player_id = ?", tableID, playerID).Update("note", text)
	if res.Error != nil {
		return fmt.Errorf("store: note: %w", store.MapErr(res.Error))
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("store: note of player %d at table %d: %w", playerID, tableID, store.ErrNotFound)
	}
	return nil
}
