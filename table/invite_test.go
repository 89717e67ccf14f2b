package table_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/mailer/client"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/invites"
	"github.com/lexio-mail/lexio/table"
)

// The invitation tests run on a mail domain with a dot: the parser
// refuses an invitee's address without one (bob@localhost).
const inviteDomain = "lexio.test"

const openTablesConfig = "[open_tables]\nallow = true\nleague = \"main\"\n"

func newInviteHarness(t *testing.T, driver string) *harness {
	return newHarness(t, harnessOpts{driver: driver, domain: inviteDomain, config: openTablesConfig})
}

// addrs are the accounts' addresses on the harness's domain.
func (h *harness) addrs(names ...string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n + "@" + h.domain
	}
	return strings.Join(out, " ")
}

// open sends NEW from who and returns the new table's name.
func (h *harness) open(who, command string) string {
	h.t.Helper()
	rec := h.expect(h.sendMail(who, mailSpec{Body: command}), table.OutcomeApplied, "NEW ")
	return strings.TrimPrefix(rec.Reason, "NEW ")
}

// mailOf waits for the outbox to drain and returns name's newest mail of
// kind k about table.
func (h *harness) mailOf(name, k, table string) client.Message {
	h.t.Helper()
	h.outboxEmpty()
	var found *client.Message
	h.waitFor(name+"'s "+k+" of "+table, func() bool {
		msgs := h.inbox(name)
		for i := len(msgs) - 1; i >= 0; i-- {
			if kind(msgs[i]) == k && strings.HasPrefix(msgs[i].MessageID, "lexio."+table+".") {
				found = &msgs[i]
				return true
			}
		}
		return false
	})
	return *found
}

// countOf is how many mails of kind k about table name holds, once the
// outbox is empty.
func (h *harness) countOf(name, k, table string) int {
	h.t.Helper()
	h.outboxEmpty()
	n := 0
	for _, m := range h.inbox(name) {
		if kind(m) == k && strings.HasPrefix(m.MessageID, "lexio."+table+".") {
			n++
		}
	}
	return n
}

// answerInvite replies to name's invitation to table.
func (h *harness) answerInvite(name, table, command string) string {
	h.t.Helper()
	m := h.mailOf(name, "invitation", table)
	return h.replyTo(name, &m, command)
}

// tableGone reports whether no table is called name.
func (h *harness) tableGone(name string) bool {
	h.t.Helper()
	err := h.store.View(h.ctx, func(tx *store.Tx) error {
		_, err := tx.TableByName(name)
		return err
	})
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		h.t.Fatal(err)
	}
	return errors.Is(err, store.ErrNotFound)
}

