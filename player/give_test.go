package player_test

import (
	"testing"
	"time"

	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/table"
)

// TestGive: GIVE moves the deadline of the turn in progress by exactly
// the time given (issue #28): the expiry job does not fire at the old
// deadline and fires at the new, reminders count from it; the deadline
// survives a restart (the table is rebuilt from its log and seats); every
// player still in is told, the giver with what they may still give, the
// player on move with their turn's calendar entry again (same UID, higher
// SEQUENCE); the gift dies with the turn, and a GIVE answering a mail of
// that turn is stale once it is over.
func TestGive(t *testing.T) { lexiotest.EachDriver(t, testGive) }

func testGive(t *testing.T, driver string) {
	h := lexiotest.New(t, lexiotest.Options{Driver: driver})
	t0 := h.Clock.Now()
	const name = "gv"
	if err := h.Lobby.CreateTable(h.Ctx, name, "main", lexiotest.Emails("alice", "bob", "carol"), 5); err != nil {
		t.Fatal(err)
	}
	_, first := h.LastEntry("alice", "turn-notice")
	if d := h.Deadline(name); !d.Equal(t0.Add(72 * time.Hour)) {
		t.Fatalf("first deadline +%v", d.Sub(t0))
	}

	h.At(t0.Add(time.Hour))
	h.Command("bob", name, "GIVE gv 24h", table.OutcomeApplied, "GIVE gv 24h")
	want := t0.Add(96 * time.Hour)
	if d := h.Deadline(name); !d.Equal(want) {
		t.Fatalf("deadline after the gift +%v, want +96h", d.Sub(t0))
	}
	// Alice, on move: her new deadline, with her turn's entry again.
	m := lastAt(h, "alice", name, "time-given")
	lexiotest.MustName(t, "alice's gift notice", m.Text, "Bob", name)
	lexiotest.MustTell(t, "alice's gift notice", m.Text, want)
	e := lexiotest.CalendarOf(t, m)
	if e == nil || e.Method != "REQUEST" || e.UID != first.UID || e.Seq <= first.Seq || !e.End.Equal(want) {
		t.Errorf("calendar entry %+v after the gift, first %+v; want the same UID, a higher SEQUENCE, DTEND %v", e, first, want)
	}
	// Carol is told who gave whom how much, and the new deadline; bob's
	// answer says what he may still give: 6 days of 7.
	told := lastAt(h, "carol", name, "time-given")
	lexiotest.MustName(t, "carol's gift notice", told.Text, "Bob", "Alice", name)
	lexiotest.MustTell(t, "carol's gift notice", told.Text, want)
	if lexiotest.CalendarOf(t, told) != nil {
		t.Error("carol's gift notice carries a calendar entry")
	}
	mine := lastAt(h, "bob", name, "time-given")
	lexiotest.MustTell(t, "bob's answer", mine.Text, want)
	lexiotest.MustContain(t, "bob's answer", mine.Text, "6 days")
	for _, p := range []string{"alice", "bob", "carol"} {
		if n := h.CountOf(p, "time-given", name); n != 1 {
			t.Errorf("%s got %d gift notices, want 1", p, n)
		}
	}

	// A restart: the table, rebuilt from its log and its seats, keeps the
	// moved deadline.
	h.Stop()
	h = lexiotest.New(t, lexiotest.Options{DB: h.DB, Mem: h.Mem, Clock: h.Clock})
	if d := h.Deadline(name); !d.Equal(want) {
		t.Fatalf("deadline after a restart +%v, want +96h", d.Sub(t0))
	}
	h.Command("carol", name, "BOARD", table.OutcomeApplied, "BOARD")
	lexiotest.MustTell(t, "carol's board", h.LastOf("carol", "board-reply").Text, want)

	// The old deadline passes: nothing. The 24 h reminder comes 24 h
	// before the new one.
	h.TickAt(t0.Add(48 * time.Hour))
	if n := h.Count("alice", "reminder"); n != 0 {
		t.Errorf("%d reminders 48 h before the new deadline", n)
	}
	h.TickAt(t0.Add(72 * time.Hour))
	if got := expiries(h, name, t0); len(got) != 0 {
		t.Fatalf("expired at %v: the old deadline", got)
	}
	if n := h.Count("alice", "reminder"); n != 1 {
		t.Errorf("%d reminders 24 h before the new deadline, want 1", n)
	}
	h.TickAt(want.Add(-time.Second))
	if got := expiries(h, name, t0); len(got) != 0 {
		t.Fatalf("expired at %v, before the new deadline", got)
	}
	h.TickAt(want)
	if got := expiries(h, name, t0); len(got) != 1 || got[0] != 96*time.Hour {
		t.Fatalf("expiries %v, want one at +96h", got)
	}
	// The gift died with the turn: bob's turn has the turn time alone.
	if d := h.Deadline(name); !d.Equal(want.Add(72 * time.Hour)) {
		t.Errorf("bob's deadline +%v after his turn's start, want 72h", d.Sub(want))
	}
	// A GIVE in answer to a mail of alice's turn is stale (EMAIL §1.5): it
	// meant her, and bob gets nothing.
	h.Expect(h.ReplyTo("carol", &told, "GIVE gv 2h"), table.OutcomeRejected, "give-stale")
	if d := h.Deadline(name); !d.Equal(want.Add(72 * time.Hour)) {
		t.Errorf("a stale GIVE moved bob's deadline to +%v", d.Sub(want))
	}
	lexiotest.MustName(t, "carol's refusal", h.LastOf("carol", "rejected").Text, "Bob")
}

