package lobby_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/invites"
	"github.com/lexio-mail/lexio/store/outbox"
	"github.com/lexio-mail/lexio/table"
)

// The bounds on mail to addresses that never played here (LEAGUES §6):
// each test is an attack on the service as a way to mail strangers.

// kinds counts name's mails of kind k, about any table, once the outbox
// is empty.
func kinds(h *lexiotest.Harness, name, k string) int {
	h.T.Helper()
	h.OutboxEmpty()
	return len(lexiotest.OfKind(h.Inbox(name), k))
}

// sendNew sends NEW (command) from who's account, From from ("" for
// who's address), and returns its record, applied or not. With h.Open,
// it is how the tests of this file send NEW.
func sendNew(h *lexiotest.Harness, who, from, command string) store.Message {
	h.T.Helper()
	return h.Handled(h.SendMail(who, lexiotest.MailSpec{From: from, Body: command}))
}

// refusedNew is sendNew for a NEW that must be refused for reason.
func refusedNew(h *lexiotest.Harness, who, from, command, reason string) {
	h.T.Helper()
	if rec := sendNew(h, who, from, command); rec.Outcome != table.OutcomeRejected || !strings.Contains(rec.Reason, reason) {
		h.T.Fatalf("%s: %s %q, want rejected %q", command, rec.Outcome, rec.Reason, reason)
	}
}

// users adds mail accounts to the harness's server.
func users(h *lexiotest.Harness, names ...string) {
	h.T.Helper()
	for _, n := range names {
		h.AddUser(n)
	}
}

// refusesInvitations reports whether name's address refuses invitations.
func refusesInvitations(h *lexiotest.Harness, name string) bool {
	h.T.Helper()
	var refuses bool
	err := h.Store.View(h.Ctx, func(tx *store.Tx) error {
		var err error
		refuses, err = invites.Refuses(tx, name+"@"+h.Domain)
		return err
	})
	if err != nil {
		h.T.Fatal(err)
	}
	return refuses
}

// TestInvitationsStartResignCycles: an opener who invites two victims
// and an accomplice, starts the game with the accomplice (withdrawing the
// victims' invitations, each told) and resigns, again and again, mails
// each victim at most invitations_per_recipient_week invitations and as
// many withdrawals: the closed tables reset no count.
func TestInvitationsStartResignCycles(t *testing.T) {
	lexiotest.EachDriver(t, testInvitationsStartResignCycles)
}

func testInvitationsStartResignCycles(t *testing.T, driver string) {
	h := newInviteHarness(t, driver)
	users(h, "mallory", "m0", "m1", "m2", "m3", "m4", "m5")
	applied := 0
	for i := range 6 {
		accomplice := fmt.Sprintf("m%d", i)
		rec := sendNew(h, "mallory", "", "NEW lexio "+addrs(h, accomplice, "bob", "carol"))
		if rec.Outcome != table.OutcomeApplied {
			if i < 3 || rec.Reason != "invited-often,invited-often" {
				t.Fatalf("cycle %d: NEW %s %q", i, rec.Outcome, rec.Reason)
			}
			continue
		}
		applied++
		name := strings.TrimPrefix(rec.Reason, "NEW ")
		h.Expect(h.AnswerInvite(accomplice, name, "JOIN"), table.OutcomeApplied, "JOIN")
		h.Expect(h.SendMail("mallory", lexiotest.MailSpec{Body: "START"}), table.OutcomeApplied, "START")
		h.Expect(h.SendMail("mallory", lexiotest.MailSpec{Body: "RESIGN " + name}), table.OutcomeApplied, "RESIGN")
	}
	if applied != 3 {
		t.Errorf("%d cycles went through, want 3", applied)
	}
	// The refusal gives the bound: 3 invitations in 7 days.
	lexiotest.MustHaveNumbers(t, "the refusal", lexiotest.Intro(h.LastOf("mallory", "rejected").Text), 3, 7)
	for _, v := range []string{"bob", "carol"} {
		if n := kinds(h, v, "invitation"); n != 3 {
			t.Errorf("%s got %d invitations, want 3", v, n)
		}
		if n := kinds(h, v, "invitation-withdrawn"); n != 3 {
			t.Errorf("%s got %d withdrawals, want 3", v, n)
		}
	}
	// A week later the count is back.
	h.Clock.Add(7*24*time.Hour + time.Minute)
	h.Open("mallory", "NEW lexio "+addrs(h, "bob"))
}

