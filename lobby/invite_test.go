package lobby_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/invites"
	"github.com/lexio-mail/lexio/table"
)

func newInviteHarness(t *testing.T, driver string) *lexiotest.Harness {
	return lexiotest.New(t, lexiotest.Options{Driver: driver, Domain: lexiotest.InviteDomain, Config: lexiotest.OpenTablesConfig})
}

// addrs are the accounts' addresses on the harness's domain.
func addrs(h *lexiotest.Harness, names ...string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n + "@" + h.Domain
	}
	return strings.Join(out, " ")
}

// tableGone reports whether no table is called name.
func tableGone(h *lexiotest.Harness, name string) bool {
	h.T.Helper()
	err := h.Store.View(h.Ctx, func(tx *store.Tx) error {
		_, err := tx.TableByName(name)
		return err
	})
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		h.T.Fatal(err)
	}
	return errors.Is(err, store.ErrNotFound)
}

// invitationState is the state of addr's invitation to table.
func invitationState(h *lexiotest.Harness, table, name string) store.InvitationState {
	h.T.Helper()
	var st store.InvitationState
	err := h.Store.View(h.Ctx, func(tx *store.Tx) error {
		row, err := tx.TableByName(table)
		if err != nil {
			return err
		}
		inv, err := invites.Of(tx, row.ID, name+"@"+h.Domain)
		if err != nil {
			return err
		}
		st = inv.State
		return nil
	})
	if err != nil {
		h.T.Fatal(err)
	}
	return st
}

// TestInvitationsAccepted: NEW with addresses mails each invitee an
// invitation with a reply address of their own, in their language if
// known, else the opener's; the game starts when the last one joins, and
// every player gets its first notice (LEAGUES §6).
func TestInvitationsAccepted(t *testing.T) { lexiotest.EachDriver(t, testInvitationsAccepted) }

