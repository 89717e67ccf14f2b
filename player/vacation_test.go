package player_test

import (
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/mailer/client"
	"github.com/lexio-mail/lexio/table"
)

// bankLeague is a league with a time bank of 10 h, 4 h added per move
// (LEAGUES §3.1); cup plays without vacations (§3.2).
const bankLeague = `
[[league]]
name = "bank"
turn_time = "72h"
reminders = ["24h"]
away_grace = "2h"
time_bank = "10h"
bank_per_move = "4h"
[[league]]
name = "cup"
turn_time = "72h"
reminders = ["24h"]
away_grace = "2h"
vacation = false
`

// expiries are the times of a table's expired turns, from t0.
func expiries(h *lexiotest.Harness, table string, t0 time.Time) []time.Duration {
	h.T.Helper()
	var out []time.Duration
	for _, a := range h.Game(table).Actions() {
		if a.Kind == engine.ActExpire {
			out = append(out, a.At.Sub(t0))
		}
	}
	return out
}

// lastAt is name's newest mail of kind k about table.
func lastAt(h *lexiotest.Harness, name, table, k string) client.Message {
	h.T.Helper()
	h.OutboxEmpty()
	msgs := lexiotest.OfKind(h.Inbox(name), k)
	for i := len(msgs) - 1; i >= 0; i-- {
		if strings.HasPrefix(msgs[i].MessageID, "lexio."+table+".") {
			return msgs[i]
		}
	}
	h.T.Fatalf("%s received no %s of %s", name, k, table)
	return client.Message{}
}

// TestTimeBank: a turn lasts turn_time plus the player's bank (LEAGUES
// §3.1); it passes only when both are spent; what a move takes beyond
// turn_time comes out of the bank, then bank_per_move is added up to
// time_bank; an expiry spends the bank; every notice shows the banks;
// reminders count from the deadline with the bank; the away grace does
// not take the bank.
func TestTimeBank(t *testing.T) { lexiotest.EachDriver(t, testTimeBank) }

