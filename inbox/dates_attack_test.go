package inbox_test

import (
	"database/sql"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/table"
)

// TestVacationYear10000: VACATION 9999-12-31 9999-12-31 used to store a
// vacation ending in year 10000, which SQLite cannot read back: the
// player's moves and VACATION OFF failed, and every table of theirs with
// them. A vacation now begins within a year of today (LEAGUES §3.2): the
// date is refused with its reason, nothing is stored, and the player
// goes on playing; a year ahead to the day is still taken.
func TestVacationYear10000(t *testing.T) { lexiotest.EachDriver(t, testVacationYear10000) }

func testVacationYear10000(t *testing.T, driver string) {
	h := lexiotest.New(t, lexiotest.Options{Driver: driver}) // Monday 2 March 2026, 09:00 UTC
	for _, tb := range []struct{ name, other string }{{"ya", "bob"}, {"yb", "carol"}} {
		if err := h.Lobby.CreateTable(h.Ctx, tb.name, "main", lexiotest.Emails("alice", tb.other), 5); err != nil {
			t.Fatal(err)
		}
	}
	h.Command("alice", "ya", "VACATION 9999-12-31 9999-12-31", table.OutcomeRejected, "vacation-far")
	h.LastOf("alice", "rejected")
	h.Command("alice", "ya", "VACATION 2027-03-03 2027-03-09", table.OutcomeRejected, "vacation-far") // a year and a day ahead
	if vs := h.VacationsOf("alice@localhost"); len(vs) != 0 {
		t.Fatalf("refused vacations stored: %+v", vs)
	}

	// Her moves and VACATION OFF work; both tables read.
	h.Command("alice", "ya", lexiotest.FindMove(h.Game("ya"), 0), table.OutcomeApplied, "PLACE")
	h.Command("alice", "yb", "VACATION OFF", table.OutcomeRejected, "no-vacation")
	h.Command("alice", "yb", "VACATION 2027-03-02 2027-03-02", table.OutcomeApplied, "VACATION 2027-03-02 2027-03-02")
	h.Command("alice", "yb", "VACATION OFF", table.OutcomeApplied, "VACATION OFF")
	h.Command("alice", "yb", lexiotest.FindMove(h.Game("yb"), 0), table.OutcomeApplied, "PLACE")
	ts, err := h.Views.List(h.Ctx)
	if err != nil || len(ts) != 2 || ts[0].Moves != 1 || ts[1].Moves != 1 {
		t.Fatalf("tables: %+v, %v", ts, err)
	}
	if vs := h.VacationsOf("alice@localhost"); len(vs) != 1 || vs[0].Days != 0 {
		t.Errorf("vacations: %+v, want the one a year ahead, cancelled", vs)
	}
}

// TestUnreadableRows: rows that SQLite cannot read back (a time in year
// 10000, as stored before the store bounded its times) make only their
// table fail: a table row of ua, a vacation of eve's at uc. The admin's
// list reads the others and names the two; alice plays and takes a
// vacation at ub, her other table; the tick reminds carol at ub; the web
// page of ub answers.
func TestUnreadableRows(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{Driver: store.DriverSQLite})
	t0 := h.Clock.Now()
	for _, tb := range []struct{ name, a, b string }{{"ua", "alice", "bob"}, {"ub", "alice", "carol"}, {"uc", "dave", "eve"}} {
		if err := h.Lobby.CreateTable(h.Ctx, tb.name, "main", lexiotest.Emails(tb.a, tb.b), 5); err != nil {
			t.Fatal(err)
		}
	}
	db, err := sql.Open("sqlite", "file:"+h.DB.Path()+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const y10000 = "10000-01-01 00:00:00+00:00"
	// Both are due to SQLite, which compares the text: every tick finds them.
	if _, err := db.Exec("UPDATE tables SET deadline = ?, due_at = ? WHERE name = 'ua'", y10000, y10000); err != nil {
		t.Fatal(err)
	}
	_, err = db.Exec(`INSERT INTO vacations (player_id, from_at, to_at, days_from, days, zone, told, due_at, created_at)
		SELECT id, ?, ?, ?, 1, '', 1, ?, ? FROM players WHERE address = 'eve@localhost'`,
		t0.Format("2006-01-02 15:04:05-07:00"), y10000, t0.Format("2006-01-02 15:04:05-07:00"), y10000, t0.Format("2006-01-02 15:04:05-07:00"))
	if err != nil {
		t.Fatal(err)
	}

	ts, err := h.Views.List(h.Ctx)
	if len(ts) != 3 || ts[0].Err == nil || ts[1].Err != nil || ts[2].Err == nil || ts[1].Name != "ub" || len(ts[1].Players) != 2 {
		t.Fatalf("tables: %+v", ts)
	}
	if err == nil || !strings.Contains(err.Error(), "table ua: ") || !strings.Contains(err.Error(), "table uc: ") || strings.Contains(err.Error(), "table ub") {
		t.Errorf("tables' error: %v; want ua and uc named", err)
	}
	if w, err := h.Views.WebTable(h.Ctx, "ub", 0); err != nil || w == nil {
		t.Errorf("ub's page: %v, %v", w, err)
	}

	// Alice's other table: she plays, and her vacation stops its clock.
	h.At(t0.Add(time.Hour))
	h.Command("alice", "ub", lexiotest.FindMove(h.Game("ub"), 0), table.OutcomeApplied, "PLACE")
	h.Command("alice", "ub", "VACATION 2", table.OutcomeApplied, "VACATION 2")
	lexiotest.MustName(t, "vacation-set", h.LastOf("alice", "vacation-set").Text, "ub")

	// The tick goes past the two: carol's 24 h reminder at ub comes.
	h.TickAt(t0.Add(time.Hour + 48*time.Hour))
	if n := h.Count("carol", "reminder"); n != 1 {
		t.Errorf("carol got %d reminders, want 1", n)
	}
	if !strings.Contains(h.Logs.String(), "failed") {
		t.Errorf("the unreadable rows were not logged:\n%s", h.Logs.String())
	}
}