func testInvitationsAccepted(t *testing.T, driver string) {
	h := newInviteHarness(t, driver)
	// Alice writes in French; Carol is known and writes in Spanish; Bob
	// is new.
	h.Expect(h.SendMail("alice", lexiotest.MailSpec{Body: "LANG fr"}), table.OutcomeApplied, "LANG fr")
	h.Expect(h.SendMail("carol", lexiotest.MailSpec{Body: "LANG es"}), table.OutcomeApplied, "LANG es")
	name := h.Open("alice", "NOUVELLE lexio "+addrs(h, "bob", "carol"))
	// The confirmation, in French (COMMENCER), names the table, the
	// invitees and when the invitations lapse: a week on.
	lexiotest.MustContain(t, "alice's confirmation", h.MailOf("alice", "table-opened", name).Text,
		name, "Bob", "Carol", "COMMENCER", "9 mars 2026", "09:00")

	bob := h.MailOf("bob", "invitation", name)
	// The commands to answer with, in the opener's language.
	lexiotest.MustContain(t, "bob's invitation (the opener's language)", bob.Text, "alice@"+h.Domain, name, "REJOINDRE", "REFUSER", "STOP")
	if want := "lexio+" + h.Token(name, "bob") + "@" + h.Domain; bob.ReplyTo != want {
		t.Errorf("bob's invitation replies to %q, want his own address %q", bob.ReplyTo, want)
	}
	// The subject names the table only (LEAGUES §6): neither the opener
	// nor another invitee.
	if !strings.HasPrefix(bob.Subject, "[Lexio "+name+"] ") || strings.Contains(strings.ToLower(bob.Subject), "alice") ||
		strings.Contains(strings.ToLower(bob.Subject), "carol") {
		t.Errorf("bob's invitation subject %q", bob.Subject)
	}
	carol := h.MailOf("carol", "invitation", name)
	lexiotest.MustContain(t, "carol's invitation (her language)", carol.Text, "alice@"+h.Domain, name, "UNIRSE", "BAJA")

	// A bare JOIN through the invitation seats Bob; the game waits for
	// Carol.
	h.Expect(h.AnswerInvite("bob", name, "JOIN"), table.OutcomeApplied, "JOIN "+name)
	// Alice is told who sat down and who is still invited, and that she
	// may start without them.
	lexiotest.MustContain(t, "the join told to alice", h.MailOf("alice", "table-joined", name).Text, name, "Bob", "Carol", "COMMENCER")
	if g := h.Game(name); g != nil {
		t.Fatalf("the game began with an invitation pending")
	}
	if st := invitationState(h, name, "bob"); st != store.InviteJoined {
		t.Errorf("bob's invitation is %s", st)
	}
	// Carol's UNIRSE is the last answer: the game begins, with the
	// players in the order they sat down.
	h.Expect(h.AnswerInvite("carol", name, "UNIRSE"), table.OutcomeApplied, "JOIN "+name)
	g := h.Game(name)
	if g == nil || g.Players() != 3 {
		t.Fatalf("after the last join: game %v", g)
	}
	for _, p := range []string{"alice", "bob", "carol"} {
		if n := lexiotest.Seq(h.MailOf(p, "turn-notice", name)); n != 0 {
			t.Errorf("%s: first notice of turn %d", p, n)
		}
	}
	// Carol's join began the game: her confirmation names the players
	// and no longer offers START (EMPEZAR).
	joined := h.MailOf("carol", "table-joined", name).Text
	lexiotest.MustContain(t, "carol's join", joined, name, "Alice", "Bob")
	lexiotest.MustNotContain(t, "carol's join", joined, "EMPEZAR")
	// The seats follow the joins: Bob second, Carol third.
	h.Expect(h.Send("alice", lexiotest.FindMove(h.Game(name), 0)), table.OutcomeApplied, "PLACE")
	h.Expect(h.Send("bob", lexiotest.FindMove(h.Game(name), 1)), table.OutcomeApplied, "PLACE")
	if g := h.Game(name); lexiotest.Turns(g) != 2 {
		t.Errorf("%d turns", lexiotest.Turns(g))
	}
}

// TestInvitationsDeclined: DECLINE through the invitation, or to the
// service's address with one invitation pending, refuses it; the opener
// is told each time; the last answer starts the game, or closes the table
// when the opener sits alone.
func TestInvitationsDeclined(t *testing.T) { lexiotest.EachDriver(t, testInvitationsDeclined) }

