package table_test

import (
	"testing"

	"github.com/lexio-mail/lexio/store"
)

// vacationsOf reads the vacations stored for the player at addr.
func (h *harness) vacationsOf(addr string) []store.Vacation {
	h.t.Helper()
	var vs []store.Vacation
	err := h.store.View(h.ctx, func(tx *store.Tx) error {
		pl, err := tx.PlayerByAddress(addr)
		if err != nil {
			return err
		}
		vs, err = tx.Vacations(pl.ID)
		return err
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return vs
}

// TestVacationYear10000: VACATION 9999-12-31 9999-12-31 used to store a
// vacation ending in year 10000, which SQLite cannot read back: the
// player's moves and VACATION OFF failed, and every table of theirs with
// them. A vacation now begins within a year of today (LEAGUES §3.2): the
// date is refused with its reason, nothing is stored, and the player
// goes on playing; a year ahead to the day is still taken.
func TestVacationYear10000(t *testing.T) { eachDriver(t, testVacationYear10000) }

func testVacationYear10000(t *testing.T, driver string) {
	h := newHarness(t, harnessOpts{driver: driver}) // Monday 2 March 2026, 09:00 UTC
	for _, tb := range []struct{ name, other string }{{"ya", "bob"}, {"yb", "carol"}} {
		if err := h.svc.CreateTable(h.ctx, tb.name, "main", emails("alice", tb.other), 5); err != nil {
			t.Fatal(err)
		}
	}
	h.command("alice", "ya", "VACATION 9999-12-31 9999-12-31", store.OutcomeRejected, "vacation-far")
	mustContain(t, "the refusal", h.lastOf("alice", "rejected").Text, "9999-12-31 is too far ahead: a vacation begins within a year from today.")
	h.command("alice", "ya", "VACATION 2027-03-03 2027-03-09", store.OutcomeRejected, "vacation-far") // a year and a day ahead
	if vs := h.vacationsOf("alice@localhost"); len(vs) != 0 {
		t.Fatalf("refused vacations stored: %+v", vs)
	}

	// Her moves and VACATION OFF work; both tables read.
	h.command("alice", "ya", findMove(h.game("ya"), 0), store.OutcomeApplied, "PLACE")
	h.command("alice", "yb", "VACATION OFF", store.OutcomeRejected, "no-vacation")
	h.command("alice", "yb", "VACATION 2027-03-02 2027-03-02", store.OutcomeApplied, "VACATION 2027-03-02 2027-03-02")
	h.command("alice", "yb", "VACATION OFF", store.OutcomeApplied, "VACATION OFF")
	h.command("alice", "yb", findMove(h.game("yb"), 0), store.OutcomeApplied, "PLACE")
	ts, err := h.svc.Tables(h.ctx)
	if err != nil || len(ts) != 2 || ts[0].Moves != 1 || ts[1].Moves != 1 {
		t.Fatalf("tables: %+v, %v", ts, err)
	}
	if vs := h.vacationsOf("alice@localhost"); len(vs) != 1 || vs[0].Days != 0 {
		t.Errorf("vacations: %+v, want the one a year ahead, cancelled", vs)
	}
}