// TestGiveRefused: GIVE on one's own turn, under an hour, over seven
// days, past the seven days a player may give over a game (5 d then 3 d
// refused, saying what is left; 2 d then taken), at a table not the
// sender's, at a game over, or by a player who resigned, is refused and
// moves nothing; from the plain address it waits for its confirmation,
// which a forged From never gets.
func TestGiveRefused(t *testing.T) { lexiotest.EachDriver(t, testGiveRefused) }

func testGiveRefused(t *testing.T, driver string) {
	h := lexiotest.New(t, lexiotest.Options{Driver: driver})
	t0 := h.Clock.Now()
	const name = "gr"
	if err := h.Lobby.CreateTable(h.Ctx, name, "main", lexiotest.Emails("alice", "bob", "carol"), 5); err != nil {
		t.Fatal(err)
	}
	deadline := t0.Add(72 * time.Hour)
	refused := func(who, cmd, reason string) {
		t.Helper()
		h.Command(who, name, cmd, table.OutcomeRejected, reason)
		if d := h.Deadline(name); !d.Equal(deadline) {
			t.Fatalf("%s's %q moved the deadline to +%v", who, cmd, d.Sub(t0))
		}
	}
	refused("alice", "GIVE gr 24h", "give-own-turn")
	refused("bob", "GIVE gr 0h", "give-range")
	refused("bob", "GIVE gr 8d", "give-range")
	refused("bob", "GIVE gr 7d1h", "give-range")
	refused("bob", "GIVE t9 24h", "not-at-table") // no such table
	refused("bob", "GIVE gr 24", "bad-duration")  // the parser's: no unit

	// The cap: 5 days, then 3 refused (2 are left), then 2 taken.
	h.Command("carol", name, "DONNER gr 5j", table.OutcomeApplied, "GIVE gr 120h")
	deadline = deadline.Add(5 * 24 * time.Hour)
	refused("carol", "GIVE gr 3d", "give-cap")
	lexiotest.MustContain(t, "carol's refusal", h.LastOf("carol", "rejected").Text, "2 days")
	h.Command("carol", name, "DAR gr 2d", table.OutcomeApplied, "GIVE gr 48h")
	deadline = deadline.Add(2 * 24 * time.Hour)
	if d := h.Deadline(name); !d.Equal(deadline) {
		t.Fatalf("deadline +%v after 7 days given, want +%v", d.Sub(t0), deadline.Sub(t0))
	}
	refused("carol", "GIVE gr 1h", "give-cap")
	// On the next turn too: the cap is over the game.
	h.At(t0.Add(time.Hour))
	h.Command("alice", name, lexiotest.FindMove(h.Game(name), 0), table.OutcomeApplied, "PLACE")
	deadline = t0.Add(time.Hour + 72*time.Hour)
	refused("carol", "GIVE gr 1h", "give-cap")
	refused("bob", "GIVE gr 1h", "give-own-turn")

	// From the plain address: done once confirmed.
	id := h.SendMail("alice", lexiotest.MailSpec{Body: "GIVE gr 12h"})
	h.Expect(id, table.OutcomeApplied, "GIVE gr 12h")
	deadline = deadline.Add(12 * time.Hour)
	if d := h.Deadline(name); !d.Equal(deadline) {
		t.Fatalf("deadline +%v after the confirmed gift, want +%v", d.Sub(t0), deadline.Sub(t0))
	}
	// Someone not at the table, through the plain address: nothing.
	id = h.SendMail("dave", lexiotest.MailSpec{Body: "GIVE gr 12h"})
	h.Expect(id, table.OutcomeRejected, "not-at-table")
	// A forged From at the plain address waits for a confirmation that
	// only the address's owner could give: nothing moves.
	id = h.SendMail("eve", lexiotest.MailSpec{From: "bob@" + h.Domain, Body: "GIVE gr 24h"})
	h.Expect(id, table.OutcomePending, "GIVE")
	if d := h.Deadline(name); !d.Equal(deadline) {
		t.Fatalf("a forged GIVE moved the deadline to +%v", d.Sub(t0))
	}

	// Carol resigns: she may give no more; once the game is over nobody may.
	h.Command("carol", name, "RESIGN gr", table.OutcomeApplied, "RESIGN")
	h.Command("carol", name, "GIVE gr 1h", table.OutcomeRejected, "resigned")
	h.Command("alice", name, "RESIGN gr", table.OutcomeApplied, "RESIGN")
	h.Command("bob", name, "GIVE gr 1h", table.OutcomeRejected, "game-over")
}

