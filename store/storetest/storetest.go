// Package storetest gives a test a PostgreSQL schema of its own on the server
// that LEXIO_TEST_POSTGRES_DSN names (scripts/postgres.sh start prints a
// value for it), so that packages and tests may run in parallel on one
// server. It is for tests alone, and knows nothing of the store's models:
// the store's own tests use it.
package storetest

import (
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	gormlogger "gorm.io/gorm/logger"
)

// EnvDSN names the variable that turns the PostgreSQL runs on.
const EnvDSN = "LEXIO_TEST_POSTGRES_DSN"

// DSN creates a schema for t, dropped when t ends, and returns a DSN whose
// search_path is that schema. Without EnvDSN it skips t, saying so; under
// CI (CI set) it fails t instead, since there the PostgreSQL runs must not
// be skipped (make test starts a server) — benchmarks excepted.
func DSN(t testing.TB) string {
	t.Helper()
	dsn := os.Getenv(EnvDSN)
	if dsn == "" {
		_, bench := t.(*testing.B)
		if os.Getenv("CI") != "" && !bench {
			t.Fatal("postgres: CI is set but " + EnvDSN + " is not: the PostgreSQL runs must not be skipped (make test sets it)")
		}
		t.Skip("postgres: " + EnvDSN + " not set (scripts/postgres.sh start prints one); SQLite ran")
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
	return withSearchPath(t, dsn, schema)
}

// withSearchPath adds search_path to a URL or key=value DSN.
func withSearchPath(t testing.TB, dsn, schema string) string {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err != nil {
			t.Fatalf("%s: %v", EnvDSN, err)
		}
		q := u.Query()
		q.Set("search_path", schema)
		u.RawQuery = q.Encode()
		return u.String()
	}
	return dsn + " search_path=" + schema
}
