package table_test

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/table"
)

// gate holds the first caller of pass after arm until release is closed,
// closing entered when it arrives; later callers go through.
type gate struct {
	mu      sync.Mutex
	armed   bool
	entered chan struct{}
	release chan struct{}
}

func newGate() *gate {
	return &gate{entered: make(chan struct{}), release: make(chan struct{})}
}

func (g *gate) arm() {
	g.mu.Lock()
	g.armed = true
	g.mu.Unlock()
}

func (g *gate) pass() {
	g.mu.Lock()
	hold := g.armed
	g.armed = false
	g.mu.Unlock()
	if hold {
		close(g.entered)
		<-g.release
	}
}

// waitEntered waits until the gate holds its caller.
func (g *gate) waitEntered(t *testing.T, what string) {
	t.Helper()
	select {
	case <-g.entered:
	case <-time.After(20 * time.Second):
		t.Fatalf("%s never reached the gate", what)
	}
}

// holdDict accepts every word; its lookups pass its gate, which holds a
// placement inside its transaction, after the table was read and before
// anything is written.
type holdDict struct{ *gate }

func (d holdDict) Contains(string) bool {
	d.pass()
	return true
}

// checkLog checks that the table's log and its row agree: seqs 1..n
// without a gap, the row's seq n, the rebuilt game's actions those of the
// log. It returns the log.
func checkLog(h *lexiotest.Harness, name string) []store.Action {
	h.T.Helper()
	var acts []store.Action
	var row *store.Table
	err := h.Store.View(h.Ctx, func(tx *store.Tx) error {
		var err error
		if row, err = tx.TableByName(name); err != nil {
			return err
		}
		acts, err = tx.Actions(row.ID)
		return err
	})
	if err != nil {
		h.T.Fatal(err)
	}
	for i, a := range acts {
		if a.Seq != int64(i+1) {
			h.T.Errorf("log entry %d has seq %d", i, a.Seq)
		}
	}
	if row.Seq != int64(len(acts)) {
		h.T.Errorf("table seq %d, log of %d", row.Seq, len(acts))
	}
	g := h.Game(name)
	if len(g.Actions()) != len(acts) {
		h.T.Fatalf("stored game has %d actions, the log %d", len(g.Actions()), len(acts))
	}
	for i, a := range g.Actions() {
		if string(a.Kind) != acts[i].Kind {
			h.T.Errorf("action %d: game %s, log %s", i+1, a.Kind, acts[i].Kind)
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
// the log and the table row agree.
func TestMoveRacesExpiry(t *testing.T) { lexiotest.EachDriver(t, testMoveRacesExpiry) }

func testMoveRacesExpiry(t *testing.T, driver string) {
	dict := holdDict{newGate()}
	h := lexiotest.New(t, lexiotest.Options{Driver: driver, Sockets: true, Dict: dict})
	defer func() {
		if t.Failed() {
			t.Logf("log:\n%s", h.Logs)
		}
	}()
	const name = "race"
	if err := h.Lobby.CreateTable(h.Ctx, name, "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.WaitMail("alice", 1)
	h.WaitMail("bob", 1)
	deadline := h.Deadline(name)

	// Alice moves a minute before her deadline; her transaction stops in
	// the dictionary.
	h.Clock.Add(deadline.Add(-time.Minute).Sub(h.Clock.Now()))
	dict.arm()
	id := h.Send("alice", lexiotest.FindMove(h.Game(name), 0))
	dict.waitEntered(t, "the move")

	// The deadline passes and the scheduler runs.
	h.Clock.Add(2 * time.Minute)
	type tick struct {
		n   int
		err error
	}
	ticked := make(chan tick, 1)
	go func() {
		n, err := h.RunTick(h.Clock.Now())
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
	h.WaitFor("the move recorded or dropped", func() bool {
		err := h.Store.View(h.Ctx, func(tx *store.Tx) error {
			var err error
			rec, err = tx.MessageByID(id)
			return err
		})
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			t.Fatal(err)
		}
		return err == nil || strings.Contains(h.Logs.String(), "message already handled")
	})
	if rec == nil {
		t.Fatal("the move was taken for a message already handled: neither applied nor answered")
	}
	h.OutboxEmpty()
	acts := checkLog(h, name)
	kinds := make([]string, len(acts))
	for i, a := range acts {
		kinds[i] = a.Kind
	}
	got := strings.Join(kinds, ",")
	rejected := len(lexiotest.OfKind(h.Inbox("alice"), "rejected"))
	switch driver {
	case store.DriverPostgres:
		if tk.n != 1 {
			t.Errorf("Tick handled %d tables, want 1", tk.n)
		}
		// The expiry, then her message made her present again
		// (RULES §9.2); no placement.
		if rec.Outcome != table.OutcomeRejected || got != "expire,present" {
			t.Errorf("move %s %q, log %s; want rejected, expire,present", rec.Outcome, rec.Reason, got)
		}
		if rejected != 1 {
			t.Errorf("alice received %d refusals, want 1", rejected)
		}
		if n := len(lexiotest.OfKind(h.Inbox("alice"), "expired")); n != 1 {
			t.Errorf("alice received %d expiry notices, want 1", n)
		}
		if !strings.Contains(h.Logs.String(), "conflict") {
			t.Error("the move's transaction never met the conflict: the race was not run")
		}
	default:
		if rec.Outcome != table.OutcomeApplied || got != string(engine.ActPlace) {
			t.Errorf("move %s %q, log %s; want applied, place", rec.Outcome, rec.Reason, got)
		}
		if rejected != 0 {
			t.Errorf("alice received %d refusals", rejected)
		}
	}
	if strings.Contains(h.Logs.String(), "message already handled") {
		t.Error("a message was taken for already handled")
	}
}

// TestExpiryRacesMove: the scheduler reads a table whose turn ran out, and
// the player's message changes the table before the expiry is written
// (a placement with an unknown word: a probe, which keeps the turn). On
// PostgreSQL the message commits first; the expiry's write meets a
// conflict and Tick handles the table again, on the fresh state, in the
// same tick: the turn still ran out, and expires after the probe. On
// SQLite the expiry holds the writer: it commits first, and the message
// then comes too late.
func TestExpiryRacesMove(t *testing.T) { lexiotest.EachDriver(t, testExpiryRacesMove) }

func testExpiryRacesMove(t *testing.T, driver string) {
	h := lexiotest.New(t, lexiotest.Options{Driver: driver, Sockets: true, Dict: lexiotest.Words{}})
	defer func() {
		if t.Failed() {
			t.Logf("log:\n%s", h.Logs)
		}
	}()
	const name = "race"
	if err := h.Lobby.CreateTable(h.Ctx, name, "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.WaitMail("alice", 1)
	h.WaitMail("bob", 1)
	deadline := h.Deadline(name)
	g := newGate()
	table.SetTickHook(h.Tables, func(int64) { g.pass() })

	// The scheduler runs a minute after the deadline and stops in the
	// table's transaction, having read it.
	g.arm()
	type tick struct {
		n   int
		err error
	}
	ticked := make(chan tick, 1)
	go func() {
		n, err := h.RunTick(deadline.Add(time.Minute))
		ticked <- tick{n, err}
	}()
	g.waitEntered(t, "the tick")

	// Alice's message was read a minute before her deadline.
	h.Clock.Add(deadline.Add(-time.Minute).Sub(h.Clock.Now()))
	id := h.Send("alice", lexiotest.FindMove(h.Game(name), 0))
	var rec store.Message
	if driver == store.DriverPostgres {
		// Nothing holds the message back: it commits while the tick waits.
		rec = h.Handled(id)
		close(g.release)
	} else {
		// The message waits for the tick's write slot.
		close(g.release)
		rec = h.Handled(id)
	}
	tk := <-ticked
	if tk.err != nil {
		t.Fatalf("Tick: %v", tk.err)
	}
	h.Clock.Add(2 * time.Minute) // the tick's mails are due
	h.OutboxEmpty()
	acts := checkLog(h, name)
	kinds := make([]string, len(acts))
	for i, a := range acts {
		kinds[i] = a.Kind
	}
	got := strings.Join(kinds, ",")
	want, outcome, reason := "probe,expire", table.OutcomeRejected, "unknown-words"
	if driver != store.DriverPostgres {
		want, reason = "expire,present", "not-your-turn"
	}
	if got != want {
		t.Errorf("log %s, want %s", got, want)
	}
	if rec.Outcome != outcome || !strings.Contains(rec.Reason, reason) {
		t.Errorf("message %s %q, want %s %q", rec.Outcome, rec.Reason, outcome, reason)
	}
	if tk.n != 1 {
		t.Errorf("Tick handled %d tables, want 1", tk.n)
	}
	if n := len(lexiotest.OfKind(h.Inbox("alice"), "expired")); n != 1 {
		t.Errorf("alice received %d expiry notices, want 1", n)
	}
	if driver == store.DriverPostgres && !strings.Contains(h.Logs.String(), "conflict") {
		t.Error("the tick never met the conflict: the race was not run")
	}
	if strings.Contains(h.Logs.String(), "deadline handling failed") {
		t.Error("a conflict was logged as a failure")
	}
}
