package table_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/mailer/client"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/table"
)

// lexicon is a dictionary the test fills as it goes: a word is valid once
// added (RULES §8.1).
type lexicon struct {
	mu sync.Mutex
	w  words
}

func (l *lexicon) Contains(s string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Contains(s)
}

// add makes every word of a play valid.
func (l *lexicon) add(p engine.Play) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, w := range p.Words {
		l.w = append(l.w, w.Text)
	}
}

// mailSpec is a message a player's mail client writes; zero fields take
// defaults (From the account's address, To the service, a new Message-ID).
type mailSpec struct {
	From, To, Subject, ID string
	Headers               []string // "Name: value"
	Body                  string
	// NoConfirm leaves a confirmation the message causes unanswered.
	NoConfirm bool
}

// sendMail submits a message through the account's SMTP server and
// returns its Message-ID (without brackets). A message to the plain
// address from the account's own address is followed up as its owner
// would: where the service asks to confirm it (EMAIL §1.7), the account
// answers CONFIRM, and the ID returned is that answer's, the message whose
// record says what was done (unless m.NoConfirm).
func (h *harness) sendMail(account string, m mailSpec) string {
	h.t.Helper()
	if m.From == "" {
		m.From = account + "@" + h.domain
	}
	if m.To == "" {
		m.To = "lexio@" + h.domain
	}
	if m.Subject == "" {
		m.Subject = "lexio"
	}
	if m.ID == "" {
		msgCounter.Lock()
		msgCounter.n++
		m.ID = fmt.Sprintf("mail-%d-%s@localhost", msgCounter.n, account)
		msgCounter.Unlock()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s\nTo: %s\nSubject: %s\nDate: %s\nMessage-ID: <%s>\n",
		m.From, m.To, m.Subject, h.clock.Now().Format("Mon, 02 Jan 2006 15:04:05 -0700"), m.ID)
	for _, hd := range m.Headers {
		b.WriteString(hd + "\n")
	}
	if !strings.Contains(strings.ToLower(strings.Join(m.Headers, "\n")), "content-type:") {
		b.WriteString("MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n")
	}
	b.WriteString("\n" + m.Body + "\n")
	h.sendRaw(account, []string{m.To}, b.String())
	if m.NoConfirm || m.To != "lexio@"+h.domain || m.From != account+"@"+h.domain {
		return m.ID
	}
	if rec := h.handled(m.ID); rec.Outcome != table.OutcomePending {
		return m.ID
	}
	return h.confirm(account, m.ID)
}

// confirm answers CONFIRM to the confirmation that the message id caused
// in name's mailbox, and returns the answer's Message-ID.
func (h *harness) confirm(name, id string) string {
	h.t.Helper()
	c := h.confirmation(name, id)
	return h.replyTo(name, &c, "CONFIRM")
}

// confirmation waits for the confirmation that the message id caused in
// name's mailbox.
func (h *harness) confirmation(name, id string) client.Message {
	h.t.Helper()
	var found client.Message
	h.waitFor("the confirmation of "+id+" for "+name, func() bool {
		for _, msg := range h.inbox(name) {
			if kind(msg) == "confirm" && strings.Trim(msg.InReplyTo, "<>") == id {
				found = msg
				return true
			}
		}
		return false
	})
	return found
}

// token is name's reply token at table.
func (h *harness) token(table, name string) string {
	return h.svc.Tokens().Token(table, name+"@"+h.domain)
}

// fresh sends a new message (no In-Reply-To) to name's reply address at
// table: EMAIL §1.5 takes it as meant for now.
func (h *harness) fresh(name, table, body string) string {
	h.t.Helper()
	return h.sendMail(name, mailSpec{To: "lexio+" + h.token(table, name) + "@" + h.domain, Body: body})
}

// expect waits for the message's record and checks its outcome and that
// its reason holds reason.
func (h *harness) expect(id string, outcome string, reason string) store.Message {
	h.t.Helper()
	rec := h.handled(id)
	if rec.Outcome != outcome || !strings.Contains(rec.Reason, reason) {
		h.t.Fatalf("message %s: %s %q, want %s %q", id, rec.Outcome, rec.Reason, outcome, reason)
	}
	return rec
}

