// Package store keeps lexio's state in a SQL database through gorm: the
// connection, transactions, the schema (every model, and the migrations),
// and the queries of players, tables with their seats and action log, the
// processed inbound messages, vacations, the rate counters, a seat's note
// and gifts of time (GIVE), the mail a player chose (NOTIFY) and the
// confirmations. The queries of leagues, invitations and the outbox are
// in sub-packages (store/leagues, store/invites, store/outbox), which run
// in a Tx through its DB handle.
//
// SQLite (a file, through the pure-Go glebarez driver) is the default;
// PostgreSQL is optional. The store knows no game rules: an action of the
// log is opaque JSON text to it.
//
// Everything a message changes is written in one transaction (Store.Tx):
// the message record, the action, the table row and the outgoing mail
// commit together or not at all.
//
// Writers on SQLite: SQLite allows one writer at a time. The store
// serialises its write transactions in-process with a one-slot semaphore
// (which honours the context while waiting) and begins them with BEGIN
// IMMEDIATE, so a transaction never has to upgrade a read lock to a write
// lock halfway (the upgrade that fails at once with "database is locked",
// whatever the busy timeout). Reads outside write transactions (Store.View,
// the outbox's Due) use the other connections of the pool and run concurrently
// in WAL mode. SetMaxOpenConns(1) would also serialise writers, but it
// would make every reader wait for the write transaction in flight. Another
// process writing to the same file (a CLI command while the daemon runs)
// waits on busy_timeout.
//
// Times are stored in UTC, from MinTime to MaxTime: every create and
// update checks its times (ErrTimeRange), so that no row is written that a
// driver cannot read back. The store reads the clock only for created and
// updated stamps, through Options.Now.
package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	gosqlite "github.com/glebarez/go-sqlite"
	"github.com/glebarez/sqlite"
	"github.com/jackc/pgx/v5/pgconn"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	gormlogger "gorm.io/gorm/logger"
)

// Sentinel errors, checked with errors.Is.
var (
	// ErrNotFound: no such row.
	ErrNotFound = errors.New("store: not found")
	// ErrDuplicate: a unique key is already taken (a Message-ID already
	// recorded, a player already seated, a table name in use).
	ErrDuplicate = errors.New("store: duplicate")
	// ErrConflict: another writer changed the row first (the table's seq is
	// not the expected one, the action's seq or the seat's position is
	// taken), or PostgreSQL
	// aborted the transaction for a concurrent one (serialization failure,
	// deadlock). The transaction should run again, on fresh state.
	ErrConflict = errors.New("store: conflict")
)

// Drivers.
const (
	DriverSQLite   = "sqlite"
	DriverPostgres = "postgres"
)

// Options says which database to open.
type Options struct {
	// Driver is "sqlite" (the default when empty) or "postgres".
	Driver string
	// SQLitePath is the database file; its directory is created.
	SQLitePath string
	// PostgresDSN is a pgx DSN (URL or key=value form).
	PostgresDSN string
	// Logger receives gorm's warnings and errors (slow queries included);
	// nil discards them.
	Logger *slog.Logger
	// Now is the clock for created and updated stamps; nil means time.Now.
	Now func() time.Time
}

// Store is an open database. It is safe for concurrent use.
type Store struct {
	db     *gorm.DB
	driver string
	now    func() time.Time
	log    *slog.Logger
	// wlock serialises write transactions on SQLite (one slot); nil on
	// PostgreSQL, which has row locks.
	wlock chan struct{}
	// checkpoints copies the WAL into the database file in the background
	// (SQLite only); nil on PostgreSQL.
	checkpoints *checkpointer
}

// sqliteDSN builds the glebarez DSN for path: WAL, a busy timeout, foreign
// keys, synchronous NORMAL, BEGIN IMMEDIATE for write transactions. Pages
// of 16 KiB (set before WAL, effective for a new file) suit the outbox's
// ~20 KB messages better than 4 KiB (fewer overflow pages); 16 MB of cache
// per connection.
func sqliteDSN(path string) string {
	return "file:" + path +
		"?_pragma=page_size(16384)" +
		"&_pragma=cache_size(-16000)" +
		"&_pragma=journal_mode(WAL)" +
		"&_pragma=busy_timeout(10000)" +
		"&_pragma=foreign_keys(1)" +
		"&_pragma=synchronous(NORMAL)" +
		// Statement journals (an INSERT ... ON CONFLICT inside a
		// transaction keeps one) stay in memory rather than spilling to
		// temporary files: a few 16 KB pages made a move write one.
		"&_pragma=temp_store(MEMORY)" +
		// The background checkpointer copies the WAL; a commit does it
		// only past 64k pages (1 GB), should that one fall behind.
		"&_pragma=wal_autocheckpoint(65536)" +
		"&_txlock=immediate"
}

