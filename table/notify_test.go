package table_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/mailer/client"
	"github.com/lexio-mail/lexio/table"
)

// kindsAt lists the kinds of name's mail about table, in order.
func (h *harness) kindsAt(name, table string) []string {
	h.t.Helper()
	h.outboxEmpty()
	var ks []string
	for _, m := range h.inbox(name) {
		if strings.HasPrefix(m.MessageID, "lexio."+table+".") {
			ks = append(ks, kind(m))
		}
	}
	return ks
}

// noticeAt is name's latest notice of table.
func (h *harness) noticeAt(name, table string) *client.Message {
	h.t.Helper()
	var at []client.Message
	for _, m := range h.inbox(name) {
		if strings.HasPrefix(m.MessageID, "lexio."+table+".") {
			at = append(at, m)
		}
	}
	m := latestNotice(at)
	if m == nil {
		h.t.Fatalf("%s has no notice of %s", name, table)
	}
	return m
}

// answer waits for name's answer to the message id (its In-Reply-To).
func (h *harness) answer(name, id string) client.Message {
	h.t.Helper()
	var a client.Message
	h.waitFor(name+"'s answer to "+id, func() bool {
		for _, m := range h.inbox(name) {
			if strings.Trim(m.InReplyTo, "<>") == id {
				a = m
				return true
			}
		}
		return false
	})
	return a
}

// unsubscribeAddress reads the mailto: address of m's List-Unsubscribe.
func unsubscribeAddress(t *testing.T, m client.Message) string {
	t.Helper()
	v := m.Header("List-Unsubscribe")
	addr, ok := strings.CutPrefix(strings.Trim(v, "<>"), "mailto:")
	if !ok || strings.ContainsAny(addr, "<>, ") {
		t.Fatalf("%s: List-Unsubscribe %q, want one <mailto:...> address", m.MessageID, v)
	}
	return addr
}

func (h *harness) pass(name, tableName string) {
	h.t.Helper()
	h.expect(h.replyTo(name, h.noticeAt(name, tableName), "PASS"), table.OutcomeApplied, "PASS")
}

// TestNotifyTurn: with NOTIFY turn (LEAGUES §5.1) a player gets no notice
// of a turn that is not theirs, but their own turn's notice, its reminder,
// the answers to their commands (what their move did, BOARD) and the game
// over; a player with NOTIFY all still gets a notice after every turn.
func TestNotifyTurn(t *testing.T) { eachDriver(t, testNotifyTurn) }

