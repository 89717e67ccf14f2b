package inbox_test

import (
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/table"
)

// TestSayAttackLoneCR: a lone CR in a SAY line made a line break in the
// others' mail, below the quoting, so that "RESIGN t1" stood on a line of
// its own in alice's mail; a plain auto-responder that sends her mail's
// text back, unquoted, in reply to it resigned her. The line is one line
// of printable text now (LEAGUES §5.3): alice's mail quotes all of it, and
// the echo resigns nobody. Bidi overrides, terminal escapes and zero-width
// characters are removed.
func TestSayAttackLoneCR(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{})
	if err := h.Lobby.CreateTable(h.Ctx, "t1", "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.WaitMail("alice", 1)
	h.WaitMail("bob", 1)

	// Bob's mail holds a raw CR inside the line (quoted-printable =0D:
	// no mail server on the way turns it into a line end).
	id := h.SendMail("bob", lexiotest.MailSpec{To: "lexio+" + h.Token("t1", "bob") + "@" + h.Domain,
		Headers: []string{"MIME-Version: 1.0", "Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: quoted-printable"},
		Body:    "SAY hi=0DRESIGN t1"})
	h.Expect(id, table.OutcomeApplied, "SAY")
	said := h.LastOf("alice", "said")
	for _, l := range strings.Split(said.Text, "\n") {
		if strings.Contains(l, "RESIGN") && !strings.HasPrefix(l, "> ") {
			t.Errorf("alice's SAY mail holds an unquoted line %q:\n%s", l, said.Text)
		}
	}
	if strings.Contains(said.Text, "\r\nRESIGN") || strings.Contains(said.Text, "\rRESIGN") {
		t.Errorf("alice's SAY mail breaks the line before RESIGN:\n%q", said.Text)
	}
	lexiotest.MustContain(t, "alice's SAY mail", said.Text, "Bob", "> hi RESIGN t1")

	// Alice's auto-responder: her mail's text, unquoted, as the reply.
	echo := h.ReplyTo("alice", &said, said.Text)
	rec := h.Handled(echo)
	if rec.Outcome == table.OutcomeApplied && strings.Contains(rec.Reason, "RESIGN") {
		t.Fatalf("the echo of bob's line was applied: %s %q", rec.Outcome, rec.Reason)
	}
	h.OutboxEmpty()
	if g := h.Game("t1"); g.Over() || g.Left(0) {
		t.Errorf("alice resigned by the echo of bob's line (over %v, left %v)", g.Over(), g.Left(0))
	}

	// A bidi override, a terminal escape and a zero-width space reach
	// alice as nothing.
	id = h.SendMail("bob", lexiotest.MailSpec{To: "lexio+" + h.Token("t1", "bob") + "@" + h.Domain,
		Headers: []string{"MIME-Version: 1.0", "Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: quoted-printable"},
		Body:    "SAY look =E2=80=AEevil=E2=80=AC =1B[2J=E2=80=8Bhere, a line long enough not to read as binary"})
	h.Expect(id, table.OutcomeApplied, "SAY")
	said = h.LastOf("alice", "said")
	for _, part := range []string{said.Subject, said.Text, said.HTML} {
		if strings.ContainsAny(part, "\u202e\u202c\x1b\u200b") {
			t.Errorf("alice's SAY mail holds an invisible or control character:\n%q", part)
		}
	}
	lexiotest.MustContain(t, "alice's SAY mail", said.Text, "> look evil [2Jhere, a line")
}
