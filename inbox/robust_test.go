package inbox_test

import (
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/table"
)

// TestInfoCommands: BOARD, PREVIEW, LANG, LOG, GAMES and HELP by mail
// (EMAIL §3) answer the sender only and play nothing.
func TestInfoCommands(t *testing.T) { lexiotest.EachDriver(t, testInfoCommands) }

func testInfoCommands(t *testing.T, driver string) {
	lex := &lexiotest.Lexicon{}
	h := lexiotest.New(t, lexiotest.Options{Driver: driver, Dict: lex})
	const name = "info"
	if err := h.Lobby.CreateTable(h.Ctx, name, "main", lexiotest.Emails("alice", "bob"), 3); err != nil {
		t.Fatal(err)
	}
	h.WaitMail("alice", 1)
	h.WaitMail("bob", 1)
	g := h.Game(name)

	// BOARD: the state with the sender's own rack (EMAIL §1.4), to them
	// alone.
	h.Expect(h.Send("bob", "BOARD"), table.OutcomeApplied, "BOARD")
	b := h.LastOf("bob", "board-reply")
	if got, want := lexiotest.RackLine(b.Text), string(g.Rack(1)); got != want {
		t.Errorf("BOARD shows rack %q, bob's is %q", got, want)
	}
	if n := len(h.Inbox("alice")); n != 1 {
		t.Errorf("alice received %d messages after bob's BOARD, want 1", n)
	}

	// PREVIEW: the score without the dictionary (RULES §5.8); nothing is
	// played.
	cmd, play := lexiotest.FindPlay(g, 0)
	h.Expect(h.Send("alice", strings.Replace(cmd, "PLACE", "PREVIEW", 1)), table.OutcomeApplied, "PREVIEW")
	pv := h.LastOf("alice", "preview")
	lexiotest.MustHaveNumbers(t, "preview", pv.Subject, play.Score)
	lexiotest.MustHaveNumbers(t, "preview", lexiotest.Intro(pv.Text), play.Score)
	if g = h.Game(name); lexiotest.Turns(g) != 0 {
		t.Fatalf("PREVIEW played: %d turns", lexiotest.Turns(g))
	}

	// LANG fr: confirmed in French, then bob's notices are French.
	h.Expect(h.Send("bob", "LANG fr"), table.OutcomeApplied, "LANG fr")
	// The French confirmation offers the two other languages, in French
	// command words.
	lc := h.LastOf("bob", "lang-changed").Text
	lexiotest.MustContain(t, "lang-changed", lc, "LANGUE en", "LANGUE es")
	lexiotest.MustNotContain(t, "lang-changed", lc, "LANGUE fr", "LANG fr")
	lex.Add(play)
	h.Expect(h.Send("alice", cmd), table.OutcomeApplied, "PLACE")
	n := h.LastOf("bob", "turn-notice")
	// Bob's notice names the commands in French (AIDE), Alice's in
	// English (HELP).
	if lexiotest.Seq(n) != 1 {
		t.Errorf("bob's notice after LANG fr: %s", n.MessageID)
	}
	lexiotest.MustContain(t, "bob's notice", n.Text, "AIDE")
	lexiotest.MustNotContain(t, "bob's notice", n.Text, "HELP")
	lexiotest.MustContain(t, "alice's notice", h.LastOf("alice", "turn-notice").Text, "HELP")
	lexiotest.MustNotContain(t, "alice's notice", h.LastOf("alice", "turn-notice").Text, "AIDE")

	// LOG: the table's log.
	h.Expect(h.Send("alice", "LOG"), table.OutcomeApplied, "LOG")
	lg := h.LastOf("alice", "log-reply").Text
	// Its first entry: Alice's play and its score.
	var entry string
	for _, l := range strings.Split(lg, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "1. ") {
			entry = l
		}
	}
	lexiotest.MustContain(t, "log's first entry", entry, "Alice")
	lexiotest.MustHaveNumbers(t, "log's first entry", entry, 1, play.Score)
	// A blank is written in lowercase.
	lexiotest.MustContain(t, "log", strings.ToUpper(lg), play.Words[0].Text)

	// GAMES: the sender's tables, whoever's turn.
	h.Expect(h.Send("alice", "GAMES"), table.OutcomeApplied, "GAMES")
	lexiotest.MustContain(t, "games", h.LastOf("alice", "games-reply").Text, name+" (lexio)", "Bob's turn")

	// HELP, from a player and from a stranger without a token.
	h.Expect(h.Send("alice", "HELP"), table.OutcomeApplied, "HELP")
	h.LastOf("alice", "help")
	h.Expect(h.SendMail("eve", lexiotest.MailSpec{Body: "HELP"}), table.OutcomeApplied, "HELP")
	h.LastOf("eve", "help")

	if g = h.Game(name); lexiotest.Turns(g) != 1 {
		t.Errorf("info commands played: %d turns", lexiotest.Turns(g))
	}
}

// TestBadInput: nothing a sender writes blocks the mailbox (EMAIL §2.3,
// §2.5); error replies are rate-limited per sender (EMAIL §2.6).
func TestBadInput(t *testing.T) { lexiotest.EachDriver(t, testBadInput) }

