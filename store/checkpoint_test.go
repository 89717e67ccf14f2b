package store

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestBackgroundCheckpoint: commits only append to the WAL; the
// checkpointer copies it into the database file within a few rounds, and
// the WAL is then reused rather than grown, even under writes without
// pause (the restart length, lowered here).
func TestBackgroundCheckpoint(t *testing.T) {
	const restart = 512 // 8 MB
	path := filepath.Join(t.TempDir(), "lexio.db")
	s, err := Open(context.Background(), Options{Driver: DriverSQLite, SQLitePath: path})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.checkpoints.stop()
	s.checkpoints = startCheckpointer(s, checkpointEvery, restart)
	size := func(p string) int64 {
		fi, err := os.Stat(p)
		if err != nil {
			return 0
		}
		return fi.Size()
	}
	body := bytes.Repeat([]byte("lexio outbox body "), 2300) // ~40 KB
	write := func(round, n int) {
		for i := range n {
			mustTx(t, s, func(tx *Tx) error {
				return enqueue(tx, []*OutboxMail{{MessageID: fmt.Sprintf("<%d.%d@x>", round, i), From: "lexio@x", To: []string{"a@x"}, Raw: body}})
			})
		}
	}
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for !cond() {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s (db %d bytes, wal %d)", what, size(path), size(path+"-wal"))
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	before := size(path)
	write(0, 100) // ~4 MB, well under wal_autocheckpoint
	waitFor("the WAL copied into the database", func() bool { return size(path) > before+3<<20 })
	// 16 MB more without pause: the WAL stays near the restart length.
	write(1, 400)
	waitFor("everything copied", func() bool { return size(path) > before+19<<20 })
	if got, limit := size(path+"-wal"), int64(restart+600)*16<<10; got > limit {
		t.Errorf("the WAL grew to %d bytes (restart at %d pages): it is not reused", got, restart)
	}
}
