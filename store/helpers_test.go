package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	gormlogger "gorm.io/gorm/logger"
)

// envPostgresDSN names the variable that turns the PostgreSQL runs on
// (scripts/postgres.sh start prints a value for it).
const envPostgresDSN = "LEXIO_TEST_POSTGRES_DSN"

// t0 is the tests' clock origin.
var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// opener opens (again) the database of the running subtest.
type opener func(t testing.TB) *Store

// eachDriver runs fn on a fresh SQLite file and, when envPostgresDSN is
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

// postgresOpener creates a schema of its own for the test and drops it when
// the test ends, so that packages and tests may run in parallel.
func postgresOpener(t testing.TB) opener {
	dsn := os.Getenv(envPostgresDSN)
	if dsn == "" {
		t.Skip("postgres: " + envPostgresDSN + " not set (scripts/postgres.sh start prints one); SQLite ran")
	}
	admin, err := gorm.Open(postgres.Open(dsn), &gorm.Config{Logger: gormlogger.Discard})
	if err != nil {
		t.Fatalf("postgres admin connection: %v", err)
	}
	schema := fmt.Sprintf("lexio_test_%d_%d", time.Now().UnixNano(), rand.Uint32())
	if err := admin.Exec("CREATE SCHEMA " + schema).Error; err != nil {
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		if err := admin.Exec("DROP SCHEMA " + schema + " CASCADE").Error; err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
		if db, err := admin.DB(); err == nil {
			_ = db.Close()
		}
	})
	sdsn := withSearchPath(t, dsn, schema)
	return func(t testing.TB) *Store {
		return mustOpen(t, Options{Driver: DriverPostgres, PostgresDSN: sdsn})
	}
}

// withSearchPath adds search_path to a URL or key=value DSN.
func withSearchPath(t testing.TB, dsn, schema string) string {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err != nil {
			t.Fatalf("%s: %v", envPostgresDSN, err)
		}
		q := u.Query()
		q.Set("search_path", schema)
		u.RawQuery = q.Encode()
		return u.String()
	}
	return dsn + " search_path=" + schema
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
	tab := &Table{Name: name, League: "main", Variant: "lexio", Multipliers: true, Status: StatusPlaying,
		TurnTime: 72 * time.Hour, Reminders: []time.Duration{24 * time.Hour, 2 * time.Hour}, State: `{}`}
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