func testInvitationsDeclined(t *testing.T, driver string) {
	h := newInviteHarness(t, driver)
	name := h.Open("alice", "NEW "+addrs(h, "bob", "carol"))
	h.Expect(h.AnswerInvite("bob", name, "DECLINE"), table.OutcomeApplied, "DECLINE "+name)
	// Alice is told who declined and who is still awaited; the table
	// stays open, and with her alone seated nothing offers NEW or START.
	told := h.MailOf("alice", "invitation-answer", name).Text
	lexiotest.MustContain(t, "the decline told to alice", told, name, "Bob", "Carol")
	lexiotest.MustNotContain(t, "the decline told to alice", told, "NEW", "START")
	if st := invitationState(h, name, "bob"); st != store.InviteDeclined {
		t.Errorf("bob's invitation is %s", st)
	}
	if st := invitationState(h, name, "carol"); st != store.InvitePending {
		t.Errorf("carol's invitation is %s", st)
	}
	lexiotest.MustContain(t, "bob's confirmation", h.MailOf("bob", "invitation-declined", name).Text, name, "Alice")
	// A second answer from Bob: the invitation is over.
	h.Expect(h.AnswerInvite("bob", name, "JOIN"), table.OutcomeRejected, "invitation-declined")
	lexiotest.MustContain(t, "bob's late JOIN", h.MailOf("bob", "rejected", "-").Text, name)
	if st := invitationState(h, name, "bob"); st != store.InviteDeclined {
		t.Errorf("bob's invitation is %s after his late JOIN", st)
	}

	// Carol declines by writing to the service's address, in Spanish:
	// her one invitation is meant. Nobody else is seated: the table
	// closes.
	h.Expect(h.SendMail("carol", lexiotest.MailSpec{Body: "RECHAZAR"}), table.OutcomeApplied, "DECLINE "+name)
	// The closing mail names the decliner and tells how to open another
	// table (NEW).
	closed := h.MailOf("alice", "invitation-answer", name)
	lexiotest.MustContain(t, "the last decline", closed.Text, name, "Carol", "NEW")
	if n := h.CountOf("alice", "invitation-answer", name); n != 2 {
		t.Errorf("alice was told %d answers, want 2", n)
	}
	if !tableGone(h, name) {
		t.Errorf("table %s is still there", name)
	}
	// A reply through the closed table's token is told so.
	h.Expect(h.AnswerInvite("carol", name, "JOIN"), table.OutcomeRejected, "no-such-table")

	// One declines, the other joins: the game begins with two.
	name = h.Open("alice", "NEW lexio "+addrs(h, "dave", "eve"))
	h.Expect(h.AnswerInvite("dave", name, "REFUSER"), table.OutcomeApplied, "DECLINE")
	if h.Game(name) != nil {
		t.Fatal("the game began with eve's invitation pending")
	}
	h.Expect(h.AnswerInvite("eve", name, "JOIN "+name), table.OutcomeApplied, "JOIN")
	if g := h.Game(name); g == nil || g.Players() != 2 {
		t.Fatalf("game %v, want two players", g)
	}
	for _, p := range []string{"alice", "eve"} {
		h.MailOf(p, "turn-notice", name)
	}
	if n := h.CountOf("dave", "turn-notice", name); n != 0 {
		t.Errorf("dave, who declined, got %d notices", n)
	}
}

// TestInvitationsExpire: invitations lapse after invite_ttl through
// Tick, one Tick long after catching up; the opener is told; the table
// then starts with the players seated or closes. An answer that comes
// after the time, before any Tick, is too late.
func TestInvitationsExpire(t *testing.T) { lexiotest.EachDriver(t, testInvitationsExpire) }

