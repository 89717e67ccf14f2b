package table_test

import (
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/mailer/client"
	"github.com/lexio-mail/lexio/table"
)

// TestSay: SAY passes a line to the other players of the table only, in a
// mail of its own, named by display name, quoted in the text and escaped
// in the HTML; a player with NOTIFY turn still gets it. From the plain
// address it needs exactly one table in play. Too long, or past the bound
// per hour, it is refused with the reason; a message delivered twice is
// said once (LEAGUES §5.3).
func TestSay(t *testing.T) { lexiotest.EachDriver(t, testSay) }

func testSay(t *testing.T, driver string) {
	h := lexiotest.New(t, lexiotest.Options{Driver: driver, Mail: "error_replies_per_hour = 3"})
	if err := h.Lobby.CreateTable(h.Ctx, "t1", "main", lexiotest.Emails("alice", "bob", "carol"), 5); err != nil {
		t.Fatal(err)
	}
	if err := h.Lobby.CreateTable(h.Ctx, "t2", "main", lexiotest.Emails("alice", "dave"), 5); err != nil {
		t.Fatal(err)
	}
	h.WaitMail("alice", 2)
	h.WaitMail("carol", 1)
	h.Expect(h.Fresh("bob", "t1", "NOTIFY turn"), table.OutcomeApplied, "NOTIFY turn")

	said := func(name string) []client.Message {
		h.T.Helper()
		h.OutboxEmpty()
		return lexiotest.OfKind(h.Inbox(name), "said")
	}
	line := "Good luck <script>alert(1)</script> & have fun"
	id := h.ReplyTo("alice", h.NoticeAt("alice", "t1"), "SAY "+line)
	h.Expect(id, table.OutcomeApplied, "SAY")
	for _, p := range []string{"bob", "carol"} {
		ms := said(p)
		if len(ms) != 1 {
			t.Fatalf("%s got %d SAY mails, want 1", p, len(ms))
		}
		m := ms[0]
		// Alice's display name, her line quoted as it was written.
		lexiotest.MustContain(t, p+"'s SAY mail", m.Subject, "[Lexio t1]", "Alice")
		lexiotest.MustContain(t, p+"'s SAY mail", m.Text, "Alice", "> "+line)
		if !strings.Contains(m.HTML, "Good luck &lt;script&gt;alert(1)&lt;/script&gt; &amp; have fun") || strings.Contains(m.HTML, "<script") {
			t.Errorf("%s's SAY mail is not escaped in HTML:\n%s", p, m.HTML)
		}
		if strings.Contains(string(m.Raw), "alice@") {
			t.Errorf("%s's SAY mail shows alice's address", p)
		}
		if m.ReplyTo != h.NoticeAt(p, "t1").ReplyTo {
			t.Errorf("%s's SAY mail from %q, want their t1 reply address", p, m.ReplyTo)
		}
	}
	for _, p := range []string{"alice", "dave"} {
		if n := len(said(p)); n != 0 {
			t.Errorf("%s got %d SAY mails, want none", p, n)
		}
	}
	// Alice is answered, in one line, her line quoted as the others got
	// it (#34), from her reply address at t1.
	ack := h.Answer("alice", id)
	if lexiotest.Kind(ack) != "say-passed" {
		t.Fatalf("alice's SAY answered by %s, want say-passed", lexiotest.Kind(ack))
	}
	lexiotest.MustContain(t, "alice's answer", ack.Text, "Your line was passed to the other players of table t1:", "> "+line)
	if !strings.Contains(ack.HTML, "Good luck &lt;script&gt;alert(1)&lt;/script&gt; &amp; have fun") || strings.Contains(ack.HTML, "<script") {
		t.Errorf("alice's answer is not escaped in HTML:\n%s", ack.HTML)
	}
	if ack.ReplyTo != h.NoticeAt("alice", "t1").ReplyTo {
		t.Errorf("alice's answer from %q, want her t1 reply address", ack.ReplyTo)
	}
	if n := len(lexiotest.OfKind(h.Inbox("alice"), "say-passed")); n != 1 {
		t.Errorf("alice got %d answers to her SAY, want 1", n)
	}

	// From the plain address: carol sits at one table, so it goes there.
	// She writes in French: she is answered in French.
	h.Expect(h.Fresh("carol", "t1", "LANGUE fr"), table.OutcomeApplied, "LANG")
	id = h.SendMail("carol", lexiotest.MailSpec{Body: "DIRE bonjour à tous"})
	h.Expect(id, table.OutcomeApplied, "SAY")
	if ms := said("alice"); len(ms) != 1 || !strings.Contains(ms[0].Text, "Carol") || !strings.Contains(ms[0].Text, "> bonjour à tous") {
		t.Errorf("alice's SAY mails from carol: %d", len(ms))
	}
	lexiotest.MustContain(t, "carol's answer", h.Answer("carol", id).Text,
		"Votre message a été transmis aux autres joueurs de la table t1 :", "> bonjour à tous")
	// Alice sits at two: she must say which.
	id = h.SendMail("alice", lexiotest.MailSpec{Body: "SAY hello"})
	h.Expect(id, table.OutcomeRejected, "say-where")
	lexiotest.MustHaveNumbers(t, "SAY without a table", lexiotest.Intro(h.Answer("alice", id).Text), 2)

	// Too long: refused with the bound, nothing sent.
	id = h.ReplyTo("bob", h.NoticeAt("bob", "t1"), "SAY "+strings.Repeat("é", 501))
	h.Expect(id, table.OutcomeRejected, "say-too-long")
	lexiotest.MustHaveNumbers(t, "too long", lexiotest.Intro(h.Answer("bob", id).Text), 500)

	// Twice the same message: said once.
	raw := "From: alice@localhost\nTo: lexio+" + h.Token("t1", "alice") + "@localhost\nSubject: hi\nMessage-ID: <twice@localhost>\n\nSAY once only\n"
	h.SendRaw("alice", []string{"lexio+" + h.Token("t1", "alice") + "@localhost"}, raw)
	h.Expect("twice@localhost", table.OutcomeApplied, "SAY")
	h.SendRaw("alice", []string{"lexio+" + h.Token("t1", "alice") + "@localhost"}, raw)
	h.WaitFor("the copy handled", func() bool { return strings.Contains(h.Logs.String(), "message already handled") })

	// Alice's third line this hour is the last the bound passes on.
	h.Expect(h.Fresh("alice", "t1", "SAY three"), table.OutcomeApplied, "SAY")
	id = h.Fresh("alice", "t1", "SAY four")
	h.Expect(id, table.OutcomeRejected, "say-limit")
	lexiotest.MustHaveNumbers(t, "the SAY bound", lexiotest.Intro(h.Answer("alice", id).Text), 3)
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
	h.Clock.Add(time.Hour)
	h.Expect(h.Fresh("alice", "t1", "SAY five"), table.OutcomeApplied, "SAY")
	if n := len(said("carol")); n != 4 {
		t.Errorf("carol got %d lines, want 4", n)
	}
}

// TestSayAnswerBounded: the answer to a SAY counts against the answers
// to its author (mail.replies_per_hour, EMAIL §2.6): past the bound the
// lines still reach the table, the author is told once that answers
// pause, then answered no more.
func TestSayAnswerBounded(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{Mail: "replies_per_hour = 2"})
	if err := h.Lobby.CreateTable(h.Ctx, "t1", "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.WaitMail("alice", 1)
	h.WaitMail("bob", 1)
	for _, line := range []string{"one", "two", "three", "four"} {
		h.Expect(h.Fresh("alice", "t1", "SAY "+line), table.OutcomeApplied, "SAY")
	}
	h.OutboxEmpty()
	if n := len(lexiotest.OfKind(h.Inbox("bob"), "said")); n != 4 {
		t.Errorf("bob got %d lines, want 4", n)
	}
	msgs := h.Inbox("alice")
	if n, p := len(lexiotest.OfKind(msgs, "say-passed")), len(lexiotest.OfKind(msgs, "replies-paused")); n != 2 || p != 1 {
		t.Errorf("alice got %d answers to her lines and %d pauses, want 2 and 1", n, p)
	}
}