func testNotifyTurn(t *testing.T, driver string) {
	h := newHarness(t, harnessOpts{driver: driver})
	const name = "nt"
	if err := h.lobby.CreateTable(h.ctx, name, "main", emails("alice", "bob", "carol"), 5); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"alice", "bob", "carol"} {
		h.waitMail(p, 1)
	}
	// In French; the answer is in bob's language, from the table.
	notice := h.noticeAt("bob", name)
	id := h.replyTo("bob", notice, "avis tour")
	h.expect(id, table.OutcomeApplied, "NOTIFY turn")
	nc := h.answer("bob", id)
	if kind(nc) != "notify-changed" || nc.ReplyTo != notice.ReplyTo {
		t.Errorf("NOTIFY answered by %s from %q, want notify-changed from the table's %q", kind(nc), nc.ReplyTo, notice.ReplyTo)
	}
	// It tells how to change back; the mode itself is the record's
	// reason above, and what bob gets below.
	mustContain(t, "NOTIFY turn", nc.Text, "NOTIFY all")
	if nc.Header("List-Unsubscribe") != "" {
		t.Error("an answer to a command carries List-Unsubscribe")
	}

	h.pass("alice", name) // bob's turn: his notice
	h.pass("bob", name)   // carol's: what his pass did, alone
	h.pass("carol", name) // alice's: nothing for bob
	h.pass("alice", name) // bob's turn again
	h.tickAt(h.clock.Now().Add(48 * time.Hour))
	if n := h.count("bob", "reminder"); n != 1 {
		t.Fatalf("bob got %d reminders, want 1", n)
	}
	h.expect(h.send("bob", "BOARD"), table.OutcomeApplied, "BOARD")
	h.pass("bob", name)
	h.pass("carol", name) // two rounds without a placement: over (RULES §11.2)
	if !h.game(name).Over() {
		t.Fatal("six passes did not end the game")
	}
	want := "turn-notice notify-changed turn-notice accepted turn-notice reminder board-reply accepted game-over"
	if got := strings.Join(h.kindsAt("bob", name), " "); got != want {
		t.Errorf("bob (NOTIFY turn) got %s\nwant %s", got, want)
	}
	// Without a notice, bob still hears what his move did: the
	// acceptance of the game's second turn, his pass.
	if acc := ofKind(h.inbox("bob"), "accepted"); len(acc) == 0 {
		t.Error("bob got no acceptance of his pass")
	} else if a := h.game(name).Actions()[1]; seqOf(acc[0]) != 2 || a.Kind != engine.ActPass || a.Player != 1 {
		t.Errorf("bob's first acceptance is of turn %d; the second action %+v", seqOf(acc[0]), a)
	}
	// Every mail bob did not ask for can unsubscribe him from the table;
	// the answers to his commands cannot.
	for _, m := range h.inbox("bob") {
		answer := strings.Trim(m.InReplyTo, "<>") != "lexio.nt@localhost"
		if has := m.Header("List-Unsubscribe") != ""; has == answer {
			t.Errorf("bob's %s (an answer: %v) has List-Unsubscribe: %v", kind(m), answer, has)
		}
	}
	want = "turn-notice turn-notice turn-notice turn-notice turn-notice turn-notice game-over"
	if got := strings.Join(h.kindsAt("alice", name), " "); got != want {
		t.Errorf("alice (NOTIFY all) got %s\nwant %s", got, want)
	}
}

// TestNotifyTurnResignation: a resignation is told to everyone (LEAGUES
// §2.4), NOTIFY turn or not.
func TestNotifyTurnResignation(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOpts{})
	if err := h.lobby.CreateTable(h.ctx, "r3", "main", emails("alice", "bob", "carol"), 5); err != nil {
		t.Fatal(err)
	}
	h.waitMail("carol", 1)
	h.expect(h.fresh("bob", "r3", "NOTIFY turn"), table.OutcomeApplied, "NOTIFY turn")
	h.expect(h.fresh("carol", "r3", "RESIGN r3"), table.OutcomeApplied, "RESIGN")
	// Alice is to move; bob, who is not, hears of it all the same.
	if got, want := strings.Join(h.kindsAt("bob", "r3"), " "), "turn-notice notify-changed turn-notice"; got != want {
		t.Errorf("bob (NOTIFY turn) after carol resigned: %s, want %s", got, want)
	}
}

// TestNotifyPerTable: NOTIFY turn for every table, NOTIFY all t2 for one,
// and the table's choice beats the player's; the turn that expires for a
// NOTIFY turn player tells them, and its mail takes the calendar's
// cancellation the notice would have carried. A table that does not exist,
// or where the sender has no seat, is refused.
func TestNotifyPerTable(t *testing.T) { eachDriver(t, testNotifyPerTable) }

