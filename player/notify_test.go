package player_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/mailer/client"
	"github.com/lexio-mail/lexio/table"
)

// kindsAt lists the kinds of name's mail about table, in order.
func kindsAt(h *lexiotest.Harness, name, table string) []string {
	h.T.Helper()
	h.OutboxEmpty()
	var ks []string
	for _, m := range h.Inbox(name) {
		if strings.HasPrefix(m.MessageID, "lexio."+table+".") {
			ks = append(ks, lexiotest.Kind(m))
		}
	}
	return ks
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

func pass(h *lexiotest.Harness, name, tableName string) {
	h.T.Helper()
	h.Expect(h.ReplyTo(name, h.NoticeAt(name, tableName), "PASS"), table.OutcomeApplied, "PASS")
}

// TestNotifyTurn: with NOTIFY turn (LEAGUES §5.1) a player gets no notice
// of a turn that is not theirs, but their own turn's notice, its reminder,
// the answers to their commands (what their move did, BOARD) and the game
// over; a player with NOTIFY all still gets a notice after every turn.
func TestNotifyTurn(t *testing.T) { lexiotest.EachDriver(t, testNotifyTurn) }

func testNotifyTurn(t *testing.T, driver string) {
	h := lexiotest.New(t, lexiotest.Options{Driver: driver})
	const name = "nt"
	if err := h.Lobby.CreateTable(h.Ctx, name, "main", lexiotest.Emails("alice", "bob", "carol"), 5); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"alice", "bob", "carol"} {
		h.WaitMail(p, 1)
	}
	// In French; the answer is in bob's language, from the table.
	notice := h.NoticeAt("bob", name)
	id := h.ReplyTo("bob", notice, "avis tour")
	h.Expect(id, table.OutcomeApplied, "NOTIFY turn")
	nc := h.Answer("bob", id)
	if lexiotest.Kind(nc) != "notify-changed" || nc.ReplyTo != notice.ReplyTo {
		t.Errorf("NOTIFY answered by %s from %q, want notify-changed from the table's %q", lexiotest.Kind(nc), nc.ReplyTo, notice.ReplyTo)
	}
	// It tells how to change back; the mode itself is the record's
	// reason above, and what bob gets below.
	lexiotest.MustContain(t, "NOTIFY turn", nc.Text, "NOTIFY all")
	if nc.Header("List-Unsubscribe") != "" {
		t.Error("an answer to a command carries List-Unsubscribe")
	}

	pass(h, "alice", name) // bob's turn: his notice
	pass(h, "bob", name)   // carol's: what his pass did, alone
	pass(h, "carol", name) // alice's: nothing for bob
	pass(h, "alice", name) // bob's turn again
	h.TickAt(h.Clock.Now().Add(48 * time.Hour))
	if n := h.Count("bob", "reminder"); n != 1 {
		t.Fatalf("bob got %d reminders, want 1", n)
	}
	h.Expect(h.Send("bob", "BOARD"), table.OutcomeApplied, "BOARD")
	pass(h, "bob", name)
	pass(h, "carol", name) // two rounds without a placement: over (RULES §11.2)
	if !h.Game(name).Over() {
		t.Fatal("six passes did not end the game")
	}
	want := "turn-notice notify-changed turn-notice accepted turn-notice reminder board-reply accepted game-over"
	if got := strings.Join(kindsAt(h, "bob", name), " "); got != want {
		t.Errorf("bob (NOTIFY turn) got %s\nwant %s", got, want)
	}
	// Without a notice, bob still hears what his move did: the
	// acceptance of the game's second turn, his pass.
	if acc := lexiotest.OfKind(h.Inbox("bob"), "accepted"); len(acc) == 0 {
		t.Error("bob got no acceptance of his pass")
	} else if a := h.Game(name).Actions()[1]; lexiotest.Seq(acc[0]) != 2 || a.Kind != engine.ActPass || a.Player != 1 {
		t.Errorf("bob's first acceptance is of turn %d; the second action %+v", lexiotest.Seq(acc[0]), a)
	}
	// Every mail bob did not ask for can unsubscribe him from the table;
	// the answers to his commands cannot.
	for _, m := range h.Inbox("bob") {
		answer := strings.Trim(m.InReplyTo, "<>") != "lexio.nt@localhost"
		if has := m.Header("List-Unsubscribe") != ""; has == answer {
			t.Errorf("bob's %s (an answer: %v) has List-Unsubscribe: %v", lexiotest.Kind(m), answer, has)
		}
	}
	want = "turn-notice turn-notice turn-notice turn-notice turn-notice turn-notice game-over"
	if got := strings.Join(kindsAt(h, "alice", name), " "); got != want {
		t.Errorf("alice (NOTIFY all) got %s\nwant %s", got, want)
	}
}