func testTimeBank(t *testing.T, driver string) {
	h := lexiotest.New(t, lexiotest.Options{Driver: driver, Config: bankLeague})
	t0 := h.Clock.Now()
	const name = "tb"
	if err := h.Lobby.CreateTable(h.Ctx, name, "bank", lexiotest.Emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	if d := h.Deadline(name); !d.Equal(t0.Add(82 * time.Hour)) {
		t.Fatalf("first deadline +%v, want turn_time and the whole bank, +82h", d.Sub(t0))
	}
	lexiotest.MustContain(t, "alice's first notice", h.LastOf("alice", "turn-notice").Text, "Time bank left: Alice 10 h, Bob 10 h.")
	lexiotest.MustContain(t, "bob's first notice", h.LastOf("bob", "turn-notice").Text, "Time bank left: Alice 10 h, Bob 10 h.")

	// The 24 h reminder comes 24 h before the deadline with the bank.
	h.TickAt(t0.Add(57*time.Hour + 59*time.Minute))
	if n := h.Count("alice", "reminder"); n != 0 {
		t.Errorf("%d reminders before +58h", n)
	}
	h.TickAt(t0.Add(58 * time.Hour))
	if n := h.Count("alice", "reminder"); n != 1 {
		t.Errorf("%d reminders at +58h, want 1", n)
	}
	// Turn time spent, bank left: the turn goes on.
	h.TickAt(t0.Add(81*time.Hour + 59*time.Minute))
	if n := len(h.Game(name).Actions()); n != 0 {
		t.Fatalf("%d actions while alice still had bank", n)
	}

	// Alice moves at +78h: 6 h from the bank, 4 h back: 8 h.
	h.At(t0.Add(78 * time.Hour))
	h.Command("alice", name, lexiotest.FindMove(h.Game(name), 0), table.OutcomeApplied, "PLACE")
	if d := h.Deadline(name); !d.Equal(t0.Add(78*time.Hour + 82*time.Hour)) {
		t.Errorf("bob's deadline +%v", d.Sub(t0))
	}
	lexiotest.MustContain(t, "bob's notice", h.LastOf("bob", "turn-notice").Text, "Time bank left: Alice 8 h, Bob 10 h.")
	// Bob moves after an hour: nothing taken, 4 h added but capped at 10.
	h.At(t0.Add(79 * time.Hour))
	h.Command("bob", name, lexiotest.FindMove(h.Game(name), 1), table.OutcomeApplied, "PLACE")
	start := t0.Add(79 * time.Hour)
	if d := h.Deadline(name); !d.Equal(start.Add(80 * time.Hour)) {
		t.Errorf("alice's second deadline +%v after her turn's start, want 72h + her 8h", d.Sub(start))
	}
	lexiotest.MustContain(t, "alice's notice", h.LastOf("alice", "turn-notice").Text, "Time bank left: Alice 8 h, Bob 10 h.")
	// Her BOARD 75 h into the turn shows what her clock has left: 5 h.
	h.At(start.Add(75 * time.Hour))
	h.Command("alice", name, "BOARD", table.OutcomeApplied, "BOARD")
	lexiotest.MustContain(t, "alice's board", h.LastOf("alice", "board-reply").Text, "Time bank left: Alice 5 h, Bob 10 h.")

	// The turn passes only once turn time and bank are both spent.
	h.TickAt(start.Add(80*time.Hour - time.Second))
	if got := expiries(h, name, start); len(got) != 0 {
		t.Fatalf("expired at %v, before the bank ran out", got)
	}
	h.TickAt(start.Add(80 * time.Hour))
	if got := expiries(h, name, start); len(got) != 1 || got[0] != 80*time.Hour {
		t.Fatalf("expiries %v, want one at +80h", got)
	}
	// An expiry spends the bank, and adds nothing.
	lexiotest.MustContain(t, "bob's notice after the expiry", h.LastOf("bob", "turn-notice").Text, "Time bank left: Alice none, Bob 10 h.")
	// Bob passes; alice, away, has the grace alone, not the bank.
	passAt := start.Add(81 * time.Hour)
	h.At(passAt)
	h.Command("bob", name, "PASS", table.OutcomeApplied, "PASS")
	if d := h.Deadline(name); !d.Equal(passAt.Add(2 * time.Hour)) {
		t.Errorf("away deadline +%v, want the 2h grace", d.Sub(passAt))
	}
	// Present again: turn time, and her empty bank.
	h.At(passAt.Add(time.Hour))
	h.Command("alice", name, "BOARD", table.OutcomeApplied, "BOARD")
	if d := h.Deadline(name); !d.Equal(passAt.Add(72 * time.Hour)) {
		t.Errorf("deadline once present +%v, want 72h", d.Sub(passAt))
	}
}

// TestVacationSpansDeadline: a vacation during a turn moves its deadline
// by exactly the time it covers (LEAGUES §3.2): the expiry comes that much
// later; reminders count from the moved deadline (§3.3); the other player
// is told when it starts and, by the scheduler, when it ends; the player
// gets the turn's calendar entry again, same UID, higher SEQUENCE.
func TestVacationSpansDeadline(t *testing.T) { lexiotest.EachDriver(t, testVacationSpansDeadline) }

func testVacationSpansDeadline(t *testing.T, driver string) {
	h := lexiotest.New(t, lexiotest.Options{Driver: driver})
	t0 := h.Clock.Now() // Monday 2 March 2026, 09:00 UTC
	const name = "vs"
	if err := h.Lobby.CreateTable(h.Ctx, name, "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	_, first := h.LastEntry("alice", "turn-notice")

	h.At(t0.Add(10 * time.Hour))
	h.Command("alice", name, "VACATION 3", table.OutcomeApplied, "VACATION 3")
	set := h.LastOf("alice", "vacation-set")
	// From 19:00 (the hour after the command) for 3 days; the clocks
	// stop at vs; 27 days of the year's 30 are left.
	from, until := t0.Add(10*time.Hour), t0.Add(10*time.Hour+72*time.Hour)
	lexiotest.MustTell(t, "vacation-set", set.Text, from, until)
	lexiotest.MustName(t, "vacation-set", set.Text, "Alice", "vs")
	lexiotest.MustHaveNumbers(t, "vacation-set", set.Text, 27)
	lexiotest.MustTell(t, "vacation-set subject", set.Subject, until)
	covered := 72 * time.Hour
	want := t0.Add(72*time.Hour + covered)
	if d := h.Deadline(name); !d.Equal(want) {
		t.Fatalf("deadline +%v, want +%v", d.Sub(t0), want.Sub(t0))
	}
	// Alice's deadline moved: her notice carries the turn's entry again.
	m := lastAt(h, "alice", name, "vacation-notice")
	lexiotest.MustName(t, "alice's vacation notice", m.Text, "vs")
	lexiotest.MustTell(t, "alice's vacation notice", m.Text, want)
	e := lexiotest.CalendarOf(t, m)
	if e == nil || e.Method != "REQUEST" || e.UID != first.UID || e.Seq <= first.Seq || !e.End.Equal(want) {
		t.Errorf("calendar entry %+v after the vacation, first %+v; want the same UID, a higher SEQUENCE, DTEND %v", e, first, want)
	}
	// Bob is told until when Alice is away, and her turn's new end.
	told := lastAt(h, "bob", name, "vacation-notice")
	lexiotest.MustName(t, "bob's vacation notice", told.Text, "Alice", "vs")
	lexiotest.MustTell(t, "bob's vacation notice", told.Text, until, want)
	lexiotest.MustContain(t, "bob's vacation notice subject", told.Subject, "Alice", lexiotest.Day(until))
	if n := h.Count("alice", "vacation-notice"); n != 1 {
		t.Errorf("alice got %d vacation notices", n)
	}
	// Bob's BOARD says who is on vacation.
	h.Command("bob", name, "BOARD", table.OutcomeApplied, "BOARD")
	lexiotest.MustTell(t, "bob's board", h.LastOf("bob", "board-reply").Text, until)

	// The old deadline passes: nothing. The 24 h reminder is 24 h of her
	// clock before the moved deadline.
	h.TickAt(t0.Add(72 * time.Hour))
	if got := expiries(h, name, t0); len(got) != 0 {
		t.Fatalf("expired at %v during the vacation", got)
	}
	if n := h.Count("alice", "reminder"); n != 0 {
		t.Errorf("%d reminders during the vacation", n)
	}
	// The vacation runs out: the scheduler tells bob, once.
	h.TickAt(t0.Add(82 * time.Hour))
	h.TickAt(t0.Add(83 * time.Hour))
	if n := h.Count("bob", "vacation-notice"); n != 2 {
		t.Errorf("bob got %d vacation notices, want the start and the end", n)
	}
	// The end notice names Alice and no longer a vacation's end.
	back := lastAt(h, "bob", name, "vacation-notice")
	lexiotest.MustContain(t, "bob's end notice", back.Text+back.Subject, "Alice")
	lexiotest.MustNotContain(t, "bob's end notice", back.Text+back.Subject, lexiotest.Day(until))
	h.TickAt(want.Add(-24*time.Hour - time.Second))
	if n := h.Count("alice", "reminder"); n != 0 {
		t.Errorf("%d reminders before 24 h remain", n)
	}
	h.TickAt(want.Add(-24 * time.Hour))
	if n := h.Count("alice", "reminder"); n != 1 {
		t.Errorf("%d reminders when 24 h remain, want 1", n)
	}
	h.TickAt(want.Add(-time.Second))
	if got := expiries(h, name, t0); len(got) != 0 {
		t.Fatalf("expired at %v, before the moved deadline", got)
	}
	h.TickAt(want)
	if got := expiries(h, name, t0); len(got) != 1 || got[0] != 72*time.Hour+covered {
		t.Fatalf("expiries %v, want one at +%v: the vacation's time later", got, 72*time.Hour+covered)
	}
	if n := h.Count("alice", "vacation-notice"); n != 1 {
		t.Errorf("alice got %d vacation notices: the end moved no deadline of hers", n)
	}
}

// TestVacationEndedByMove: a move during a vacation ends it (LEAGUES
// §3.2): the player's deadline at another table comes back by the time
// not taken, with its calendar entry again; the others are told; the days
// not begun return to the allowance.
func TestVacationEndedByMove(t *testing.T) { lexiotest.EachDriver(t, testVacationEndedByMove) }

func testVacationEndedByMove(t *testing.T, driver string) {
	h := lexiotest.New(t, lexiotest.Options{Driver: driver})
	t0 := h.Clock.Now()
	for _, tb := range []struct{ name, other string }{{"ea", "bob"}, {"eb", "carol"}} {
		if err := h.Lobby.CreateTable(h.Ctx, tb.name, "main", lexiotest.Emails("alice", tb.other), 5); err != nil {
			t.Fatal(err)
		}
	}
	h.At(t0.Add(time.Hour))
	h.Command("alice", "ea", "VACATION 5", table.OutcomeApplied, "VACATION 5")
	set := h.LastOf("alice", "vacation-set").Text
	lexiotest.MustName(t, "vacation-set", set, "ea", "eb")
	lexiotest.MustHaveNumbers(t, "vacation-set", set, 25)
	for _, tb := range []string{"ea", "eb"} {
		if d := h.Deadline(tb); !d.Equal(t0.Add(72*time.Hour + 5*24*time.Hour)) {
			t.Errorf("%s: deadline +%v", tb, d.Sub(t0))
		}
	}
	_, during := h.LastEntry("alice", "vacation-notice")

	// 29 hours into the vacation she plays at ea: it ends; two of its
	// days had begun.
	h.At(t0.Add(30 * time.Hour))
	h.Command("alice", "ea", lexiotest.FindMove(h.Game("ea"), 0), table.OutcomeApplied, "PLACE")
	if d := h.Deadline("eb"); !d.Equal(t0.Add(72*time.Hour + 29*time.Hour)) {
		t.Errorf("eb: deadline +%v after the vacation ended, want +101h", d.Sub(t0))
	}
	m := lastAt(h, "alice", "eb", "vacation-notice")
	lexiotest.MustName(t, "alice's notice at eb", m.Text, "eb")
	lexiotest.MustTell(t, "alice's notice at eb", m.Text, t0.Add(101*time.Hour))
	e := lexiotest.CalendarOf(t, m)
	if e == nil || e.Method != "REQUEST" || e.UID != during.UID || e.Seq <= during.Seq || !e.End.Equal(t0.Add(101*time.Hour)) {
		t.Errorf("eb's entry after the end %+v, during the vacation %+v", e, during)
	}
	for _, p := range []struct{ name, table string }{{"bob", "ea"}, {"carol", "eb"}} {
		// The end notice names Alice and not the end the vacation had.
		back := lastAt(h, p.name, p.table, "vacation-notice")
		lexiotest.MustContain(t, p.name+"'s end notice", back.Text+back.Subject, "Alice")
		lexiotest.MustNotContain(t, p.name+"'s end notice", back.Text+back.Subject, lexiotest.Day(t0.Add(time.Hour+5*24*time.Hour)))
		if n := h.Count(p.name, "vacation-notice"); n != 2 {
			t.Errorf("%s: %d vacation notices", p.name, n)
		}
	}
	// Nothing left to end; 28 days left this year.
	h.Command("alice", "eb", "VACATION OFF", table.OutcomeRejected, "no-vacation")
	h.Command("alice", "eb", "VACATION 29", table.OutcomeRejected, "vacation-days")
	// The refusal tells the days asked for (29, also in the quoted
	// command) and the 28 left in 2026.
	lexiotest.MustHaveNumbers(t, "29 days refused", lexiotest.Intro(h.LastOf("alice", "rejected").Text), 29, 29, 2026, 28)
	if n := len(h.VacationsOf("alice@localhost")); n != 1 {
		t.Errorf("%d vacations after the refusals, want the one ended", n)
	}
	h.Command("alice", "eb", "VACATION 28", table.OutcomeApplied, "VACATION 28")
	lexiotest.MustHaveNumbers(t, "28 days", h.LastOf("alice", "vacation-set").Text, 0, 2026)
}

// TestVacationAllowance: the yearly allowance is counted in whole days in
// the player's zone, per calendar year, a vacation across New Year in
// each (LEAGUES §3.2); dates are days of the player's zone; VACATION is
// refused, changing nothing, for too many days, an overlap, a day past,
// dates unreadable or reversed; VACATION OFF cancels what is to come.
func TestVacationAllowance(t *testing.T) { lexiotest.EachDriver(t, testVacationAllowance) }

func testVacationAllowance(t *testing.T, driver string) {
	// 20 November 2026, 09:00 UTC: 22:00 in Auckland (NZDT, UTC+13).
	h := lexiotest.New(t, lexiotest.Options{Driver: driver, Clock: lexiotest.NewClock(time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC))})
	t0 := h.Clock.Now()
	const name = "ny"
	if err := h.Lobby.CreateTable(h.Ctx, name, "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.Command("alice", name, "TZ Pacific/Auckland", table.OutcomeApplied, "TZ")
	// ok checks that cmd set a vacation from the day begin to end
	// (midnights in Auckland) and that the mail tells the days left in
	// year.
	auckland, err := time.LoadLocation("Pacific/Auckland")
	if err != nil {
		t.Fatal(err)
	}
	stored := 0
	ok := func(cmd, begin, end string, left, year int) {
		t.Helper()
		h.Command("alice", name, cmd, table.OutcomeApplied, cmd)
		stored++
		text := h.LastOf("alice", "vacation-set").Text
		for _, d := range []string{begin, end} {
			at, err := time.ParseInLocation(time.DateOnly, d, auckland)
			if err != nil {
				t.Fatal(err)
			}
			lexiotest.MustTell(t, cmd, text, at)
		}
		lexiotest.MustHaveNumbers(t, cmd, text, left, year)
	}
	// refused checks that cmd stored nothing and that the refusal writes
	// the values given: numbers, and dates of the vacation in the way.
	refused := func(cmd, reason string, numbers []int, values ...string) {
		t.Helper()
		h.Command("alice", name, cmd, table.OutcomeRejected, reason)
		text := lexiotest.Intro(h.LastOf("alice", "rejected").Text)
		lexiotest.MustHaveNumbers(t, cmd, text, numbers...)
		lexiotest.MustContain(t, cmd, text, values...)
		if n := len(h.VacationsOf("alice@localhost")); n != stored {
			t.Errorf("%s: %d vacations stored, want %d", cmd, n, stored)
		}
	}
	ok("VACATION 2026-12-20 2026-12-31", "2026-12-20", "2027-01-01", 18, 2026)
	// 1 January in Auckland is still 31 December in UTC: the days count
	// in 2027 all the same.
	ok("VACATION 2027-01-01 2027-01-18", "2027-01-01", "2027-01-19", 12, 2027)
	refused("VACATION 2026-12-30 2027-01-02", "vacation-overlap", nil, "2026-12-20", "2026-12-31")
	refused("VACATION 2026-12-01 2026-12-19", "vacation-days", []int{19, 2026, 18})
	refused("VACATION 2027-02-01 2027-02-13", "vacation-days", []int{13, 2027, 12})
	refused("VACATION 2026-11-19 2026-11-22", "vacation-past", nil)
	refused("VACATION 2026-02-30 2026-03-01", "bad-vacation", nil)
	refused("VACATION 2026-12-10 2026-12-01", "bad-vacation", nil)
	// The 18 days left in 2026 fit exactly: none of January's counted
	// there (in UTC, 1 January's first 11 hours are 2026's).
	ok("VACATION 2026-12-02 2026-12-19", "2026-12-02", "2026-12-20", 0, 2026)
	// One day asked (also the quoted command's), none left: no number
	// but those.
	refused("VACATION 1", "vacation-days", []int{1, 1, 2026})
	if d := h.Deadline(name); !d.Equal(t0.Add(72 * time.Hour)) {
		t.Errorf("deadline +%v: vacations to come after it moved it", d.Sub(t0))
	}
	// OFF cancels every vacation to come: all the days come back.
	h.Command("alice", name, "VACATION OFF", table.OutcomeApplied, "VACATION OFF")
	off := h.LastOf("alice", "vacation-set")
	// All 30 days are back; the subject gives no end to wait for.
	lexiotest.MustHaveNumbers(t, "OFF", off.Text, 30, 2026)
	lexiotest.MustNotContain(t, "OFF subject", off.Subject, "2026", "2027")
	for _, v := range h.VacationsOf("alice@localhost") {
		if v.To.After(v.From) && v.To.After(h.Clock.Now()) { // cancelled: an empty span
			t.Errorf("vacation %v – %v still to come after OFF", v.From, v.To)
		}
	}
	if n := h.Count("bob", "vacation-notice"); n != 0 {
		t.Errorf("bob was told of %d vacations that never began", n)
	}
}

// TestVacationIgnored: a league with vacation = false ignores vacations
// (LEAGUES §3.2): its tables' clocks keep running, the player is told
// which, the other players there hear nothing, and a move there does not
// end the vacation.
func TestVacationIgnored(t *testing.T) { lexiotest.EachDriver(t, testVacationIgnored) }

func testVacationIgnored(t *testing.T, driver string) {
	h := lexiotest.New(t, lexiotest.Options{Driver: driver, Config: bankLeague})
	t0 := h.Clock.Now()
	if err := h.Lobby.CreateTable(h.Ctx, "vm", "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	if err := h.Lobby.CreateTable(h.Ctx, "vc", "cup", lexiotest.Emails("carol", "alice"), 5); err != nil {
		t.Fatal(err)
	}
	h.At(t0.Add(time.Hour))
	h.Command("alice", "vm", "VACATION 3", table.OutcomeApplied, "VACATION 3")
	// The mail names both tables: vm, where the clock stops, and vc,
	// where it keeps running (its deadline, below, does not move).
	lexiotest.MustName(t, "vacation-set", h.LastOf("alice", "vacation-set").Text, "vm", "vc")
	if d := h.Deadline("vm"); !d.Equal(t0.Add(72*time.Hour + 72*time.Hour)) {
		t.Errorf("vm: deadline +%v", d.Sub(t0))
	}
	// Carol's turn at vc expires on time; alice's turn there follows.
	h.TickAt(t0.Add(72 * time.Hour))
	if got := expiries(h, "vc", t0); len(got) != 1 || got[0] != 72*time.Hour {
		t.Fatalf("vc: expiries %v", got)
	}
	if d := h.Deadline("vc"); !d.Equal(t0.Add(144 * time.Hour)) {
		t.Errorf("vc: alice's deadline +%v, want 72h with no vacation", d.Sub(t0))
	}
	h.At(t0.Add(75 * time.Hour))
	h.Command("alice", "vc", lexiotest.FindMove(h.Game("vc"), 1), table.OutcomeApplied, "PLACE")
	if d := h.Deadline("vm"); !d.Equal(t0.Add(144 * time.Hour)) {
		t.Errorf("vm: deadline +%v after a move at vc, want the vacation still running", d.Sub(t0))
	}
	if n := h.Count("carol", "vacation-notice"); n != 0 {
		t.Errorf("carol got %d vacation notices", n)
	}
	if n := h.Count("bob", "vacation-notice"); n != 1 {
		t.Errorf("bob got %d vacation notices, want the start only", n)
	}
}

// TestCatchUpBankVacation: one Tick long after several deadlines enforces
// each at the time it fell, with the time bank and a vacation in it
// (LEAGUES §3, EMAIL §5.2), and tells the vacation's start and end once.
func TestCatchUpBankVacation(t *testing.T) { lexiotest.EachDriver(t, testCatchUpBankVacation) }

func testCatchUpBankVacation(t *testing.T, driver string) {
	h := lexiotest.New(t, lexiotest.Options{Driver: driver, Config: bankLeague})
	t0 := h.Clock.Now() // 2 March 2026, 09:00 UTC
	const name = "cu"
	if err := h.Lobby.CreateTable(h.Ctx, name, "bank", lexiotest.Emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	// 4 and 5 March: from +39h to +87h, 48 hours.
	h.At(t0.Add(time.Hour))
	h.Command("alice", name, "VACATION 2026-03-04 2026-03-05", table.OutcomeApplied, "VACATION")
	h.TickAt(t0.Add(400 * time.Hour))
	// Alice: 72 h + 10 h of bank + 48 h of vacation; bob: 72 + 10; then
	// both away, banks spent: the 2 h grace each, and the game ends.
	want := []time.Duration{130 * time.Hour, 212 * time.Hour, 214 * time.Hour, 216 * time.Hour}
	got := expiries(h, name, t0)
	if len(got) != len(want) {
		t.Fatalf("expiries %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("expiry %d at +%v, want +%v", i, got[i], want[i])
		}
	}
	if !h.Game(name).Over() {
		t.Error("not over")
	}
	if n := h.Count("bob", "vacation-notice"); n != 2 {
		t.Errorf("bob got %d vacation notices, want the start and the end", n)
	}
	h.TickAt(t0.Add(500 * time.Hour))
	if n := h.Count("bob", "vacation-notice"); n != 2 {
		t.Errorf("bob got %d vacation notices after another tick", n)
	}
}

// TestReminderBeforeVacation: a reminder comes when the player's clock
// has that long left (LEAGUES §3.3), not that long before the moved
// deadline: a vacation coming later in the turn leaves the 24 h reminder
// where it was.
func TestReminderBeforeVacation(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{})
	t0 := h.Clock.Now() // 2 March 2026, 09:00 UTC
	const name = "rv"
	if err := h.Lobby.CreateTable(h.Ctx, name, "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	// 5 March, from +63h to +87h.
	h.At(t0.Add(time.Hour))
	h.Command("alice", name, "VACATION 2026-03-05 2026-03-05", table.OutcomeApplied, "VACATION")
	if d := h.Deadline(name); !d.Equal(t0.Add(96 * time.Hour)) {
		t.Fatalf("deadline +%v, want +96h", d.Sub(t0))
	}
	h.TickAt(t0.Add(48 * time.Hour))
	if n := h.Count("alice", "reminder"); n != 1 {
		t.Errorf("%d reminders with 24 h left on her clock, want 1", n)
	}
	// The 2 h reminder: 70 h of her clock, after the vacation.
	h.TickAt(t0.Add(94*time.Hour - time.Second))
	if n := h.Count("alice", "reminder"); n != 1 {
		t.Errorf("%d reminders before the 2 h one", n)
	}
	h.TickAt(t0.Add(94 * time.Hour))
	if n := h.Count("alice", "reminder"); n != 2 {
		t.Errorf("%d reminders with 2 h left, want 2", n)
	}
}