// lastOf waits for the outbox to drain and returns name's newest message
// of kind k.
func (h *harness) lastOf(name, k string) client.Message {
	h.t.Helper()
	h.outboxEmpty()
	msgs := ofKind(h.inbox(name), k)
	if len(msgs) == 0 {
		h.t.Fatalf("%s received no %s", name, k)
	}
	return msgs[len(msgs)-1]
}

func mustContain(t *testing.T, what, text string, subs ...string) {
	t.Helper()
	flat := strings.Join(strings.Fields(text), " ")
	for _, s := range subs {
		if !strings.Contains(flat, s) {
			t.Errorf("%s lacks %q:\n%s", what, s, text)
		}
	}
}

func mustNotContain(t *testing.T, what, text string, subs ...string) {
	t.Helper()
	flat := strings.Join(strings.Fields(text), " ")
	for _, s := range subs {
		if strings.Contains(flat, s) {
			t.Errorf("%s holds %q:\n%s", what, s, text)
		}
	}
}

// absent returns n letters that are not on the rack.
func absent(rack []byte, n int) string {
	var out []byte
	for c := byte('A'); c <= 'Z' && len(out) < n; c++ {
		if !strings.ContainsRune(string(rack), rune(c)) {
			out = append(out, c)
		}
	}
	return string(out)
}

// placements counts the turn-ending actions of a game.
func turns(g *engine.Game) int {
	n := 0
	for _, a := range g.Actions() {
		switch a.Kind {
		case engine.ActPlace, engine.ActExchange, engine.ActPass, engine.ActExpire:
			n++
		}
	}
	return n
}

// TestRejections: refused moves by mail keep the turn and change nothing
// but the probe reserve (RULES §1.3, §6, EMAIL §1.5, §4.1).
func TestRejections(t *testing.T) { eachDriver(t, testRejections) }

