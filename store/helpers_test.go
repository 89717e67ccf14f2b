package store

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/store/storetest"
)

// t0 is the tests' clock origin.
var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// opener opens (again) the database of the running subtest.
type opener func(t testing.TB) *Store

// eachDriver runs fn on a fresh SQLite file and, when storetest.EnvDSN is
// set, on a fresh PostgreSQL schema.
func eachDriver(t *testing.T, fn func(t *testing.T, open opener)) {
	t.Run("sqlite", func(t *testing.T) {
		fn(t, sqliteOpener(t))
	})
	t.Run("postgres", func(t *testing.T) {
		fn(t, postgresOpener(t))
	})
}

func sqliteOpener(t testing.TB) opener {
	// A subdirectory that does not exist yet: Open creates it.
	path := filepath.Join(t.TempDir(), "data", "lexio.db")
	return func(t testing.TB) *Store {
		return mustOpen(t, Options{Driver: DriverSQLite, SQLitePath: path})
	}
}

// postgresOpener opens a schema of the test's own (storetest.DSN: skipped
// without a server, failed under CI).
func postgresOpener(t testing.TB) opener {
	dsn := storetest.DSN(t)
	return func(t testing.TB) *Store {
		return mustOpen(t, Options{Driver: DriverPostgres, PostgresDSN: dsn})
	}
}

func mustOpen(t testing.TB, opts Options) *Store {
	t.Helper()
	if opts.Now == nil {
		opts.Now = func() time.Time { return t0.In(time.FixedZone("EST", -5*3600)) } // stored as UTC
	}
	s, err := Open(context.Background(), opts)
	if err != nil {
		t.Fatalf("Open(%s): %v", opts.Driver, err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

// tx runs fn in a write transaction and fails the test on error.
func mustTx(t testing.TB, s *Store, fn func(tx *Tx) error) {
	t.Helper()
	if err := s.Tx(context.Background(), fn); err != nil {
		t.Fatalf("Tx: %v", err)
	}
}

// newTable creates a playing table with n seated players p0..p(n-1).
func newTable(t testing.TB, s *Store, name string, n int) *Table {
	t.Helper()
	tab := &Table{Name: name, League: "main", Variant: "lexio", Multipliers: true, Status: "playing",
		TurnTime: 72 * time.Hour, Reminders: []time.Duration{24 * time.Hour, 2 * time.Hour}}
	mustTx(t, s, func(tx *Tx) error {
		if err := tx.CreateTable(tab); err != nil {
			return err
		}
		for i := range n {
			p, err := tx.EnsurePlayer(fmt.Sprintf("p%d@example.org", i), "en")
			if err != nil {
				return err
			}
			if err := tx.AddSeat(&Seat{TableID: tab.ID, Position: i, PlayerID: p.ID}); err != nil {
				return err
			}
		}
		return nil
	})
	return tab
}

func ptr[T any](v T) *T { return &v }

// enqueue writes mail rows and their messages in tx, in two statements as
// store/outbox's Enqueue does (which the store's own tests cannot import):
// the mail of a move, in the move's transaction.
func enqueue(tx *Tx, ms []*OutboxMail) error {
	for _, m := range ms {
		if m.NextAttempt.IsZero() {
			m.NextAttempt = m.CreatedAt
		}
	}
	if err := tx.db.Create(ms).Error; err != nil {
		return fmt.Errorf("outbox: %w", MapErr(err))
	}
	bodies := make([]OutboxBody, len(ms))
	for i, m := range ms {
		bodies[i] = OutboxBody{MailID: m.ID, Raw: m.Raw}
	}
	return MapErr(tx.db.Create(&bodies).Error)
}

// outboxRows returns every row of the outbox, with its message, by id.
func outboxRows(s *Store) ([]OutboxMail, error) {
	var rows []OutboxMail
	err := s.View(context.Background(), func(tx *Tx) error {
		if err := tx.db.Order("id").Find(&rows).Error; err != nil {
			return err
		}
		for i := range rows {
			var b OutboxBody
			if err := tx.db.Where("mail_id = ?", rows[i].ID).Take(&b).Error; err != nil {
				return err
			}
			rows[i].Raw = b.Raw
		}
		return nil
	})
	return rows, err
}