// TestNotifyTurnResignation: a resignation is told to everyone (LEAGUES
// §2.4), NOTIFY turn or not.
func TestNotifyTurnResignation(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{})
	if err := h.Lobby.CreateTable(h.Ctx, "r3", "main", lexiotest.Emails("alice", "bob", "carol"), 5); err != nil {
		t.Fatal(err)
	}
	h.WaitMail("carol", 1)
	h.Expect(h.Fresh("bob", "r3", "NOTIFY turn"), table.OutcomeApplied, "NOTIFY turn")
	h.Expect(h.Fresh("carol", "r3", "RESIGN r3"), table.OutcomeApplied, "RESIGN")
	// Alice is to move; bob, who is not, hears of it all the same.
	if got, want := strings.Join(kindsAt(h, "bob", "r3"), " "), "turn-notice notify-changed turn-notice"; got != want {
		t.Errorf("bob (NOTIFY turn) after carol resigned: %s, want %s", got, want)
	}
}

// TestNotifyPerTable: NOTIFY turn for every table, NOTIFY all t2 for one,
// and the table's choice beats the player's; the turn that expires for a
// NOTIFY turn player tells them, and its mail takes the calendar's
// cancellation the notice would have carried. A table that does not exist,
// or where the sender has no seat, is refused.
func TestNotifyPerTable(t *testing.T) { lexiotest.EachDriver(t, testNotifyPerTable) }

