package store

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// The SQLite file (with its -wal and -shm) and the data directory lexio
// creates are its owner's only, whatever the umask: they hold the seeds.
func TestSQLiteFilesArePrivate(t *testing.T) {
	old := syscall.Umask(0) // the loosest: nothing is masked
	defer syscall.Umask(old)
	dir := filepath.Join(t.TempDir(), "data", "lexio")
	path := filepath.Join(dir, "lexio.db")
	s, err := Open(context.Background(), Options{SQLitePath: path})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Tx(context.Background(), func(tx *Tx) error {
		return tx.RecordMessage(&Message{MessageID: "<m@example.org>", Outcome: "applied"})
	}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		path string
		want os.FileMode
	}{
		{dir, 0o700}, {path, 0o600}, {path + "-wal", 0o600}, {path + "-shm", 0o600},
	} {
		fi, err := os.Stat(f.path)
		if err != nil {
			t.Errorf("%s: %v", f.path, err)
			continue
		}
		if got := fi.Mode().Perm(); got != f.want {
			t.Errorf("%s: mode %04o, want %04o", filepath.Base(f.path), got, f.want)
		}
	}
}
