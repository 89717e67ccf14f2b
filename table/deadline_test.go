package table_test

import (
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/table"
)

// tickAt sets the clock and runs one Tick.
func (h *harness) tickAt(at time.Time) int {
	h.t.Helper()
	h.clock.Add(at.Sub(h.clock.Now()))
	return h.tick(at)
}

func (h *harness) deadline(table string) time.Time {
	h.t.Helper()
	sum, err := h.views.Show(h.ctx, table)
	if err != nil {
		h.t.Fatal(err)
	}
	if sum.Deadline == nil {
		h.t.Fatalf("table %s has no deadline", table)
	}
	return *sum.Deadline
}

func (h *harness) count(name, k string) int {
	h.t.Helper()
	h.outboxEmpty()
	return len(ofKind(h.inbox(name), k))
}

// TestDeadlines drives a table's clock (EMAIL §5, RULES §9): reminders,
// expiry, the away grace, presence again, and a move that comes after its
// deadline.
func TestDeadlines(t *testing.T) { eachDriver(t, testDeadlines) }

func testDeadlines(t *testing.T, driver string) {
	h := newHarness(t, harnessOpts{driver: driver})
	t0 := h.clock.Now()
	const name = "dl"
	if err := h.lobby.CreateTable(h.ctx, name, "main", emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.waitMail("alice", 1)
	h.waitMail("bob", 1)
	if d := h.deadline(name); !d.Equal(t0.Add(72 * time.Hour)) {
		t.Fatalf("deadline %v, want turn_time after the start", d)
	}

	// EMAIL §5.1: reminders 24 h and 2 h before the deadline, each once,
	// to the player to move only.
	steps := []struct {
		at        time.Duration
		reminders int
	}{
		{47 * time.Hour, 0}, {48 * time.Hour, 1}, {48*time.Hour + time.Minute, 1}, {60 * time.Hour, 1},
		{70 * time.Hour, 2}, {71 * time.Hour, 2}, {71*time.Hour + 59*time.Minute, 2},
	}
	for _, s := range steps {
		h.tickAt(t0.Add(s.at))
		if got := h.count("alice", "reminder"); got != s.reminders {
			t.Fatalf("at +%v: %d reminders, want %d", s.at, got, s.reminders)
		}
	}
	if n := h.count("bob", "reminder"); n != 0 {
		t.Errorf("bob received %d reminders", n)
	}
	mustContain(t, "reminder", h.lastOf("alice", "reminder").Subject, "2 h")

	// RULES §9.1: the turn expires; alice is away; she is told, and both
	// get the turn notice (EMAIL §5.2).
	if n := h.tickAt(t0.Add(72 * time.Hour)); n != 1 {
		t.Errorf("Tick handled %d tables", n)
	}
	g := h.game(name)
	acts := g.Actions()
	if len(acts) != 1 || acts[0].Kind != engine.ActExpire || acts[0].Player != 0 || !acts[0].At.Equal(t0.Add(72*time.Hour)) {
		t.Fatalf("actions after the deadline: %+v", acts)
	}
	if !g.Away(0) || g.Turn() != 1 {
		t.Fatalf("away %v, turn %d", g.Away(0), g.Turn())
	}
	if h.count("alice", "expired") != 1 || h.count("bob", "expired") != 0 {
		t.Errorf("expired mails: alice %d, bob %d", h.count("alice", "expired"), h.count("bob", "expired"))
	}
	// The mail gives the deadline that passed and who plays next, and,
	// alice being away now, her grace (2 h) and how to come back (BOARD).
	expired := h.lastOf("alice", "expired").Text
	mustTell(t, "expired", expired, t0.Add(72*time.Hour))
	mustContain(t, "expired", intro(expired), "Bob", "2 h", "BOARD")
	for _, p := range []string{"alice", "bob"} {
		if n := seqOf(h.lastOf(p, "turn-notice")); n != 1 {
			t.Errorf("%s: latest notice of turn %d, want 1", p, n)
		}
	}
	h.tickAt(t0.Add(72*time.Hour + time.Minute))
	if n := h.count("alice", "expired"); n != 1 {
		t.Errorf("a second tick expired again: %d", n)
	}

	// RULES §9.2: bob passes; alice, away, has only the grace.
	h.clock.Add(time.Hour)
	h.expect(h.send("bob", "PASS"), table.OutcomeApplied, "PASS")
	start := t0.Add(73*time.Hour + time.Minute)
	if d := h.deadline(name); !d.Equal(start.Add(2 * time.Hour)) {
		t.Fatalf("away deadline %v, want the grace after %v", d, start)
	}
	// No reminder for a 2 h turn.
	h.tickAt(start.Add(time.Hour + 30*time.Minute))
	if n := h.count("alice", "reminder"); n != 2 {
		t.Errorf("reminders for the away turn: %d", n-2)
	}

	// A message from her makes her present; the limit still counts from
	// the turn's start.
	h.expect(h.send("alice", "BOARD"), table.OutcomeApplied, "BOARD")
	if g = h.game(name); g.Away(0) || g.Turn() != 0 {
		t.Fatalf("after BOARD: away %v, turn %d", g.Away(0), g.Turn())
	}
	if d := h.deadline(name); !d.Equal(start.Add(72 * time.Hour)) {
		t.Errorf("deadline once present %v, want turn_time after the turn's start %v", d, start)
	}

	// RULES §9.1: a move that arrives after its deadline, before any
	// tick, is too late: the turn passed first.
	h.clock.Add(start.Add(72*time.Hour + time.Second).Sub(h.clock.Now()))
	cmd := findMove(h.game(name), 0)
	h.expect(h.send("alice", cmd), table.OutcomeRejected, "not-your-turn")
	g = h.game(name)
	acts = g.Actions()
	// The turn expired at its deadline, then her message made her
	// present again (RULES §9.2).
	exp, present := acts[len(acts)-2], acts[len(acts)-1]
	if exp.Kind != engine.ActExpire || exp.Player != 0 || !exp.At.Equal(start.Add(72*time.Hour)) || g.Turn() != 1 {
		t.Fatalf("action %+v, turn %d", exp, g.Turn())
	}
	if present.Kind != engine.ActPresent || g.Away(0) {
		t.Errorf("after her late message: %+v, away %v", present, g.Away(0))
	}
	for _, a := range acts {
		if a.Kind == engine.ActPlace {
			t.Fatalf("the late move was played: %+v", a)
		}
	}
}

// TestCatchUp: after downtime, one Tick enforces every missed deadline of
// every table at the deadline times, in time order across the tables
// (EMAIL §5.2), so that games end in the order they would have.
func TestCatchUp(t *testing.T) { eachDriver(t, testCatchUp) }

func testCatchUp(t *testing.T, driver string) {
	h := newHarness(t, harnessOpts{driver: driver})
	t0 := h.clock.Now()
	if err := h.lobby.CreateTable(h.ctx, "ca", "main", emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.clock.Add(time.Hour)
	if err := h.lobby.CreateTable(h.ctx, "cb", "main", emails("carol", "dave"), 6); err != nil {
		t.Fatal(err)
	}
	// Down for several turn lengths: one Tick.
	h.tickAt(t0.Add(5 * 72 * time.Hour))
	for table, off := range map[string]time.Duration{"ca": 0, "cb": time.Hour} {
		// Present players have 72 h, away ones the 2 h grace; the fourth
		// expiry in a row ends a game of two (RULES §11.2).
		want := []time.Duration{72 * time.Hour, 144 * time.Hour, 146 * time.Hour, 148 * time.Hour}
		g := h.game(table)
		var got []time.Duration
		for _, a := range g.Actions() {
			if a.Kind != engine.ActExpire {
				t.Errorf("%s: action %+v", table, a)
			}
			got = append(got, a.At.Sub(t0.Add(off)))
		}
		if len(got) != len(want) {
			t.Fatalf("%s: expiries at %v, want %v", table, got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s: expiry %d at +%v, want +%v", table, i, got[i], want[i])
			}
		}
		if !g.Over() {
			t.Errorf("%s: not over after %d expiries", table, len(got))
		}
	}
	// The log tells them in deadline order, across the tables.
	var order []string
	for _, l := range strings.Split(h.logs.String(), "\n") {
		if strings.Contains(l, "turn expired") {
			_, tb, _ := strings.Cut(l, "table=")
			order = append(order, strings.Fields(tb)[0])
		}
	}
	if strings.Join(order, " ") != "ca cb ca cb ca cb ca cb" {
		t.Errorf("expiries logged in the order %v", order)
	}
	for _, p := range []string{"alice", "bob", "carol", "dave"} {
		if n := h.count(p, "game-over"); n != 1 {
			t.Errorf("%s: %d game-over mails", p, n)
		}
	}
	if n := h.tickAt(t0.Add(6 * 72 * time.Hour)); n != 0 {
		t.Errorf("a later tick handled %d tables", n)
	}
}
