package invites_test

import (
	"errors"
	"testing"

	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/invites"
)

// TestRematch: a table plays at most one other again (the unique
// RematchOf), found by RematchOf; ReorderSeats gives an open table's
// seats new positions, and refuses a wrong list or a game begun.
func TestRematch(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		old := newTable(t, s, "re-old", 3)
		again := &store.Table{Name: "re-new", Status: "open", RematchOf: &old.ID}
		mustTx(t, s, func(tx *store.Tx) error {
			if _, err := invites.RematchOf(tx, old.ID); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("before: %v, want store.ErrNotFound", err)
			}
			return tx.CreateTable(again)
		})
		mustTx(t, s, func(tx *store.Tx) error {
			err := tx.CreateTable(&store.Table{Name: "re-twice", Status: "open", RematchOf: &old.ID})
			if !errors.Is(err, store.ErrDuplicate) {
				t.Errorf("a second rematch of one table: %v, want store.ErrDuplicate", err)
			}
			got, err := invites.RematchOf(tx, old.ID)
			if err != nil || got.ID != again.ID {
				t.Errorf("RematchOf = %v, %v; want %s", got, err, again.Name)
			}
			return nil
		})
		// The old table's players, seated at the new one in order 0 1 2,
		// move to 1 2 0.
		var ids []int64
		mustTx(t, s, func(tx *store.Tx) error {
			seats, err := tx.Seats(old.ID)
			if err != nil {
				return err
			}
			for i, st := range seats {
				ids = append(ids, st.PlayerID)
				if err := tx.AddSeat(&store.Seat{TableID: again.ID, Position: i, PlayerID: st.PlayerID, CreatedAt: t0}); err != nil {
					return err
				}
			}
			return invites.ReorderSeats(tx, again.ID, []int64{ids[1], ids[2], ids[0]})
		})
		mustTx(t, s, func(tx *store.Tx) error {
			seats, err := tx.Seats(again.ID)
			if err != nil {
				return err
			}
			for i, want := range []int64{ids[1], ids[2], ids[0]} {
				if seats[i].Position != i || seats[i].PlayerID != want {
					t.Errorf("seat %d: position %d player %d, want player %d", i, seats[i].Position, seats[i].PlayerID, want)
				}
			}
			for _, bad := range [][]int64{{ids[0], ids[1]}, {ids[0], ids[0], ids[1]}} {
				if err := invites.ReorderSeats(tx, again.ID, bad); err == nil {
					t.Errorf("ReorderSeats(%v) took", bad)
				}
			}
			return nil
		})
		// A game begun keeps its seats.
		mustTx(t, s, func(tx *store.Tx) error {
			if err := invites.ReorderSeats(tx, old.ID, []int64{ids[1], ids[2], ids[0]}); err == nil {
				t.Error("the seats of a game begun were moved")
			}
			return nil
		})
	})
}