// TestInvitationsForgedOpeners: NEW from ever new (forged) senders, each
// inviting one victim, invites nobody: each waits for a confirmation that
// its forged sender never gives (EMAIL §1.7). Ever new real openers, who
// confirm, invite the victim invitations_per_recipient_week times.
func TestInvitationsForgedOpeners(t *testing.T) {
	lexiotest.EachDriver(t, testInvitationsForgedOpeners)
}

func testInvitationsForgedOpeners(t *testing.T, driver string) {
	h := newInviteHarness(t, driver)
	users(h, "mallory", "victim")
	for i := range 10 {
		from := fmt.Sprintf("forged%d@%s", i, h.Domain)
		if rec := sendNew(h, "mallory", from, "NEW lexio "+addrs(h, "victim")); rec.Outcome != table.OutcomePending {
			t.Fatalf("forged NEW %d: %s %q, want pending", i, rec.Outcome, rec.Reason)
		}
	}
	if n := kinds(h, "victim", "invitation"); n != 0 {
		t.Errorf("the victim got %d invitations from forged openers, want 0", n)
	}
	for i := range 10 {
		opener := fmt.Sprintf("opener%d", i)
		users(h, opener)
		rec := sendNew(h, opener, "", "NEW lexio "+addrs(h, "victim"))
		want, reason := table.OutcomeApplied, "NEW "
		if i >= 3 {
			want, reason = table.OutcomeRejected, "invited-often"
		}
		if rec.Outcome != want || !strings.HasPrefix(rec.Reason, reason) {
			t.Fatalf("NEW %d: %s %q, want %s %q", i, rec.Outcome, rec.Reason, want, reason)
		}
	}
	if n := kinds(h, "victim", "invitation"); n != 3 {
		t.Errorf("the victim got %d invitations, want 3", n)
	}
}

// TestInvitationsPerOpener: one opener's invitations are bounded per day
// whatever became of them: declined ones, whose tables closed, count.
func TestInvitationsPerOpener(t *testing.T) { lexiotest.EachDriver(t, testInvitationsPerOpener) }

func testInvitationsPerOpener(t *testing.T, driver string) {
	h := newInviteHarness(t, driver)
	for i := range 4 {
		users(h, fmt.Sprintf("a%d", i), fmt.Sprintf("b%d", i), fmt.Sprintf("c%d", i))
	}
	for i := range 4 {
		names := []string{fmt.Sprintf("a%d", i), fmt.Sprintf("b%d", i), fmt.Sprintf("c%d", i)}
		name := h.Open("alice", "NEW lexio "+addrs(h, names...))
		for _, n := range names {
			h.Expect(h.AnswerInvite(n, name, "DECLINE"), table.OutcomeApplied, "DECLINE")
		}
		if !tableGone(h, name) {
			t.Fatalf("table %s is still open", name)
		}
	}
	// Twelve sent, none waiting: the thirteenth waits for tomorrow.
	refusedNew(h, "alice", "", "NEW lexio "+addrs(h, "dave"), "invitations-today")
	lexiotest.MustNumbers(t, "the refusal", lexiotest.Intro(h.LastOf("alice", "rejected").Text), 12, 24, 12)
	if n := kinds(h, "dave", "invitation"); n != 0 {
		t.Errorf("dave got %d invitations", n)
	}
	h.Clock.Add(24*time.Hour + time.Minute)
	h.Open("alice", "NEW lexio "+addrs(h, "dave"))
}

