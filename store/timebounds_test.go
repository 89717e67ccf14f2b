package store

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"
)

// TestTimeBounds: a time outside MinTime–MaxTime is refused when written,
// by every kind of write (a created row, a slice of rows, an update by
// map or by column), and nothing is stored; the times at the bounds are
// written and read back. A vacation ending in year 10000 used to be stored
// on SQLite and then fail every read of its player's vacations.
func TestTimeBounds(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		tab := newTable(t, s, "bounds", 2)
		var pl *Player
		mustTx(t, s, func(tx *Tx) error {
			var err error
			pl, err = tx.PlayerByAddress("p0@example.org")
			return err
		})
		y10000 := time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
		old := time.Date(1969, 12, 31, 23, 59, 59, 0, time.UTC)
		last := MaxTime.Add(-time.Microsecond) // PostgreSQL keeps microseconds
		kept := &Vacation{PlayerID: pl.ID, From: t0, To: t0.Add(24 * time.Hour), DaysFrom: t0, Days: 1, CreatedAt: t0}
		mustTx(t, s, func(tx *Tx) error { return tx.AddVacation(kept) })

		refused := []struct {
			name  string
			write func(tx *Tx) error
		}{
			{"vacation ending in year 10000", func(tx *Tx) error {
				return tx.AddVacation(&Vacation{PlayerID: pl.ID, From: t0, To: y10000, DaysFrom: t0, Days: 1, CreatedAt: t0})
			}},
			{"vacation told until year 10000", func(tx *Tx) error {
				return tx.AddVacation(&Vacation{PlayerID: pl.ID, From: t0, To: t0, DaysFrom: t0, DueAt: &y10000, CreatedAt: t0})
			}},
			{"vacation before 1970", func(tx *Tx) error {
				return tx.AddVacation(&Vacation{PlayerID: pl.ID, From: old, To: t0, DaysFrom: old, CreatedAt: t0})
			}},
			{"vacation saved with its end in year 10000", func(tx *Tx) error {
				v := *kept
				v.To = y10000
				return tx.SaveVacation(&v)
			}},
			{"deadline in year 10000", func(tx *Tx) error {
				row, err := tx.TableByID(tab.ID)
				if err != nil {
					return err
				}
				row.Deadline = &y10000
				return tx.SaveTable(row, row.Seq)
			}},
			{"action in year 10000", func(tx *Tx) error {
				_, err := tx.AppendAction(tab.ID, 1, "pass", "{}", y10000)
				return err
			}},
			{"mail due in year 10000", func(tx *Tx) error {
				return enqueue(tx, []*OutboxMail{{To: []string{"p0@example.org"}, NextAttempt: t0}, {To: []string{"p1@example.org"}, NextAttempt: y10000}})
			}},
			{"rate window in year 10000", func(tx *Tx) error {
				_, err := tx.TakeRate("k", 5, time.Hour, y10000)
				return err
			}},
		}
		for _, tc := range refused {
			err := s.Tx(t.Context(), tc.write)
			if !errors.Is(err, ErrTimeRange) {
				t.Errorf("%s: %v, want ErrTimeRange", tc.name, err)
			}
		}

		// Nothing of it was stored, and everything reads.
		mustTx(t, s, func(tx *Tx) error {
			vs, err := tx.Vacations(pl.ID)
			if err != nil {
				return err
			}
			if len(vs) != 1 || !vs[0].To.Equal(kept.To) || vs[0].DueAt != nil {
				t.Errorf("vacations: %+v, want the one kept as it was", vs)
			}
			row, err := tx.TableByID(tab.ID)
			if err != nil {
				return err
			}
			if row.Deadline != nil || row.Seq != 0 {
				t.Errorf("table: deadline %v, seq %d", row.Deadline, row.Seq)
			}
			if as, err := tx.Actions(tab.ID); err != nil || len(as) != 0 {
				t.Errorf("actions: %v, %v", as, err)
			}
			if _, err := tx.Tables(""); err != nil {
				t.Errorf("tables: %v", err)
			}
			return nil
		})

		// The bounds themselves are written and read back.
		edge := &Vacation{PlayerID: pl.ID, From: MinTime, To: last, DaysFrom: MinTime, Days: 1, DueAt: &last, CreatedAt: t0}
		mustTx(t, s, func(tx *Tx) error { return tx.AddVacation(edge) })
		mustTx(t, s, func(tx *Tx) error {
			vs, err := tx.Vacations(pl.ID)
			if err != nil {
				return err
			}
			if len(vs) != 2 || !vs[0].From.Equal(MinTime) || !vs[0].To.Equal(last) {
				t.Errorf("vacations at the bounds: %+v", vs)
			}
			return nil
		})
	})
}

// Migration 6: the vacations SQLite could not read back (an end in year
// 10000, stored before ErrTimeRange) are cancelled, and the player's
// vacations read again; the others are left as they were.
func TestMigrationCancelsUnreadableVacations(t *testing.T) {
	ctx := context.Background()
	open := sqliteOpener(t)
	s := open(t)
	var pl *Player
	kept := &Vacation{From: t0, To: t0.Add(24 * time.Hour), DaysFrom: t0, Days: 1, DueAt: ptr(t0), CreatedAt: t0}
	mustTx(t, s, func(tx *Tx) error {
		var err error
		if pl, err = tx.EnsurePlayer("p0@example.org", "en"); err != nil {
			return err
		}
		kept.PlayerID = pl.ID
		return tx.AddVacation(kept)
	})
	far := "9999-12-31 00:00:00+00:00"
	for _, q := range []string{
		// As VACATION 9999-12-31 9999-12-31 wrote it, its start told.
		fmt.Sprintf(`INSERT INTO vacations (player_id, from_at, to_at, days_from, days, zone, told, due_at, created_at)
			VALUES (%d, '%s', '10000-01-01 00:00:00+00:00', '%s', 1, '', 1, '10000-01-01 00:00:00+00:00', '2026-03-01 12:00:00+00:00')`, pl.ID, far, far),
		"DELETE FROM schema_version WHERE version >= 6",
	} {
		if err := s.db.Exec(q).Error; err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	err := s.View(ctx, func(tx *Tx) error { _, err := tx.Vacations(pl.ID); return err })
	if err == nil {
		t.Fatal("the vacation of year 10000 reads: the test writes no unreadable row")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = open(t)
	mustTx(t, s, func(tx *Tx) error {
		vs, err := tx.Vacations(pl.ID)
		if err != nil {
			return err
		}
		if len(vs) != 2 || vs[0].ID != kept.ID || !vs[0].To.Equal(kept.To) || vs[0].DueAt == nil {
			t.Fatalf("vacations after the migration: %+v", vs)
		}
		want := time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)
		if v := vs[1]; !v.To.Equal(want) || !v.From.Equal(want) || v.Days != 0 || v.DueAt != nil || v.Told != VacationEndTold || v.EndedAt == nil {
			t.Errorf("the far vacation, cancelled: %+v", v)
		}
		return nil
	})
	if v, _ := s.schemaVersion(ctx); v != SchemaVersion() {
		t.Errorf("schema version %d, want %d", v, SchemaVersion())
	}
}