func testNotifyPerTable(t *testing.T, driver string) {
	h := newHarness(t, harnessOpts{driver: driver})
	for _, tc := range []struct {
		name    string
		players []string
	}{{"t1", emails("alice", "bob")}, {"t2", emails("alice", "carol")}, {"t3", emails("bob", "carol")}} {
		if err := h.lobby.CreateTable(h.ctx, tc.name, "main", tc.players, 5); err != nil {
			t.Fatal(err)
		}
	}
	h.waitMail("alice", 2)
	// To the plain address: alice has two tables, so the answer comes from
	// the plain address too.
	id := h.sendMail("alice", mailSpec{Body: "NOTIFY turn"})
	h.expect(id, table.OutcomeApplied, "NOTIFY turn")
	if a := h.answer("alice", id); kind(a) != "notify-changed" || a.ReplyTo != "lexio@localhost" {
		t.Errorf("answer %s from %q", kind(a), a.ReplyTo)
	}
	// From t1's address, naming t2: confirmed from t2.
	id = h.replyTo("alice", h.noticeAt("alice", "t1"), "NOTIFY all t2")
	h.expect(id, table.OutcomeApplied, "NOTIFY all t2")
	a := h.answer("alice", id)
	if !strings.Contains(a.Subject, "[Lexio t2]") || a.ReplyTo != h.noticeAt("alice", "t2").ReplyTo {
		t.Errorf("NOTIFY all t2 answered with %q from %q, want t2's reply address", a.Subject, a.ReplyTo)
	}
	for _, tc := range []struct{ cmd, reason string }{
		{"NOTIFY all t99", "no-such-table"},
		{"NOTIFY all t3", "not-a-player"},
	} {
		h.expect(h.replyTo("alice", h.noticeAt("alice", "t1"), tc.cmd), table.OutcomeRejected, tc.reason)
	}

	h.pass("alice", "t1") // bob's turn at t1: alice hears only of her pass
	h.pass("alice", "t2") // carol's at t2: alice chose all there
	h.pass("bob", "t1")   // alice's turn at t1
	// The refusals came from t1, which their commands came through.
	if got, want := strings.Join(h.kindsAt("alice", "t1"), " "), "turn-notice rejected rejected accepted turn-notice"; got != want {
		t.Errorf("alice at t1 (NOTIFY turn): %s, want %s", got, want)
	}
	if got, want := strings.Join(h.kindsAt("alice", "t2"), " "), "turn-notice notify-changed turn-notice"; got != want {
		t.Errorf("alice at t2 (NOTIFY all t2): %s, want %s", got, want)
	}

	// Alice lets her turn at t1 expire: she is told, with the calendar's
	// cancellation, and gets no notice of bob's turn.
	h.tickAt(h.deadline("t1"))
	ks := h.kindsAt("alice", "t1")
	notices := 0
	for _, k := range ks {
		if k == "turn-notice" {
			notices++
		}
	}
	if ks[len(ks)-1] != "expired" || notices != 2 {
		t.Errorf("alice at t1 after the expiry: %v, want an expiry and no notice of bob's turn", ks)
	}
	if bt := h.kindsAt("bob", "t1"); bt[len(bt)-1] != "turn-notice" {
		t.Errorf("bob at t1 after alice's expiry: %v, want his turn's notice", bt)
	}
	if exp := h.lastOf("alice", "expired"); !slices.Contains(exp.Attachments, "cancel.ics") {
		t.Errorf("the expiry mail attaches %v, want the turn's cancel.ics", exp.Attachments)
	}
}

// TestUnsubscribeByMail: every notice carries List-Unsubscribe (RFC 2369)
// with a mailto: address of the service's; written to with any body, or
// none, it sets NOTIFY turn for that table only and says so (LEAGUES §5.2).
// The address altered, or written to by another player, changes nothing.
func TestUnsubscribeByMail(t *testing.T) { eachDriver(t, testUnsubscribeByMail) }