func testNotifyPerTable(t *testing.T, driver string) {
	h := lexiotest.New(t, lexiotest.Options{Driver: driver})
	for _, tc := range []struct {
		name    string
		players []string
	}{{"t1", lexiotest.Emails("alice", "bob")}, {"t2", lexiotest.Emails("alice", "carol")}, {"t3", lexiotest.Emails("bob", "carol")}} {
		if err := h.Lobby.CreateTable(h.Ctx, tc.name, "main", tc.players, 5); err != nil {
			t.Fatal(err)
		}
	}
	h.WaitMail("alice", 2)
	// To the plain address: alice has two tables, so the answer comes from
	// the plain address too.
	id := h.SendMail("alice", lexiotest.MailSpec{Body: "NOTIFY turn"})
	h.Expect(id, table.OutcomeApplied, "NOTIFY turn")
	if a := h.Answer("alice", id); lexiotest.Kind(a) != "notify-changed" || a.ReplyTo != "lexio@localhost" {
		t.Errorf("answer %s from %q", lexiotest.Kind(a), a.ReplyTo)
	}
	// From t1's address, naming t2: confirmed from t2.
	id = h.ReplyTo("alice", h.NoticeAt("alice", "t1"), "NOTIFY all t2")
	h.Expect(id, table.OutcomeApplied, "NOTIFY all t2")
	a := h.Answer("alice", id)
	if !strings.Contains(a.Subject, "[Lexio t2]") || a.ReplyTo != h.NoticeAt("alice", "t2").ReplyTo {
		t.Errorf("NOTIFY all t2 answered with %q from %q, want t2's reply address", a.Subject, a.ReplyTo)
	}
	for _, tc := range []struct{ cmd, reason string }{
		{"NOTIFY all t99", "no-such-table"},
		{"NOTIFY all t3", "not-a-player"},
	} {
		h.Expect(h.ReplyTo("alice", h.NoticeAt("alice", "t1"), tc.cmd), table.OutcomeRejected, tc.reason)
	}

	pass(h, "alice", "t1") // bob's turn at t1: alice hears only of her pass
	pass(h, "alice", "t2") // carol's at t2: alice chose all there
	pass(h, "bob", "t1")   // alice's turn at t1
	// The refusals came from t1, which their commands came through.
	if got, want := strings.Join(kindsAt(h, "alice", "t1"), " "), "turn-notice rejected rejected accepted turn-notice"; got != want {
		t.Errorf("alice at t1 (NOTIFY turn): %s, want %s", got, want)
	}
	if got, want := strings.Join(kindsAt(h, "alice", "t2"), " "), "turn-notice notify-changed turn-notice"; got != want {
		t.Errorf("alice at t2 (NOTIFY all t2): %s, want %s", got, want)
	}

	// Alice lets her turn at t1 expire: she is told, with the calendar's
	// cancellation, and gets no notice of bob's turn.
	h.TickAt(h.Deadline("t1"))
	ks := kindsAt(h, "alice", "t1")
	notices := 0
	for _, k := range ks {
		if k == "turn-notice" {
			notices++
		}
	}
	if ks[len(ks)-1] != "expired" || notices != 2 {
		t.Errorf("alice at t1 after the expiry: %v, want an expiry and no notice of bob's turn", ks)
	}
	if bt := kindsAt(h, "bob", "t1"); bt[len(bt)-1] != "turn-notice" {
		t.Errorf("bob at t1 after alice's expiry: %v, want his turn's notice", bt)
	}
	if exp := h.LastOf("alice", "expired"); !slices.Contains(exp.Attachments, "cancel.ics") {
		t.Errorf("the expiry mail attaches %v, want the turn's cancel.ics", exp.Attachments)
	}
}

// TestUnsubscribeByMail: every notice carries List-Unsubscribe (RFC 2369)
// with a mailto: address of the service's; written to with any body, or
// none, it sets NOTIFY turn for that table only and says so (LEAGUES §5.2).
// The address altered, or written to by another player, changes nothing.
func TestUnsubscribeByMail(t *testing.T) { lexiotest.EachDriver(t, testUnsubscribeByMail) }

