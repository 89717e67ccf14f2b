package store

import (
	"errors"
	"testing"
	"time"
)

// TestVacations stores a player's vacations, finds them by player and by
// the time they are due to be told, and writes their early end.
func TestVacations(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		var alice, bob *Player
		mustTx(t, s, func(tx *Tx) error {
			var err error
			if alice, err = tx.EnsurePlayer("alice@example.org", "en"); err != nil {
				return err
			}
			bob, err = tx.EnsurePlayer("bob@example.org", "en")
			return err
		})
		paris := time.FixedZone("CET", 3600)
		later := &Vacation{PlayerID: alice.ID, From: t0.Add(10 * 24 * time.Hour).In(paris), To: t0.Add(12 * 24 * time.Hour),
			DaysFrom: t0.Add(10 * 24 * time.Hour), Days: 2, Zone: "Europe/Paris", DueAt: ptr(t0.Add(10 * 24 * time.Hour)), CreatedAt: t0}
		now := &Vacation{PlayerID: alice.ID, From: t0, To: t0.Add(3 * 24 * time.Hour), DaysFrom: t0, Days: 3,
			Told: VacationStartTold, DueAt: ptr(t0.Add(3 * 24 * time.Hour)), CreatedAt: t0}
		other := &Vacation{PlayerID: bob.ID, From: t0, To: t0.Add(time.Hour), DaysFrom: t0, Days: 1, CreatedAt: t0}
		mustTx(t, s, func(tx *Tx) error {
			for _, v := range []*Vacation{later, now, other} {
				if err := tx.AddVacation(v); err != nil {
					return err
				}
			}
			return tx.LockPlayer(alice.ID)
		})
		mustTx(t, s, func(tx *Tx) error {
			vs, err := tx.Vacations(alice.ID)
			if err != nil {
				return err
			}
			if len(vs) != 2 || vs[0].ID != now.ID || vs[1].ID != later.ID {
				t.Fatalf("alice's vacations, by start: %+v", vs)
			}
			if !vs[1].From.Equal(later.From) || vs[1].From.Location() != time.UTC || vs[1].Zone != "Europe/Paris" || vs[1].Days != 2 {
				t.Errorf("stored: %+v", vs[1])
			}
			if both, err := tx.Vacations(alice.ID, bob.ID); err != nil || len(both) != 3 {
				t.Errorf("both players: %d, %v", len(both), err)
			}
			if none, err := tx.Vacations(); err != nil || len(none) != 0 {
				t.Errorf("no players: %v, %v", none, err)
			}
			due, err := tx.DueVacations(t0.Add(4*24*time.Hour), 10)
			if err != nil {
				return err
			}
			if len(due) != 1 || due[0].ID != now.ID {
				t.Errorf("due: %+v", due)
			}
			// Ended early: a shorter span, one day charged, told.
			v := vs[0]
			end := t0.Add(20 * time.Hour)
			v.To, v.Days, v.EndedAt, v.Told, v.DueAt = end, 1, &end, VacationEndTold, nil
			if err := tx.SaveVacation(&v); err != nil {
				return err
			}
			if err := tx.SaveVacation(&Vacation{ID: 9999}); !errors.Is(err, ErrNotFound) {
				t.Errorf("saving no vacation: %v", err)
			}
			if err := tx.LockPlayer(9999); !errors.Is(err, ErrNotFound) {
				t.Errorf("locking no player: %v", err)
			}
			return nil
		})
		mustTx(t, s, func(tx *Tx) error {
			vs, err := tx.Vacations(alice.ID)
			if err != nil {
				return err
			}
			v := vs[0]
			if !v.To.Equal(t0.Add(20*time.Hour)) || v.Days != 1 || v.EndedAt == nil || v.Told != VacationEndTold || v.DueAt != nil {
				t.Errorf("after the early end: %+v", v)
			}
			if due, err := tx.DueVacations(t0.Add(4*24*time.Hour), 10); err != nil || len(due) != 0 {
				t.Errorf("due after: %+v, %v", due, err)
			}
			return nil
		})
	})
}

// TestSaveTableDeadlineMoved: a row whose deadline another transaction
// moved (a vacation) without an action is not written over with the old
// one: ErrConflict, as for a seq that moved.
func TestSaveTableDeadlineMoved(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		tab := newTable(t, s, "t1", 2)
		d := t0.Add(72 * time.Hour)
		mustTx(t, s, func(tx *Tx) error {
			tab.Deadline = &d
			return tx.SaveTable(tab, 0)
		})
		var stale *Table
		mustTx(t, s, func(tx *Tx) error {
			var err error
			stale, err = tx.TableByName("t1")
			return err
		})
		mustTx(t, s, func(tx *Tx) error {
			fresh, err := tx.TableByName("t1")
			if err != nil {
				return err
			}
			moved := d.Add(5 * 24 * time.Hour)
			fresh.Deadline = &moved
			if err := tx.SaveTable(fresh, 0); err != nil {
				return err
			}
			// The same row saved again in its transaction: its own
			// deadline is the one it checks now.
			fresh.NextReminder = &moved
			return tx.SaveTable(fresh, 0)
		})
		err := s.Tx(t.Context(), func(tx *Tx) error {
			stale.NextReminder = &d
			return tx.SaveTable(stale, 0)
		})
		if !errors.Is(err, ErrConflict) {
			t.Fatalf("saving over a moved deadline: %v, want ErrConflict", err)
		}
	})
}
