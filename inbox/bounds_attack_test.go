package inbox_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/store"
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

// TestUnplainForgeriesSpendNothing: forged mail from addresses the service
// never writes to (a domain without a dot) counted against the day's
// answers to unproven mail before the address was looked at: 500 of them
// spent the day's total in seconds, and every answer at the plain
// address, a seated player's HELP and VACATION included, was refused for
// a day. Mail not sent spends no bound now.
func TestUnplainForgeriesSpendNothing(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{Mail: "unproven_answers_total_per_day = 20"})
	if err := h.Lobby.CreateTable(h.Ctx, "up", "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.WaitMail("alice", 1)
	for i := range 50 {
		h.Handled(h.SendMail("eve", lexiotest.MailSpec{From: fmt.Sprintf("x%d@nodot", i), Body: "HELP"}))
	}
	h.OutboxEmpty()
	if n := outboxTo(h, "@nodot"); n != 0 {
		t.Fatalf("%d mails queued to addresses without a dot, want none", n)
	}
	h.Handled(h.SendMail("alice", lexiotest.MailSpec{Body: "HELP"}))
	if n := h.Count("alice", "help"); n != 1 {
		t.Errorf("alice's HELP at the plain address got %d answers, want 1", n)
	}
	h.Expect(h.SendMail("alice", lexiotest.MailSpec{Body: "VACATION 3", NoConfirm: true}), table.OutcomePending, "confirm: VACATION")
	if n := h.Count("alice", "confirm"); n != 1 {
		t.Errorf("alice's VACATION at the plain address got %d confirmations, want 1", n)
	}
}

// TestOneDomainSpendsATenth: forged mail from many addresses of one
// domain spent the whole day's answers to unproven mail and to outsiders.
// One domain spends a tenth of each at most now; the others' answers go.
func TestOneDomainSpendsATenth(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{Mail: "unproven_answers_total_per_day = 20\noutsider_mails_per_day = 20"})
	if err := h.Lobby.CreateTable(h.Ctx, "dt", "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.WaitMail("alice", 1)
	for i := range 30 {
		h.Handled(h.SendMail("eve", lexiotest.MailSpec{From: fmt.Sprintf("x%d@Evil.example", i), Body: "HELP"}))
	}
	h.OutboxEmpty()
	if n := outboxTo(h, "@evil.example"); n != 2 {
		t.Errorf("%d answers to forged mail from one domain, want 2 (a tenth of 20)", n)
	}
	// carol never played here: an outsider, at another domain.
	h.Handled(h.SendMail("eve", lexiotest.MailSpec{From: "carol@other.example", Body: "HELP"}))
	h.OutboxEmpty()
	if n := outboxTo(h, "carol@other.example"); n != 1 {
		t.Errorf("carol, an outsider at another domain, got %d answers, want 1", n)
	}
	h.Handled(h.SendMail("alice", lexiotest.MailSpec{Body: "HELP"}))
	if n := h.Count("alice", "help"); n != 1 {
		t.Errorf("alice's HELP at the plain address got %d answers, want 1", n)
	}
}

// TestUnprovenTotalOverDomains: the day's answers to unproven mail are
// bounded in all, whichever domains they go to.
func TestUnprovenTotalOverDomains(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{Mail: "unproven_answers_total_per_day = 10"})
	for i := range 12 {
		h.Handled(h.SendMail("eve", lexiotest.MailSpec{From: fmt.Sprintf("x@d%d.example", i), Body: "HELP"}))
	}
	h.OutboxEmpty()
	if n := outboxTo(h, ".example"); n != 10 {
		t.Errorf("%d answers to unproven mail from 12 domains, want 10 (the day's total)", n)
	}
}

// TestRefusedBoundSpendsNoOther: an answer that one bound refused had
// spent the bounds counted before it: forged mail from outsiders, refused
// once the day's mail to outsiders was spent, went on spending the day's
// answers to unproven mail, until a player's HELP went unanswered. A
// bound is counted with all the others or not at all now.
func TestRefusedBoundSpendsNoOther(t *testing.T) {
	lexiotest.EachDriver(t, testRefusedBoundSpendsNoOther)
}