func testInvitationsExpire(t *testing.T, driver string) {
	h := newInviteHarness(t, driver)
	alone := h.Open("alice", "NEW lexico "+addrs(h, "bob"))
	h.Clock.Add(time.Hour)
	started := h.Open("alice", "NEW lexio "+addrs(h, "carol", "dave"))
	h.Expect(h.AnswerInvite("carol", started, "JOIN"), table.OutcomeApplied, "JOIN")

	// Before the week is out, nothing lapses.
	h.Clock.Add(6 * 24 * time.Hour)
	h.Tick(h.Clock.Now())
	if n := h.CountOf("alice", "invitation-answer", alone); n != 0 {
		t.Fatalf("%d expiries before the week is out", n)
	}
	// The daemon was down for a month: one Tick catches up.
	h.Clock.Add(30 * 24 * time.Hour)
	h.Tick(h.Clock.Now())
	m := h.MailOf("alice", "invitation-answer", alone)
	// Bob's invitation lapsed and nobody else was seated: the table
	// closed, and the mail says how to open another (NEW).
	lexiotest.MustContain(t, "bob's expiry", m.Text, alone, "Bob", "NEW")
	if n := h.CountOf("alice", "invitation-answer", alone); n != 1 {
		t.Errorf("alice was told %d times of %s", n, alone)
	}
	if !tableGone(h, alone) {
		t.Errorf("table %s is still there", alone)
	}
	m = h.MailOf("alice", "invitation-answer", started)
	// Dave's lapsed; the game begins with the players seated, so
	// nothing offers START.
	lexiotest.MustContain(t, "dave's expiry", m.Text, started, "Dave", "Alice", "Carol")
	lexiotest.MustNotContain(t, "dave's expiry", m.Text, "START", "NEW")
	if g := h.Game(started); g == nil || g.Players() != 2 {
		t.Fatalf("game %v, want Alice and Carol", g)
	}
	if st := invitationState(h, started, "dave"); st != store.InviteExpired {
		t.Errorf("dave's invitation is %s", st)
	}
	for _, p := range []string{"alice", "carol"} {
		h.MailOf(p, "turn-notice", started)
	}
	// The first turn counts from the start, not from the expiry.
	if d := h.Game(started).TurnStart(); !d.Equal(h.Clock.Now()) {
		t.Errorf("the first turn began %s, want the tick's %s", d, h.Clock.Now())
	}
	// Another Tick finds nothing more to do.
	before := h.CountOf("alice", "invitation-answer", started)
	h.Tick(h.Clock.Now())
	if after := h.CountOf("alice", "invitation-answer", started); after != before {
		t.Errorf("a second tick told alice again: %d, %d", before, after)
	}
	// Dave's answer now is too late.
	h.Expect(h.AnswerInvite("dave", started, "JOIN"), table.OutcomeRejected, "invitation-expired")

	// No Tick ran since the time passed: the answer is judged after the
	// expiry, which the opener is told of.
	late := h.Open("alice", "NEW lexico "+addrs(h, "eve"))
	h.OutboxEmpty() // eve has her invitation before the time passes
	h.Clock.Add(8 * 24 * time.Hour)
	h.Expect(h.AnswerInvite("eve", late, "JOIN"), table.OutcomeRejected, "invitation-expired")
	lexiotest.MustContain(t, "eve's late JOIN", h.MailOf("eve", "rejected", "-").Text, late)
	lexiotest.MustContain(t, "eve's expiry", h.MailOf("alice", "invitation-answer", late).Text, late, "Eve", "NEW")
	if !tableGone(h, late) {
		t.Errorf("table %s is still there", late)
	}
}

// TestStartWithdrawsInvitations: START with two seated begins the game
// and withdraws the invitations still pending; their invitees are told,
// and a later answer is refused.
func TestStartWithdrawsInvitations(t *testing.T) {
	lexiotest.EachDriver(t, testStartWithdrawsInvitations)
}

func testStartWithdrawsInvitations(t *testing.T, driver string) {
	h := newInviteHarness(t, driver)
	name := h.Open("alice", "NEW lexio "+addrs(h, "bob", "carol", "dave"))
	// With the opener alone, START is refused.
	h.Expect(h.SendMail("alice", lexiotest.MailSpec{Body: "START"}), table.OutcomeRejected, "too-few-players")
	h.Expect(h.AnswerInvite("bob", name, "JOIN"), table.OutcomeApplied, "JOIN")
	// Only the opener starts.
	h.Expect(h.Fresh("bob", name, "START"), table.OutcomeRejected, "not-owner")
	h.Expect(h.SendMail("alice", lexiotest.MailSpec{Body: "START"}), table.OutcomeApplied, "START")
	if g := h.Game(name); g == nil || g.Players() != 2 {
		t.Fatalf("game %v, want Alice and Bob", g)
	}
	for _, p := range []string{"carol", "dave"} {
		lexiotest.MustContain(t, p+"'s withdrawal", h.MailOf(p, "invitation-withdrawn", name).Text, name, "Alice")
		if st := invitationState(h, name, p); st != store.InviteWithdrawn {
			t.Errorf("%s's invitation is %s", p, st)
		}
	}
	h.Expect(h.AnswerInvite("carol", name, "JOIN"), table.OutcomeRejected, "invitation-withdrawn")
	h.Expect(h.AnswerInvite("dave", name, "DECLINE"), table.OutcomeRejected, "invitation-withdrawn")
	if g := h.Game(name); g.Players() != 2 {
		t.Errorf("%d players after the late answers", g.Players())
	}
	// An invitee who has not joined cannot play through the invitation.
	h.Expect(h.AnswerInvite("carol", name, "PASS"), table.OutcomeRejected, "invitation-withdrawn")
}