// TestInvitationsAfterDecline: an address that declined an opener's
// invitation is not invited by them again for 30 days; another opener
// may.
func TestInvitationsAfterDecline(t *testing.T) { lexiotest.EachDriver(t, testInvitationsAfterDecline) }

func testInvitationsAfterDecline(t *testing.T, driver string) {
	h := newInviteHarness(t, driver)
	name := h.Open("alice", "NEW lexio "+addrs(h, "bob"))
	h.Expect(h.AnswerInvite("bob", name, "DECLINE"), table.OutcomeApplied, "DECLINE")
	refusedNew(h, "alice", "", "NEW lexio "+addrs(h, "bob"), "declined-you")
	lexiotest.MustHaveNumbers(t, "the refusal", lexiotest.Intro(h.LastOf("alice", "rejected").Text), 30)
	h.Open("carol", "NEW lexio "+addrs(h, "bob"))
	// Sent before the clock moves: mail older than the outbox's max age
	// is given up.
	h.OutboxEmpty()
	h.Clock.Add(29 * 24 * time.Hour)
	refusedNew(h, "alice", "", "NEW lexio "+addrs(h, "bob"), "declined-you")
	if n := kinds(h, "bob", "invitation"); n != 2 {
		t.Errorf("bob got %d invitations, want 2", n)
	}
	h.Clock.Add(2 * 24 * time.Hour)
	h.Open("alice", "NEW lexio "+addrs(h, "bob"))
}

// TestInvitationsStop: STOP through an invitation declines it (the opener
// is told) and every other one pending, and no NEW by anyone invites the
// address again; the invitation says how.
func TestInvitationsStop(t *testing.T) { lexiotest.EachDriver(t, testInvitationsStop) }

func testInvitationsStop(t *testing.T, driver string) {
	h := newInviteHarness(t, driver)
	one := h.Open("alice", "NEW lexio "+addrs(h, "bob", "carol"))
	two := h.Open("dave", "NEW lexico "+addrs(h, "bob"))
	h.Expect(h.AnswerInvite("bob", one, "STOP"), table.OutcomeApplied, "STOP")
	// Bob's confirmation names both tables his STOP declined; alice is
	// told Bob declined and Carol is awaited; dave's table closed (NEW
	// to open another).
	lexiotest.MustContain(t, "bob's confirmation", h.LastOf("bob", "invitations-refused").Text, one, two)
	if !refusesInvitations(h, "bob") {
		t.Error("bob's STOP was not kept")
	}
	lexiotest.MustContain(t, "alice told", h.MailOf("alice", "invitation-answer", one).Text, one, "Bob", "Carol")
	lexiotest.MustContain(t, "dave told", h.MailOf("dave", "invitation-answer", two).Text, two, "Bob", "NEW")
	if !tableGone(h, two) {
		t.Errorf("table %s, whose one invitation bob declined, is still there", two)
	}
	if st := invitationState(h, one, "bob"); st != store.InviteDeclined {
		t.Errorf("bob's invitation is %s", st)
	}
	for _, opener := range []string{"alice", "eve"} {
		refusedNew(h, opener, "", "NEW lexio "+addrs(h, "bob"), "refuses-invitations")
	}
	h.LastOf("eve", "rejected")
	// A week and a month later, still not.
	h.Clock.Add(40 * 24 * time.Hour)
	refusedNew(h, "eve", "", "NEW lexio "+addrs(h, "bob"), "refuses-invitations")
	if n := kinds(h, "bob", "invitation"); n != 2 {
		t.Errorf("bob got %d invitations, want the 2 before STOP", n)
	}
	// BAJA through an invitation already declined works as well.
	h.Expect(h.AnswerInvite("carol", one, "BAJA"), table.OutcomeApplied, "STOP")
	if !refusesInvitations(h, "carol") {
		t.Error("carol's BAJA was not kept")
	}
}