func testRefusedBoundSpendsNoOther(t *testing.T, driver string) {
	h := lexiotest.New(t, lexiotest.Options{Driver: driver, Mail: "unproven_answers_total_per_day = 6\noutsider_mails_per_day = 1"})
	if err := h.Lobby.CreateTable(h.Ctx, "rb", "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.WaitMail("alice", 1)
	for i := range 6 {
		h.Handled(h.SendMail("eve", lexiotest.MailSpec{From: fmt.Sprintf("x@d%d.example", i), Body: "HELP"}))
	}
	h.OutboxEmpty()
	if n := outboxTo(h, ".example"); n != 1 {
		t.Errorf("%d answers to outsiders, want 1 (the day's mail to them)", n)
	}
	h.Handled(h.SendMail("alice", lexiotest.MailSpec{Body: "HELP"}))
	if n := h.Count("alice", "help"); n != 1 {
		t.Errorf("alice's HELP at the plain address got %d answers, want 1", n)
	}
}

// TestUnansweredProseSpendsNothing: prose forged from a player's address,
// not answered once the day's answers to that address were spent, spent
// the hour's one answer to a message without a command all the same: the
// player's own prose through their table got nothing. It is counted only
// with an answer that goes now.
func TestUnansweredProseSpendsNothing(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{Mail: "unproven_answers_per_day = 1"})
	if err := h.Lobby.CreateTable(h.Ctx, "np", "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.WaitMail("alice", 1)
	for _, body := range []string{"HELP", "Hello, how are you?"} {
		h.Handled(h.SendMail("eve", lexiotest.MailSpec{From: "alice@" + h.Domain, Body: body}))
	}
	if n := h.Count("alice", "rejected"); n != 0 {
		t.Fatalf("forged prose past the day's bound answered %d times", n)
	}
	h.Expect(h.Send("alice", "Hello again"), table.OutcomeRejected, "no-command")
	if n := h.Count("alice", "rejected"); n != 1 {
		t.Errorf("alice's prose through her table got %d answers, want 1", n)
	}
}

// TestRatesPruned: a rate counter stayed for ever, one for each address
// that ever wrote. The scheduler deletes those whose window closed; a
// sender pruned is counted afresh.
func TestRatesPruned(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{Mail: "unproven_answers_per_day = 1"})
	help := func() {
		t.Helper()
		h.Handled(h.SendMail("eve", lexiotest.MailSpec{From: "carol@" + h.Domain, Body: "HELP"}))
	}
	help()
	help()
	if n := h.Count("carol", "help"); n != 1 {
		t.Fatalf("carol got %d answers, want 1 (one a day)", n)
	}
	h.TickAt(h.Clock.Now().Add(23 * time.Hour))
	if n := rateRows(h); n == 0 {
		t.Fatal("the day's counters pruned before the day ended")
	}
	h.TickAt(h.Clock.Now().Add(time.Hour))
	if n := rateRows(h); n != 0 {
		t.Errorf("%d rate counters after every window closed, want none", n)
	}
	help()
	if n := h.Count("carol", "help"); n != 2 {
		t.Errorf("carol got %d answers after the prune, want 2", n)
	}
}

// outboxTo counts the mails queued to a recipient that contains s.
func outboxTo(h *lexiotest.Harness, s string) int {
	h.T.Helper()
	var rows []store.OutboxMail
	if err := h.Store.Read(h.Ctx).Find(&rows).Error; err != nil {
		h.T.Fatal(err)
	}
	n := 0
	for _, r := range rows {
		if slices.ContainsFunc(r.To, func(to string) bool { return strings.Contains(strings.ToLower(to), s) }) {
			n++
		}
	}
	return n
}

// rateRows counts the rate counters stored.
func rateRows(h *lexiotest.Harness) int64 {
	h.T.Helper()
	var n int64
	if err := h.Store.Read(h.Ctx).Model(&store.RateCounter{}).Count(&n).Error; err != nil {
		h.T.Fatal(err)
	}
	return n
}
