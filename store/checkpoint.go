package store

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"gorm.io/gorm"
)

// checkpointEvery is how often the checkpointer looks for new writes;
// checkpointWrites write transactions call it sooner.
const (
	checkpointEvery  = 200 * time.Millisecond
	checkpointWrites = 32
)

// restartFrames is the WAL length (in pages) past which the checkpointer
// restarts the WAL: a PASSIVE checkpoint never completes while writes go
// on without pause, and the WAL would grow until wal_autocheckpoint.
const restartFrames = 4096 // 64 MB of 16 KB pages

// checkpointer copies SQLite's write-ahead log into the database file
// from a connection of its own, so that no commit pays for it: left to
// SQLite, the commit that fills the WAL past wal_autocheckpoint copies
// the whole of it while the writer waits. A PASSIVE checkpoint neither
// blocks nor waits for the writer or the readers; what it cannot copy
// yet it copies on its next round, and the WAL starts over from its
// beginning once all of it was copied.
type checkpointer struct {
	db      *gorm.DB
	log     *slog.Logger
	store   *Store       // whose writer slot a RESTART takes
	restart int          // restartFrames (a test lowers it)
	writes  atomic.Int64 // write transactions since the last round
	soon    chan struct{}
	done    chan struct{}
	stopped sync.WaitGroup
	once    sync.Once
}

func startCheckpointer(s *Store, every time.Duration, restart int) *checkpointer {
	c := &checkpointer{db: s.db, log: s.log, store: s, restart: restart, soon: make(chan struct{}, 1), done: make(chan struct{})}
	c.stopped.Add(1)
	go c.run(every)
	return c
}

// wrote counts a write transaction (committed or not: either may have
// left frames in the WAL).
func (c *checkpointer) wrote() {
	if c != nil && c.writes.Add(1) >= checkpointWrites {
		select {
		case c.soon <- struct{}{}:
		default:
		}
	}
}

func (c *checkpointer) run(every time.Duration) {
	defer c.stopped.Done()
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-c.done:
			return
		case <-t.C:
		case <-c.soon:
		}
		if c.writes.Swap(0) == 0 {
			continue
		}
		if err := c.checkpoint(); err != nil {
			c.log.Warn("store: background checkpoint failed; the next round retries", "err", err)
			c.writes.Add(1)
		}
	}
}

// checkpoint runs one PASSIVE checkpoint, and a RESTART one when the WAL
// has grown past c.restart pages: that one takes the writer slot (SQLite's
// busy handler alone would let back-to-back writers starve it), copies
// what PASSIVE could not, and starts the WAL over.
func (c *checkpointer) checkpoint() error {
	logFrames, copied, err := c.run1("PASSIVE")
	if err == nil && logFrames > c.restart {
		if err = c.store.lock(context.Background()); err != nil {
			return err
		}
		logFrames, copied, err = c.run1("RESTART")
		c.store.unlockOnly()
	}
	if err == nil && copied < logFrames {
		// Readers still use older frames: copy the rest next round.
		c.writes.Add(1)
	}
	return err
}

func (c *checkpointer) run1(mode string) (logFrames, copied int, err error) {
	var busy int
	err = c.db.Raw("PRAGMA wal_checkpoint("+mode+")").Row().Scan(&busy, &logFrames, &copied)
	return logFrames, copied, err
}

// stop ends the goroutine, after a last checkpoint.
func (c *checkpointer) stop() {
	c.once.Do(func() {
		close(c.done)
		c.stopped.Wait()
		if err := c.checkpoint(); err != nil {
			c.log.Debug("store: last checkpoint", "err", err)
		}
	})
}
