package gifts_test

import (
	"errors"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/gifts"
	"github.com/lexio-mail/lexio/store/testdb"
)

// TestGifts: a seat's gifts are written and read back by turn; a gift
// under an hour, over seven days, to the giver's own seat or past the
// seven days a seat may give over a game is refused and writes nothing.
func TestGifts(t *testing.T) {
	testdb.EachDriver(t, func(t *testing.T, open testdb.Opener) {
		s := open(t)
		tab := testdb.NewTable(t, s, "g1", 3)
		day := 24 * time.Hour
		testdb.MustTx(t, s, func(tx *store.Tx) error {
			seats, err := tx.Seats(tab.ID)
			if err != nil {
				return err
			}
			for _, g := range []gifts.Gift{{Turn: 1, To: 1, Time: 5 * day}, {Turn: 1, To: 1, Time: time.Hour}, {Turn: 2, To: 2, Time: day}} {
				if err := gifts.Add(tx, &seats[0], g); err != nil {
					return err
				}
			}
			for _, c := range []struct {
				what string
				g    gifts.Gift
			}{
				{"past the cap", gifts.Gift{Turn: 3, To: 1, Time: day}},
				{"under an hour", gifts.Gift{Turn: 3, To: 1, Time: time.Hour - time.Second}},
				{"to oneself", gifts.Gift{Turn: 3, To: 0, Time: time.Hour}},
				{"no turn", gifts.Gift{Turn: 0, To: 1, Time: time.Hour}},
			} {
				if err := gifts.Add(tx, &seats[0], c.g); !errors.Is(err, gifts.ErrBound) {
					t.Errorf("%s: %v, want ErrBound", c.what, err)
				}
			}
			if err := gifts.Add(tx, &seats[1], gifts.Gift{Turn: 3, To: 0, Time: 7*day + time.Hour}); !errors.Is(err, gifts.ErrBound) {
				t.Errorf("over seven days: %v, want ErrBound", err)
			}
			return gifts.Add(tx, &seats[2], gifts.Gift{Turn: 1, To: 1, Time: 7 * day})
		})
		err := s.View(t.Context(), func(tx *store.Tx) error {
			seats, err := tx.Seats(tab.ID)
			if err != nil {
				return err
			}
			if got := gifts.Given(seats[0]); got != 6*day+time.Hour {
				t.Errorf("seat 0 gave %v, want 6 days 1 h", got)
			}
			if got := gifts.Given(seats[1]); got != 0 {
				t.Errorf("seat 1 gave %v", got)
			}
			if d, n := gifts.OnTurn(seats, 1, 1); d != 12*day+time.Hour || n != 3 {
				t.Errorf("turn 1 to seat 1: %v in %d gifts, want 12 days 1 h in 3", d, n)
			}
			if d, n := gifts.OnTurn(seats, 2, 2); d != day || n != 1 {
				t.Errorf("turn 2 to seat 2: %v in %d", d, n)
			}
			if d, n := gifts.OnTurn(seats, 2, 1); d != 0 || n != 0 {
				t.Errorf("turn 2 to seat 1: %v in %d", d, n)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}
