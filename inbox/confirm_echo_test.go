package inbox_test

import (
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/table"
)

// TestConfirmEchoAttack: EMAIL §1.7, #35. A stranger wrote the plain
// address with alice's From: "SAY <80 x> CONFIRM <80 x>". Alice's
// confirmation quoted the command wrapped, CONFIRM alone on a line, and
// her auto-responder, sending that text back unquoted, confirmed the SAY.
// Now the confirmation quotes the command whole on a line of its own,
// and CONFIRM counts only alone on the first non-blank line of the
// reply's own text: the echo, a reply with CONFIRM below other words
// and a CONFIRM in the subject all confirm nothing; CONFIRM on the first
// line still does. In each language, with its keywords.
func TestConfirmEchoAttack(t *testing.T) {
	t.Parallel()
	x := strings.Repeat("x", 80)
	for _, tc := range []struct{ lang, say, confirm, yes string }{
		{"en", "SAY", "CONFIRM", "YES"},
		{"es", "DECIR", "CONFIRMAR", "SÍ"},
		{"fr", "DIRE", "CONFIRMER", "OUI"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			t.Parallel()
			h := lexiotest.New(t, lexiotest.Options{})
			alice := "alice@" + h.Domain
			if err := h.Lobby.CreateTable(h.Ctx, "ce", "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
				t.Fatal(err)
			}
			h.WaitMail("alice", 1)
			h.WaitMail("bob", 1)
			said := func() int { return h.CountOf("bob", "said", "ce") }

			text := x + " " + tc.confirm + " " + x
			id := h.SendMail("eve", lexiotest.MailSpec{From: alice, Body: tc.say + " " + text})
			h.Expect(id, table.OutcomePending, "confirm")
			conf := h.Confirmation("alice", id)
			if !strings.Contains(strings.ReplaceAll(conf.Text, "\r\n", "\n"), "\n> SAY "+text+"\n") {
				t.Errorf("the confirmation does not quote the command whole on a line of its own:\n%s", conf.Text)
			}

			// Her auto-responder sends the mail back unquoted, above the
			// quoted original.
			notDone := func(what, id string) {
				t.Helper()
				if rec := h.Handled(id); rec.Outcome == table.OutcomeApplied {
					t.Errorf("%s confirmed the forged SAY: %s %q", what, rec.Outcome, rec.Reason)
				}
				if n := said(); n != 0 {
					t.Fatalf("after %s bob got %d SAY mails, want none", what, n)
				}
			}
			notDone("the confirmation sent back", h.ReplyTo("alice", &conf, conf.Text))
			// The mail as it was, wrapped with CONFIRM alone on a line, sent
			// back: the first line is not CONFIRM.
			old := "Hello,\n\nA message asked me to do this in your name: “SAY\n" + x + "\n" + tc.confirm + "\n" + x + "”."
			h.Expect(h.ReplyTo("alice", &conf, old), table.OutcomeRejected, "confirmation-not-first")
			notDone("the old wrapped mail sent back", h.ReplyTo("alice", &conf, old))
			// A reply with its own words first, and one with the keyword
			// in its subject only.
			h.Expect(h.ReplyTo("alice", &conf, "Who sent this?\n"+tc.yes), table.OutcomeRejected, "confirmation-not-first")
			to := conf.ReplyTo
			if to == "" {
				to = conf.From
			}
			h.Expect(h.SendMail("alice", lexiotest.MailSpec{To: to, Subject: tc.confirm, Body: "thanks"}),
				table.OutcomeRejected, "confirmation-not-first")
			notDone("CONFIRM below the first line or in the subject", id)

			// The confirmation is still open: CONFIRM on the first line,
			// after blank ones, does the command, once.
			h.Expect(h.ReplyTo("alice", &conf, "\n\n"+tc.confirm+"\nthanks"), table.OutcomeApplied, "SAY")
			if n := said(); n != 1 {
				t.Errorf("bob got %d SAY mails, want the confirmed one", n)
			}
		})
	}
}