// TestGiveComputer: the computer on move needs no time: GIVE is refused,
// and its turn keeps its time (bot_delay after it began).
func TestGiveComputer(t *testing.T) {
	h := lexiotest.New(t, lexiotest.Options{})
	t0 := h.Clock.Now()
	const name = "gb"
	if err := h.Lobby.CreateTable(h.Ctx, name, "main", []string{"alice@" + h.Domain, "bot:medium", "bob@" + h.Domain}, 5); err != nil {
		t.Fatal(err)
	}
	h.At(t0.Add(time.Hour))
	h.Command("alice", name, lexiotest.FindMove(h.Game(name), 0), table.OutcomeApplied, "PLACE")
	before := h.Deadline(name)
	h.Command("bob", name, "GIVE gb 24h", table.OutcomeRejected, "give-computer")
	if d := h.Deadline(name); !d.Equal(before) {
		t.Errorf("the computer's deadline moved from %v to %v", before, d)
	}
}

// TestGiveNamesItsTable: GIVE names its table, so it may come through
// the reply address of another of the sender's tables: the named table's
// deadline moves, not the other's.
func TestGiveNamesItsTable(t *testing.T) {
	h := lexiotest.New(t, lexiotest.Options{})
	t0 := h.Clock.Now()
	for _, name := range []string{"ga", "gz"} {
		if err := h.Lobby.CreateTable(h.Ctx, name, "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
			t.Fatal(err)
		}
	}
	h.Command("bob", "ga", "GIVE gz 5h", table.OutcomeApplied, "GIVE gz 5h")
	if d := h.Deadline("gz"); !d.Equal(t0.Add(77 * time.Hour)) {
		t.Errorf("gz's deadline +%v, want +77h", d.Sub(t0))
	}
	if d := h.Deadline("ga"); !d.Equal(t0.Add(72 * time.Hour)) {
		t.Errorf("ga's deadline +%v, want +72h", d.Sub(t0))
	}
	lexiotest.MustTell(t, "alice's gift notice", lastAt(h, "alice", "gz", "time-given").Text, t0.Add(77*time.Hour))
}

// TestGiveInReply: GIVE without a table's name, in reply to a table's
// mail, is for that table (#34); at the plain address it guesses none,
// even for a sender with one table: it is answered at once, with the
// sender's tables, and no deadline moves. "GIVE 1d 12h" names a table
// 1d only where the sender plays at one.
func TestGiveInReply(t *testing.T) {
	h := lexiotest.New(t, lexiotest.Options{})
	t0 := h.Clock.Now()
	if err := h.Lobby.CreateTable(h.Ctx, "gr", "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	id := h.SendMail("bob", lexiotest.MailSpec{Body: "GIVE 24h", NoConfirm: true})
	h.Expect(id, table.OutcomeRejected, "which-table")
	a := h.Answer("bob", id)
	lexiotest.MustContain(t, "GIVE 24h at the plain address", a.Text, "cannot tell which table", "gr")
	if d := h.Deadline("gr"); !d.Equal(t0.Add(72 * time.Hour)) {
		t.Fatalf("GIVE 24h at the plain address moved gr's deadline +%v", d.Sub(t0))
	}
	// Answered from bob's one table: sent again in answer, it acts there.
	h.Expect(h.ReplyTo("bob", &a, "GIVE 24h"), table.OutcomeApplied, "GIVE 24h")
	h.Command("bob", "gr", "GIVE 1d 12h", table.OutcomeApplied, "GIVE 36h")
	if d := h.Deadline("gr"); !d.Equal(t0.Add((72 + 24 + 36) * time.Hour)) {
		t.Errorf("gr's deadline +%v, want +132h", d.Sub(t0))
	}
}