// Open opens the database, migrates it and returns the store.
func Open(ctx context.Context, opts Options) (*Store, error) {
	s := &Store{now: opts.Now, log: opts.Logger}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	var dial gorm.Dialector
	switch opts.Driver {
	case "", DriverSQLite:
		s.driver = DriverSQLite
		if opts.SQLitePath == "" {
			return nil, errors.New("store: sqlite: no path")
		}
		if err := createPrivate(opts.SQLitePath); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		dial = sqlite.Open(sqliteDSN(opts.SQLitePath))
		s.wlock = make(chan struct{}, 1)
	case DriverPostgres:
		s.driver = DriverPostgres
		if opts.PostgresDSN == "" {
			return nil, errors.New("store: postgres: no DSN")
		}
		dial = postgres.Open(opts.PostgresDSN)
	default:
		return nil, fmt.Errorf("store: unknown driver %q (want sqlite or postgres)", opts.Driver)
	}

	db, err := gorm.Open(dial, &gorm.Config{
		Logger: gormlogger.NewSlogLogger(s.log, gormlogger.Config{
			SlowThreshold:             time.Second,
			LogLevel:                  gormlogger.Warn,
			IgnoreRecordNotFoundError: true,
			ParameterizedQueries:      true, // never log values: they hold mail
		}),
		NowFunc:                func() time.Time { return s.now().UTC() },
		TranslateError:         true,
		PrepareStmt:            true,
		SkipDefaultTransaction: true, // our own transactions are explicit
	})
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", s.driver, err)
	}
	if err := registerTimeBounds(db); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	s.db = db
	sqlDB, err := db.DB()
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	if s.driver == DriverSQLite {
		// One connection writes (wlock); the others read concurrently.
		sqlDB.SetMaxOpenConns(4)
		sqlDB.SetMaxIdleConns(4)
		sqlDB.SetConnMaxIdleTime(0)
	} else {
		sqlDB.SetMaxOpenConns(16)
		sqlDB.SetMaxIdleConns(4)
		sqlDB.SetConnMaxIdleTime(5 * time.Minute)
	}
	if err := sqlDB.PingContext(ctx); err != nil {
		_ = sqlDB.Close()
		return nil, fmt.Errorf("store: open %s: %w", s.driver, err)
	}
	if err := s.migrate(ctx); err != nil {
		_ = sqlDB.Close()
		return nil, err
	}
	if s.driver == DriverSQLite {
		s.checkpoints = startCheckpointer(s, checkpointEvery, restartFrames)
	}
	return s, nil
}

// createPrivate creates the SQLite file at path with mode 0600, and its
// directory with mode 0700 when missing, whatever the umask: the file
// holds the bags' seeds, from which every rack follows. SQLite gives its
// -wal and -shm files the database file's mode. An existing file or
// directory is left as it is.
func createPrivate(path string) error {
	dir := filepath.Dir(path)
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
		if err := os.Chmod(dir, 0o700); err != nil {
			return err
		}
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Driver returns "sqlite" or "postgres".
func (s *Store) Driver() string { return s.driver }

// Close closes the database. Transactions in flight must have returned.
func (s *Store) Close() error {
	if s.checkpoints != nil {
		s.checkpoints.stop()
	}
	sqlDB, err := s.db.DB()
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if err := sqlDB.Close(); err != nil {
		return fmt.Errorf("store: close: %w", err)
	}
	return nil
}

// Ping says whether the database answers a trivial query within ctx.
func (s *Store) Ping(ctx context.Context) error {
	return MapErr(s.db.WithContext(ctx).Exec("SELECT 1").Error)
}

// lock takes the write slot (SQLite only), or fails when ctx ends first.
func (s *Store) lock(ctx context.Context) error {
	if s.wlock == nil {
		return nil
	}
	select {
	case s.wlock <- struct{}{}:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("store: waiting for the writer: %w", ctx.Err())
	}
}

func (s *Store) unlock() {
	if s.wlock != nil {
		<-s.wlock
		s.checkpoints.wrote()
	}
}

// unlockOnly gives the write slot back without counting a write.
func (s *Store) unlockOnly() {
	if s.wlock != nil {
		<-s.wlock
	}
}

// Tx runs fn in one write transaction: it commits if fn returns nil and
// rolls everything back if fn returns an error (returned as is) or panics
// (the panic goes on). fn must not keep tx after it returns, nor call
// Store.Tx itself (on SQLite that would wait for ever for its own slot).
func (s *Store) Tx(ctx context.Context, fn func(tx *Tx) error) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.unlock()
	return s.run(ctx, fn, nil)
}

// View runs fn in a read-only transaction: one consistent snapshot, without
// waiting for the writer on SQLite. fn must only read (PostgreSQL refuses
// writes in it; SQLite would take them outside the writer's slot).
func (s *Store) View(ctx context.Context, fn func(tx *Tx) error) error {
	return s.run(ctx, fn, &sql.TxOptions{ReadOnly: true})
}

