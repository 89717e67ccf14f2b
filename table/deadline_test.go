package table_test

import (
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/table"
)

// TestDeadlines drives a table's clock (EMAIL §5, RULES §9): reminders,
// expiry, the away grace, presence again, and a move that comes after its
// deadline.
func TestDeadlines(t *testing.T) { lexiotest.EachDriver(t, testDeadlines) }

func testDeadlines(t *testing.T, driver string) {
	h := lexiotest.New(t, lexiotest.Options{Driver: driver})
	t0 := h.Clock.Now()
	const name = "dl"
	if err := h.Lobby.CreateTable(h.Ctx, name, "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.WaitMail("alice", 1)
	h.WaitMail("bob", 1)
	if d := h.Deadline(name); !d.Equal(t0.Add(72 * time.Hour)) {
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
		h.TickAt(t0.Add(s.at))
		if got := h.Count("alice", "reminder"); got != s.reminders {
			t.Fatalf("at +%v: %d reminders, want %d", s.at, got, s.reminders)
		}
	}
	if n := h.Count("bob", "reminder"); n != 0 {
		t.Errorf("bob received %d reminders", n)
	}
	lexiotest.MustContain(t, "reminder", h.LastOf("alice", "reminder").Subject, "2 h")

	// RULES §9.1: the turn expires; alice is away; she is told, and both
	// get the turn notice (EMAIL §5.2).
	if n := h.TickAt(t0.Add(72 * time.Hour)); n != 1 {
		t.Errorf("Tick handled %d tables", n)
	}
	g := h.Game(name)
	acts := g.Actions()
	if len(acts) != 1 || acts[0].Kind != engine.ActExpire || acts[0].Player != 0 || !acts[0].At.Equal(t0.Add(72*time.Hour)) {
		t.Fatalf("actions after the deadline: %+v", acts)
	}
	if !g.Away(0) || g.Turn() != 1 {
		t.Fatalf("away %v, turn %d", g.Away(0), g.Turn())
	}
	if h.Count("alice", "expired") != 1 || h.Count("bob", "expired") != 0 {
		t.Errorf("expired mails: alice %d, bob %d", h.Count("alice", "expired"), h.Count("bob", "expired"))
	}
	// The mail gives the deadline that passed and who plays next, and,
	// alice being away now, her grace (2 h) and how to come back (BOARD).
	expired := h.LastOf("alice", "expired").Text
	lexiotest.MustTell(t, "expired", expired, t0.Add(72*time.Hour))
	lexiotest.MustContain(t, "expired", lexiotest.Intro(expired), "Bob", "2 h", "BOARD")
	for _, p := range []string{"alice", "bob"} {
		if n := lexiotest.Seq(h.LastOf(p, "turn-notice")); n != 1 {
			t.Errorf("%s: latest notice of turn %d, want 1", p, n)
		}
	}
	h.TickAt(t0.Add(72*time.Hour + time.Minute))
	if n := h.Count("alice", "expired"); n != 1 {
		t.Errorf("a second tick expired again: %d", n)
	}

	// RULES §9.2: bob passes; alice, away, has only the grace.
	h.Clock.Add(time.Hour)
	h.Expect(h.Send("bob", "PASS"), table.OutcomeApplied, "PASS")
	start := t0.Add(73*time.Hour + time.Minute)
	if d := h.Deadline(name); !d.Equal(start.Add(2 * time.Hour)) {
		t.Fatalf("away deadline %v, want the grace after %v", d, start)
	}
	// No reminder for a 2 h turn.
	h.TickAt(start.Add(time.Hour + 30*time.Minute))
	if n := h.Count("alice", "reminder"); n != 2 {
		t.Errorf("reminders for the away turn: %d", n-2)
	}

	// A message from her makes her present; the limit still counts from
	// the turn's start.
	h.Expect(h.Send("alice", "BOARD"), table.OutcomeApplied, "BOARD")
	if g = h.Game(name); g.Away(0) || g.Turn() != 0 {
		t.Fatalf("after BOARD: away %v, turn %d", g.Away(0), g.Turn())
	}
	if d := h.Deadline(name); !d.Equal(start.Add(72 * time.Hour)) {
		t.Errorf("deadline once present %v, want turn_time after the turn's start %v", d, start)
	}

	// RULES §9.1: a move that arrives after its deadline, before any
	// tick, is too late: the turn passed first.
	h.Clock.Add(start.Add(72*time.Hour + time.Second).Sub(h.Clock.Now()))
	cmd := lexiotest.FindMove(h.Game(name), 0)
	h.Expect(h.Send("alice", cmd), table.OutcomeRejected, "not-your-turn")
	g = h.Game(name)
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
func TestCatchUp(t *testing.T) { lexiotest.EachDriver(t, testCatchUp) }

func testCatchUp(t *testing.T, driver string) {
	h := lexiotest.New(t, lexiotest.Options{Driver: driver})
	t0 := h.Clock.Now()
	if err := h.Lobby.CreateTable(h.Ctx, "ca", "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.Clock.Add(time.Hour)
	if err := h.Lobby.CreateTable(h.Ctx, "cb", "main", lexiotest.Emails("carol", "dave"), 6); err != nil {
		t.Fatal(err)
	}
	// Down for several turn lengths: one Tick.
	h.TickAt(t0.Add(5 * 72 * time.Hour))
	for table, off := range map[string]time.Duration{"ca": 0, "cb": time.Hour} {
		// Present players have 72 h, away ones the 2 h grace; the fourth
		// expiry in a row ends a game of two (RULES §11.2).
		want := []time.Duration{72 * time.Hour, 144 * time.Hour, 146 * time.Hour, 148 * time.Hour}
		g := h.Game(table)
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
	for _, l := range strings.Split(h.Logs.String(), "\n") {
		if strings.Contains(l, "turn expired") {
			_, tb, _ := strings.Cut(l, "table=")
			order = append(order, strings.Fields(tb)[0])
		}
	}
	if strings.Join(order, " ") != "ca cb ca cb ca cb ca cb" {
		t.Errorf("expiries logged in the order %v", order)
	}
	for _, p := range []string{"alice", "bob", "carol", "dave"} {
		if n := h.Count(p, "game-over"); n != 1 {
			t.Errorf("%s: %d game-over mails", p, n)
		}
	}
	if n := h.TickAt(t0.Add(6 * 72 * time.Hour)); n != 0 {
		t.Errorf("a later tick handled %d tables", n)
	}
}
