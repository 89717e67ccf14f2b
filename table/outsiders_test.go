package table_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/invites"
	"github.com/lexio-mail/lexio/store/outbox"
	"github.com/lexio-mail/lexio/table"
)

// The bounds on mail to addresses that never played here (LEAGUES §6):
// each test is an attack on the service as a way to mail strangers.

// kinds counts name's mails of kind k, about any table, once the outbox
// is empty.
func (h *harness) kinds(name, k string) int {
	h.t.Helper()
	h.outboxEmpty()
	return len(ofKind(h.inbox(name), k))
}

// sendNew sends NEW (command) from who's account, From from ("" for
// who's address), and returns its record, applied or not. With h.open,
// it is how the tests of this file send NEW.
func (h *harness) sendNew(who, from, command string) store.Message {
	h.t.Helper()
	return h.handled(h.sendMail(who, mailSpec{From: from, Body: command}))
}

// refusedNew is sendNew for a NEW that must be refused for reason.
func (h *harness) refusedNew(who, from, command, reason string) {
	h.t.Helper()
	if rec := h.sendNew(who, from, command); rec.Outcome != table.OutcomeRejected || !strings.Contains(rec.Reason, reason) {
		h.t.Fatalf("%s: %s %q, want rejected %q", command, rec.Outcome, rec.Reason, reason)
	}
}

// users adds mail accounts to the harness's server.
func (h *harness) users(names ...string) {
	h.t.Helper()
	for _, n := range names {
		h.addUser(n)
	}
}

