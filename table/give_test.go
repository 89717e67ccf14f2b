package table_test

import (
	"errors"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/table"
)

// TestGiveOperation: GIVE's rule as the typed operation it is (issue
// #35), called with no parser and no mail: each refusal is a
// *table.GiveError of its kind, with what its refusal tells, and writes
// nothing; a gift moves the turn's deadline by exactly its time, and says
// to whom it went, on which turn, the new deadline and what the giver may
// still give; the next turn has none of it.
func TestGiveOperation(t *testing.T) { lexiotest.EachDriver(t, testGiveOperation) }

func testGiveOperation(t *testing.T, driver string) {
	h := lexiotest.New(t, lexiotest.Options{Driver: driver, Domain: lexiotest.InviteDomain, Config: lexiotest.OpenTablesConfig})
	t0 := h.Clock.Now()
	const name = "go"
	if err := h.Lobby.CreateTable(h.Ctx, name, "main", emailsAt(h, "alice", "bob", "carol"), 5); err != nil {
		t.Fatal(err)
	}
	deadline := t0.Add(72 * time.Hour)
	const alice, bob, carol = 0, 1, 2
	refused := func(giver int, d time.Duration, want table.GiveError) {
		t.Helper()
		before := given(h, name, giver)
		_, err := give(h, name, giver, d)
		var ge *table.GiveError
		if !errors.As(err, &ge) || *ge != want {
			t.Fatalf("seat %d giving %v: %v, want %+v", giver, d, err, want)
		}
		if d := deadlineOf(h, name); !d.Equal(deadline) {
			t.Fatalf("seat %d's refused %v moved the deadline to %v, want %v", giver, want.Time, d, deadline)
		}
		if after := given(h, name, giver); after != before {
			t.Fatalf("seat %d's refused %v: %v given, %v before", giver, want.Time, after, before)
		}
	}
	gave := func(giver int, d time.Duration, want table.Gift) {
		t.Helper()
		got, err := give(h, name, giver, d)
		at := got.Deadline
		got.Deadline = want.Deadline // compared as instants
		if err != nil || got != want || !at.Equal(want.Deadline) {
			t.Fatalf("seat %d giving %v: %+v, %v; want %+v", giver, d, got, err, want)
		}
		if d := h.Deadline(name); !d.Equal(want.Deadline) {
			t.Fatalf("seat %d gave %v: the table's deadline +%v, want +%v", giver, want.Time, d.Sub(t0), want.Deadline.Sub(t0))
		}
		deadline = want.Deadline
	}

	for _, p := range []int{-1, 3} {
		if _, err := give(h, name, p, 24*time.Hour); !errors.Is(err, table.ErrNotSeated) {
			t.Errorf("seat %d giving: %v, want ErrNotSeated", p, err)
		}
	}
	refused(alice, 24*time.Hour, table.GiveError{Kind: table.GiveOwnTurn, Time: 24 * time.Hour})
	for _, d := range []time.Duration{0, 30 * time.Minute, 90 * time.Minute, 8 * 24 * time.Hour, 7*24*time.Hour + time.Hour} {
		refused(bob, d, table.GiveError{Kind: table.GiveRange, Time: d})
	}

	h.At(t0.Add(time.Hour))
	gave(bob, 24*time.Hour, table.Gift{Giver: bob, To: alice, Turn: 1, Time: 24 * time.Hour,
		Deadline: deadline.Add(24 * time.Hour), Left: 6 * 24 * time.Hour})
	// The cap is the giver's: carol has her 7 days. 5, then 3 refused
	// (2 are left), then 2, then nothing.
	gave(carol, 5*24*time.Hour, table.Gift{Giver: carol, To: alice, Turn: 1, Time: 5 * 24 * time.Hour,
		Deadline: deadline.Add(5 * 24 * time.Hour), Left: 2 * 24 * time.Hour})
	refused(carol, 3*24*time.Hour, table.GiveError{Kind: table.GiveCap, Time: 3 * 24 * time.Hour, Left: 2 * 24 * time.Hour})
	gave(carol, 2*24*time.Hour, table.Gift{Giver: carol, To: alice, Turn: 1, Time: 2 * 24 * time.Hour,
		Deadline: deadline.Add(2 * 24 * time.Hour), Left: 0})
	refused(carol, time.Hour, table.GiveError{Kind: table.GiveCap, Time: time.Hour})

	// Bob's turn, the second, has his turn time and what he is given
	// on it alone.
	h.At(t0.Add(2 * time.Hour))
	h.Command("alice", name, lexiotest.FindMove(h.Game(name), alice), table.OutcomeApplied, "PLACE")
	deadline = t0.Add(2*time.Hour + 72*time.Hour)
	refused(bob, time.Hour, table.GiveError{Kind: table.GiveOwnTurn, Time: time.Hour})
	gave(alice, time.Hour, table.Gift{Giver: alice, To: bob, Turn: 2, Time: time.Hour,
		Deadline: deadline.Add(time.Hour), Left: 7*24*time.Hour - time.Hour})

	h.Command("carol", name, "RESIGN "+name, table.OutcomeApplied, "RESIGN")
	refused(carol, time.Hour, table.GiveError{Kind: table.GiveResigned, Time: time.Hour})
	h.Command("alice", name, "RESIGN "+name, table.OutcomeApplied, "RESIGN")
	deadline = time.Time{} // none: the game is over
	refused(bob, time.Hour, table.GiveError{Kind: table.GiveGameOver, Time: time.Hour})

	// The computer on move: refused, its turn keeps bot_delay.
	const bots = "gb"
	if err := h.Lobby.CreateTable(h.Ctx, bots, "main", []string{"alice@" + h.Domain, "bot:medium", "bob@" + h.Domain}, 5); err != nil {
		t.Fatal(err)
	}
	h.Command("alice", bots, lexiotest.FindMove(h.Game(bots), alice), table.OutcomeApplied, "PLACE")
	before := h.Deadline(bots)
	var ge *table.GiveError
	if _, err := give(h, bots, 2, 24*time.Hour); !errors.As(err, &ge) || *ge != (table.GiveError{Kind: table.GiveComputer, Time: 24 * time.Hour}) {
		t.Errorf("giving to the computer: %v", err)
	}
	if d := h.Deadline(bots); !d.Equal(before) {
		t.Errorf("the computer's deadline moved from %v to %v", before, d)
	}

	// A table still gathering its players: no game, one seat taken.
	open := h.Open("alice", "NEW lexio bob@"+h.Domain)
	if _, err := give(h, open, alice, 24*time.Hour); !errors.As(err, &ge) || *ge != (table.GiveError{Kind: table.GiveNotStarted, Time: 24 * time.Hour, Seats: 1}) {
		t.Errorf("giving at a table not started: %v", err)
	}
}

