package inbox_test

import (
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/internal/lexiotest"
	"github.com/lexio-mail/lexio/table"
)

// TestLongSenderStrings: a Message-ID over its column's 998 characters,
// or a From over 320, made PostgreSQL refuse the message's record (its
// error record too): the message stayed in the inbox, tried again for
// ever, and every message after it waited. Both are handled now, once,
// and the inbox goes on.
func TestLongSenderStrings(t *testing.T) { lexiotest.EachDriver(t, testLongSenderStrings) }

func testLongSenderStrings(t *testing.T, driver string) {
	h := lexiotest.New(t, lexiotest.Options{Driver: driver})
	if err := h.Lobby.CreateTable(h.Ctx, "sl", "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("x", 1200) + "@localhost"
	h.Expect(h.SendMail("alice", lexiotest.MailSpec{ID: long, Body: "HELP"}), table.OutcomeApplied, "HELP")
	id := h.SendMail("alice", lexiotest.MailSpec{From: strings.Repeat("a", 400) + "@" + h.Domain, Body: "NEW"})
	if rec := h.Handled(id); rec.Outcome == table.OutcomeApplied {
		t.Errorf("NEW from a 400-character address: %s %q", rec.Outcome, rec.Reason)
	}
	h.Expect(h.Fresh("alice", "sl", "BOARD"), table.OutcomeApplied, "BOARD")
}