// TestRefusalEchoAttack: #35. A refusal quotes the sender's command (the
// intro of a refusal) and a confirmation's stored command (when it was
// answered already, or too late). A forged "SAY <80 x> CONFIRM <80 x>"
// quoted inside a wrapped sentence left a keyword heading a line, which
// an auto-responder sending the mail back unquoted could carry. Each is
// now quoted whole on a line of its own: the refusal sent back does
// nothing. In each language, with its keywords.
func TestRefusalEchoAttack(t *testing.T) {
	t.Parallel()
	x := strings.Repeat("x", 80)
	for _, tc := range []struct{ lang, say, confirm string }{
		{"en", "SAY", "CONFIRM"},
		{"es", "DECIR", "CONFIRMAR"},
		{"fr", "DIRE", "CONFIRMER"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			t.Parallel()
			h := lexiotest.New(t, lexiotest.Options{})
			alice := "alice@" + h.Domain
			if err := h.Lobby.CreateTable(h.Ctx, "re", "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
				t.Fatal(err)
			}
			h.WaitMail("alice", 1)
			h.WaitMail("bob", 1)
			said := func() int { return h.CountOf("bob", "said", "re") }
			text := x + " " + tc.confirm + " " + x
			body := tc.say + " " + text

			// The refusal, quoted whole, and sent back unquoted above the
			// original: nothing is done, no more SAY reaches bob.
			echo := func(what, id string) {
				t.Helper()
				m := h.Answer("alice", id)
				got := strings.ReplaceAll(m.Text, "\r\n", "\n")
				if !strings.Contains(got, "\n> SAY "+text+"\n") {
					t.Errorf("%s does not quote the command whole on a line of its own:\n%s", what, m.Text)
				}
				for l := range strings.SplitSeq(got, "\n") {
					if f := strings.Fields(l); len(f) > 0 && (f[0] == tc.confirm || f[0] == tc.say || f[0] == "SAY") {
						t.Errorf("%s: a line begins with a command keyword: %q", what, l)
					}
				}
				n := said()
				if rec := h.Handled(h.ReplyTo("alice", &m, m.Text)); rec.Outcome == table.OutcomeApplied {
					t.Errorf("%s sent back was done: %s %q", what, rec.Outcome, rec.Reason)
				}
				if got := said(); got != n {
					t.Errorf("%s sent back: bob got %d SAY mails, want %d", what, got, n)
				}
			}

			// The intro: the SAY forged through bob's reply address at the
			// table, in alice's name, is refused to alice, the command quoted.
			bobs := "lexio+" + h.Token("re", "bob") + "@" + h.Domain
			id := h.SendMail("eve", lexiotest.MailSpec{From: alice, To: bobs, Body: body})
			h.Expect(id, table.OutcomeRejected, "bad-token")
			echo("the refusal of a forged reply token", id)

			// A confirmation answered twice: the second answer is refused,
			// the stored command quoted.
			id = h.SendMail("eve", lexiotest.MailSpec{From: alice, Body: body})
			h.Expect(id, table.OutcomePending, "confirm")
			conf := h.Confirmation("alice", id)
			h.Expect(h.ReplyTo("alice", &conf, tc.confirm), table.OutcomeApplied, "SAY")
			if n := said(); n != 1 {
				t.Fatalf("bob got %d SAY mails, want the confirmed one", n)
			}
			again := h.ReplyTo("alice", &conf, tc.confirm)
			h.Expect(again, table.OutcomeRejected, "confirmation-used")
			echo("the refusal of a used confirmation", again)

			// A confirmation answered too late.
			id = h.SendMail("eve", lexiotest.MailSpec{From: alice, Body: body})
			h.Expect(id, table.OutcomePending, "confirm")
			conf = h.Confirmation("alice", id)
			h.Clock.Add(24*time.Hour + time.Second)
			late := h.ReplyTo("alice", &conf, tc.confirm)
			h.Expect(late, table.OutcomeRejected, "confirmation-expired")
			echo("the refusal of an expired confirmation", late)
			if n := said(); n != 1 {
				t.Errorf("bob got %d SAY mails, want the one confirmed in time", n)
			}
		})
	}
}
