package lobby_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/internal/tablename"
	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/table"
)

// TestOpenTables: NEW, JOIN and START by mail where the configuration
// allows (EMAIL §3).
func TestOpenTables(t *testing.T) { lexiotest.EachDriver(t, testOpenTables) }

func testOpenTables(t *testing.T, driver string) {
	h := lexiotest.New(t, lexiotest.Options{Driver: driver, Config: "[open_tables]\nallow = true\nleague = \"main\"\n"})
	rec := h.Expect(h.SendMail("alice", lexiotest.MailSpec{Body: "NEW"}), table.OutcomeApplied, "NEW ")
	name := strings.TrimPrefix(rec.Reason, "NEW ")
	lexiotest.MustContain(t, "table-opened", h.LastOf("alice", "table-opened").Text, name)

	h.Expect(h.SendMail("bob", lexiotest.MailSpec{Body: "JOIN " + name}), table.OutcomeApplied, "JOIN")
	h.Expect(h.SendMail("carol", lexiotest.MailSpec{Body: "REJOINDRE " + name}), table.OutcomeApplied, "JOIN")
	h.OutboxEmpty()
	if n := len(lexiotest.OfKind(h.Inbox("alice"), "table-joined")); n != 2 {
		t.Errorf("alice was told of %d joins, want 2", n)
	}
	// Only the opener starts.
	h.Expect(h.Fresh("bob", name, "START"), table.OutcomeRejected, "not-owner")
	h.Expect(h.SendMail("alice", lexiotest.MailSpec{Body: "START"}), table.OutcomeApplied, "START")
	for _, p := range []string{"alice", "bob", "carol"} {
		if n := lexiotest.Seq(h.LastOf(p, "turn-notice")); n != 0 {
			t.Errorf("%s: first notice of turn %d", p, n)
		}
	}
	h.Expect(h.SendMail("dave", lexiotest.MailSpec{Body: "JOIN " + name}), table.OutcomeRejected, "already-started")
	h.Expect(h.SendMail("alice", lexiotest.MailSpec{Body: "START"}), table.OutcomeRejected, "")

	players := []string{"alice", "bob", "carol"}
	for i := 0; i < 3; i++ {
		g := h.Game(name)
		h.Expect(h.Send(players[g.Turn()], lexiotest.FindMove(g, g.Turn())), table.OutcomeApplied, "PLACE")
	}
	if g := h.Game(name); lexiotest.Turns(g) != 3 || g.Players() != 3 {
		t.Errorf("%d turns, %d players", lexiotest.Turns(g), g.Players())
	}

	// A full table.
	rec = h.Expect(h.SendMail("dave", lexiotest.MailSpec{Body: "NEW"}), table.OutcomeApplied, "NEW ")
	full := strings.TrimPrefix(rec.Reason, "NEW ")
	for _, p := range []string{"alice", "bob", "carol"} {
		h.Expect(h.SendMail(p, lexiotest.MailSpec{Body: "JOIN " + full}), table.OutcomeApplied, "JOIN")
	}
	h.Expect(h.SendMail("eve", lexiotest.MailSpec{Body: "JOIN " + full}), table.OutcomeRejected, "table-full")
	lexiotest.MustContain(t, "table-full reply", h.LastOf("eve", "rejected").Text, full)

	// Where the configuration does not allow it.
	closed := lexiotest.New(t, lexiotest.Options{Driver: driver})
	closed.Expect(closed.SendMail("alice", lexiotest.MailSpec{Body: "NEW"}), table.OutcomeRejected, "opening-disabled")
	closed.Expect(closed.SendMail("bob", lexiotest.MailSpec{Body: "JOIN " + name}), table.OutcomeRejected, "opening-disabled")
	closed.LastOf("alice", "rejected")
}

// TestSecondJoin: a player who already sits at a table and sends JOIN
// again is told so.
func TestSecondJoin(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{Config: "[open_tables]\nallow = true\nleague = \"main\"\n"})
	rec := h.Expect(h.SendMail("alice", lexiotest.MailSpec{Body: "NEW"}), table.OutcomeApplied, "NEW ")
	name := strings.TrimPrefix(rec.Reason, "NEW ")
	h.Expect(h.SendMail("bob", lexiotest.MailSpec{Body: "JOIN " + name}), table.OutcomeApplied, "JOIN")
	h.Expect(h.SendMail("bob", lexiotest.MailSpec{Body: "JOIN " + name}), table.OutcomeRejected, "already-seated")
	r := h.LastOf("bob", "rejected")
	lexiotest.MustContain(t, "the second JOIN's reply", r.Text, name)
	if want := "lexio+" + h.Token(name, "bob") + "@localhost"; r.ReplyTo != want {
		t.Errorf("Reply-To %q, want %q", r.ReplyTo, want)
	}
	if n := len(lexiotest.OfKind(h.Inbox("alice"), "table-joined")); n != 1 {
		t.Errorf("alice was told of %d joins, want 1", n)
	}
}

// TestShortNames: a table opened by mail takes a short name (#34), "t"
// and a few characters without look-alikes, the first of the message's
// names that no table holds: two taken, it takes the third; a REMATCH's
// table is named alike.
func TestShortNames(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{Config: "[open_tables]\nallow = true\nleague = \"main\"\n"})
	if err := h.Lobby.CreateTable(h.Ctx, "club", "main", lexiotest.Emails("alice", "bob"), 1); err != nil {
		t.Fatal(err)
	}
	const id = "short-names-1@localhost"
	names := slices.Collect(tablename.Shorts(id)) // the record's id, unbracketed
	for _, taken := range names[:2] {
		if err := h.Lobby.CreateTable(h.Ctx, taken, "main", lexiotest.Emails("carol", "dave"), 1); err != nil {
			t.Fatal(err)
		}
	}
	h.Settle()
	// Through a reply address: proven, no confirmation, the id as sent.
	h.Expect(h.SendMail("alice", lexiotest.MailSpec{ID: id, To: "lexio+" + h.Token("club", "alice") + "@" + h.Domain, Body: "NEW"}),
		table.OutcomeApplied, "NEW "+names[2])
	if len(names[2]) != 3 || !tablename.IsShort(names[2]) {
		t.Errorf("name %q: want t and 2 characters", names[2])
	}
	rec := h.Expect(h.SendMail("bob", lexiotest.MailSpec{Body: "NEW"}), table.OutcomeApplied, "NEW ")
	name := strings.TrimPrefix(rec.Reason, "NEW ")
	if name != slices.Collect(tablename.Shorts(rec.MessageID))[0] {
		t.Errorf("NEW opened %q, not the first short name of its message", name)
	}
	h.Expect(h.SendMail("carol", lexiotest.MailSpec{Body: "JOIN " + name}), table.OutcomeApplied, "JOIN")
	h.Expect(h.SendMail("bob", lexiotest.MailSpec{Body: "START"}), table.OutcomeApplied, "START")
	h.Expect(h.Fresh("bob", name, "RESIGN "+name), table.OutcomeApplied, "RESIGN")
	rec = h.Expect(h.SendMail("bob", lexiotest.MailSpec{Body: "REMATCH " + name}), table.OutcomeApplied, "REMATCH "+name+" ")
	again := strings.TrimPrefix(rec.Reason, "REMATCH "+name+" ")
	if !tablename.IsShort(again) || again == name {
		t.Errorf("rematch of %q at %q: want another short name", name, again)
	}
}