// invitationState is the state of addr's invitation to table.
func (h *harness) invitationState(table, name string) store.InvitationState {
	h.t.Helper()
	var st store.InvitationState
	err := h.store.View(h.ctx, func(tx *store.Tx) error {
		row, err := tx.TableByName(table)
		if err != nil {
			return err
		}
		inv, err := invites.Of(tx, row.ID, name+"@"+h.domain)
		if err != nil {
			return err
		}
		st = inv.State
		return nil
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return st
}

// TestInvitationsAccepted: NEW with addresses mails each invitee an
// invitation with a reply address of their own, in their language if
// known, else the opener's; the game starts when the last one joins, and
// every player gets its first notice (LEAGUES §6).
func TestInvitationsAccepted(t *testing.T) { eachDriver(t, testInvitationsAccepted) }

func testInvitationsAccepted(t *testing.T, driver string) {
	h := newInviteHarness(t, driver)
	// Alice writes in French; Carol is known and writes in Spanish; Bob
	// is new.
	h.expect(h.sendMail("alice", mailSpec{Body: "LANG fr"}), table.OutcomeApplied, "LANG fr")
	h.expect(h.sendMail("carol", mailSpec{Body: "LANG es"}), table.OutcomeApplied, "LANG es")
	name := h.open("alice", "NOUVELLE lexio "+h.addrs("bob", "carol"))
	// The confirmation, in French (COMMENCER), names the table, the
	// invitees and when the invitations lapse: a week on.
	mustContain(t, "alice's confirmation", h.mailOf("alice", "table-opened", name).Text,
		name, "Bob", "Carol", "COMMENCER", "9 mars 2026", "09:00")

	bob := h.mailOf("bob", "invitation", name)
	// The commands to answer with, in the opener's language.
	mustContain(t, "bob's invitation (the opener's language)", bob.Text, "alice@"+h.domain, name, "REJOINDRE", "REFUSER", "STOP")
	if want := "lexio+" + h.token(name, "bob") + "@" + h.domain; bob.ReplyTo != want {
		t.Errorf("bob's invitation replies to %q, want his own address %q", bob.ReplyTo, want)
	}
	// The subject names the table only (LEAGUES §6): neither the opener
	// nor another invitee.
	if !strings.HasPrefix(bob.Subject, "[Lexio "+name+"] ") || strings.Contains(strings.ToLower(bob.Subject), "alice") ||
		strings.Contains(strings.ToLower(bob.Subject), "carol") {
		t.Errorf("bob's invitation subject %q", bob.Subject)
	}
	carol := h.mailOf("carol", "invitation", name)
	mustContain(t, "carol's invitation (her language)", carol.Text, "alice@"+h.domain, name, "UNIRSE", "BAJA")

	// A bare JOIN through the invitation seats Bob; the game waits for
	// Carol.
	h.expect(h.answerInvite("bob", name, "JOIN"), table.OutcomeApplied, "JOIN "+name)
	// Alice is told who sat down and who is still invited, and that she
	// may start without them.
	mustContain(t, "the join told to alice", h.mailOf("alice", "table-joined", name).Text, name, "Bob", "Carol", "COMMENCER")
	if g := h.game(name); g != nil {
		t.Fatalf("the game began with an invitation pending")
	}
	if st := h.invitationState(name, "bob"); st != store.InviteJoined {
		t.Errorf("bob's invitation is %s", st)
	}
	// Carol's UNIRSE is the last answer: the game begins, with the
	// players in the order they sat down.
	h.expect(h.answerInvite("carol", name, "UNIRSE"), table.OutcomeApplied, "JOIN "+name)
	g := h.game(name)
	if g == nil || g.Players() != 3 {
		t.Fatalf("after the last join: game %v", g)
	}
	for _, p := range []string{"alice", "bob", "carol"} {
		if n := seqOf(h.mailOf(p, "turn-notice", name)); n != 0 {
			t.Errorf("%s: first notice of turn %d", p, n)
		}
	}
	// Carol's join began the game: her confirmation names the players
	// and no longer offers START (EMPEZAR).
	joined := h.mailOf("carol", "table-joined", name).Text
	mustContain(t, "carol's join", joined, name, "Alice", "Bob")
	mustNotContain(t, "carol's join", joined, "EMPEZAR")
	// The seats follow the joins: Bob second, Carol third.
	h.expect(h.send("alice", findMove(h.game(name), 0)), table.OutcomeApplied, "PLACE")
	h.expect(h.send("bob", findMove(h.game(name), 1)), table.OutcomeApplied, "PLACE")
	if g := h.game(name); turns(g) != 2 {
		t.Errorf("%d turns", turns(g))
	}
}

// TestInvitationsDeclined: DECLINE through the invitation, or to the
// service's address with one invitation pending, refuses it; the opener
// is told each time; the last answer starts the game, or closes the table
// when the opener sits alone.
func TestInvitationsDeclined(t *testing.T) { eachDriver(t, testInvitationsDeclined) }

func testInvitationsDeclined(t *testing.T, driver string) {
	h := newInviteHarness(t, driver)
	name := h.open("alice", "NEW "+h.addrs("bob", "carol"))
	h.expect(h.answerInvite("bob", name, "DECLINE"), table.OutcomeApplied, "DECLINE "+name)
	// Alice is told who declined and who is still awaited; the table
	// stays open, and with her alone seated nothing offers NEW or START.
	told := h.mailOf("alice", "invitation-answer", name).Text
	mustContain(t, "the decline told to alice", told, name, "Bob", "Carol")
	mustNotContain(t, "the decline told to alice", told, "NEW", "START")
	if st := h.invitationState(name, "bob"); st != store.InviteDeclined {
		t.Errorf("bob's invitation is %s", st)
	}
	if st := h.invitationState(name, "carol"); st != store.InvitePending {
		t.Errorf("carol's invitation is %s", st)
	}
	mustContain(t, "bob's confirmation", h.mailOf("bob", "invitation-declined", name).Text, name, "Alice")
	// A second answer from Bob: the invitation is over.
	h.expect(h.answerInvite("bob", name, "JOIN"), table.OutcomeRejected, "invitation-declined")
	mustContain(t, "bob's late JOIN", h.mailOf("bob", "rejected", "-").Text, name)
	if st := h.invitationState(name, "bob"); st != store.InviteDeclined {
		t.Errorf("bob's invitation is %s after his late JOIN", st)
	}

	// Carol declines by writing to the service's address, in Spanish:
	// her one invitation is meant. Nobody else is seated: the table
	// closes.
	h.expect(h.sendMail("carol", mailSpec{Body: "RECHAZAR"}), table.OutcomeApplied, "DECLINE "+name)
	// The closing mail names the decliner and tells how to open another
	// table (NEW).
	closed := h.mailOf("alice", "invitation-answer", name)
	mustContain(t, "the last decline", closed.Text, name, "Carol", "NEW")
	if n := h.countOf("alice", "invitation-answer", name); n != 2 {
		t.Errorf("alice was told %d answers, want 2", n)
	}
	if !h.tableGone(name) {
		t.Errorf("table %s is still there", name)
	}
	// A reply through the closed table's token is told so.
	h.expect(h.answerInvite("carol", name, "JOIN"), table.OutcomeRejected, "no-such-table")

	// One declines, the other joins: the game begins with two.
	name = h.open("alice", "NEW lexio "+h.addrs("dave", "eve"))
	h.expect(h.answerInvite("dave", name, "REFUSER"), table.OutcomeApplied, "DECLINE")
	if h.game(name) != nil {
		t.Fatal("the game began with eve's invitation pending")
	}
	h.expect(h.answerInvite("eve", name, "JOIN "+name), table.OutcomeApplied, "JOIN")
	if g := h.game(name); g == nil || g.Players() != 2 {
		t.Fatalf("game %v, want two players", g)
	}
	for _, p := range []string{"alice", "eve"} {
		h.mailOf(p, "turn-notice", name)
	}
	if n := h.countOf("dave", "turn-notice", name); n != 0 {
		t.Errorf("dave, who declined, got %d notices", n)
	}
}

// TestInvitationsExpire: invitations lapse after invite_ttl through
// Tick, one Tick long after catching up; the opener is told; the table
// then starts with the players seated or closes. An answer that comes
// after the time, before any Tick, is too late.
func TestInvitationsExpire(t *testing.T) { eachDriver(t, testInvitationsExpire) }

func testInvitationsExpire(t *testing.T, driver string) {
	h := newInviteHarness(t, driver)
	alone := h.open("alice", "NEW lexico "+h.addrs("bob"))
	h.clock.Add(time.Hour)
	started := h.open("alice", "NEW lexio "+h.addrs("carol", "dave"))
	h.expect(h.answerInvite("carol", started, "JOIN"), table.OutcomeApplied, "JOIN")

	// Before the week is out, nothing lapses.
	h.clock.Add(6 * 24 * time.Hour)
	h.tick(h.clock.Now())
	if n := h.countOf("alice", "invitation-answer", alone); n != 0 {
		t.Fatalf("%d expiries before the week is out", n)
	}
	// The daemon was down for a month: one Tick catches up.
	h.clock.Add(30 * 24 * time.Hour)
	h.tick(h.clock.Now())
	m := h.mailOf("alice", "invitation-answer", alone)
	// Bob's invitation lapsed and nobody else was seated: the table
	// closed, and the mail says how to open another (NEW).
	mustContain(t, "bob's expiry", m.Text, alone, "Bob", "NEW")
	if n := h.countOf("alice", "invitation-answer", alone); n != 1 {
		t.Errorf("alice was told %d times of %s", n, alone)
	}
	if !h.tableGone(alone) {
		t.Errorf("table %s is still there", alone)
	}
	m = h.mailOf("alice", "invitation-answer", started)
	// Dave's lapsed; the game begins with the players seated, so
	// nothing offers START.
	mustContain(t, "dave's expiry", m.Text, started, "Dave", "Alice", "Carol")
	mustNotContain(t, "dave's expiry", m.Text, "START", "NEW")
	if g := h.game(started); g == nil || g.Players() != 2 {
		t.Fatalf("game %v, want Alice and Carol", g)
	}
	if st := h.invitationState(started, "dave"); st != store.InviteExpired {
		t.Errorf("dave's invitation is %s", st)
	}
	for _, p := range []string{"alice", "carol"} {
		h.mailOf(p, "turn-notice", started)
	}
	// The first turn counts from the start, not from the expiry.
	if d := h.game(started).TurnStart(); !d.Equal(h.clock.Now()) {
		t.Errorf("the first turn began %s, want the tick's %s", d, h.clock.Now())
	}
	// Another Tick finds nothing more to do.
	before := h.countOf("alice", "invitation-answer", started)
	h.tick(h.clock.Now())
	if after := h.countOf("alice", "invitation-answer", started); after != before {
		t.Errorf("a second tick told alice again: %d, %d", before, after)
	}
	// Dave's answer now is too late.
	h.expect(h.answerInvite("dave", started, "JOIN"), table.OutcomeRejected, "invitation-expired")

	// No Tick ran since the time passed: the answer is judged after the
	// expiry, which the opener is told of.
	late := h.open("alice", "NEW lexico "+h.addrs("eve"))
	h.outboxEmpty() // eve has her invitation before the time passes
	h.clock.Add(8 * 24 * time.Hour)
	h.expect(h.answerInvite("eve", late, "JOIN"), table.OutcomeRejected, "invitation-expired")
	mustContain(t, "eve's late JOIN", h.mailOf("eve", "rejected", "-").Text, late)
	mustContain(t, "eve's expiry", h.mailOf("alice", "invitation-answer", late).Text, late, "Eve", "NEW")
	if !h.tableGone(late) {
		t.Errorf("table %s is still there", late)
	}
}

// TestStartWithdrawsInvitations: START with two seated begins the game
// and withdraws the invitations still pending; their invitees are told,
// and a later answer is refused.
func TestStartWithdrawsInvitations(t *testing.T) { eachDriver(t, testStartWithdrawsInvitations) }

func testStartWithdrawsInvitations(t *testing.T, driver string) {
	h := newInviteHarness(t, driver)
	name := h.open("alice", "NEW lexio "+h.addrs("bob", "carol", "dave"))
	// With the opener alone, START is refused.
	h.expect(h.sendMail("alice", mailSpec{Body: "START"}), table.OutcomeRejected, "too-few-players")
	h.expect(h.answerInvite("bob", name, "JOIN"), table.OutcomeApplied, "JOIN")
	// Only the opener starts.
	h.expect(h.fresh("bob", name, "START"), table.OutcomeRejected, "not-owner")
	h.expect(h.sendMail("alice", mailSpec{Body: "START"}), table.OutcomeApplied, "START")
	if g := h.game(name); g == nil || g.Players() != 2 {
		t.Fatalf("game %v, want Alice and Bob", g)
	}
	for _, p := range []string{"carol", "dave"} {
		mustContain(t, p+"'s withdrawal", h.mailOf(p, "invitation-withdrawn", name).Text, name, "Alice")
		if st := h.invitationState(name, p); st != store.InviteWithdrawn {
			t.Errorf("%s's invitation is %s", p, st)
		}
	}
	h.expect(h.answerInvite("carol", name, "JOIN"), table.OutcomeRejected, "invitation-withdrawn")
	h.expect(h.answerInvite("dave", name, "DECLINE"), table.OutcomeRejected, "invitation-withdrawn")
	if g := h.game(name); g.Players() != 2 {
		t.Errorf("%d players after the late answers", g.Players())
	}
	// An invitee who has not joined cannot play through the invitation.
	h.expect(h.answerInvite("carol", name, "PASS"), table.OutcomeRejected, "invitation-withdrawn")
}

// TestInvitationOnly: a table with invitations seats nobody else; a
// tampered invitation token is refused; an invitee's move before joining
// is refused with what to do.
func TestInvitationOnly(t *testing.T) { eachDriver(t, testInvitationOnly) }

func testInvitationOnly(t *testing.T, driver string) {
	h := newInviteHarness(t, driver)
	name := h.open("alice", "NEW lexio "+h.addrs("bob", "carol"))
	h.expect(h.sendMail("eve", mailSpec{Body: "JOIN " + name}), table.OutcomeRejected, "not-invited")
	mustContain(t, "eve's refusal", h.mailOf("eve", "rejected", "-").Text, name)

	// Bob's invitation token with its MAC altered.
	tok := h.token(name, "bob")
	last := tok[len(tok)-1]
	alt := byte('a')
	if last == 'a' {
		alt = 'b'
	}
	forged := tok[:len(tok)-1] + string(alt)
	h.expect(h.sendMail("bob", mailSpec{To: "lexio+" + forged + "@" + h.domain, Body: "JOIN"}), table.OutcomeRejected, "bad-token")
	if n := h.countOf("bob", "rejected", "-"); n != 1 {
		t.Errorf("bob was answered %d times, want once", n)
	}
	// Carol's token from Bob's address: not his.
	h.expect(h.sendMail("bob", mailSpec{To: "lexio+" + h.token(name, "carol") + "@" + h.domain, Body: "JOIN"}), table.OutcomeRejected, "bad-token")
	if st := h.invitationState(name, "bob"); st != store.InvitePending {
		t.Errorf("bob's invitation is %s after the forged answers", st)
	}

	// A move through the invitation before joining.
	h.expect(h.answerInvite("carol", name, "BOARD"), table.OutcomeRejected, "not-yet-seated")
	// The refusal tells Carol how to answer the invitation.
	mustContain(t, "carol's refusal", h.mailOf("carol", "rejected", "-").Text, name, "JOIN", "DECLINE")
	// HELP through it is answered as for anyone.
	h.expect(h.answerInvite("carol", name, "HELP"), table.OutcomeApplied, "HELP")

	h.expect(h.answerInvite("bob", name, "JOIN"), table.OutcomeApplied, "JOIN")
	h.expect(h.answerInvite("bob", name, "JOIN"), table.OutcomeRejected, "already-seated")
	h.expect(h.sendMail("eve", mailSpec{Body: "JOIN " + name}), table.OutcomeRejected, "not-invited")
	if g := h.game(name); g != nil {
		t.Error("the game began with carol's invitation pending")
	}
	// An invitee's JOIN by the table's name, to the service's address,
	// answers the invitation too.
	h.expect(h.sendMail("carol", mailSpec{Body: "JOIN " + name}), table.OutcomeApplied, "JOIN "+name)
	if g := h.game(name); g == nil || g.Players() != 3 {
		t.Errorf("after carol's JOIN: game %v", g)
	}
}

// TestBadInvitations: NEW with too many invitees for the variant, the
// sender's own address, an address named twice, one that is not an
// address, or the service's own, is refused with its reasons, and opens
// nothing; so is the invitation beyond the twelve that may wait for an
// answer at once, and NEW with addresses where players may not open
// tables.
func TestBadInvitations(t *testing.T) { eachDriver(t, testBadInvitations) }

func testBadInvitations(t *testing.T, driver string) {
	// Bounds roomy enough that only the one on waiting invitations is met.
	h := newHarness(t, harnessOpts{driver: driver, domain: inviteDomain, config: openTablesConfig +
		"open_tables_per_opener = 10\ninvitations_per_recipient_week = 10\ninvitations_per_opener_day = 20\n"})
	// numbers are those the refusal writes: the seats, the invitees
	// allowed and those named.
	cases := []struct {
		body, reason string
		numbers      []int
	}{
		{"NEW lexico " + h.addrs("bob", "carol"), "too-many-invitees", []int{2, 1, 2}},
		{"NEW lexio " + h.addrs("alice", "bob"), "self-invite", nil},
		{"NEW lexio " + h.addrs("bob", "bob"), "bad-address", nil},
		{"NEW lexio bob@", "bad-address", nil},
		{"NEW lexio " + h.addrs("lexio"), "bad-address", nil},
		{"NEW lexio " + h.addrs("bob", "carol", "dave", "eve"), "too-many-invitees", []int{4, 3, 4}},
	}
	for _, c := range cases {
		h.expect(h.sendMail("alice", mailSpec{Body: c.body}), table.OutcomeRejected, c.reason)
		mustNumbers(t, c.body, h.lastOf("alice", "rejected").Text, c.numbers...)
	}
	// Two problems at once: both are told.
	h.expect(h.sendMail("alice", mailSpec{Body: "NEW lexico " + h.addrs("alice", "lexio")}), table.OutcomeRejected, "self-invite,bad-address,too-many-invitees")
	err := h.store.View(h.ctx, func(tx *store.Tx) error {
		ts, err := tx.Tables("")
		if len(ts) != 0 {
			t.Errorf("%d tables opened by refused NEWs", len(ts))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"bob", "carol", "dave", "eve"} {
		if n := len(ofKind(h.inbox(p), "invitation")); n != 0 {
			t.Errorf("%s got %d invitations", p, n)
		}
	}

	// Twelve invitations may wait for an answer at once; the thirteenth
	// waits for one of them.
	var four []string
	for range 4 {
		four = append(four, h.open("alice", "NEW lexio "+h.addrs("bob", "carol", "dave")))
	}
	h.expect(h.sendMail("alice", mailSpec{Body: "NEW lexio " + h.addrs("eve")}), table.OutcomeRejected, "invitations-waiting")
	mustNumbers(t, "the thirteenth invitation", h.lastOf("alice", "rejected").Text, 12, 12)
	h.expect(h.answerInvite("bob", four[0], "DECLINE"), table.OutcomeApplied, "DECLINE")
	h.open("alice", "NEW lexio "+h.addrs("eve"))

	closed := newHarness(t, harnessOpts{driver: driver, domain: inviteDomain})
	closed.expect(closed.sendMail("alice", mailSpec{Body: "NEW lexio " + closed.addrs("bob")}), table.OutcomeRejected, "opening-disabled")
}

// TestDeclineWithoutInvitation: DECLINE with nothing pending, or with
// several invitations and no reply address to say which, is answered
// with what is wrong; DECLINE through a table where the sender is seated
// declines nothing.
func TestDeclineWithoutInvitation(t *testing.T) { eachDriver(t, testDeclineWithoutInvitation) }

func testDeclineWithoutInvitation(t *testing.T, driver string) {
	h := newInviteHarness(t, driver)
	h.expect(h.sendMail("eve", mailSpec{Body: "DECLINE"}), table.OutcomeRejected, "no-invitation")
	if n := len(ofKind(h.inbox("eve"), "rejected")); n != 1 {
		t.Errorf("eve was answered %d times, want once", n)
	}

	one := h.open("alice", "NEW lexio "+h.addrs("bob"))
	two := h.open("carol", "NEW lexio "+h.addrs("bob"))
	h.expect(h.sendMail("bob", mailSpec{Body: "DECLINE"}), table.OutcomeRejected, "several-invitations")
	// The refusal names both tables, for bob to answer the right one.
	mustContain(t, "bob's DECLINE", h.lastOf("bob", "rejected").Text, one, two)
	h.expect(h.answerInvite("bob", one, "JOIN"), table.OutcomeApplied, "JOIN")
	// Seated at one, invited to the other: the plain DECLINE means two.
	h.expect(h.sendMail("bob", mailSpec{Body: "DECLINE"}), table.OutcomeApplied, "DECLINE "+two)
	h.expect(h.fresh("bob", one, "DECLINE"), table.OutcomeRejected, "no-invitation")
	mustContain(t, "DECLINE at a seated table", h.lastOf("bob", "rejected").Text, one)
	if st := h.invitationState(one, "bob"); st != store.InviteJoined {
		t.Errorf("bob's invitation to %s is %s after his DECLINE there", one, st)
	}
	if g := h.game(one); g == nil {
		t.Error("the game of the table bob joined did not begin")
	}
}

// TestInvitationAutoResponder: an invitee's out-of-office responder that
// answers the invitation, our text quoted or not, neither accepts nor
// declines it; it gets one "no command found", then nothing.
func TestInvitationAutoResponder(t *testing.T) {
	t.Parallel()
	for _, r := range []responder{{quote: true, inReplyTo: true}, {}, {toFrom: true}} {
		t.Run(fmt.Sprintf("quote=%v,to-from=%v", r.quote, r.toFrom), func(t *testing.T) {
			h := newInviteHarness(t, "")
			name := h.open("alice", "NEW lexio "+h.addrs("bob", "carol"))
			h.mailOf("bob", "invitation", name)
			answers := r.run(h, "bob", 0, 12)
			var kinds []string
			for _, m := range h.inbox("bob") {
				kinds = append(kinds, kind(m))
			}
			if strings.Join(kinds, " ") != "invitation rejected" || answers != 2 {
				t.Errorf("bob got %v after %d answers, want [invitation rejected] after 2", kinds, answers)
			}
			if st := h.invitationState(name, "bob"); st != store.InvitePending {
				t.Errorf("the responder left bob's invitation %s", st)
			}
			if n := h.countOf("alice", "invitation-answer", name); n != 0 {
				t.Errorf("alice was told %d times", n)
			}
		})
	}
}

// TestJoinRacesStart: the last invitee's JOIN and the opener's START sent
// at once (on PostgreSQL their transactions meet): one of them starts the
// game, and every seated player is in it; the invitee is seated exactly
// when their invitation says joined.
func TestJoinRacesStart(t *testing.T) { eachDriver(t, testJoinRacesStart) }

func testJoinRacesStart(t *testing.T, driver string) {
	h := newInviteHarness(t, driver)
	for round := range 3 {
		name := h.open("alice", "NEW lexio "+h.addrs("bob", "carol"))
		h.expect(h.answerInvite("bob", name, "JOIN"), table.OutcomeApplied, "JOIN")
		inv := h.mailOf("carol", "invitation", name)
		join := h.replyTo("carol", &inv, "JOIN")
		start := h.fresh("alice", name, "START")
		j, s := h.handled(join), h.handled(start)
		if j.Outcome == table.OutcomeApplied && s.Outcome == table.OutcomeApplied {
			t.Errorf("round %d: both the JOIN and the START applied", round)
		}
		g := h.game(name)
		var seats int
		err := h.store.View(h.ctx, func(tx *store.Tx) error {
			row, err := tx.TableByName(name)
			if err != nil {
				return err
			}
			ss, err := tx.Seats(row.ID)
			seats = len(ss)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if g == nil || g.Players() != seats {
			t.Fatalf("round %d: %d seats, game %v", round, seats, g)
		}
		joined := h.invitationState(name, "carol") == store.InviteJoined
		if joined != (seats == 3) {
			t.Errorf("round %d: carol's invitation joined=%v with %d seats", round, joined, seats)
		}
	}
}