func testUnsubscribeByMail(t *testing.T, driver string) {
	h := newHarness(t, harnessOpts{driver: driver})
	for _, name := range []string{"t1", "t2"} {
		if err := h.lobby.CreateTable(h.ctx, name, "main", emails("alice", "bob"), 5); err != nil {
			t.Fatal(err)
		}
	}
	h.waitMail("alice", 2)
	h.waitMail("bob", 2)
	n1, n2 := h.noticeAt("alice", "t1"), h.noticeAt("alice", "t2")
	u1, u2 := unsubscribeAddress(t, *n1), unsubscribeAddress(t, *n2)
	if u1 == u2 || !strings.HasPrefix(u1, "lexio+unsub_t1-") || !strings.HasSuffix(u1, "@localhost") || u1 == n1.ReplyTo {
		t.Fatalf("unsubscribe addresses %q and %q (reply address %q)", u1, u2, n1.ReplyTo)
	}

	// An empty message to t1's: NOTIFY turn at t1, answered from t1.
	id := h.sendMail("alice", mailSpec{To: u1, Subject: "unsubscribe"})
	h.expect(id, table.OutcomeApplied, "NOTIFY turn t1 (List-Unsubscribe)")
	a := h.answer("alice", id)
	mustName(t, "the unsubscribe answer", a.Text, "t1")
	mustContain(t, "the unsubscribe answer", a.Text, "NOTIFY all")
	if kind(a) != "notify-changed" || a.ReplyTo != n1.ReplyTo {
		t.Errorf("answered by %s from %q, want notify-changed from %q", kind(a), a.ReplyTo, n1.ReplyTo)
	}

	// Altered, or from bob: refused, nothing changes at t2.
	altered := []byte(u2)
	at := strings.IndexByte(u2, '@') - 1
	altered[at] = map[bool]byte{true: 'b', false: 'a'}[altered[at] == 'a']
	h.expect(h.sendMail("alice", mailSpec{To: string(altered)}), table.OutcomeRejected, "bad-token")
	h.expect(h.sendMail("bob", mailSpec{To: u2, Body: "unsubscribe"}), table.OutcomeRejected, "bad-token")

	h.pass("alice", "t1") // bob's turn: alice, NOTIFY turn at t1, hears only of her pass
	h.pass("alice", "t2") // alice still gets every notice at t2
	if got, want := strings.Join(h.kindsAt("alice", "t1"), " "), "turn-notice notify-changed accepted"; got != want {
		t.Errorf("alice at t1 after unsubscribing: %s, want %s", got, want)
	}
	// The altered address was refused from t2, the table it named.
	if got, want := strings.Join(h.kindsAt("alice", "t2"), " "), "turn-notice rejected turn-notice"; got != want {
		t.Errorf("alice at t2: %s, want %s", got, want)
	}

	// Bob's own, on his turn, with a command in the body: the address
	// decides, and nothing is played.
	b1 := unsubscribeAddress(t, *h.noticeAt("bob", "t1"))
	h.expect(h.sendMail("bob", mailSpec{To: b1, Body: "PASS"}), table.OutcomeApplied, "NOTIFY turn t1")
	if g := h.game("t1"); len(g.Actions()) != 1 {
		t.Fatalf("a message to an unsubscribe address played: %d actions", len(g.Actions()))
	}
}

// TestDigest: NOTIFY digest gives, from 08:00 in each player's zone, one
// mail a day listing their tables in play, whose turn and until when
// (LEAGUES §5.1): two players in two zones, several tables each; exactly
// one each per local day, none again after a restart the same day, none to
// a player with nothing in play. The digest's List-Unsubscribe stops it.
func TestDigest(t *testing.T) { eachDriver(t, testDigest) }