// TestInvitationOnly: a table with invitations seats nobody else; a
// tampered invitation token is refused; an invitee's move before joining
// is refused with what to do.
func TestInvitationOnly(t *testing.T) { lexiotest.EachDriver(t, testInvitationOnly) }

func testInvitationOnly(t *testing.T, driver string) {
	h := newInviteHarness(t, driver)
	name := h.Open("alice", "NEW lexio "+addrs(h, "bob", "carol"))
	h.Expect(h.SendMail("eve", lexiotest.MailSpec{Body: "JOIN " + name}), table.OutcomeRejected, "not-invited")
	lexiotest.MustContain(t, "eve's refusal", h.MailOf("eve", "rejected", "-").Text, name)

	// Bob's invitation token with its MAC altered.
	tok := h.Token(name, "bob")
	last := tok[len(tok)-1]
	alt := byte('a')
	if last == 'a' {
		alt = 'b'
	}
	forged := tok[:len(tok)-1] + string(alt)
	h.Expect(h.SendMail("bob", lexiotest.MailSpec{To: "lexio+" + forged + "@" + h.Domain, Body: "JOIN"}), table.OutcomeRejected, "bad-token")
	if n := h.CountOf("bob", "rejected", "-"); n != 1 {
		t.Errorf("bob was answered %d times, want once", n)
	}
	// Carol's token from Bob's address: not his.
	h.Expect(h.SendMail("bob", lexiotest.MailSpec{To: "lexio+" + h.Token(name, "carol") + "@" + h.Domain, Body: "JOIN"}), table.OutcomeRejected, "bad-token")
	if st := invitationState(h, name, "bob"); st != store.InvitePending {
		t.Errorf("bob's invitation is %s after the forged answers", st)
	}

	// A move through the invitation before joining.
	h.Expect(h.AnswerInvite("carol", name, "BOARD"), table.OutcomeRejected, "not-yet-seated")
	// The refusal tells Carol how to answer the invitation.
	lexiotest.MustContain(t, "carol's refusal", h.MailOf("carol", "rejected", "-").Text, name, "JOIN", "DECLINE")
	// HELP through it is answered as for anyone.
	h.Expect(h.AnswerInvite("carol", name, "HELP"), table.OutcomeApplied, "HELP")

	h.Expect(h.AnswerInvite("bob", name, "JOIN"), table.OutcomeApplied, "JOIN")
	h.Expect(h.AnswerInvite("bob", name, "JOIN"), table.OutcomeRejected, "already-seated")
	h.Expect(h.SendMail("eve", lexiotest.MailSpec{Body: "JOIN " + name}), table.OutcomeRejected, "not-invited")
	if g := h.Game(name); g != nil {
		t.Error("the game began with carol's invitation pending")
	}
	// An invitee's JOIN by the table's name, to the service's address,
	// answers the invitation too.
	h.Expect(h.SendMail("carol", lexiotest.MailSpec{Body: "JOIN " + name}), table.OutcomeApplied, "JOIN "+name)
	if g := h.Game(name); g == nil || g.Players() != 3 {
		t.Errorf("after carol's JOIN: game %v", g)
	}
}

// TestBadInvitations: NEW with too many invitees for the variant, the
// sender's own address, an address named twice, one that is not an
// address, or the service's own, is refused with its reasons, and opens
// nothing; so is the invitation beyond the twelve that may wait for an
// answer at once, and NEW with addresses where players may not open
// tables.
func TestBadInvitations(t *testing.T) { lexiotest.EachDriver(t, testBadInvitations) }

