package notes_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/notes"
	"github.com/lexio-mail/lexio/store/testdb"
)

// TestSet: a note is the seat's, replaced by the next and removed by "";
// it is bounded when written on every driver (500 characters, whatever
// their bytes; one printable line); a player without a seat has none;
// the seat's next holder does not inherit it.
func TestSet(t *testing.T) {
	testdb.EachDriver(t, func(t *testing.T, open testdb.Opener) {
		s := open(t)
		tab := testdb.NewTable(t, s, "t42", 2)
		var p0, p1 int64
		testdb.MustTx(t, s, func(tx *store.Tx) error {
			seats, err := tx.Seats(tab.ID)
			p0, p1 = seats[0].PlayerID, seats[1].PlayerID
			return err
		})
		note := func(pos int) string {
			var got string
			testdb.MustTx(t, s, func(tx *store.Tx) error {
				seats, err := tx.Seats(tab.ID)
				if err == nil {
					got = seats[pos].Note
				}
				return err
			})
			return got
		}
		long := strings.Repeat("🎉", notes.Max)
		for _, text := range []string{"keep the S", long, ""} {
			testdb.MustTx(t, s, func(tx *store.Tx) error { return notes.Set(tx, tab.ID, p0, text) })
			if got := note(0); got != text || note(1) != "" {
				t.Errorf("after Set(%.20q): seat 0 %.20q, seat 1 %q", text, got, note(1))
			}
		}
		testdb.MustTx(t, s, func(tx *store.Tx) error { return notes.Set(tx, tab.ID, p0, "mine") })
		testdb.MustTx(t, s, func(tx *store.Tx) error {
			for _, c := range []struct {
				text string
				want error
			}{
				{long + "!", store.ErrTooLong},
				{"a\x1b[2Jb", notes.ErrNotOneLine},
				{"a\u202eb", notes.ErrNotOneLine},
				{"a\nb", notes.ErrNotOneLine},
				{"a\xffb", notes.ErrNotOneLine},
			} {
				if err := notes.Set(tx, tab.ID, p1, c.text); !errors.Is(err, c.want) {
					t.Errorf("Set(%.20q): %v, want %v", c.text, err, c.want)
				}
			}
			stranger, err := tx.EnsurePlayer("stranger@example.org", "en")
			if err != nil {
				return err
			}
			if err := notes.Set(tx, tab.ID, stranger.ID, "x"); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("a stranger's note: %v, want store.ErrNotFound", err)
			}
			// A substitute takes the seat, not its note.
			return tx.MoveSeat(tab.ID, 0, stranger.ID)
		})
		if got := note(0); got != "" || note(1) != "" {
			t.Errorf("after the seat changed hands: seat 0 %q, seat 1 %q; want no note", got, note(1))
		}
	})
}
