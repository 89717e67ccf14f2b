package confirms_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/storetest"
)

// t0 is the tests' clock origin.
var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// opener opens the database of the running subtest.
type opener func(t testing.TB) *store.Store

// eachDriver runs fn on a fresh SQLite file and, when storetest.EnvDSN is
// set, on a fresh PostgreSQL schema, as the store's own tests do.
func eachDriver(t *testing.T, fn func(t *testing.T, open opener)) {
	t.Run("sqlite", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "lexio.db")
		fn(t, func(t testing.TB) *store.Store {
			return mustOpen(t, store.Options{Driver: store.DriverSQLite, SQLitePath: path})
		})
	})
	t.Run("postgres", func(t *testing.T) {
		dsn := storetest.DSN(t)
		fn(t, func(t testing.TB) *store.Store {
			return mustOpen(t, store.Options{Driver: store.DriverPostgres, PostgresDSN: dsn})
		})
	})
}

func mustOpen(t testing.TB, opts store.Options) *store.Store {
	t.Helper()
	opts.Now = func() time.Time { return t0.In(time.FixedZone("EST", -5*3600)) } // stored as UTC
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

// mustTx runs fn in a write transaction and fails the test on error.
func mustTx(t testing.TB, s *store.Store, fn func(tx *store.Tx) error) {
	t.Helper()
	if err := s.Tx(context.Background(), fn); err != nil {
		t.Fatalf("Tx: %v", err)
	}
}
