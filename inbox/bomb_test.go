package inbox_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/mailer"
	"github.com/lexio-mail/lexio/table"
)

// blockquoteBomb is HTML of about n bytes once its line ends are CRLF:
// nested <blockquote>s, each with a line of text, whose text would grow
// with the square of its size without a cap on quote depth.
func blockquoteBomb(n int) string {
	const unit = "<blockquote>PASS\n"
	k := (n - len("<html><body></body></html>")) / (len(unit) + 1)
	return "<html><body>" + strings.Repeat(unit, k) + "</body></html>"
}

// TestBlockquoteBomb: a stranger's HTML-only mail of nested quotes just
// under max_message_bytes (1 MiB) is handled and recorded, and a
// player's move sent after it is applied.
func TestBlockquoteBomb(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{})
	const name = "bomb"
	if err := h.Lobby.CreateTable(h.Ctx, name, "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.WaitMail("alice", 1)
	h.WaitMail("bob", 1)

	bomb := h.SendMail("eve", lexiotest.MailSpec{
		Headers: []string{"MIME-Version: 1.0", "Content-Type: text/html; charset=utf-8"},
		Body:    blockquoteBomb(int(h.Cfg.Mail.MaxMessageBytes) - 8<<10),
	})
	move := h.Send("alice", lexiotest.FindMove(h.Game(name), 0))
	h.Expect(move, table.OutcomeApplied, "PLACE")
	rec := h.Handled(bomb)
	t.Logf("the bomb: %s %q", rec.Outcome, rec.Reason)
	if rec.Outcome == table.OutcomeApplied || rec.Outcome == table.OutcomeError {
		t.Errorf("the bomb: %s %q, want it refused or ignored, not failed", rec.Outcome, rec.Reason)
	}
	if strings.Contains(rec.Reason, "too-large") {
		t.Errorf("the bomb was not read (%q): make it smaller than max_message_bytes", rec.Reason)
	}
	if g := h.Game(name); lexiotest.Turns(g) != 1 {
		t.Errorf("%d turns played, want alice's move", lexiotest.Turns(g))
	}
}

// TestFailedRecordsTheMessage: a message the receiver gives up on is
// recorded with the error outcome and its cause, changes nothing, and a
// copy of it delivered again is a duplicate, not applied.
func TestFailedRecordsTheMessage(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{})
	const name = "failed"
	if err := h.Lobby.CreateTable(h.Ctx, name, "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.WaitMail("alice", 1)
	notice := lexiotest.LatestNotice(h.Inbox("alice"))
	acc := h.Account("alice")
	_, raw := acc.Reply(notice, lexiotest.FindMove(h.Game(name), 0), h.Clock.Now(), "given-up@localhost")
	in := mailer.Inbound{UIDValidity: 7, UID: 42, Raw: raw, Mailbox: "INBOX", Size: int64(len(raw))}

	if err := h.Parts.Inbox.Failed(h.Ctx, in, errors.New("the handler panicked: boom")); err != nil {
		t.Fatal(err)
	}
	rec := h.Expect("given-up@localhost", table.OutcomeError, "boom")
	if rec.From != "alice@"+h.Domain || rec.UID == nil || *rec.UID != 42 {
		t.Errorf("record %+v: want alice's address and the UID", rec)
	}
	// Given up twice (a move to Processed that failed): one record.
	if err := h.Parts.Inbox.Failed(h.Ctx, in, errors.New("again")); err != nil {
		t.Fatal(err)
	}
	// Delivered again: a duplicate, the move not applied.
	if err := h.Parts.Inbox.HandleMessage(h.Ctx, in); err != nil {
		t.Fatal(err)
	}
	if rec := h.Handled("given-up@localhost"); rec.Outcome != table.OutcomeError || !strings.Contains(rec.Reason, "boom") {
		t.Errorf("after a redelivery: %s %q", rec.Outcome, rec.Reason)
	}
	if g := h.Game(name); lexiotest.Turns(g) != 0 {
		t.Errorf("%d turns played by a message given up", lexiotest.Turns(g))
	}
}
