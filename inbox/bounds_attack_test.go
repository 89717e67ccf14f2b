package inbox_test

import (
	"fmt"
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

// TestSubaddressSpellingsOneBound: victim+1@x, victim+2@x … are one
// mailbox. 24 commands forged from 24 such spellings, at the plain
// address, each asking a confirmation, put 24 "Was it you?" in the
// victim's one mailbox (a bound of 5 a day per address, each spelling
// counted apart). The bound counts per person (store.PersonKey): at most
// unproven_answers_per_day reach the mailbox, and those of another
// person still go.
func TestSubaddressSpellingsOneBound(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{Domain: lexiotest.InviteDomain, Mail: "unproven_answers_per_day = 5"})
	h.AddUser("victim")
	for i := range 24 {
		from := fmt.Sprintf("victim+%d@%s", i+1, h.Domain)
		if i%3 == 1 {
			from = fmt.Sprintf(`"Victim+%d"@%s`, i+1, strings.ToUpper(h.Domain))
		}
		h.Handled(h.SendMail("eve", lexiotest.MailSpec{From: from, Body: "LANG fr"}))
	}
	h.OutboxEmpty()
	if n := len(lexiotest.OfKind(h.Inbox("victim"), "confirm")); n != 5 {
		t.Errorf("the victim's mailbox got %d confirmations, want the day's 5", n)
	}
	h.Handled(h.SendMail("eve", lexiotest.MailSpec{From: "carol@" + h.Domain, Body: "LANG fr"}))
	h.OutboxEmpty()
	if n := len(lexiotest.OfKind(h.Inbox("carol"), "confirm")); n != 1 {
		t.Errorf("carol got %d confirmations, want 1", n)
	}
}

// TestSubaddressSpellingsNoCommand: mail without a command, from three
// spellings of one mailbox, is answered once in the hour, as from one.
func TestSubaddressSpellingsNoCommand(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{Domain: lexiotest.InviteDomain})
	for _, from := range []string{"alice+1", "alice+2", "Alice"} {
		h.Handled(h.SendMail("eve", lexiotest.MailSpec{From: from + "@" + h.Domain, Body: "Hello there, how are you?"}))
	}
	h.OutboxEmpty()
	if n := len(h.Inbox("alice")); n != 1 {
		t.Errorf("alice's mailbox got %d answers to mail without a command, want 1", n)
	}
}