func testDigest(t *testing.T, driver string) {
	// Monday 2 March 2026, 09:00 UTC: 10:00 in Paris, 04:00 in New York.
	h := newHarness(t, harnessOpts{driver: driver})
	for _, tc := range []struct {
		name    string
		players []string
	}{{"t1", emails("alice", "bob")}, {"t2", emails("alice", "carol")}, {"t3", emails("bob", "carol")}} {
		if err := h.lobby.CreateTable(h.ctx, tc.name, "main", tc.players, 5); err != nil {
			t.Fatal(err)
		}
	}
	h.waitMail("alice", 2)
	h.waitMail("bob", 2)
	for _, c := range []struct{ who, cmd, reason string }{
		{"alice", "TZ Europe/Paris", "TZ Europe/Paris"}, {"alice", "NOTIFY digest", "NOTIFY digest"},
		{"bob", "TZ America/New_York", "TZ America/New_York"}, {"bob", "AVISOS resumen", "NOTIFY digest"},
	} {
		h.expect(h.fresh(c.who, "t1", c.cmd), table.OutcomeApplied, c.reason)
	}
	// Carol chose it for t2 alone (UTC, the configuration's zone): her
	// digest lists t2, not t3.
	h.expect(h.fresh("carol", "t3", "NOTIFY digest t2"), table.OutcomeApplied, "NOTIFY digest t2")
	// Dave chose it too, and sits nowhere: nothing to say, ever.
	h.expect(h.sendMail("dave", mailSpec{Body: "NOTIFY digest"}), table.OutcomeApplied, "NOTIFY digest")
	// Past 08:00 in Paris, alice's first digest is tomorrow's.
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	newYork, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	mustTell(t, "alice's confirmation", h.lastOf("alice", "notify-changed").Text, time.Date(2026, 3, 3, 8, 0, 0, 0, paris))
	mustTell(t, "bob's confirmation", h.lastOf("bob", "notify-changed").Text, time.Date(2026, 3, 2, 8, 0, 0, 0, newYork))

	digests := func(h *harness) map[string]int {
		h.t.Helper()
		out := map[string]int{}
		for _, p := range []string{"alice", "bob", "carol", "dave"} {
			out[p] = h.count(p, "digest")
		}
		return out
	}
	expect := func(h *harness, at time.Time, want map[string]int) {
		h.t.Helper()
		h.tickAt(at)
		got := digests(h)
		for p, n := range want {
			if got[p] != n {
				h.t.Errorf("at %s: %s has %d digests, want %d", at.Format(time.RFC3339), p, got[p], n)
			}
		}
	}
	day := func(d, hour, min int) time.Time { return time.Date(2026, 3, d, hour, min, 0, 0, time.UTC) }
	none := map[string]int{"alice": 0, "bob": 0, "carol": 0, "dave": 0}
	expect(h, day(2, 12, 59), none) // 07:59 in New York
	bobs := map[string]int{"alice": 0, "bob": 1, "carol": 0, "dave": 0}
	expect(h, day(2, 13, 0), bobs)
	expect(h, day(2, 13, 1), bobs)

	// A restart the same day: a new service on the same database.
	h.stop()
	h = newHarness(t, harnessOpts{db: h.db, mem: h.mem, clock: h.clock})
	expect(h, day(2, 14, 0), bobs)
	expect(h, day(3, 6, 59), bobs) // 07:59 in Paris
	both := map[string]int{"alice": 1, "bob": 1, "carol": 0, "dave": 0}
	expect(h, day(3, 7, 0), both)
	expect(h, day(3, 7, 59), both) // 07:59 in carol's zone, UTC
	all3 := map[string]int{"alice": 1, "bob": 1, "carol": 1, "dave": 0}
	expect(h, day(3, 8, 0), all3)
	expect(h, day(3, 12, 59), all3)

	ad, bd := h.lastOf("alice", "digest"), h.lastOf("bob", "digest")
	// The subject counts the tables where it is your turn, of those in
	// play; each table is an item "- name (variant):" with its deadline
	// in the reader's zone and its players, your turns first.
	deadline := time.Date(2026, 3, 5, 9, 0, 0, 0, time.UTC)
	if !strings.HasPrefix(ad.Subject, "[Lexio] ") || ad.ReplyTo != "lexio@localhost" {
		t.Errorf("alice's digest %q from %q", ad.Subject, ad.ReplyTo)
	}
	mustNumbers(t, "alice's digest subject", ad.Subject, 2, 2)
	mustDigest(t, "alice's digest", ad.Text, []string{"t1", "t2"}, deadline.In(paris), [][]string{{"Alice", "Bob"}, {"Alice", "Carol"}})
	mustNumbers(t, "bob's digest subject", bd.Subject, 1, 2)
	// His turn first: t3, then t1.
	mustDigest(t, "bob's digest", bd.Text, []string{"t3", "t1"}, deadline.In(newYork), [][]string{{"Bob", "Carol"}, {"Alice", "Bob"}})

	cd := h.lastOf("carol", "digest")
	mustNumbers(t, "carol's digest subject", cd.Subject)
	mustDigest(t, "carol's digest", cd.Text, []string{"t2"}, deadline, [][]string{{"Alice", "Carol"}})

	// The next morning in New York, with no tick from 07:59 to 12:30
	// there (the daemon was down): bob's second, of a new day, at the
	// first tick.
	expect(h, day(3, 17, 30), map[string]int{"alice": 1, "bob": 2, "carol": 1, "dave": 0})

	// Alice writes to her digest's List-Unsubscribe: NOTIFY turn for
	// every table, so no digest the next morning.
	u := unsubscribeAddress(t, ad)
	if !strings.HasPrefix(u, "lexio+unsub_-") {
		t.Errorf("the digest's unsubscribe address %q names a table", u)
	}
	id := h.sendMail("alice", mailSpec{To: u})
	h.expect(id, table.OutcomeApplied, "NOTIFY turn (List-Unsubscribe)")
	mustNotContain(t, "the digest's unsubscribe answer", h.answer("alice", id).Text, "t1", "t2")
	expect(h, day(4, 8, 0), map[string]int{"alice": 1, "bob": 2, "carol": 2, "dave": 0})
}