// refusesInvitations reports whether name's address refuses invitations.
func (h *harness) refusesInvitations(name string) bool {
	h.t.Helper()
	var refuses bool
	err := h.store.View(h.ctx, func(tx *store.Tx) error {
		var err error
		refuses, err = invites.Refuses(tx, name+"@"+h.domain)
		return err
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return refuses
}

// TestInvitationsStartResignCycles: an opener who invites two victims
// and an accomplice, starts the game with the accomplice (withdrawing the
// victims' invitations, each told) and resigns, again and again, mails
// each victim at most invitations_per_recipient_week invitations and as
// many withdrawals: the closed tables reset no count.
func TestInvitationsStartResignCycles(t *testing.T) { eachDriver(t, testInvitationsStartResignCycles) }

func testInvitationsStartResignCycles(t *testing.T, driver string) {
	h := newInviteHarness(t, driver)
	h.users("mallory", "m0", "m1", "m2", "m3", "m4", "m5")
	applied := 0
	for i := range 6 {
		accomplice := fmt.Sprintf("m%d", i)
		rec := h.sendNew("mallory", "", "NEW lexio "+h.addrs(accomplice, "bob", "carol"))
		if rec.Outcome != table.OutcomeApplied {
			if i < 3 || rec.Reason != "invited-often,invited-often" {
				t.Fatalf("cycle %d: NEW %s %q", i, rec.Outcome, rec.Reason)
			}
			continue
		}
		applied++
		name := strings.TrimPrefix(rec.Reason, "NEW ")
		h.expect(h.answerInvite(accomplice, name, "JOIN"), table.OutcomeApplied, "JOIN")
		h.expect(h.sendMail("mallory", mailSpec{Body: "START"}), table.OutcomeApplied, "START")
		h.expect(h.sendMail("mallory", mailSpec{Body: "RESIGN " + name}), table.OutcomeApplied, "RESIGN")
	}
	if applied != 3 {
		t.Errorf("%d cycles went through, want 3", applied)
	}
	// The refusal gives the bound: 3 invitations in 7 days.
	mustHaveNumbers(t, "the refusal", intro(h.lastOf("mallory", "rejected").Text), 3, 7)
	for _, v := range []string{"bob", "carol"} {
		if n := h.kinds(v, "invitation"); n != 3 {
			t.Errorf("%s got %d invitations, want 3", v, n)
		}
		if n := h.kinds(v, "invitation-withdrawn"); n != 3 {
			t.Errorf("%s got %d withdrawals, want 3", v, n)
		}
	}
	// A week later the count is back.
	h.clock.Add(7*24*time.Hour + time.Minute)
	h.open("mallory", "NEW lexio "+h.addrs("bob"))
}

// TestInvitationsForgedOpeners: NEW from ever new (forged) senders, each
// inviting one victim, invites nobody: each waits for a confirmation that
// its forged sender never gives (EMAIL §1.7). Ever new real openers, who
// confirm, invite the victim invitations_per_recipient_week times.
func TestInvitationsForgedOpeners(t *testing.T) { eachDriver(t, testInvitationsForgedOpeners) }

func testInvitationsForgedOpeners(t *testing.T, driver string) {
	h := newInviteHarness(t, driver)
	h.users("mallory", "victim")
	for i := range 10 {
		from := fmt.Sprintf("forged%d@%s", i, h.domain)
		if rec := h.sendNew("mallory", from, "NEW lexio "+h.addrs("victim")); rec.Outcome != table.OutcomePending {
			t.Fatalf("forged NEW %d: %s %q, want pending", i, rec.Outcome, rec.Reason)
		}
	}
	if n := h.kinds("victim", "invitation"); n != 0 {
		t.Errorf("the victim got %d invitations from forged openers, want 0", n)
	}
	for i := range 10 {
		opener := fmt.Sprintf("opener%d", i)
		h.users(opener)
		rec := h.sendNew(opener, "", "NEW lexio "+h.addrs("victim"))
		want, reason := table.OutcomeApplied, "NEW "
		if i >= 3 {
			want, reason = table.OutcomeRejected, "invited-often"
		}
		if rec.Outcome != want || !strings.HasPrefix(rec.Reason, reason) {
			t.Fatalf("NEW %d: %s %q, want %s %q", i, rec.Outcome, rec.Reason, want, reason)
		}
	}
	if n := h.kinds("victim", "invitation"); n != 3 {
		t.Errorf("the victim got %d invitations, want 3", n)
	}
}

// TestInvitationsPerOpener: one opener's invitations are bounded per day
// whatever became of them: declined ones, whose tables closed, count.
func TestInvitationsPerOpener(t *testing.T) { eachDriver(t, testInvitationsPerOpener) }

func testInvitationsPerOpener(t *testing.T, driver string) {
	h := newInviteHarness(t, driver)
	for i := range 4 {
		h.users(fmt.Sprintf("a%d", i), fmt.Sprintf("b%d", i), fmt.Sprintf("c%d", i))
	}
	for i := range 4 {
		names := []string{fmt.Sprintf("a%d", i), fmt.Sprintf("b%d", i), fmt.Sprintf("c%d", i)}
		name := h.open("alice", "NEW lexio "+h.addrs(names...))
		for _, n := range names {
			h.expect(h.answerInvite(n, name, "DECLINE"), table.OutcomeApplied, "DECLINE")
		}
		if !h.tableGone(name) {
			t.Fatalf("table %s is still open", name)
		}
	}
	// Twelve sent, none waiting: the thirteenth waits for tomorrow.
	h.refusedNew("alice", "", "NEW lexio "+h.addrs("dave"), "invitations-today")
	mustNumbers(t, "the refusal", intro(h.lastOf("alice", "rejected").Text), 12, 24, 12)
	if n := h.kinds("dave", "invitation"); n != 0 {
		t.Errorf("dave got %d invitations", n)
	}
	h.clock.Add(24*time.Hour + time.Minute)
	h.open("alice", "NEW lexio "+h.addrs("dave"))
}

// TestInvitationsAfterDecline: an address that declined an opener's
// invitation is not invited by them again for 30 days; another opener
// may.
func TestInvitationsAfterDecline(t *testing.T) { eachDriver(t, testInvitationsAfterDecline) }

func testInvitationsAfterDecline(t *testing.T, driver string) {
	h := newInviteHarness(t, driver)
	name := h.open("alice", "NEW lexio "+h.addrs("bob"))
	h.expect(h.answerInvite("bob", name, "DECLINE"), table.OutcomeApplied, "DECLINE")
	h.refusedNew("alice", "", "NEW lexio "+h.addrs("bob"), "declined-you")
	mustHaveNumbers(t, "the refusal", intro(h.lastOf("alice", "rejected").Text), 30)
	h.open("carol", "NEW lexio "+h.addrs("bob"))
	// Sent before the clock moves: mail older than the outbox's max age
	// is given up.
	h.outboxEmpty()
	h.clock.Add(29 * 24 * time.Hour)
	h.refusedNew("alice", "", "NEW lexio "+h.addrs("bob"), "declined-you")
	if n := h.kinds("bob", "invitation"); n != 2 {
		t.Errorf("bob got %d invitations, want 2", n)
	}
	h.clock.Add(2 * 24 * time.Hour)
	h.open("alice", "NEW lexio "+h.addrs("bob"))
}

// TestInvitationsStop: STOP through an invitation declines it (the opener
// is told) and every other one pending, and no NEW by anyone invites the
// address again; the invitation says how.
func TestInvitationsStop(t *testing.T) { eachDriver(t, testInvitationsStop) }

func testInvitationsStop(t *testing.T, driver string) {
	h := newInviteHarness(t, driver)
	one := h.open("alice", "NEW lexio "+h.addrs("bob", "carol"))
	two := h.open("dave", "NEW lexico "+h.addrs("bob"))
	h.expect(h.answerInvite("bob", one, "STOP"), table.OutcomeApplied, "STOP")
	// Bob's confirmation names both tables his STOP declined; alice is
	// told Bob declined and Carol is awaited; dave's table closed (NEW
	// to open another).
	mustContain(t, "bob's confirmation", h.lastOf("bob", "invitations-refused").Text, one, two)
	if !h.refusesInvitations("bob") {
		t.Error("bob's STOP was not kept")
	}
	mustContain(t, "alice told", h.mailOf("alice", "invitation-answer", one).Text, one, "Bob", "Carol")
	mustContain(t, "dave told", h.mailOf("dave", "invitation-answer", two).Text, two, "Bob", "NEW")
	if !h.tableGone(two) {
		t.Errorf("table %s, whose one invitation bob declined, is still there", two)
	}
	if st := h.invitationState(one, "bob"); st != store.InviteDeclined {
		t.Errorf("bob's invitation is %s", st)
	}
	for _, opener := range []string{"alice", "eve"} {
		h.refusedNew(opener, "", "NEW lexio "+h.addrs("bob"), "refuses-invitations")
	}
	h.lastOf("eve", "rejected")
	// A week and a month later, still not.
	h.clock.Add(40 * 24 * time.Hour)
	h.refusedNew("eve", "", "NEW lexio "+h.addrs("bob"), "refuses-invitations")
	if n := h.kinds("bob", "invitation"); n != 2 {
		t.Errorf("bob got %d invitations, want the 2 before STOP", n)
	}
	// BAJA through an invitation already declined works as well.
	h.expect(h.answerInvite("carol", one, "BAJA"), table.OutcomeApplied, "STOP")
	if !h.refusesInvitations("carol") {
		t.Error("carol's BAJA was not kept")
	}
}

// TestInvitationsListUnsubscribe: an invitation's List-Unsubscribe address
// refuses every invitation, whatever is written to it; from another
// sender it does nothing.
func TestInvitationsListUnsubscribe(t *testing.T) { eachDriver(t, testInvitationsListUnsubscribe) }

func testInvitationsListUnsubscribe(t *testing.T, driver string) {
	h := newInviteHarness(t, driver)
	h.users("mallory")
	name := h.open("alice", "NEW lexio "+h.addrs("bob"))
	inv := h.mailOf("bob", "invitation", name)
	lu := inv.Header("List-Unsubscribe")
	addr, ok := strings.CutPrefix(strings.Trim(lu, "<>"), "mailto:")
	if !ok || !strings.HasPrefix(addr, "lexio+unsub_invite.") || !strings.HasSuffix(addr, "@"+h.domain) {
		t.Fatalf("bob's invitation has List-Unsubscribe %q", lu)
	}
	// Mallory forges it: nothing changes.
	h.expect(h.sendMail("mallory", mailSpec{To: addr, Body: "unsubscribe"}), table.OutcomeRejected, "bad-token")
	if h.refusesInvitations("bob") || h.refusesInvitations("mallory") {
		t.Fatal("a forged unsubscribe was kept")
	}
	h.expect(h.sendMail("bob", mailSpec{To: addr, Subject: "unsubscribe"}), table.OutcomeApplied, "STOP (List-Unsubscribe)")
	h.lastOf("bob", "invitations-refused")
	if !h.refusesInvitations("bob") {
		t.Error("bob's unsubscribe was not kept")
	}
	if !h.tableGone(name) {
		t.Errorf("table %s, whose one invitation is declined, is still there", name)
	}
	h.refusedNew("carol", "", "NEW lexio "+h.addrs("bob"), "refuses-invitations")
}

// TestInvitationsUnfitAddress: an address with a 900-character local part,
// a domain that is no host name, or none with a dot is refused, as is an
// opener whose own address is not plain; and no invitation's subject
// holds anything the opener chose.
func TestInvitationsUnfitAddress(t *testing.T) {
	t.Parallel()
	h := newInviteHarness(t, "")
	h.users("mallory")
	long := "Free-prizes-at-" + strings.Repeat("x", 885)
	for _, a := range []string{
		strings.ToLower(long) + "@" + h.domain, "bob@example", "bob@-bad-.org", "bob@exa_mple.org",
		"bob@" + strings.Repeat("a", 64) + ".org", "bob@" + strings.Repeat("abcdefghi.", 26) + "org",
	} {
		h.refusedNew("alice", "", "NEW lexio "+a, "unfit-address")
		text := h.lastOf("alice", "rejected").Text
		if len(text) > 2000 {
			t.Errorf("the refusal of %.20s… quotes it whole (%d bytes)", a, len(text))
		}
	}
	// An opener whose address is not plain invites nobody, and is not
	// even asked to confirm.
	opener := strings.Repeat("o", 65) + "@" + h.domain
	if rec := h.sendNew("mallory", opener, "NEW lexio "+h.addrs("bob")); rec.Outcome != table.OutcomePending {
		t.Fatalf("NEW from %s: %s %q, want pending", opener, rec.Outcome, rec.Reason)
	}
	h.outboxEmpty()
	if n, err := outbox.New(h.store).Due(h.ctx, h.clock.Now().Add(time.Hour), 10); err != nil || len(n) != 0 {
		t.Fatalf("mail queued for an unfit opener: %v, %v", n, err)
	}
	if n := h.kinds("bob", "invitation"); n != 0 {
		t.Fatalf("bob got %d invitations", n)
	}
	// A plain address of the opener's choice reaches the body, never
	// the subject.
	spam := "free-prizes-at-scam.example"
	h.users(spam)
	name := h.open(spam, "NEW lexio "+h.addrs("bob"))
	m := h.mailOf("bob", "invitation", name)
	if !strings.HasPrefix(m.Subject, "[Lexio "+name+"] ") || strings.Contains(strings.ToLower(m.Subject), "prize") {
		t.Errorf("the invitation's subject is %q", m.Subject)
	}
	mustContain(t, "the invitation's body", m.Text, spam+"@"+h.domain)
}

// TestInvitationsOpenTablesBound: one opener keeps at most
// open_tables_per_opener tables waiting to start, with invitations or
// without.
func TestInvitationsOpenTablesBound(t *testing.T) { eachDriver(t, testInvitationsOpenTablesBound) }

func testInvitationsOpenTablesBound(t *testing.T, driver string) {
	h := newInviteHarness(t, driver)
	h.open("alice", "NEW")
	h.open("alice", "NEW lexio "+h.addrs("bob"))
	third := h.open("alice", "NEW")
	for _, body := range []string{"NEW", "NEW lexio " + h.addrs("carol")} {
		h.refusedNew("alice", "", body, "open-tables")
	}
	mustNumbers(t, "the refusal", intro(h.lastOf("alice", "rejected").Text), 3, 3)
	if n := h.kinds("carol", "invitation"); n != 0 {
		t.Errorf("carol got %d invitations", n)
	}
	// Another opener is not bound by alice's tables.
	h.open("dave", "NEW")
	// One table started frees a place.
	h.expect(h.sendMail("eve", mailSpec{Body: "JOIN " + third}), table.OutcomeApplied, "JOIN")
	h.expect(h.fresh("alice", third, "START"), table.OutcomeApplied, "START")
	h.open("alice", "NEW")
}

// TestInvitationsLapse: an open table without invitations that is not
// started within invite_ttl is closed, its seated players told; one with
// invitations lapses with them, as before.
func TestInvitationsLapse(t *testing.T) { eachDriver(t, testInvitationsLapse) }

func testInvitationsLapse(t *testing.T, driver string) {
	h := newInviteHarness(t, driver)
	lonely := h.open("alice", "NEW")
	two := h.open("carol", "NEW lexico")
	h.expect(h.sendMail("dave", mailSpec{Body: "JOIN " + two}), table.OutcomeApplied, "JOIN")
	h.clock.Add(6 * 24 * time.Hour)
	h.tick(h.clock.Now())
	if h.tableGone(lonely) || h.tableGone(two) {
		t.Fatal("a table closed before its time")
	}
	h.clock.Add(24*time.Hour + time.Minute)
	h.tick(h.clock.Now())
	for _, name := range []string{lonely, two} {
		if !h.tableGone(name) {
			t.Errorf("table %s is still open", name)
		}
	}
	mustContain(t, "alice told", h.mailOf("alice", "table-lapsed", lonely).Text, lonely)
	for _, p := range []string{"carol", "dave"} {
		// Each is told who sat there.
		mustContain(t, p+" told", intro(h.mailOf(p, "table-lapsed", two).Text), two, "Carol", "Dave")
	}
	// Another Tick finds nothing; alice may open again.
	h.tick(h.clock.Now())
	if n := h.countOf("alice", "table-lapsed", lonely); n != 1 {
		t.Errorf("alice was told %d times", n)
	}
	h.open("alice", "NEW")
}

// TestInvitationsOutsiderDay: the day's bound on mail to outsiders
// refuses the invitations past it, from any opener; an address that has
// played here is not counted.
func TestInvitationsOutsiderDay(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOpts{domain: inviteDomain, config: openTablesConfig, mail: "outsider_mails_per_day = 2\n"})
	h.users("frank")
	// The openers play here already: their confirmations are no mail to
	// outsiders.
	if err := h.lobby.CreateTable(h.ctx, "known", "main", []string{"alice@" + h.domain, "dave@" + h.domain, "frank@" + h.domain}, 7); err != nil {
		t.Fatal(err)
	}
	h.open("alice", "NEW lexio "+h.addrs("bob", "carol"))
	h.refusedNew("dave", "", "NEW lexio "+h.addrs("eve"), "outsider-mail")
	h.lastOf("dave", "rejected")
	// Alice has a seat: she may be invited.
	h.open("dave", "NEW lexio "+h.addrs("alice"))
	if n := h.kinds("eve", "invitation"); n != 0 {
		t.Errorf("eve got %d invitations", n)
	}
	h.clock.Add(24*time.Hour + time.Minute)
	h.open("frank", "NEW lexio "+h.addrs("eve"))
}

// TestInvitationsUnsubscribeInSubject: where the token lives in the
// subject tag, an invitation's List-Unsubscribe address is the service's
// own with the no-invitation token in the tag, and a mail written to it
// refuses invitations; withdrawn invitations carry it too.
func TestInvitationsUnsubscribeInSubject(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOpts{domain: inviteDomain, config: openTablesConfig, mail: "token_in_subject = true"})
	name := h.open("alice", "NEW lexio "+h.addrs("bob", "carol"))
	token := h.svc.Tokens().NoInvite("bob@" + h.domain)
	want := "<mailto:lexio@" + h.domain + "?subject=%5BLexio%20-%20" + token + "%5D>"
	inv := h.mailOf("bob", "invitation", name)
	if got := inv.Header("List-Unsubscribe"); got != want {
		t.Fatalf("List-Unsubscribe %q, want %q", got, want)
	}
	h.expect(h.sendMail("bob", mailSpec{Subject: "[Lexio - " + token + "]"}), table.OutcomeApplied, "STOP (List-Unsubscribe)")
	if !h.refusesInvitations("bob") {
		t.Fatal("bob's unsubscribe was not kept")
	}
	if h.invitationState(name, "bob") != store.InviteDeclined {
		t.Errorf("bob's invitation is %s", h.invitationState(name, "bob"))
	}
	// Carol's invitation withdrawn: its mail carries her address too.
	other := h.open("dave", "NEW lexio "+h.addrs("eve", "carol"))
	h.expect(h.answerInvite("eve", other, "JOIN"), table.OutcomeApplied, "JOIN")
	h.expect(h.sendMail("dave", mailSpec{Subject: "[Lexio " + other + "]", Body: "START"}), table.OutcomeApplied, "START")
	withdrawn := h.mailOf("carol", "invitation-withdrawn", other)
	lu := withdrawn.Header("List-Unsubscribe")
	if !strings.Contains(lu, h.svc.Tokens().NoInvite("carol@"+h.domain)) {
		t.Errorf("carol's withdrawal has List-Unsubscribe %q", lu)
	}
}

// TestInvitationsStopFromPlayer: a seated player's STOP through their
// table's address refuses invitations and leaves the game as it is.
func TestInvitationsStopFromPlayer(t *testing.T) {
	t.Parallel()
	h := newInviteHarness(t, "")
	name := h.open("alice", "NEW lexio "+h.addrs("bob"))
	h.expect(h.answerInvite("bob", name, "JOIN"), table.OutcomeApplied, "JOIN")
	before := turns(h.game(name))
	h.expect(h.fresh("bob", name, "STOP"), table.OutcomeApplied, "STOP")
	if !h.refusesInvitations("bob") {
		t.Error("bob's STOP was not kept")
	}
	if g := h.game(name); g == nil || turns(g) != before {
		t.Errorf("the game changed: %v", g)
	}
	h.refusedNew("carol", "", "NEW lexio "+h.addrs("bob"), "refuses-invitations")
}