func (s *Store) run(ctx context.Context, fn func(tx *Tx) error, opts *sql.TxOptions) error {
	var fnErr error
	var txOpts []*sql.TxOptions
	if opts != nil {
		txOpts = append(txOpts, opts)
	}
	err := s.db.WithContext(ctx).Transaction(func(g *gorm.DB) error {
		fnErr = fn(&Tx{db: g, now: s.now})
		return fnErr
	}, txOpts...)
	if err != nil && fnErr == nil {
		return fmt.Errorf("store: transaction: %w", MapErr(err))
	}
	return err
}

// Read is the pool's handle outside any transaction, for store/outbox's
// reads, which run beside the writer on SQLite. It must not write.
func (s *Store) Read(ctx context.Context) *gorm.DB { return s.db.WithContext(ctx) }

// Write runs statement-level writes outside Tx, in the writer's slot (for
// store/outbox).
func (s *Store) Write(ctx context.Context, fn func(db *gorm.DB) error) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.unlock()
	return fn(s.db.WithContext(ctx))
}

// MapErr turns the drivers' errors into the package's sentinels.
func MapErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, gorm.ErrRecordNotFound):
		return ErrNotFound
	case isUniqueViolation(err):
		return fmt.Errorf("%w: %v", ErrDuplicate, err)
	case isConcurrencyAbort(err):
		return fmt.Errorf("%w: %w", ErrConflict, err)
	}
	return err
}

// PostgreSQL SQLSTATEs (https://www.postgresql.org/docs/current/errcodes-appendix.html).
const (
	pgSerializationFailure = "40001"
	pgDeadlockDetected     = "40P01"
)

// isConcurrencyAbort recognises PostgreSQL aborting a transaction because
// of a concurrent one: run again, it may well succeed.
func isConcurrencyAbort(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == pgSerializationFailure || pgErr.Code == pgDeadlockDetected)
}

// SQLite primary result codes (an extended code carries one in its low
// byte: SQLITE_BUSY_SNAPSHOT is 517).
const (
	sqliteBusy   = 5 // SQLITE_BUSY: another connection writes
	sqliteLocked = 6 // SQLITE_LOCKED: a table lock in this process
)

// IsTemporary reports whether an error of the store's is one that running
// the same work again may mend:
//
//   - ErrConflict: a concurrent writer won (run again at once, on fresh
//     state);
//   - the context ended (shutdown, a timeout: try again later);
//   - the database is busy or unreachable: SQLite busy or locked, a lost
//     or refused connection, PostgreSQL's connection errors (SQLSTATE
//     class 08), shutdown and recovery (57P01-57P03), lack of resources
//     (class 53), a lock or statement timeout (55P03, 57014).
//
// Everything else is permanent: a constraint that does not hold, bad SQL,
// ErrNotFound, ErrDuplicate. Callers decide what their own errors are.
func IsTemporary(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, ErrConflict) ||
		errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, driver.ErrBadConn) || errors.Is(err, sql.ErrConnDone) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, pgconn.ErrConnClosed) {
		return true
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return temporarySQLState(pgErr.Code)
	}
	var sqliteErr *gosqlite.Error
	if errors.As(err, &sqliteErr) {
		code := sqliteErr.Code() & 0xff
		return code == sqliteBusy || code == sqliteLocked
	}
	var connectErr *pgconn.ConnectError
	var netErr net.Error
	return errors.As(err, &connectErr) || errors.As(err, &netErr) ||
		pgconn.Timeout(err) || pgconn.SafeToRetry(err)
}

// temporarySQLState says which PostgreSQL errors IsTemporary retries.
func temporarySQLState(code string) bool {
	switch code {
	case pgSerializationFailure, pgDeadlockDetected,
		"55P03", // lock_not_available (lock_timeout)
		"57014", // query_canceled (statement_timeout, a cancelled context)
		"57P01", // admin_shutdown
		"57P02", // crash_shutdown
		"57P03": // cannot_connect_now (starting up, in recovery)
		return true
	}
	// Class 08: connection exception; class 53: insufficient resources
	// (too many connections, disk full, out of memory).
	return strings.HasPrefix(code, "08") || strings.HasPrefix(code, "53")
}

// isUniqueViolation recognises a unique-key violation from either driver:
// gorm's translation where it has one, else the drivers' texts (SQLite's
// extended code is not always reported; PostgreSQL's SQLSTATE is 23505).
func isUniqueViolation(err error) bool {
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return true
	}
	msg := err.Error()
	return strings.Contains(msg, "UNIQUE constraint failed") ||
		strings.Contains(msg, "SQLSTATE 23505")
}
