package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestIsTemporary: what the store says may mend by trying again, and what
// will not, for errors built as the drivers return them.
func TestIsTemporary(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"conflict", fmt.Errorf("store: save table 1: %w", ErrConflict), true},
		{"cancelled", fmt.Errorf("store: waiting for the writer: %w", context.Canceled), true},
		{"deadline", context.DeadlineExceeded, true},
		{"bad connection", driver.ErrBadConn, true},
		{"connection done", sql.ErrConnDone, true},
		{"connection lost", fmt.Errorf("receive: %w", io.ErrUnexpectedEOF), true},
		{"pgx connection closed", pgconn.ErrConnClosed, true},
		{"network", &net.OpError{Op: "read", Net: "tcp", Err: errors.New("connection reset by peer")}, true},
		{"serialization failure", MapErr(&pgconn.PgError{Code: "40001"}), true},
		{"deadlock", MapErr(&pgconn.PgError{Code: "40P01"}), true},
		{"admin shutdown", &pgconn.PgError{Code: "57P01"}, true},
		{"cannot connect now", &pgconn.PgError{Code: "57P03"}, true},
		{"connection failure", &pgconn.PgError{Code: "08006"}, true},
		{"too many connections", &pgconn.PgError{Code: "53300"}, true},
		{"lock timeout", &pgconn.PgError{Code: "55P03"}, true},
		{"duplicate", fmt.Errorf("store: insert seat: %w", ErrDuplicate), false},
		{"not found", ErrNotFound, false},
		{"unique violation", MapErr(&pgconn.PgError{Code: "23505", Message: "duplicate key value (SQLSTATE 23505)"}), false},
		{"check violation", &pgconn.PgError{Code: "23514"}, false},
		{"syntax error", &pgconn.PgError{Code: "42601"}, false},
		{"other", errors.New("store: player: empty address"), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := IsTemporary(tc.err); got != tc.want {
				t.Errorf("IsTemporary(%v) = %v, want %v", tc.err, got, tc.want)
			}
		})
	}
}

// TestIsTemporaryReal: the same for errors the databases really return.
func TestIsTemporaryReal(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		err := s.Tx(ctx, func(tx *Tx) error { return nil })
		if err == nil || !IsTemporary(err) {
			t.Errorf("Tx with a cancelled context: %v, want a temporary error", err)
		}
		tab := newTable(t, s, "real", 2)
		err = s.Tx(context.Background(), func(tx *Tx) error {
			seats, err := tx.Seats(tab.ID)
			if err != nil {
				return err
			}
			// Position 0 is taken: the second player cannot sit there too.
			return tx.AddSeat(&Seat{TableID: tab.ID, Position: 0, PlayerID: seats[1].PlayerID})
		})
		if !errors.Is(err, ErrDuplicate) || IsTemporary(err) {
			t.Errorf("a seat taken: %v, want a permanent ErrDuplicate", err)
		}
		err = s.Tx(context.Background(), func(tx *Tx) error {
			return MapErr(tx.db.Exec("SELECT nothing FROM no_such_table").Error)
		})
		if err == nil || IsTemporary(err) {
			t.Errorf("bad SQL: %v, want a permanent error", err)
		}
	})
}

// TestIsTemporarySQLiteBusy: another connection holding the write lock
// makes BEGIN IMMEDIATE fail with SQLITE_BUSY (no busy timeout here),
// which is temporary.
func TestIsTemporarySQLiteBusy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "busy.db")
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(0)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	a, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if _, err := a.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	_, err = b.ExecContext(ctx, "BEGIN IMMEDIATE")
	if err == nil {
		t.Fatal("a second writer began while the first held the lock")
	}
	if !IsTemporary(err) {
		t.Errorf("SQLite busy: %v, want temporary", err)
	}
	if _, err := a.ExecContext(ctx, "COMMIT"); err != nil {
		t.Fatal(err)
	}
}

// TestIsTemporaryUnreachable: a PostgreSQL that refuses connections is
// temporary (the daemon tries again later), whether or not a server runs
// here.
func TestIsTemporaryUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err = Open(ctx, Options{Driver: DriverPostgres, PostgresDSN: "postgres://lexio@" + addr + "/lexio?sslmode=disable&connect_timeout=5"})
	if err == nil {
		t.Fatal("Open on a closed port succeeded")
	}
	if !IsTemporary(err) {
		t.Errorf("connection refused: %v, want temporary", err)
	}
}