// TestInvitationsListUnsubscribe: an invitation's List-Unsubscribe address
// refuses every invitation, whatever is written to it; from another
// sender it does nothing.
func TestInvitationsListUnsubscribe(t *testing.T) {
	lexiotest.EachDriver(t, testInvitationsListUnsubscribe)
}

func testInvitationsListUnsubscribe(t *testing.T, driver string) {
	h := newInviteHarness(t, driver)
	users(h, "mallory")
	name := h.Open("alice", "NEW lexio "+addrs(h, "bob"))
	inv := h.MailOf("bob", "invitation", name)
	lu := inv.Header("List-Unsubscribe")
	addr, ok := strings.CutPrefix(strings.Trim(lu, "<>"), "mailto:")
	if !ok || !strings.HasPrefix(addr, "lexio+unsub_invite.") || !strings.HasSuffix(addr, "@"+h.Domain) {
		t.Fatalf("bob's invitation has List-Unsubscribe %q", lu)
	}
	// Mallory forges it: nothing changes.
	h.Expect(h.SendMail("mallory", lexiotest.MailSpec{To: addr, Body: "unsubscribe"}), table.OutcomeRejected, "bad-token")
	if refusesInvitations(h, "bob") || refusesInvitations(h, "mallory") {
		t.Fatal("a forged unsubscribe was kept")
	}
	h.Expect(h.SendMail("bob", lexiotest.MailSpec{To: addr, Subject: "unsubscribe"}), table.OutcomeApplied, "STOP (List-Unsubscribe)")
	h.LastOf("bob", "invitations-refused")
	if !refusesInvitations(h, "bob") {
		t.Error("bob's unsubscribe was not kept")
	}
	if !tableGone(h, name) {
		t.Errorf("table %s, whose one invitation is declined, is still there", name)
	}
	refusedNew(h, "carol", "", "NEW lexio "+addrs(h, "bob"), "refuses-invitations")
}

// TestInvitationsUnfitAddress: an address with a 900-character local part,
// a domain that is no host name, or none with a dot is refused, as is an
// opener whose own address is not plain; and no invitation's subject
// holds anything the opener chose.
func TestInvitationsUnfitAddress(t *testing.T) {
	t.Parallel()
	h := newInviteHarness(t, "")
	users(h, "mallory")
	long := "Free-prizes-at-" + strings.Repeat("x", 885)
	for _, a := range []string{
		strings.ToLower(long) + "@" + h.Domain, "bob@example", "bob@-bad-.org", "bob@exa_mple.org",
		"bob@" + strings.Repeat("a", 64) + ".org", "bob@" + strings.Repeat("abcdefghi.", 26) + "org",
	} {
		refusedNew(h, "alice", "", "NEW lexio "+a, "unfit-address")
		text := h.LastOf("alice", "rejected").Text
		if len(text) > 2000 {
			t.Errorf("the refusal of %.20s… quotes it whole (%d bytes)", a, len(text))
		}
	}
	// An opener whose address is not plain invites nobody, and is not
	// even asked to confirm.
	opener := strings.Repeat("o", 65) + "@" + h.Domain
	if rec := sendNew(h, "mallory", opener, "NEW lexio "+addrs(h, "bob")); rec.Outcome != table.OutcomePending {
		t.Fatalf("NEW from %s: %s %q, want pending", opener, rec.Outcome, rec.Reason)
	}
	h.OutboxEmpty()
	if n, err := outbox.New(h.Store).Due(h.Ctx, h.Clock.Now().Add(time.Hour), 10); err != nil || len(n) != 0 {
		t.Fatalf("mail queued for an unfit opener: %v, %v", n, err)
	}
	if n := kinds(h, "bob", "invitation"); n != 0 {
		t.Fatalf("bob got %d invitations", n)
	}
	// A plain address of the opener's choice reaches the body, never
	// the subject.
	spam := "free-prizes-at-scam.example"
	users(h, spam)
	name := h.Open(spam, "NEW lexio "+addrs(h, "bob"))
	m := h.MailOf("bob", "invitation", name)
	if !strings.HasPrefix(m.Subject, "[Lexio "+name+"] ") || strings.Contains(strings.ToLower(m.Subject), "prize") {
		t.Errorf("the invitation's subject is %q", m.Subject)
	}
	lexiotest.MustContain(t, "the invitation's body", m.Text, spam+"@"+h.Domain)
}