// TestSay: SAY passes a line to the other players of the table only, in a
// mail of its own, named by display name, quoted in the text and escaped
// in the HTML; a player with NOTIFY turn still gets it. From the plain
// address it needs exactly one table in play. Too long, or past the bound
// per hour, it is refused with the reason; a message delivered twice is
// said once (LEAGUES §5.3).
func TestSay(t *testing.T) { eachDriver(t, testSay) }

func testSay(t *testing.T, driver string) {
	h := newHarness(t, harnessOpts{driver: driver, mail: "error_replies_per_hour = 3"})
	if err := h.lobby.CreateTable(h.ctx, "t1", "main", emails("alice", "bob", "carol"), 5); err != nil {
		t.Fatal(err)
	}
	if err := h.lobby.CreateTable(h.ctx, "t2", "main", emails("alice", "dave"), 5); err != nil {
		t.Fatal(err)
	}
	h.waitMail("alice", 2)
	h.waitMail("carol", 1)
	h.expect(h.fresh("bob", "t1", "NOTIFY turn"), table.OutcomeApplied, "NOTIFY turn")

	said := func(name string) []client.Message {
		h.t.Helper()
		h.outboxEmpty()
		return ofKind(h.inbox(name), "said")
	}
	line := "Good luck <script>alert(1)</script> & have fun"
	id := h.replyTo("alice", h.noticeAt("alice", "t1"), "SAY "+line)
	h.expect(id, table.OutcomeApplied, "SAY")
	for _, p := range []string{"bob", "carol"} {
		ms := said(p)
		if len(ms) != 1 {
			t.Fatalf("%s got %d SAY mails, want 1", p, len(ms))
		}
		m := ms[0]
		// Alice's display name, her line quoted as it was written.
		mustContain(t, p+"'s SAY mail", m.Subject, "[Lexio t1]", "Alice")
		mustContain(t, p+"'s SAY mail", m.Text, "Alice", "> "+line)
		if !strings.Contains(m.HTML, "Good luck &lt;script&gt;alert(1)&lt;/script&gt; &amp; have fun") || strings.Contains(m.HTML, "<script") {
			t.Errorf("%s's SAY mail is not escaped in HTML:\n%s", p, m.HTML)
		}
		if strings.Contains(string(m.Raw), "alice@") {
			t.Errorf("%s's SAY mail shows alice's address", p)
		}
		if m.ReplyTo != h.noticeAt(p, "t1").ReplyTo {
			t.Errorf("%s's SAY mail from %q, want their t1 reply address", p, m.ReplyTo)
		}
	}
	for _, p := range []string{"alice", "dave"} {
		if n := len(said(p)); n != 0 {
			t.Errorf("%s got %d SAY mails, want none", p, n)
		}
	}

	// From the plain address: carol sits at one table, so it goes there.
	h.expect(h.sendMail("carol", mailSpec{Body: "DIRE bonjour à tous"}), table.OutcomeApplied, "SAY")
	if ms := said("alice"); len(ms) != 1 || !strings.Contains(ms[0].Text, "Carol") || !strings.Contains(ms[0].Text, "> bonjour à tous") {
		t.Errorf("alice's SAY mails from carol: %d", len(ms))
	}
	// Alice sits at two: she must say which.
	id = h.sendMail("alice", mailSpec{Body: "SAY hello"})
	h.expect(id, table.OutcomeRejected, "say-where")
	mustHaveNumbers(t, "SAY without a table", intro(h.answer("alice", id).Text), 2)

	// Too long: refused with the bound, nothing sent.
	id = h.replyTo("bob", h.noticeAt("bob", "t1"), "SAY "+strings.Repeat("é", 501))
	h.expect(id, table.OutcomeRejected, "say-too-long")
	mustHaveNumbers(t, "too long", intro(h.answer("bob", id).Text), 500)

	// Twice the same message: said once.
	raw := "From: alice@localhost\nTo: lexio+" + h.token("t1", "alice") + "@localhost\nSubject: hi\nMessage-ID: <twice@localhost>\n\nSAY once only\n"
	h.sendRaw("alice", []string{"lexio+" + h.token("t1", "alice") + "@localhost"}, raw)
	h.expect("twice@localhost", table.OutcomeApplied, "SAY")
	h.sendRaw("alice", []string{"lexio+" + h.token("t1", "alice") + "@localhost"}, raw)
	h.waitFor("the copy handled", func() bool { return strings.Contains(h.logs.String(), "message already handled") })

	// Alice's third line this hour is the last the bound passes on.
	h.expect(h.fresh("alice", "t1", "SAY three"), table.OutcomeApplied, "SAY")
	id = h.fresh("alice", "t1", "SAY four")
	h.expect(id, table.OutcomeRejected, "say-limit")
	mustHaveNumbers(t, "the SAY bound", intro(h.answer("alice", id).Text), 3)
	var texts []string
	for _, m := range said("bob") {
		if strings.Contains(m.Text, "Alice") {
			texts = append(texts, m.Text)
		}
	}
	if len(texts) != 3 || !strings.Contains(texts[1], "> once only") || !strings.Contains(texts[2], "> three") {
		t.Errorf("bob got %d of alice's lines, want 3:\n%s", len(texts), strings.Join(texts, "\n"))
	}
	// An hour on, she may speak again.
	h.clock.Add(time.Hour)
	h.expect(h.fresh("alice", "t1", "SAY five"), table.OutcomeApplied, "SAY")
	if n := len(said("carol")); n != 4 {
		t.Errorf("carol got %d lines, want 4", n)
	}
}