func testRejections(t *testing.T, driver string) {
	lex := &lexicon{}
	h := newHarness(t, harnessOpts{driver: driver, dict: lex, config: `
[[league]]
name = "tight"
reserve_size = 2
reserve_refill = "15s"
`})
	const name = "rej"
	if err := h.lobby.CreateTable(h.ctx, name, "tight", emails("alice", "bob"), 7); err != nil {
		t.Fatal(err)
	}
	h.waitMail("alice", 1)
	h.waitMail("bob", 1)
	g := h.game(name)
	cmd, play := findPlay(g, 0)
	if cmd == "" {
		t.Fatal("no first move")
	}

	// Not your turn: refused, naming whose turn it is.
	id := h.send("bob", cmd)
	h.expect(id, table.OutcomeRejected, "not-your-turn")
	mustContain(t, "not-your-turn reply", intro(h.lastOf("bob", "rejected").Text), "Alice")

	// RULES §6.4: tiles not on the rack name the problem and spend nothing.
	id = h.send("alice", "PLACE G7 ACROSS "+absent(g.Rack(0), 2))
	h.expect(id, table.OutcomeRejected, "not-on-rack")
	mustContain(t, "not-on-rack reply", h.lastOf("alice", "rejected").Text, "Probe reserve: 2 of 2")

	// RULES §6.1–6.2: an unknown word keeps the turn, names every word,
	// spends one attempt.
	id = h.send("alice", cmd)
	h.expect(id, table.OutcomeRejected, "unknown-words")
	r := h.lastOf("alice", "rejected")
	mustContain(t, "unknown-words reply", r.Text, "Probe reserve: 1 of 2")
	for _, w := range play.Words {
		mustContain(t, "unknown-words reply", r.Text, w.Text)
	}
	g = h.game(name)
	if turns(g) != 0 || g.Turn() != 0 {
		t.Fatalf("after a rejection: %d turns, turn %d", turns(g), g.Turn())
	}
	if left, _ := g.Reserve(0, h.clock.Now()); left != 1 {
		t.Errorf("alice's reserve %d, want 1", left)
	}

	// The next valid move is applied.
	lex.add(play)
	h.expect(h.send("alice", cmd), table.OutcomeApplied, "PLACE")
	if g = h.game(name); turns(g) != 1 || g.Turn() != 1 {
		t.Fatalf("alice's move: %d turns, turn %d", turns(g), g.Turn())
	}

	// RULES §6.3: bob spends his reserve; then even a valid word is
	// refused without its words being checked, until the clock refills it.
	cmd, play = findPlay(g, 1)
	for i := 0; i < 2; i++ {
		h.expect(h.send("bob", cmd), table.OutcomeRejected, "unknown-words")
	}
	mustContain(t, "second probe", h.lastOf("bob", "rejected").Text, "Probe reserve: 0 of 2")
	lex.add(play)
	// Refused for the reserve alone: the words were not judged.
	if rec := h.expect(h.send("bob", cmd), table.OutcomeRejected, "reserve-empty"); strings.Contains(rec.Reason, "unknown-words") {
		t.Errorf("reserve-empty judged the words: %q", rec.Reason)
	}
	mustContain(t, "reserve-empty reply", h.lastOf("bob", "rejected").Text, "Probe reserve: 0 of 2")
	if g = h.game(name); turns(g) != 1 || g.Turn() != 1 {
		t.Fatalf("after reserve-empty: %d turns, turn %d", turns(g), g.Turn())
	}
	h.clock.Add(15 * time.Second)
	h.expect(h.send("bob", cmd), table.OutcomeApplied, "PLACE")

	// EMAIL §1.5: alice answers her first notice although she has played
	// since: refused as stale, nothing changes.
	g = h.game(name)
	cmd, play = findPlay(g, 0)
	lex.add(play)
	first := ofKind(h.inbox("alice"), "turn-notice")[0]
	if seqOf(first) != 0 {
		t.Fatalf("first notice %s", first.MessageID)
	}
	before := len(g.Actions())
	h.expect(h.replyTo("alice", &first, cmd), table.OutcomeRejected, "stale")
	h.lastOf("alice", "rejected")
	if g = h.game(name); len(g.Actions()) != before {
		t.Fatalf("a stale move changed the game: %d actions, had %d", len(g.Actions()), before)
	}
	// A fresh message, with no In-Reply-To, is meant for now.
	h.expect(h.fresh("alice", name, cmd), table.OutcomeApplied, "PLACE")
	if g = h.game(name); turns(g) != 3 || g.Turn() != 1 {
		t.Fatalf("fresh move: %d turns, turn %d", turns(g), g.Turn())
	}
}

// TestInfoCommands: BOARD, PREVIEW, LANG, LOG, GAMES and HELP by mail
// (EMAIL §3) answer the sender only and play nothing.
func TestInfoCommands(t *testing.T) { eachDriver(t, testInfoCommands) }

