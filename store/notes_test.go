package store

import (
	"errors"
	"strings"
	"testing"
)

// TestSetNote: a note is the seat's, replaced by the next and removed by "";
// it is bounded when written on every driver (500 characters, whatever
// their bytes; one printable line); a player without a seat has none;
// the seat's next holder does not inherit it.
func TestSetNote(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		tab := newTable(t, s, "t42", 2)
		var p0, p1 int64
		mustTx(t, s, func(tx *Tx) error {
			seats, err := tx.Seats(tab.ID)
			p0, p1 = seats[0].PlayerID, seats[1].PlayerID
			return err
		})
		note := func(pos int) string {
			var got string
			mustTx(t, s, func(tx *Tx) error {
				seats, err := tx.Seats(tab.ID)
				if err == nil {
					got = seats[pos].Note
				}
				return err
			})
			return got
		}
		long := strings.Repeat("🎉", MaxNote)
		for _, text := range []string{"keep the S", long, ""} {
			mustTx(t, s, func(tx *Tx) error { return tx.SetNote(tab.ID, p0, text) })
			if got := note(0); got != text || note(1) != "" {
				t.Errorf("after SetNote(%.20q): seat 0 %.20q, seat 1 %q", text, got, note(1))
			}
		}
		mustTx(t, s, func(tx *Tx) error { return tx.SetNote(tab.ID, p0, "mine") })
		mustTx(t, s, func(tx *Tx) error {
			for _, c := range []struct {
				text string
				want error
			}{
				{long + "!", ErrTooLong},
				{"a\x1b[2Jb", ErrNotOneLine},
				{"a\u202eb", ErrNotOneLine},
				{"a\nb", ErrNotOneLine},
				{"a\xffb", ErrNotOneLine},
			} {
				if err := tx.SetNote(tab.ID, p1, c.text); !errors.Is(err, c.want) {
					t.Errorf("SetNote(%.20q): %v, want %v", c.text, err, c.want)
				}
			}
			stranger, err := tx.EnsurePlayer("stranger@example.org", "en")
			if err != nil {
				return err
			}
			if err := tx.SetNote(tab.ID, stranger.ID, "x"); !errors.Is(err, ErrNotFound) {
				t.Errorf("a stranger's note: %v, want ErrNotFound", err)
			}
			// A substitute takes the seat, not its note.
			return tx.MoveSeat(tab.ID, 0, stranger.ID)
		})
		if got := note(0); got != "" || note(1) != "" {
			t.Errorf("after the seat changed hands: seat 0 %q, seat 1 %q; want no note", got, note(1))
		}
	})
}