// TestUnsubscribeInSubject: where the token lives in the subject tag, the
// List-Unsubscribe address is the service's own with the tag as subject,
// and a mail written to it does the same.
func TestUnsubscribeInSubject(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOpts{mail: "token_in_subject = true"})
	if err := h.lobby.CreateTable(h.ctx, "t1", "main", emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	n := latestNotice(h.waitMail("alice", 1))
	token := h.svc.Tokens().Unsubscribe("t1", "alice@localhost")
	want := "<mailto:lexio@localhost?subject=%5BLexio%20t1%20" + token + "%5D>"
	if got := n.Header("List-Unsubscribe"); got != want {
		t.Fatalf("List-Unsubscribe %q, want %q", got, want)
	}
	id := h.sendMail("alice", mailSpec{Subject: "[Lexio t1 " + token + "]"})
	h.expect(id, table.OutcomeApplied, "NOTIFY turn t1 (List-Unsubscribe)")
	mustName(t, "the answer", h.answer("alice", id).Text, "t1")
}

// TestNotifyTurnSeparateAcceptance: with separate_acceptance, a player on
// NOTIFY turn still gets one acceptance of their move, and it cancels
// their turn's calendar entry as the notice would have.
func TestNotifyTurnSeparateAcceptance(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOpts{mail: "separate_acceptance = true"})
	const name = "sa"
	if err := h.lobby.CreateTable(h.ctx, name, "main", emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.waitMail("alice", 1)
	h.expect(h.replyTo("alice", h.noticeAt("alice", name), "NOTIFY turn"), table.OutcomeApplied, "NOTIFY turn")
	turn := calendarOf(t, h.lastOf("alice", "turn-notice"))
	if turn == nil || turn.method != "REQUEST" {
		t.Fatalf("alice's first notice has no entry for her turn: %+v", turn)
	}
	h.pass("alice", name)
	h.outboxEmpty()
	acc := ofKind(h.inbox("alice"), "accepted")
	if len(acc) != 1 {
		t.Fatalf("alice got %d acceptances of her pass, want 1", len(acc))
	}
	if c := calendarOf(t, acc[0]); c == nil || c.method != "CANCEL" || c.uid != turn.uid {
		t.Errorf("the acceptance's entry %+v, want the cancellation of %s", c, turn.uid)
	}
	if n := h.count("alice", "turn-notice"); n != 1 {
		t.Errorf("alice (NOTIFY turn) got %d turn notices, want only the first", n)
	}
}