func testUnsubscribeByMail(t *testing.T, driver string) {
	h := lexiotest.New(t, lexiotest.Options{Driver: driver})
	for _, name := range []string{"t1", "t2"} {
		if err := h.Lobby.CreateTable(h.Ctx, name, "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
			t.Fatal(err)
		}
	}
	h.WaitMail("alice", 2)
	h.WaitMail("bob", 2)
	n1, n2 := h.NoticeAt("alice", "t1"), h.NoticeAt("alice", "t2")
	u1, u2 := unsubscribeAddress(t, *n1), unsubscribeAddress(t, *n2)
	if u1 == u2 || !strings.HasPrefix(u1, "lexio+unsub_t1-") || !strings.HasSuffix(u1, "@localhost") || u1 == n1.ReplyTo {
		t.Fatalf("unsubscribe addresses %q and %q (reply address %q)", u1, u2, n1.ReplyTo)
	}

	// An empty message to t1's: NOTIFY turn at t1, answered from t1.
	id := h.SendMail("alice", lexiotest.MailSpec{To: u1, Subject: "unsubscribe"})
	h.Expect(id, table.OutcomeApplied, "NOTIFY turn t1 (List-Unsubscribe)")
	a := h.Answer("alice", id)
	lexiotest.MustName(t, "the unsubscribe answer", a.Text, "t1")
	lexiotest.MustContain(t, "the unsubscribe answer", a.Text, "NOTIFY all")
	if lexiotest.Kind(a) != "notify-changed" || a.ReplyTo != n1.ReplyTo {
		t.Errorf("answered by %s from %q, want notify-changed from %q", lexiotest.Kind(a), a.ReplyTo, n1.ReplyTo)
	}

	// Altered, or from bob: refused, nothing changes at t2.
	altered := []byte(u2)
	at := strings.IndexByte(u2, '@') - 1
	altered[at] = map[bool]byte{true: 'b', false: 'a'}[altered[at] == 'a']
	h.Expect(h.SendMail("alice", lexiotest.MailSpec{To: string(altered)}), table.OutcomeRejected, "bad-token")
	h.Expect(h.SendMail("bob", lexiotest.MailSpec{To: u2, Body: "unsubscribe"}), table.OutcomeRejected, "bad-token")

	pass(h, "alice", "t1") // bob's turn: alice, NOTIFY turn at t1, hears only of her pass
	pass(h, "alice", "t2") // alice still gets every notice at t2
	if got, want := strings.Join(kindsAt(h, "alice", "t1"), " "), "turn-notice notify-changed accepted"; got != want {
		t.Errorf("alice at t1 after unsubscribing: %s, want %s", got, want)
	}
	// The altered address was refused from t2, the table it named.
	if got, want := strings.Join(kindsAt(h, "alice", "t2"), " "), "turn-notice rejected turn-notice"; got != want {
		t.Errorf("alice at t2: %s, want %s", got, want)
	}

	// Bob's own, on his turn, with a command in the body: the address
	// decides, and nothing is played.
	b1 := unsubscribeAddress(t, *h.NoticeAt("bob", "t1"))
	h.Expect(h.SendMail("bob", lexiotest.MailSpec{To: b1, Body: "PASS"}), table.OutcomeApplied, "NOTIFY turn t1")
	if g := h.Game("t1"); len(g.Actions()) != 1 {
		t.Fatalf("a message to an unsubscribe address played: %d actions", len(g.Actions()))
	}
}

// TestDigest: NOTIFY digest gives, from 08:00 in each player's zone, one
// mail a day listing their tables in play, whose turn and until when
// (LEAGUES §5.1): two players in two zones, several tables each; exactly
// one each per local day, none again after a restart the same day, none to
// a player with nothing in play. The digest's List-Unsubscribe stops it.
func TestDigest(t *testing.T) { lexiotest.EachDriver(t, testDigest) }