func testBadInput(t *testing.T, driver string) {
	h := lexiotest.New(t, lexiotest.Options{Driver: driver, Sockets: true, Mail: "max_message_bytes = 4096\nerror_replies_per_hour = 3"})
	const name = "bad"
	if err := h.Lobby.CreateTable(h.Ctx, name, "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.WaitMail("alice", 1)
	h.WaitMail("bob", 1)
	to := "lexio+" + h.Token(name, "alice") + "@localhost"

	// Answered: no command, too large (its PASS is not read), binary
	// junk. Each is alice's error reply of the hour.
	h.Expect(h.SendMail("alice", lexiotest.MailSpec{To: to, Body: "Hello, how are you?"}), table.OutcomeRejected, "no-command")
	h.LastOf("alice", "rejected")
	h.Expect(h.SendMail("alice", lexiotest.MailSpec{To: to, Body: "PASS\n" + strings.Repeat("filler text\n", 1000)}), table.OutcomeRejected, "too-large")
	lexiotest.MustContain(t, "too-large reply", h.LastOf("alice", "too-large").Text, "4 KB")
	h.Expect(h.SendMail("alice", lexiotest.MailSpec{To: to, Body: strings.Repeat("\x01\x02\x03\x04\x05", 100)}), table.OutcomeRejected, "binary")
	h.OutboxEmpty()
	if n := len(lexiotest.OfKind(h.Inbox("alice"), "rejected")); n != 2 {
		t.Errorf("alice got %d refusals, want 2", n)
	}
	// The fourth error reply of the hour is not sent.
	id := h.SendMail("alice", lexiotest.MailSpec{To: to, Body: strings.Repeat("\x01\x02\x03\x04\x06", 100)})
	h.Expect(id, table.OutcomeRejected, "binary")
	logged(h, id, "error reply rate-limited")

	// Ignored, never answered (no mail loop): an auto-reply, a bounce,
	// bulk mail, the service's own address.
	ignored := []struct {
		account string
		spec    lexiotest.MailSpec
	}{
		{"alice", lexiotest.MailSpec{To: to, Headers: []string{"Auto-Submitted: auto-replied"}, Body: "PASS"}},
		{"alice", lexiotest.MailSpec{To: to, Headers: []string{"Precedence: bulk"}, Body: "PASS"}},
		{"bob", lexiotest.MailSpec{From: "MAILER-DAEMON@localhost", To: to, Subject: "Undelivered Mail Returned to Sender",
			Headers: []string{"MIME-Version: 1.0", `Content-Type: multipart/report; report-type=delivery-status; boundary="b1"`},
			Body:    "--b1\nContent-Type: text/plain\n\nPASS\n--b1\nContent-Type: message/delivery-status\n\nStatus: 5.1.1\n--b1--"}},
		{"lexio", lexiotest.MailSpec{From: "lexio@localhost", To: to, Body: "PASS"}},
	}
	for _, ig := range ignored {
		h.Expect(h.SendMail(ig.account, ig.spec), table.OutcomeIgnored, "")
	}
	h.OutboxEmpty()
	msgs := h.Inbox("alice")
	if n := len(lexiotest.OfKind(msgs, "rejected")); n != 2 {
		t.Errorf("alice got %d rejections, want 2", n)
	}
	if len(msgs) != 4 {
		t.Errorf("alice got %d messages, want her notice and 3 error replies", len(msgs))
	}
	if n := len(h.Inbox("bob")); n != 1 {
		t.Errorf("bob got %d messages", n)
	}
	if g := h.Game(name); len(g.Actions()) != 0 {
		t.Fatalf("bad input changed the game: %+v", g.Actions())
	}

	// A good move is still applied; the mailbox is empty.
	h.Expect(h.Send("alice", lexiotest.FindMove(h.Game(name), 0)), table.OutcomeApplied, "PLACE")
	processed(h, 9)

	// Another sender has their own limit.
	for i := 0; i < 5; i++ {
		h.Expect(h.SendMail("eve", lexiotest.MailSpec{Body: strings.Repeat("\x01\x02\x03\x04\x05", 100+i)}), table.OutcomeRejected, "binary")
	}
	h.OutboxEmpty()
	if n := len(h.Inbox("eve")); n != 3 {
		t.Errorf("eve got %d replies to 5 bad messages, want 3", n)
	}
}

// TestStaleThroughReferences: a reply to the player's own earlier message
// (In-Reply-To is not ours) still answers, through its References, the
// notice of a turn the player has played since: it is stale (EMAIL §1.5).
func TestStaleThroughReferences(t *testing.T) { lexiotest.EachDriver(t, testStaleThroughReferences) }

func testStaleThroughReferences(t *testing.T, driver string) {
	h := lexiotest.New(t, lexiotest.Options{Driver: driver})
	const name = "refs"
	if err := h.Lobby.CreateTable(h.Ctx, name, "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.WaitMail("alice", 1)
	h.WaitMail("bob", 1)
	notice := lexiotest.LatestNotice(h.Inbox("alice"))
	own := h.ReplyTo("alice", notice, lexiotest.FindMove(h.Game(name), 0))
	h.Expect(own, table.OutcomeApplied, "PLACE")
	h.Expect(h.Send("bob", lexiotest.FindMove(h.Game(name), 1)), table.OutcomeApplied, "PLACE")

	// Her client threads the new message under her own move.
	refs := append(append([]string(nil), notice.References...), notice.MessageID, own)
	id := h.SendMail("alice", lexiotest.MailSpec{To: "lexio+" + h.Token(name, "alice") + "@localhost",
		Headers: []string{"In-Reply-To: <" + own + ">", "References: <" + strings.Join(refs, "> <") + ">"},
		Body:    lexiotest.FindMove(h.Game(name), 0)})
	h.Expect(id, table.OutcomeRejected, "stale")
	if g := h.Game(name); lexiotest.Turns(g) != 2 {
		t.Errorf("%d turns, want 2", lexiotest.Turns(g))
	}
}
