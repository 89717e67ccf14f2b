// Package testdb is for the tests of the store's sub-packages: a store on
// a fresh SQLite file and, when storetest's DSN is set, on a fresh
// PostgreSQL schema, with the clock and helpers those tests share. It
// knows nothing of what the tests check. (The store's own tests cannot
// use it: it imports the store.)
package testdb

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/storetest"
)

// T0 is the tests' clock origin.
var T0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// Opener opens the database of the running subtest.
type Opener func(t testing.TB) *store.Store

// EachDriver runs fn on a fresh SQLite file and, when storetest's DSN is
// set, on a fresh PostgreSQL schema, as the store's own tests do.
func EachDriver(t *testing.T, fn func(t *testing.T, open Opener)) {
	t.Run("sqlite", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "lexio.db")
		fn(t, func(t testing.TB) *store.Store {
			return MustOpen(t, store.Options{Driver: store.DriverSQLite, SQLitePath: path})
		})
	})
	t.Run("postgres", func(t *testing.T) {
		dsn := storetest.DSN(t)
		fn(t, func(t testing.TB) *store.Store {
			return MustOpen(t, store.Options{Driver: store.DriverPostgres, PostgresDSN: dsn})
		})
	})
}

// MustOpen opens a store whose clock stands at T0 (in a zone not UTC:
// times are stored as UTC) and closes it when the test ends.
func MustOpen(t testing.TB, opts store.Options) *store.Store {
	t.Helper()
	opts.Now = func() time.Time { return T0.In(time.FixedZone("EST", -5*3600)) }
	s, err := store.Open(context.Background(), opts)
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

// MustTx runs fn in a write transaction and fails the test on error.
func MustTx(t testing.TB, s *store.Store, fn func(tx *store.Tx) error) {
	t.Helper()
	if err := s.Tx(context.Background(), fn); err != nil {
		t.Fatalf("Tx: %v", err)
	}
}

// NewTable creates a playing table with n seated players p0..p(n-1).
func NewTable(t testing.TB, s *store.Store, name string, n int) *store.Table {
	t.Helper()
	tab := &store.Table{Name: name, League: "main", Variant: "lexio", Multipliers: true, Status: "playing",
		TurnTime: 72 * time.Hour, Reminders: []time.Duration{24 * time.Hour, 2 * time.Hour}}
	MustTx(t, s, func(tx *store.Tx) error {
		if err := tx.CreateTable(tab); err != nil {
			return err
		}
		for i := range n {
			p, err := tx.EnsurePlayer(fmt.Sprintf("p%d@example.org", i), "en")
			if err != nil {
				return err
			}
			if err := tx.AddSeat(&store.Seat{TableID: tab.ID, Position: i, PlayerID: p.ID}); err != nil {
				return err
			}
		}
		return nil
	})
	return tab
}