func testDigest(t *testing.T, driver string) {
	// Monday 2 March 2026, 09:00 UTC: 10:00 in Paris, 04:00 in New York.
	h := lexiotest.New(t, lexiotest.Options{Driver: driver})
	for _, tc := range []struct {
		name    string
		players []string
	}{{"t1", lexiotest.Emails("alice", "bob")}, {"t2", lexiotest.Emails("alice", "carol")}, {"t3", lexiotest.Emails("bob", "carol")}} {
		if err := h.Lobby.CreateTable(h.Ctx, tc.name, "main", tc.players, 5); err != nil {
			t.Fatal(err)
		}
	}
	h.WaitMail("alice", 2)
	h.WaitMail("bob", 2)
	for _, c := range []struct{ who, cmd, reason string }{
		{"alice", "TZ Europe/Paris", "TZ Europe/Paris"}, {"alice", "NOTIFY digest", "NOTIFY digest"},
		{"bob", "TZ America/New_York", "TZ America/New_York"}, {"bob", "AVISOS resumen", "NOTIFY digest"},
	} {
		h.Expect(h.Fresh(c.who, "t1", c.cmd), table.OutcomeApplied, c.reason)
	}
	// Carol chose it for t2 alone (UTC, the configuration's zone): her
	// digest lists t2, not t3.
	h.Expect(h.Fresh("carol", "t3", "NOTIFY digest t2"), table.OutcomeApplied, "NOTIFY digest t2")
	// Dave chose it too, and sits nowhere: nothing to say, ever.
	h.Expect(h.SendMail("dave", lexiotest.MailSpec{Body: "NOTIFY digest"}), table.OutcomeApplied, "NOTIFY digest")
	// Past 08:00 in Paris, alice's first digest is tomorrow's.
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	newYork, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	lexiotest.MustTell(t, "alice's confirmation", h.LastOf("alice", "notify-changed").Text, time.Date(2026, 3, 3, 8, 0, 0, 0, paris))
	lexiotest.MustTell(t, "bob's confirmation", h.LastOf("bob", "notify-changed").Text, time.Date(2026, 3, 2, 8, 0, 0, 0, newYork))

	digests := func(h *lexiotest.Harness) map[string]int {
		h.T.Helper()
		out := map[string]int{}
		for _, p := range []string{"alice", "bob", "carol", "dave"} {
			out[p] = h.Count(p, "digest")
		}
		return out
	}
	expect := func(h *lexiotest.Harness, at time.Time, want map[string]int) {
		h.T.Helper()
		h.TickAt(at)
		got := digests(h)
		for p, n := range want {
			if got[p] != n {
				h.T.Errorf("at %s: %s has %d digests, want %d", at.Format(time.RFC3339), p, got[p], n)
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
	h.Stop()
	h = lexiotest.New(t, lexiotest.Options{DB: h.DB, Mem: h.Mem, Clock: h.Clock})
	expect(h, day(2, 14, 0), bobs)
	expect(h, day(3, 6, 59), bobs) // 07:59 in Paris
	both := map[string]int{"alice": 1, "bob": 1, "carol": 0, "dave": 0}
	expect(h, day(3, 7, 0), both)
	expect(h, day(3, 7, 59), both) // 07:59 in carol's zone, UTC
	all3 := map[string]int{"alice": 1, "bob": 1, "carol": 1, "dave": 0}
	expect(h, day(3, 8, 0), all3)
	expect(h, day(3, 12, 59), all3)

	ad, bd := h.LastOf("alice", "digest"), h.LastOf("bob", "digest")
	// The subject counts the tables where it is your turn, of those in
	// play; each table is an item "- name (variant):" with its deadline
	// in the reader's zone and its players, your turns first.
	deadline := time.Date(2026, 3, 5, 9, 0, 0, 0, time.UTC)
	if !strings.HasPrefix(ad.Subject, "[Lexio] ") || ad.ReplyTo != "lexio@localhost" {
		t.Errorf("alice's digest %q from %q", ad.Subject, ad.ReplyTo)
	}
	lexiotest.MustNumbers(t, "alice's digest subject", ad.Subject, 2, 2)
	lexiotest.MustDigest(t, "alice's digest", ad.Text, []string{"t1", "t2"}, deadline.In(paris), [][]string{{"Alice", "Bob"}, {"Alice", "Carol"}})
	lexiotest.MustNumbers(t, "bob's digest subject", bd.Subject, 1, 2)
	// His turn first: t3, then t1.
	lexiotest.MustDigest(t, "bob's digest", bd.Text, []string{"t3", "t1"}, deadline.In(newYork), [][]string{{"Bob", "Carol"}, {"Alice", "Bob"}})

	cd := h.LastOf("carol", "digest")
	lexiotest.MustNumbers(t, "carol's digest subject", cd.Subject)
	lexiotest.MustDigest(t, "carol's digest", cd.Text, []string{"t2"}, deadline, [][]string{{"Alice", "Carol"}})

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
	id := h.SendMail("alice", lexiotest.MailSpec{To: u})
	h.Expect(id, table.OutcomeApplied, "NOTIFY turn (List-Unsubscribe)")
	lexiotest.MustNotContain(t, "the digest's unsubscribe answer", h.Answer("alice", id).Text, "t1", "t2")
	expect(h, day(4, 8, 0), map[string]int{"alice": 1, "bob": 2, "carol": 2, "dave": 0})
}

// TestUnsubscribeInSubject: where the token lives in the subject tag, the
// List-Unsubscribe address is the service's own with the tag as subject,
// and a mail written to it does the same.
func TestUnsubscribeInSubject(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{Mail: "token_in_subject = true"})
	if err := h.Lobby.CreateTable(h.Ctx, "t1", "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	n := lexiotest.LatestNotice(h.WaitMail("alice", 1))
	token := h.Tables.Tokens().Unsubscribe("t1", "alice@localhost")
	want := "<mailto:lexio@localhost?subject=%5BLexio%20t1%20" + token + "%5D>"
	if got := n.Header("List-Unsubscribe"); got != want {
		t.Fatalf("List-Unsubscribe %q, want %q", got, want)
	}
	id := h.SendMail("alice", lexiotest.MailSpec{Subject: "[Lexio t1 " + token + "]"})
	h.Expect(id, table.OutcomeApplied, "NOTIFY turn t1 (List-Unsubscribe)")
	lexiotest.MustName(t, "the answer", h.Answer("alice", id).Text, "t1")
}

// TestNotifyTurnSeparateAcceptance: with separate_acceptance, a player on
// NOTIFY turn still gets one acceptance of their move, and it cancels
// their turn's calendar entry as the notice would have.
func TestNotifyTurnSeparateAcceptance(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{Mail: "separate_acceptance = true"})
	const name = "sa"
	if err := h.Lobby.CreateTable(h.Ctx, name, "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.WaitMail("alice", 1)
	h.Expect(h.ReplyTo("alice", h.NoticeAt("alice", name), "NOTIFY turn"), table.OutcomeApplied, "NOTIFY turn")
	turn := lexiotest.CalendarOf(t, h.LastOf("alice", "turn-notice"))
	if turn == nil || turn.Method != "REQUEST" {
		t.Fatalf("alice's first notice has no entry for her turn: %+v", turn)
	}
	pass(h, "alice", name)
	h.OutboxEmpty()
	acc := lexiotest.OfKind(h.Inbox("alice"), "accepted")
	if len(acc) != 1 {
		t.Fatalf("alice got %d acceptances of her pass, want 1", len(acc))
	}
	if c := lexiotest.CalendarOf(t, acc[0]); c == nil || c.Method != "CANCEL" || c.UID != turn.UID {
		t.Errorf("the acceptance's entry %+v, want the cancellation of %s", c, turn.UID)
	}
	if n := h.Count("alice", "turn-notice"); n != 1 {
		t.Errorf("alice (NOTIFY turn) got %d turn notices, want only the first", n)
	}
}

// TestNotifyInReply: NOTIFY all or turn in reply to a table's mail, with
// no table named, is for that table alone (#34), and so answered;
// NOTIFY digest, one mail about every table, stays for them all.
func TestNotifyInReply(t *testing.T) {
	h := lexiotest.New(t, lexiotest.Options{})
	for _, tc := range []struct {
		name    string
		players []string
	}{{"na", lexiotest.Emails("alice", "bob")}, {"nb", lexiotest.Emails("alice", "carol")}} {
		if err := h.Lobby.CreateTable(h.Ctx, tc.name, "main", tc.players, 5); err != nil {
			t.Fatal(err)
		}
	}
	h.WaitMail("alice", 2)
	id := h.ReplyTo("alice", h.NoticeAt("alice", "na"), "NOTIFY turn")
	h.Expect(id, table.OutcomeApplied, "NOTIFY turn na")
	lexiotest.MustContain(t, "NOTIFY turn in reply", h.Answer("alice", id).Text, "na")
	h.Command("alice", "nb", "AVIS résumé", table.OutcomeApplied, "NOTIFY digest")
	if rec := h.Handled(h.ReplyTo("alice", h.NoticeAt("alice", "nb"), "NOTIFY digest")); rec.Reason != "NOTIFY digest" {
		t.Errorf("NOTIFY digest in reply: %q, want for every table", rec.Reason)
	}
}
