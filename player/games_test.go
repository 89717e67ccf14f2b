package player_test

import (
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/table"
)

// bobAt opens table name for other and bob (seat 1) at the clock's time
// and leaves it bob's turn or not, by a pass of the one on move.
func bobAt(h *lexiotest.Harness, name, other string, bobsTurn bool, seed uint64) {
	h.T.Helper()
	if err := h.Lobby.CreateTable(h.Ctx, name, "main", lexiotest.Emails(other, "bob"), seed); err != nil {
		h.T.Fatal(err)
	}
	h.OutboxEmpty()
	if onMove := h.Game(name).Turn() == 1; onMove != bobsTurn {
		pass(h, map[bool]string{true: "bob", false: other}[onMove], name)
	}
	if got := h.Game(name).Turn() == 1; got != bobsTurn {
		h.T.Fatalf("%s: bob's turn %v, want %v", name, got, bobsTurn)
	}
}

// lf is text with its lines ended by LF alone, as the templates write them.
func lf(text string) string { return strings.ReplaceAll(text, "\r\n", "\n") }

// TestGamesOrder: GAMES lists the tables waiting for the sender's move
// first, soonest deadline first, then the others by name.
func TestGamesOrder(t *testing.T) {
	h := lexiotest.New(t, lexiotest.Options{})
	// Opened an hour apart, so that the deadlines of bob's turns differ,
	// in an order that is neither the names' nor the deadlines'.
	for _, c := range []struct {
		name, other string
		bobsTurn    bool
	}{
		{"gd", "alice", true}, {"gb", "carol", false}, {"gc", "eve", true}, {"g0", "dave", false}, {"ga", "dave", true},
	} {
		bobAt(h, c.name, c.other, c.bobsTurn, 7)
		h.Clock.Add(time.Hour)
	}
	if !h.Deadline("gd").Before(h.Deadline("gc")) || !h.Deadline("gc").Before(h.Deadline("ga")) {
		t.Fatalf("deadlines gd %v, gc %v, ga %v: want them in that order", h.Deadline("gd"), h.Deadline("gc"), h.Deadline("ga"))
	}
	h.Expect(h.SendMail("bob", lexiotest.MailSpec{Body: "GAMES"}), table.OutcomeApplied, "GAMES")
	text := lf(h.LastOf("bob", "games-reply").Text)
	last := -1
	for _, name := range []string{"gd", "gc", "ga", "g0", "gb"} {
		i := strings.Index(text, "* "+name+" (")
		if i < 0 || i < last {
			t.Fatalf("GAMES lists %s out of order (want gd, gc, ga, g0, gb):\n%s", name, text)
		}
		last = i
	}
	lexiotest.MustContain(t, "GAMES", text, "* gd (lexio): in play Your turn")
}

// TestResignWithoutTable: RESIGN alone resigns nothing, at once and
// without confirmation, through the plain address or a table's: it is
// answered with the line that resigns each of the sender's running tables,
// not those waiting, over or left; RESIGN with a name still resigns.
func TestResignWithoutTable(t *testing.T) {
	h := lexiotest.New(t, lexiotest.Options{Config: lexiotest.OpenTablesConfig})
	bobAt(h, "ra", "alice", true, 3)
	bobAt(h, "rb", "carol", false, 4)
	for _, c := range []struct{ name, players string }{{"rleft", "alice bob carol"}, {"rover", "dave bob"}} {
		if err := h.Lobby.CreateTable(h.Ctx, c.name, "main", lexiotest.Emails(strings.Fields(c.players)...), 5); err != nil {
			t.Fatal(err)
		}
	}
	h.OutboxEmpty()
	h.Expect(h.Fresh("bob", "rleft", "RESIGN rleft"), table.OutcomeApplied, "RESIGN rleft")
	h.Expect(h.Fresh("dave", "rover", "RESIGN rover"), table.OutcomeApplied, "RESIGN rover")
	if !h.Game("rover").Over() || h.Game("rleft").Over() || !h.Game("rleft").Left(1) {
		t.Fatal("the named RESIGNs did not resign")
	}
	h.Open("bob", "NEW lexio") // a table waiting for players

	wantLines := "reply with its line:\n\n  - RESIGN ra\n  - RESIGN rb\n\n"
	id := h.SendMail("bob", lexiotest.MailSpec{Body: "RESIGN"})
	h.Expect(id, table.OutcomeApplied, "RESIGN")
	a := h.Answer("bob", id)
	if lexiotest.Kind(a) != "resign-tables" || a.ReplyTo != "lexio@localhost" {
		t.Errorf("RESIGN to the plain address answered by %s from %q, want resign-tables from the plain address", lexiotest.Kind(a), a.ReplyTo)
	}
	lexiotest.MustContain(t, "RESIGN alone", a.Text, "Nothing was resigned")
	if !strings.Contains(lf(a.Text), wantLines) {
		t.Errorf("RESIGN alone lacks the lines %q:\n%s", wantLines, a.Text)
	}
	lexiotest.MustNotContain(t, "RESIGN alone", a.Text, "rleft", "rover", "Was it you")

	// Through a table's reply address: answered there, that table kept.
	id = h.Fresh("bob", "ra", "Abandonner")
	h.Expect(id, table.OutcomeApplied, "RESIGN")
	a = h.Answer("bob", id)
	if want := "lexio+" + h.Token("ra", "bob") + "@localhost"; lexiotest.Kind(a) != "resign-tables" || a.ReplyTo != want {
		t.Errorf("RESIGN through ra answered by %s from %q, want resign-tables from %q", lexiotest.Kind(a), a.ReplyTo, want)
	}
	if !strings.Contains(lf(a.Text), wantLines) {
		t.Errorf("RESIGN through ra lacks the lines %q:\n%s", wantLines, a.Text)
	}
	for _, name := range []string{"ra", "rb"} {
		if g := h.Game(name); g.Over() || g.Left(1) {
			t.Errorf("RESIGN alone resigned bob at %s", name)
		}
	}

	// Nobody's running table: said so.
	h.AddUser("frank")
	id = h.SendMail("frank", lexiotest.MailSpec{Body: "resign"})
	h.Expect(id, table.OutcomeApplied, "RESIGN")
	lexiotest.MustContain(t, "frank's RESIGN", h.Answer("frank", id).Text, "you are playing at no table now")
}