func testBadInvitations(t *testing.T, driver string) {
	// Bounds roomy enough that only the one on waiting invitations is met.
	h := lexiotest.New(t, lexiotest.Options{Driver: driver, Domain: lexiotest.InviteDomain, Config: lexiotest.OpenTablesConfig +
		"open_tables_per_opener = 10\ninvitations_per_recipient_week = 10\ninvitations_per_opener_day = 20\n"})
	// numbers are those the refusal writes: the seats, the invitees
	// allowed and those named.
	cases := []struct {
		body, reason string
		numbers      []int
	}{
		{"NEW lexico " + addrs(h, "bob", "carol"), "too-many-invitees", []int{2, 1, 2}},
		{"NEW lexio " + addrs(h, "alice", "bob"), "self-invite", nil},
		{"NEW lexio " + addrs(h, "bob", "bob"), "bad-address", nil},
		{"NEW lexio bob@", "bad-address", nil},
		{"NEW lexio " + addrs(h, "lexio"), "bad-address", nil},
		{"NEW lexio " + addrs(h, "bob", "carol", "dave", "eve"), "too-many-invitees", []int{4, 3, 4}},
	}
	for _, c := range cases {
		h.Expect(h.SendMail("alice", lexiotest.MailSpec{Body: c.body}), table.OutcomeRejected, c.reason)
		lexiotest.MustNumbers(t, c.body, h.LastOf("alice", "rejected").Text, c.numbers...)
	}
	// Two problems at once: both are told.
	h.Expect(h.SendMail("alice", lexiotest.MailSpec{Body: "NEW lexico " + addrs(h, "alice", "lexio")}), table.OutcomeRejected, "self-invite,bad-address,too-many-invitees")
	err := h.Store.View(h.Ctx, func(tx *store.Tx) error {
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
		if n := len(lexiotest.OfKind(h.Inbox(p), "invitation")); n != 0 {
			t.Errorf("%s got %d invitations", p, n)
		}
	}

	// Twelve invitations may wait for an answer at once; the thirteenth
	// waits for one of them.
	var four []string
	for range 4 {
		four = append(four, h.Open("alice", "NEW lexio "+addrs(h, "bob", "carol", "dave")))
	}
	h.Expect(h.SendMail("alice", lexiotest.MailSpec{Body: "NEW lexio " + addrs(h, "eve")}), table.OutcomeRejected, "invitations-waiting")
	lexiotest.MustNumbers(t, "the thirteenth invitation", h.LastOf("alice", "rejected").Text, 12, 12)
	h.Expect(h.AnswerInvite("bob", four[0], "DECLINE"), table.OutcomeApplied, "DECLINE")
	h.Open("alice", "NEW lexio "+addrs(h, "eve"))

	closed := lexiotest.New(t, lexiotest.Options{Driver: driver, Domain: lexiotest.InviteDomain})
	closed.Expect(closed.SendMail("alice", lexiotest.MailSpec{Body: "NEW lexio " + addrs(closed, "bob")}), table.OutcomeRejected, "opening-disabled")
}

// TestDeclineWithoutInvitation: DECLINE with nothing pending, or with
// several invitations and no reply address to say which, is answered
// with what is wrong; DECLINE through a table where the sender is seated
// declines nothing.
func TestDeclineWithoutInvitation(t *testing.T) {
	lexiotest.EachDriver(t, testDeclineWithoutInvitation)
}

func testDeclineWithoutInvitation(t *testing.T, driver string) {
	h := newInviteHarness(t, driver)
	h.Expect(h.SendMail("eve", lexiotest.MailSpec{Body: "DECLINE"}), table.OutcomeRejected, "no-invitation")
	if n := len(lexiotest.OfKind(h.Inbox("eve"), "rejected")); n != 1 {
		t.Errorf("eve was answered %d times, want once", n)
	}

	one := h.Open("alice", "NEW lexio "+addrs(h, "bob"))
	two := h.Open("carol", "NEW lexio "+addrs(h, "bob"))
	h.Expect(h.SendMail("bob", lexiotest.MailSpec{Body: "DECLINE"}), table.OutcomeRejected, "several-invitations")
	// The refusal names both tables, for bob to answer the right one.
	lexiotest.MustContain(t, "bob's DECLINE", h.LastOf("bob", "rejected").Text, one, two)
	h.Expect(h.AnswerInvite("bob", one, "JOIN"), table.OutcomeApplied, "JOIN")
	// Seated at one, invited to the other: the plain DECLINE means two.
	h.Expect(h.SendMail("bob", lexiotest.MailSpec{Body: "DECLINE"}), table.OutcomeApplied, "DECLINE "+two)
	h.Expect(h.Fresh("bob", one, "DECLINE"), table.OutcomeRejected, "no-invitation")
	lexiotest.MustContain(t, "DECLINE at a seated table", h.LastOf("bob", "rejected").Text, one)
	if st := invitationState(h, one, "bob"); st != store.InviteJoined {
		t.Errorf("bob's invitation to %s is %s after his DECLINE there", one, st)
	}
	if g := h.Game(one); g == nil {
		t.Error("the game of the table bob joined did not begin")
	}
}

// TestInvitationAutoResponder: an invitee's out-of-office responder that
// answers the invitation, our text quoted or not, neither accepts nor
// declines it; it gets one "no command found", then nothing.
func TestInvitationAutoResponder(t *testing.T) {
	t.Parallel()
	for _, r := range []lexiotest.Responder{{Quote: true, InReplyTo: true}, {}, {ToFrom: true}} {
		t.Run(fmt.Sprintf("quote=%v,to-from=%v", r.Quote, r.ToFrom), func(t *testing.T) {
			h := newInviteHarness(t, "")
			name := h.Open("alice", "NEW lexio "+addrs(h, "bob", "carol"))
			h.MailOf("bob", "invitation", name)
			answers := r.Run(h, "bob", 0, 12)
			var kinds []string
			for _, m := range h.Inbox("bob") {
				kinds = append(kinds, lexiotest.Kind(m))
			}
			if strings.Join(kinds, " ") != "invitation rejected" || answers != 2 {
				t.Errorf("bob got %v after %d answers, want [invitation rejected] after 2", kinds, answers)
			}
			if st := invitationState(h, name, "bob"); st != store.InvitePending {
				t.Errorf("the responder left bob's invitation %s", st)
			}
			if n := h.CountOf("alice", "invitation-answer", name); n != 0 {
				t.Errorf("alice was told %d times", n)
			}
		})
	}
}

// TestJoinRacesStart: the last invitee's JOIN and the opener's START sent
// at once (on PostgreSQL their transactions meet): one of them starts the
// game, and every seated player is in it; the invitee is seated exactly
// when their invitation says joined.
func TestJoinRacesStart(t *testing.T) { lexiotest.EachDriver(t, testJoinRacesStart) }

func testJoinRacesStart(t *testing.T, driver string) {
	h := newInviteHarness(t, driver)
	for round := range 3 {
		name := h.Open("alice", "NEW lexio "+addrs(h, "bob", "carol"))
		h.Expect(h.AnswerInvite("bob", name, "JOIN"), table.OutcomeApplied, "JOIN")
		inv := h.MailOf("carol", "invitation", name)
		join := h.ReplyTo("carol", &inv, "JOIN")
		start := h.Fresh("alice", name, "START")
		j, s := h.Handled(join), h.Handled(start)
		if j.Outcome == table.OutcomeApplied && s.Outcome == table.OutcomeApplied {
			t.Errorf("round %d: both the JOIN and the START applied", round)
		}
		g := h.Game(name)
		var seats int
		err := h.Store.View(h.Ctx, func(tx *store.Tx) error {
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
		joined := invitationState(h, name, "carol") == store.InviteJoined
		if joined != (seats == 3) {
			t.Errorf("round %d: carol's invitation joined=%v with %d seats", round, joined, seats)
		}
	}
}