// TestInvitationsOpenTablesBound: one opener keeps at most
// open_tables_per_opener tables waiting to start, with invitations or
// without.
func TestInvitationsOpenTablesBound(t *testing.T) {
	lexiotest.EachDriver(t, testInvitationsOpenTablesBound)
}

func testInvitationsOpenTablesBound(t *testing.T, driver string) {
	h := newInviteHarness(t, driver)
	h.Open("alice", "NEW")
	h.Open("alice", "NEW lexio "+addrs(h, "bob"))
	third := h.Open("alice", "NEW")
	for _, body := range []string{"NEW", "NEW lexio " + addrs(h, "carol")} {
		refusedNew(h, "alice", "", body, "open-tables")
	}
	lexiotest.MustNumbers(t, "the refusal", lexiotest.Intro(h.LastOf("alice", "rejected").Text), 3, 3)
	if n := kinds(h, "carol", "invitation"); n != 0 {
		t.Errorf("carol got %d invitations", n)
	}
	// Another opener is not bound by alice's tables.
	h.Open("dave", "NEW")
	// One table started frees a place.
	h.Expect(h.SendMail("eve", lexiotest.MailSpec{Body: "JOIN " + third}), table.OutcomeApplied, "JOIN")
	h.Expect(h.Fresh("alice", third, "START"), table.OutcomeApplied, "START")
	h.Open("alice", "NEW")
}

// TestInvitationsLapse: an open table without invitations that is not
// started within invite_ttl is closed, its seated players told; one with
// invitations lapses with them, as before.
func TestInvitationsLapse(t *testing.T) { lexiotest.EachDriver(t, testInvitationsLapse) }

func testInvitationsLapse(t *testing.T, driver string) {
	h := newInviteHarness(t, driver)
	lonely := h.Open("alice", "NEW")
	two := h.Open("carol", "NEW lexico")
	h.Expect(h.SendMail("dave", lexiotest.MailSpec{Body: "JOIN " + two}), table.OutcomeApplied, "JOIN")
	h.Clock.Add(6 * 24 * time.Hour)
	h.Tick(h.Clock.Now())
	if tableGone(h, lonely) || tableGone(h, two) {
		t.Fatal("a table closed before its time")
	}
	h.Clock.Add(24*time.Hour + time.Minute)
	h.Tick(h.Clock.Now())
	for _, name := range []string{lonely, two} {
		if !tableGone(h, name) {
			t.Errorf("table %s is still open", name)
		}
	}
	lexiotest.MustContain(t, "alice told", h.MailOf("alice", "table-lapsed", lonely).Text, lonely)
	for _, p := range []string{"carol", "dave"} {
		// Each is told who sat there.
		lexiotest.MustContain(t, p+" told", lexiotest.Intro(h.MailOf(p, "table-lapsed", two).Text), two, "Carol", "Dave")
	}
	// Another Tick finds nothing; alice may open again.
	h.Tick(h.Clock.Now())
	if n := h.CountOf("alice", "table-lapsed", lonely); n != 1 {
		t.Errorf("alice was told %d times", n)
	}
	h.Open("alice", "NEW")
}

