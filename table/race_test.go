package table_test

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/store"
)

// holdDict accepts every word. Once armed, its first lookup signals
// entered and waits for release: it holds a placement inside its
// transaction, after the table was read and before anything is written.
type holdDict struct {
	mu      sync.Mutex
	armed   bool
	entered chan struct{}
	release chan struct{}
}

func newHoldDict() *holdDict {
	return &holdDict{entered: make(chan struct{}), release: make(chan struct{})}
}

func (d *holdDict) arm() {
	d.mu.Lock()
	d.armed = true
	d.mu.Unlock()
}

func (d *holdDict) Contains(string) bool {
	d.mu.Lock()
	hold := d.armed
	d.armed = false
	d.mu.Unlock()
	if hold {
		close(d.entered)
		<-d.release
	}
	return true
}

// checkLog checks that the table's log and its snapshot agree: seqs 1..n
// without a gap, the row's seq n, the stored game's actions those of the
// log. It returns the log.
func (h *harness) checkLog(name string) []store.Action {
	h.t.Helper()
	var acts []store.Action
	var row *store.Table
	err := h.store.View(h.ctx, func(tx *store.Tx) error {
		var err error
		if row, err = tx.TableByName(name); err != nil {
			return err
		}
		acts, err = tx.Actions(row.ID)
		return err
	})
	if err != nil {
		h.t.Fatal(err)
	}
	for i, a := range acts {
		if a.Seq != int64(i+1) {
			h.t.Errorf("log entry %d has seq %d", i, a.Seq)
		}
	}
	if row.Seq != int64(len(acts)) {
		h.t.Errorf("table seq %d, log of %d", row.Seq, len(acts))
	}
	g := h.game(name)
	if len(g.Actions()) != len(acts) {
		h.t.Fatalf("stored game has %d actions, the log %d", len(g.Actions()), len(acts))
	}
	for i, a := range g.Actions() {
		if string(a.Kind) != acts[i].Kind {
			h.t.Errorf("action %d: game %s, log %s", i+1, a.Kind, acts[i].Kind)
		}
	}
	return acts
}

// TestMoveRacesExpiry: alice's move is read and judged while her turn
// runs out, and the scheduler expires it meanwhile. On PostgreSQL the two
// transactions run at once: the expiry commits first, the move's write
// meets a conflict and its transaction runs again on the fresh state,
// where the turn has passed — the move is refused as too late, answered
// and recorded once. It must not be taken for a message already handled
// (and dropped unanswered). On SQLite, whose writers are serialised, the
// move commits first and the expiry then finds nothing due. Either way
// the log and the snapshot agree.
func TestMoveRacesExpiry(t *testing.T) { eachDriver(t, testMoveRacesExpiry) }

func testMoveRacesExpiry(t *testing.T, driver string) {
	dict := newHoldDict()
	h := newHarness(t, harnessOpts{driver: driver, dict: dict})
	defer func() {
		if t.Failed() {
			t.Logf("log:\n%s", h.logs)
		}
	}()
	const name = "race"
	if err := h.svc.CreateTable(h.ctx, name, "main", emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.waitMail("alice", 1)
	h.waitMail("bob", 1)
	deadline := h.deadline(name)

	// Alice moves a minute before her deadline; her transaction stops in
	// the dictionary.
	h.clock.Add(deadline.Add(-time.Minute).Sub(h.clock.Now()))
	dict.arm()
	id := h.send("alice", findMove(h.game(name), 0))
	select {
	case <-dict.entered:
	case <-time.After(20 * time.Second):
		t.Fatal("the move never reached the dictionary")
	}

	// The deadline passes and the scheduler runs.
	h.clock.Add(2 * time.Minute)
	type tick struct {
		n   int
		err error
	}
	ticked := make(chan tick, 1)
	go func() {
		n, err := h.svc.Tick(h.ctx, h.clock.Now())
		ticked <- tick{n, err}
	}()
	var tk tick
	if driver == store.DriverPostgres {
		// Nothing holds the expiry back: it commits while the move waits.
		tk = <-ticked
		close(dict.release)
	} else {
		// The expiry waits for the move's write slot.
		close(dict.release)
		tk = <-ticked
	}
	if tk.err != nil {
		t.Fatalf("Tick: %v", tk.err)
	}

	// The move is recorded — or, the bug, dropped as a duplicate.
	var rec *store.Message
	h.waitFor("the move recorded or dropped", func() bool {
		err := h.store.View(h.ctx, func(tx *store.Tx) error {
			var err error
			rec, err = tx.MessageByID(id)
			return err
		})
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			t.Fatal(err)
		}
		return err == nil || strings.Contains(h.logs.String(), "message already handled")
	})
	if rec == nil {
		t.Fatal("the move was taken for a message already handled: neither applied nor answered")
	}
	h.outboxEmpty()
	acts := h.checkLog(name)
	kinds := make([]string, len(acts))
	for i, a := range acts {
		kinds[i] = a.Kind
	}
	got := strings.Join(kinds, ",")
	rejected := len(ofKind(h.inbox("alice"), "rejected"))
	switch driver {
	case store.DriverPostgres:
		if tk.n != 1 {
			t.Errorf("Tick handled %d tables, want 1", tk.n)
		}
		// The expiry, then her message made her present again
		// (RULES §9.2); no placement.
		if rec.Outcome != store.OutcomeRejected || got != "expire,present" {
			t.Errorf("move %s %q, log %s; want rejected, expire,present", rec.Outcome, rec.Reason, got)
		}
		if rejected != 1 {
			t.Errorf("alice received %d refusals, want 1", rejected)
		}
		if n := len(ofKind(h.inbox("alice"), "expired")); n != 1 {
			t.Errorf("alice received %d expiry notices, want 1", n)
		}
		if !strings.Contains(h.logs.String(), "conflict") {
			t.Error("the move's transaction never met the conflict: the race was not run")
		}
	default:
		if rec.Outcome != store.OutcomeApplied || got != string(engine.ActPlace) {
			t.Errorf("move %s %q, log %s; want applied, place", rec.Outcome, rec.Reason, got)
		}
		if rejected != 0 {
			t.Errorf("alice received %d refusals", rejected)
		}
	}
	if strings.Contains(h.logs.String(), "message already handled") {
		t.Error("a message was taken for already handled")
	}
}
