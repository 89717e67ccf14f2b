package store

import (
	"errors"
	"testing"
	"time"
)

// TestGifts: a seat's gifts are written and read back by turn; a gift
// under an hour, over seven days, to the giver's own seat or past the
// seven days a seat may give over a game is refused and writes nothing.
func TestGifts(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		tab := newTable(t, s, "g1", 3)
		day := 24 * time.Hour
		mustTx(t, s, func(tx *Tx) error {
			seats, err := tx.Seats(tab.ID)
			if err != nil {
				return err
			}
			for _, g := range []Gift{{Turn: 1, To: 1, Time: 5 * day}, {Turn: 1, To: 1, Time: time.Hour}, {Turn: 2, To: 2, Time: day}} {
				if err := tx.AddGift(&seats[0], g); err != nil {
					return err
				}
			}
			for _, c := range []struct {
				what string
				g    Gift
			}{
				{"past the cap", Gift{Turn: 3, To: 1, Time: day}},
				{"under an hour", Gift{Turn: 3, To: 1, Time: time.Hour - time.Second}},
				{"to oneself", Gift{Turn: 3, To: 0, Time: time.Hour}},
				{"no turn", Gift{Turn: 0, To: 1, Time: time.Hour}},
			} {
				if err := tx.AddGift(&seats[0], c.g); !errors.Is(err, ErrGiftBound) {
					t.Errorf("%s: %v, want ErrGiftBound", c.what, err)
				}
			}
			if err := tx.AddGift(&seats[1], Gift{Turn: 3, To: 0, Time: 7*day + time.Hour}); !errors.Is(err, ErrGiftBound) {
				t.Errorf("over seven days: %v, want ErrGiftBound", err)
			}
			return tx.AddGift(&seats[2], Gift{Turn: 1, To: 1, Time: 7 * day})
		})
		err := s.View(t.Context(), func(tx *Tx) error {
			seats, err := tx.Seats(tab.ID)
			if err != nil {
				return err
			}
			if got := seats[0].Given(); got != 6*day+time.Hour {
				t.Errorf("seat 0 gave %v, want 6 days 1 h", got)
			}
			if got := seats[1].Given(); got != 0 {
				t.Errorf("seat 1 gave %v", got)
			}
			if d, n := GiftsOnTurn(seats, 1, 1); d != 12*day+time.Hour || n != 3 {
				t.Errorf("turn 1 to seat 1: %v in %d gifts, want 12 days 1 h in 3", d, n)
			}
			if d, n := GiftsOnTurn(seats, 2, 2); d != day || n != 1 {
				t.Errorf("turn 2 to seat 2: %v in %d", d, n)
			}
			if d, n := GiftsOnTurn(seats, 2, 1); d != 0 || n != 0 {
				t.Errorf("turn 2 to seat 1: %v in %d", d, n)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}