// TestInvitationsOutsiderDay: the day's bound on mail to outsiders
// refuses the invitations past it, from any opener; an address that has
// played here is not counted. The two invited first are of two domains:
// each may have a tenth of the day's mail to outsiders, at least one.
func TestInvitationsOutsiderDay(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{Domain: lexiotest.InviteDomain, Config: lexiotest.OpenTablesConfig, Mail: "outsider_mails_per_day = 2\n"})
	users(h, "frank")
	// The openers play here already: their confirmations are no mail to
	// outsiders.
	if err := h.Lobby.CreateTable(h.Ctx, "known", "main", []string{"alice@" + h.Domain, "dave@" + h.Domain, "frank@" + h.Domain}, 7); err != nil {
		t.Fatal(err)
	}
	h.Open("alice", "NEW lexio "+addrs(h, "bob")+" carol@elsewhere.test")
	refusedNew(h, "dave", "", "NEW lexio "+addrs(h, "eve"), "outsider-mail")
	h.LastOf("dave", "rejected")
	// Alice has a seat: she may be invited.
	h.Open("dave", "NEW lexio "+addrs(h, "alice"))
	if n := kinds(h, "eve", "invitation"); n != 0 {
		t.Errorf("eve got %d invitations", n)
	}
	h.Clock.Add(24*time.Hour + time.Minute)
	h.Open("frank", "NEW lexio "+addrs(h, "eve"))
}

// TestInvitationsUnsubscribeInSubject: where the token lives in the
// subject tag, an invitation's List-Unsubscribe address is the service's
// own with the no-invitation token in the tag, and a mail written to it
// refuses invitations; withdrawn invitations carry it too.
func TestInvitationsUnsubscribeInSubject(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{Domain: lexiotest.InviteDomain, Config: lexiotest.OpenTablesConfig, Mail: "token_in_subject = true"})
	name := h.Open("alice", "NEW lexio "+addrs(h, "bob", "carol"))
	token := h.Tables.Tokens().NoInvite("bob@" + h.Domain)
	want := "<mailto:lexio@" + h.Domain + "?subject=%5BLexio%20-%20" + token + "%5D>"
	inv := h.MailOf("bob", "invitation", name)
	if got := inv.Header("List-Unsubscribe"); got != want {
		t.Fatalf("List-Unsubscribe %q, want %q", got, want)
	}
	h.Expect(h.SendMail("bob", lexiotest.MailSpec{Subject: "[Lexio - " + token + "]"}), table.OutcomeApplied, "STOP (List-Unsubscribe)")
	if !refusesInvitations(h, "bob") {
		t.Fatal("bob's unsubscribe was not kept")
	}
	if invitationState(h, name, "bob") != store.InviteDeclined {
		t.Errorf("bob's invitation is %s", invitationState(h, name, "bob"))
	}
	// Carol's invitation withdrawn: its mail carries her address too.
	other := h.Open("dave", "NEW lexio "+addrs(h, "eve", "carol"))
	h.Expect(h.AnswerInvite("eve", other, "JOIN"), table.OutcomeApplied, "JOIN")
	h.Expect(h.SendMail("dave", lexiotest.MailSpec{Subject: "[Lexio " + other + "]", Body: "START"}), table.OutcomeApplied, "START")
	withdrawn := h.MailOf("carol", "invitation-withdrawn", other)
	lu := withdrawn.Header("List-Unsubscribe")
	if !strings.Contains(lu, h.Tables.Tokens().NoInvite("carol@"+h.Domain)) {
		t.Errorf("carol's withdrawal has List-Unsubscribe %q", lu)
	}
}

// TestInvitationsStopFromPlayer: a seated player's STOP through their
// table's address refuses invitations and leaves the game as it is.
func TestInvitationsStopFromPlayer(t *testing.T) {
	t.Parallel()
	h := newInviteHarness(t, "")
	name := h.Open("alice", "NEW lexio "+addrs(h, "bob"))
	h.Expect(h.AnswerInvite("bob", name, "JOIN"), table.OutcomeApplied, "JOIN")
	before := lexiotest.Turns(h.Game(name))
	h.Expect(h.Fresh("bob", name, "STOP"), table.OutcomeApplied, "STOP")
	if !refusesInvitations(h, "bob") {
		t.Error("bob's STOP was not kept")
	}
	if g := h.Game(name); g == nil || lexiotest.Turns(g) != before {
		t.Errorf("the game changed: %v", g)
	}
	refusedNew(h, "carol", "", "NEW lexio "+addrs(h, "bob"), "refuses-invitations")
}