func testInfoCommands(t *testing.T, driver string) {
	lex := &lexicon{}
	h := newHarness(t, harnessOpts{driver: driver, dict: lex})
	const name = "info"
	if err := h.lobby.CreateTable(h.ctx, name, "main", emails("alice", "bob"), 3); err != nil {
		t.Fatal(err)
	}
	h.waitMail("alice", 1)
	h.waitMail("bob", 1)
	g := h.game(name)

	// BOARD: the state with the sender's own rack (EMAIL §1.4), to them
	// alone.
	h.expect(h.send("bob", "BOARD"), table.OutcomeApplied, "BOARD")
	b := h.lastOf("bob", "board-reply")
	if got, want := rackLine(b.Text), string(g.Rack(1)); got != want {
		t.Errorf("BOARD shows rack %q, bob's is %q", got, want)
	}
	if n := len(h.inbox("alice")); n != 1 {
		t.Errorf("alice received %d messages after bob's BOARD, want 1", n)
	}

	// PREVIEW: the score without the dictionary (RULES §5.8); nothing is
	// played.
	cmd, play := findPlay(g, 0)
	h.expect(h.send("alice", strings.Replace(cmd, "PLACE", "PREVIEW", 1)), table.OutcomeApplied, "PREVIEW")
	pv := h.lastOf("alice", "preview")
	mustHaveNumbers(t, "preview", pv.Subject, play.Score)
	mustHaveNumbers(t, "preview", intro(pv.Text), play.Score)
	if g = h.game(name); turns(g) != 0 {
		t.Fatalf("PREVIEW played: %d turns", turns(g))
	}

	// LANG fr: confirmed in French, then bob's notices are French.
	h.expect(h.send("bob", "LANG fr"), table.OutcomeApplied, "LANG fr")
	// The French confirmation offers the two other languages, in French
	// command words.
	lc := h.lastOf("bob", "lang-changed").Text
	mustContain(t, "lang-changed", lc, "LANGUE en", "LANGUE es")
	mustNotContain(t, "lang-changed", lc, "LANGUE fr", "LANG fr")
	lex.add(play)
	h.expect(h.send("alice", cmd), table.OutcomeApplied, "PLACE")
	n := h.lastOf("bob", "turn-notice")
	// Bob's notice names the commands in French (AIDE), Alice's in
	// English (HELP).
	if seqOf(n) != 1 {
		t.Errorf("bob's notice after LANG fr: %s", n.MessageID)
	}
	mustContain(t, "bob's notice", n.Text, "AIDE")
	mustNotContain(t, "bob's notice", n.Text, "HELP")
	mustContain(t, "alice's notice", h.lastOf("alice", "turn-notice").Text, "HELP")
	mustNotContain(t, "alice's notice", h.lastOf("alice", "turn-notice").Text, "AIDE")

	// LOG: the table's log.
	h.expect(h.send("alice", "LOG"), table.OutcomeApplied, "LOG")
	lg := h.lastOf("alice", "log-reply").Text
	// Its first entry: Alice's play and its score.
	var entry string
	for _, l := range strings.Split(lg, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "1. ") {
			entry = l
		}
	}
	mustContain(t, "log's first entry", entry, "Alice")
	mustHaveNumbers(t, "log's first entry", entry, 1, play.Score)
	// A blank is written in lowercase.
	mustContain(t, "log", strings.ToUpper(lg), play.Words[0].Text)

	// GAMES: the sender's tables, whoever's turn.
	h.expect(h.send("alice", "GAMES"), table.OutcomeApplied, "GAMES")
	mustContain(t, "games", h.lastOf("alice", "games-reply").Text, name+" (lexio)", "Bob's turn")

	// HELP, from a player and from a stranger without a token.
	h.expect(h.send("alice", "HELP"), table.OutcomeApplied, "HELP")
	h.lastOf("alice", "help")
	h.expect(h.sendMail("eve", mailSpec{Body: "HELP"}), table.OutcomeApplied, "HELP")
	h.lastOf("eve", "help")

	if g = h.game(name); turns(g) != 1 {
		t.Errorf("info commands played: %d turns", turns(g))
	}
}

// TestBadInput: nothing a sender writes blocks the mailbox (EMAIL §2.3,
// §2.5); error replies are rate-limited per sender (EMAIL §2.6).
func TestBadInput(t *testing.T) { eachDriver(t, testBadInput) }

