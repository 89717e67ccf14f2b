package table_test

import (
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/table"
)

// TestLongSenderStrings: a Message-ID over its column's 998 characters,
// or a From over 320, made PostgreSQL refuse the message's record (its
// error record too): the message stayed in the inbox, tried again for
// ever, and every message after it waited. Both are handled now, once,
// and the inbox goes on.
func TestLongSenderStrings(t *testing.T) { eachDriver(t, testLongSenderStrings) }

func testLongSenderStrings(t *testing.T, driver string) {
	h := newHarness(t, harnessOpts{driver: driver})
	if err := h.lobby.CreateTable(h.ctx, "sl", "main", emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("x", 1200) + "@localhost"
	h.expect(h.sendMail("alice", mailSpec{ID: long, Body: "HELP"}), table.OutcomeApplied, "HELP")
	id := h.sendMail("alice", mailSpec{From: strings.Repeat("a", 400) + "@" + h.domain, Body: "NEW"})
	if rec := h.handled(id); rec.Outcome == table.OutcomeApplied {
		t.Errorf("NEW from a 400-character address: %s %q", rec.Outcome, rec.Reason)
	}
	h.expect(h.fresh("alice", "sl", "BOARD"), table.OutcomeApplied, "BOARD")
}