// emailsAt are the accounts' addresses on h's domain.
func emailsAt(h *lexiotest.Harness, names ...string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n + "@" + h.Domain
	}
	return out
}

// give calls the operation on seat giver of table name, at the harness's
// clock, in a transaction of its own, which a refusal commits: it must
// have written nothing.
func give(h *lexiotest.Harness, name string, giver int, d time.Duration) (table.Gift, error) {
	h.T.Helper()
	var gift table.Gift
	var op error
	err := h.Store.Tx(h.Ctx, func(tx *store.Tx) error {
		tb, err := h.Tables.Load(tx, name)
		if err != nil {
			return err
		}
		gift, op = h.Tables.Give(tx, tb, giver, d, h.Clock.Now())
		var ge *table.GiveError
		if errors.As(op, &ge) {
			return nil
		}
		return op
	})
	if op == nil && err != nil {
		h.T.Fatal(err)
	}
	return gift, op
}

// given is what seat p of table name gave over its game, as stored.
func given(h *lexiotest.Harness, name string, p int) time.Duration {
	h.T.Helper()
	var sum time.Duration
	err := h.Store.View(h.Ctx, func(tx *store.Tx) error {
		tb, err := h.Tables.Load(tx, name)
		if err == nil && p >= 0 && p < len(tb.Seats) {
			sum = tb.Seats[p].Given()
		}
		return err
	})
	if err != nil {
		h.T.Fatal(err)
	}
	return sum
}

// deadlineOf is table name's turn's deadline, zero when it has none.
func deadlineOf(h *lexiotest.Harness, name string) time.Time {
	h.T.Helper()
	sum, err := h.Views.Show(h.Ctx, name)
	if err != nil {
		h.T.Fatal(err)
	}
	if sum.Deadline == nil {
		return time.Time{}
	}
	return *sum.Deadline
}