func testBadInput(t *testing.T, driver string) {
	h := newHarness(t, harnessOpts{driver: driver, sockets: true, mail: "max_message_bytes = 4096\nerror_replies_per_hour = 3"})
	const name = "bad"
	if err := h.lobby.CreateTable(h.ctx, name, "main", emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.waitMail("alice", 1)
	h.waitMail("bob", 1)
	to := "lexio+" + h.token(name, "alice") + "@localhost"

	// Answered: no command, too large (its PASS is not read), binary
	// junk. Each is alice's error reply of the hour.
	h.expect(h.sendMail("alice", mailSpec{To: to, Body: "Hello, how are you?"}), table.OutcomeRejected, "no-command")
	h.lastOf("alice", "rejected")
	h.expect(h.sendMail("alice", mailSpec{To: to, Body: "PASS\n" + strings.Repeat("filler text\n", 1000)}), table.OutcomeRejected, "too-large")
	mustContain(t, "too-large reply", h.lastOf("alice", "too-large").Text, "4 KB")
	h.expect(h.sendMail("alice", mailSpec{To: to, Body: strings.Repeat("\x01\x02\x03\x04\x05", 100)}), table.OutcomeRejected, "binary")
	h.outboxEmpty()
	if n := len(ofKind(h.inbox("alice"), "rejected")); n != 2 {
		t.Errorf("alice got %d refusals, want 2", n)
	}
	// The fourth error reply of the hour is not sent.
	id := h.sendMail("alice", mailSpec{To: to, Body: strings.Repeat("\x01\x02\x03\x04\x06", 100)})
	h.expect(id, table.OutcomeRejected, "binary")
	h.logged(id, "error reply rate-limited")

	// Ignored, never answered (no mail loop): an auto-reply, a bounce,
	// bulk mail, the service's own address.
	ignored := []struct {
		account string
		spec    mailSpec
	}{
		{"alice", mailSpec{To: to, Headers: []string{"Auto-Submitted: auto-replied"}, Body: "PASS"}},
		{"alice", mailSpec{To: to, Headers: []string{"Precedence: bulk"}, Body: "PASS"}},
		{"bob", mailSpec{From: "MAILER-DAEMON@localhost", To: to, Subject: "Undelivered Mail Returned to Sender",
			Headers: []string{"MIME-Version: 1.0", `Content-Type: multipart/report; report-type=delivery-status; boundary="b1"`},
			Body:    "--b1\nContent-Type: text/plain\n\nPASS\n--b1\nContent-Type: message/delivery-status\n\nStatus: 5.1.1\n--b1--"}},
		{"lexio", mailSpec{From: "lexio@localhost", To: to, Body: "PASS"}},
	}
	for _, ig := range ignored {
		h.expect(h.sendMail(ig.account, ig.spec), table.OutcomeIgnored, "")
	}
	h.outboxEmpty()
	msgs := h.inbox("alice")
	if n := len(ofKind(msgs, "rejected")); n != 2 {
		t.Errorf("alice got %d rejections, want 2", n)
	}
	if len(msgs) != 4 {
		t.Errorf("alice got %d messages, want her notice and 3 error replies", len(msgs))
	}
	if n := len(h.inbox("bob")); n != 1 {
		t.Errorf("bob got %d messages", n)
	}
	if g := h.game(name); len(g.Actions()) != 0 {
		t.Fatalf("bad input changed the game: %+v", g.Actions())
	}

	// A good move is still applied; the mailbox is empty.
	h.expect(h.send("alice", findMove(h.game(name), 0)), table.OutcomeApplied, "PLACE")
	h.processed(9)

	// Another sender has their own limit.
	for i := 0; i < 5; i++ {
		h.expect(h.sendMail("eve", mailSpec{Body: strings.Repeat("\x01\x02\x03\x04\x05", 100+i)}), table.OutcomeRejected, "binary")
	}
	h.outboxEmpty()
	if n := len(h.inbox("eve")); n != 3 {
		t.Errorf("eve got %d replies to 5 bad messages, want 3", n)
	}
}

// TestOpenTables: NEW, JOIN and START by mail where the configuration
// allows (EMAIL §3).
func TestOpenTables(t *testing.T) { eachDriver(t, testOpenTables) }

func testOpenTables(t *testing.T, driver string) {
	h := newHarness(t, harnessOpts{driver: driver, config: "[open_tables]\nallow = true\nleague = \"main\"\n"})
	rec := h.expect(h.sendMail("alice", mailSpec{Body: "NEW"}), table.OutcomeApplied, "NEW ")
	name := strings.TrimPrefix(rec.Reason, "NEW ")
	mustContain(t, "table-opened", h.lastOf("alice", "table-opened").Text, name)

	h.expect(h.sendMail("bob", mailSpec{Body: "JOIN " + name}), table.OutcomeApplied, "JOIN")
	h.expect(h.sendMail("carol", mailSpec{Body: "REJOINDRE " + name}), table.OutcomeApplied, "JOIN")
	h.outboxEmpty()
	if n := len(ofKind(h.inbox("alice"), "table-joined")); n != 2 {
		t.Errorf("alice was told of %d joins, want 2", n)
	}
	// Only the opener starts.
	h.expect(h.fresh("bob", name, "START"), table.OutcomeRejected, "not-owner")
	h.expect(h.sendMail("alice", mailSpec{Body: "START"}), table.OutcomeApplied, "START")
	for _, p := range []string{"alice", "bob", "carol"} {
		if n := seqOf(h.lastOf(p, "turn-notice")); n != 0 {
			t.Errorf("%s: first notice of turn %d", p, n)
		}
	}
	h.expect(h.sendMail("dave", mailSpec{Body: "JOIN " + name}), table.OutcomeRejected, "already-started")
	h.expect(h.sendMail("alice", mailSpec{Body: "START"}), table.OutcomeRejected, "")

	players := []string{"alice", "bob", "carol"}
	for i := 0; i < 3; i++ {
		g := h.game(name)
		h.expect(h.send(players[g.Turn()], findMove(g, g.Turn())), table.OutcomeApplied, "PLACE")
	}
	if g := h.game(name); turns(g) != 3 || g.Players() != 3 {
		t.Errorf("%d turns, %d players", turns(g), g.Players())
	}

	// A full table.
	rec = h.expect(h.sendMail("dave", mailSpec{Body: "NEW"}), table.OutcomeApplied, "NEW ")
	full := strings.TrimPrefix(rec.Reason, "NEW ")
	for _, p := range []string{"alice", "bob", "carol"} {
		h.expect(h.sendMail(p, mailSpec{Body: "JOIN " + full}), table.OutcomeApplied, "JOIN")
	}
	h.expect(h.sendMail("eve", mailSpec{Body: "JOIN " + full}), table.OutcomeRejected, "table-full")
	mustContain(t, "table-full reply", h.lastOf("eve", "rejected").Text, full)

	// Where the configuration does not allow it.
	closed := newHarness(t, harnessOpts{driver: driver})
	closed.expect(closed.sendMail("alice", mailSpec{Body: "NEW"}), table.OutcomeRejected, "opening-disabled")
	closed.expect(closed.sendMail("bob", mailSpec{Body: "JOIN " + name}), table.OutcomeRejected, "opening-disabled")
	closed.lastOf("alice", "rejected")
}

// TestStaleThroughReferences: a reply to the player's own earlier message
// (In-Reply-To is not ours) still answers, through its References, the
// notice of a turn the player has played since: it is stale (EMAIL §1.5).
func TestStaleThroughReferences(t *testing.T) { eachDriver(t, testStaleThroughReferences) }

func testStaleThroughReferences(t *testing.T, driver string) {
	h := newHarness(t, harnessOpts{driver: driver})
	const name = "refs"
	if err := h.lobby.CreateTable(h.ctx, name, "main", emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.waitMail("alice", 1)
	h.waitMail("bob", 1)
	notice := latestNotice(h.inbox("alice"))
	own := h.replyTo("alice", notice, findMove(h.game(name), 0))
	h.expect(own, table.OutcomeApplied, "PLACE")
	h.expect(h.send("bob", findMove(h.game(name), 1)), table.OutcomeApplied, "PLACE")

	// Her client threads the new message under her own move.
	refs := append(append([]string(nil), notice.References...), notice.MessageID, own)
	id := h.sendMail("alice", mailSpec{To: "lexio+" + h.token(name, "alice") + "@localhost",
		Headers: []string{"In-Reply-To: <" + own + ">", "References: <" + strings.Join(refs, "> <") + ">"},
		Body:    findMove(h.game(name), 0)})
	h.expect(id, table.OutcomeRejected, "stale")
	if g := h.game(name); turns(g) != 2 {
		t.Errorf("%d turns, want 2", turns(g))
	}
}