// queuedTo counts the mails queued to addr, sent or not: an address of
// another domain than the harness's has no mailbox to read.
func queuedTo(h *lexiotest.Harness, addr string) int {
	h.T.Helper()
	h.OutboxEmpty()
	var n int64
	err := h.Store.View(h.Ctx, func(tx *store.Tx) error {
		return tx.DB().Model(&store.OutboxMail{}).Where("env_to LIKE ?", "%\""+addr+"\"%").Count(&n).Error
	})
	if err != nil {
		h.T.Fatal(err)
	}
	return int(n)
}

// TestInvitationsOneDomain: EMAIL §2.6, #35. The invitations to the
// addresses of one domain spend at most a tenth of the day's mail to
// outsiders, whoever sends them, and share that tenth with the answers to
// outsiders there (notice.OutsiderRates): one confirmed opener inviting
// address after address of one domain cannot aim the day's mail at it.
// Invitations to other domains still go; the next day the domain's share
// is back.
func TestInvitationsOneDomain(t *testing.T) { lexiotest.EachDriver(t, testInvitationsOneDomain) }

func testInvitationsOneDomain(t *testing.T, driver string) {
	h := lexiotest.New(t, lexiotest.Options{Driver: driver, Domain: lexiotest.InviteDomain, Config: lexiotest.OpenTablesConfig,
		Mail: "outsider_mails_per_day = 30\n"})
	users(h, "v1", "v2", "v3", "v4", "v5")
	// The openers play here: their confirmations are no mail to outsiders.
	if err := h.Lobby.CreateTable(h.Ctx, "known", "main", []string{"alice@" + h.Domain, "dave@" + h.Domain}, 7); err != nil {
		t.Fatal(err)
	}
	// A tenth of 30: three invitations to the harness's domain.
	h.Open("alice", "NEW lexio "+addrs(h, "v1", "v2"))
	h.Open("alice", "NEW lexio "+addrs(h, "v3"))
	refusedNew(h, "alice", "", "NEW lexio "+addrs(h, "v4"), "outsider-mail-domain")
	lexiotest.MustContain(t, "the refusal", h.LastOf("alice", "rejected").Text, "v4@"+h.Domain)
	// With an address elsewhere, the NEW is refused whole, naming the one.
	refusedNew(h, "alice", "", "NEW lexio other1@elsewhere.test "+addrs(h, "v4"), "outsider-mail-domain")
	if n := queuedTo(h, "other1@elsewhere.test"); n != 0 {
		t.Errorf("%d mails queued to other1, whose NEW was refused", n)
	}
	// Another opener is bound too: the share is the recipient domain's.
	refusedNew(h, "dave", "", "NEW lexio "+addrs(h, "v5"), "outsider-mail-domain")
	for _, v := range []string{"v1", "v2", "v3"} {
		if n := kinds(h, v, "invitation"); n != 1 {
			t.Errorf("%s got %d invitations, want 1", v, n)
		}
	}
	for _, v := range []string{"v4", "v5"} {
		if n := kinds(h, v, "invitation"); n != 0 {
			t.Errorf("%s got %d invitations past the domain's share", v, n)
		}
	}
	// Other domains still get theirs.
	h.Open("dave", "NEW lexio other1@elsewhere.test other2@elsewhere.test other3@faraway.test")
	for _, a := range []string{"other1@elsewhere.test", "other2@elsewhere.test", "other3@faraway.test"} {
		if n := queuedTo(h, a); n != 1 {
			t.Errorf("%d mails queued to %s, want its invitation", n, a)
		}
	}
	// A day later the share is back.
	h.Clock.Add(24*time.Hour + time.Minute)
	h.Open("dave", "NEW lexio "+addrs(h, "v4"))
	if n := kinds(h, "v4", "invitation"); n != 1 {
		t.Errorf("v4 got %d invitations the next day, want 1", n)
	}
}
