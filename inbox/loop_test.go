package inbox_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/table"
)

// TestAutoResponderLoop: after one BOARD, an out-of-office responder that
// answers everything gets the board, one "no command found", and then
// nothing: no reply of ours reads back as a command, and a message
// without a command is answered once an hour per sender.
func TestAutoResponderLoop(t *testing.T) {
	t.Parallel()
	for _, r := range []lexiotest.Responder{
		{Quote: true, InReplyTo: true},
		{Quote: true},
		{InReplyTo: true},
		{},
		{ToFrom: true},
	} {
		t.Run(fmt.Sprintf("quote=%v,in-reply-to=%v,to-from=%v", r.Quote, r.InReplyTo, r.ToFrom), func(t *testing.T) {
			h := lexiotest.New(t, lexiotest.Options{})
			const name = "away"
			if err := h.Lobby.CreateTable(h.Ctx, name, "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
				t.Fatal(err)
			}
			before := len(h.WaitMail("alice", 1))
			h.Expect(h.Send("alice", "BOARD"), table.OutcomeApplied, "BOARD")

			const rounds = 12
			answers := r.Run(h, "alice", before, rounds)
			got := h.Inbox("alice")[before:]
			var kinds []string
			for _, m := range got {
				kinds = append(kinds, lexiotest.Kind(m))
			}
			if answers != 2 || len(got) != 2 || kinds[0] != "board-reply" || kinds[1] != "rejected" {
				t.Fatalf("after BOARD: %d answers from the responder, %d mails from us %v; want 2 and [board-reply rejected]",
					answers, len(got), kinds)
			}
			// The refusal answers the responder's mail, found to hold no
			// command.
			if rec := h.Handled(strings.Trim(got[1].InReplyTo, "<>")); rec.Outcome != table.OutcomeRejected || rec.Reason != "no-command" {
				t.Errorf("the refusal answers a message %s %q, want rejected no-command", rec.Outcome, rec.Reason)
			}
			if g := h.Game(name); lexiotest.Turns(g) != 0 {
				t.Errorf("the responder played %d turns", lexiotest.Turns(g))
			}
			if n := len(h.Inbox("bob")); n != 1 {
				t.Errorf("bob got %d mails, want his first notice", n)
			}
		})
	}
}

// TestReplyBound: every answer to a sender counts against
// replies_per_hour; the first message over it gets one notice saying
// until when, the next ones nothing, while moves are still played and the
// turn's mails still go out. The next hour, answers resume.
func TestReplyBound(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{Mail: "replies_per_hour = 3"})
	const name = "bound"
	if err := h.Lobby.CreateTable(h.Ctx, name, "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.WaitMail("alice", 1)
	h.WaitMail("bob", 1)
	for _, cmd := range []string{"HELP", "BOARD", "LOG", "HELP", "GAMES"} {
		h.Expect(h.Fresh("alice", name, cmd), table.OutcomeApplied, cmd)
	}
	// Still played: a move, which every player hears of.
	h.Expect(h.Fresh("alice", name, lexiotest.FindMove(h.Game(name), 0)), table.OutcomeApplied, "PLACE")
	h.OutboxEmpty()
	msgs := h.Inbox("alice")
	var kinds []string
	for _, m := range msgs {
		kinds = append(kinds, lexiotest.Kind(m))
	}
	want := "turn-notice help board-reply log-reply replies-paused turn-notice"
	if strings.Join(kinds, " ") != want {
		t.Fatalf("alice got %v, want %s", kinds, want)
	}
	paused := lexiotest.OfKind(msgs, "replies-paused")[0]
	// It gives the bound (3) and when answers resume: an hour on.
	lexiotest.MustHaveNumbers(t, "the notice", paused.Text, 3)
	lexiotest.MustTell(t, "the notice", paused.Text, time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC))
	if v := paused.Header("Auto-Submitted"); v != "auto-replied" {
		t.Errorf("the notice's Auto-Submitted is %q", v)
	}
	if n := len(h.Inbox("bob")); n != 2 {
		t.Errorf("bob got %d mails, want 2 notices", n)
	}

	// The hour the window opened is over: answered again.
	h.Clock.Add(time.Hour)
	h.Expect(h.Fresh("alice", name, "HELP"), table.OutcomeApplied, "HELP")
	h.LastOf("alice", "help")
	if n := len(lexiotest.OfKind(h.Inbox("alice"), "help")); n != 2 {
		t.Errorf("alice got %d help mails, want 2", n)
	}
}

// TestReplyAddress: a reply about a table carries the player's reply
// address for it, so that a move written in answer is played.
func TestReplyAddress(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{})
	const name = "addr"
	if err := h.Lobby.CreateTable(h.Ctx, name, "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.WaitMail("alice", 1)
	own := "lexio+" + h.Token(name, "alice") + "@localhost"

	// LANG through the table's address: the confirmation comes from it, and
	// a move in answer to it is played.
	h.Expect(h.Fresh("alice", name, "LANG fr"), table.OutcomeApplied, "LANG fr")
	lang := h.LastOf("alice", "lang-changed")
	if lang.ReplyTo != own {
		t.Errorf("LANG confirmation: Reply-To %q, want %q", lang.ReplyTo, own)
	}
	h.Expect(h.ReplyTo("alice", &lang, lexiotest.FindMove(h.Game(name), 0)), table.OutcomeApplied, "PLACE")

	// GAMES to the plain address from a player at one table: from that
	// table's address.
	h.Expect(h.SendMail("bob", lexiotest.MailSpec{Body: "GAMES"}), table.OutcomeApplied, "GAMES")
	games := h.LastOf("bob", "games-reply")
	if want := "lexio+" + h.Token(name, "bob") + "@localhost"; games.ReplyTo != want {
		t.Errorf("GAMES reply: Reply-To %q, want %q", games.ReplyTo, want)
	}
	h.Expect(h.ReplyTo("bob", &games, lexiotest.FindMove(h.Game(name), 1)), table.OutcomeApplied, "PLACE")

	// At two tables, GAMES to the plain address comes from the plain
	// address (no table is guessed); through a table's address, from it.
	if err := h.Lobby.CreateTable(h.Ctx, "addr2", "main", lexiotest.Emails("carol", "bob"), 6); err != nil {
		t.Fatal(err)
	}
	h.Expect(h.SendMail("bob", lexiotest.MailSpec{Body: "GAMES"}), table.OutcomeApplied, "GAMES")
	if got := h.LastOf("bob", "games-reply").ReplyTo; got != "lexio@localhost" {
		t.Errorf("GAMES at two tables: Reply-To %q, want the plain address", got)
	}
	h.Expect(h.Fresh("bob", "addr2", "GAMES"), table.OutcomeApplied, "GAMES")
	if got, want := h.LastOf("bob", "games-reply").ReplyTo, "lexio+"+h.Token("addr2", "bob")+"@localhost"; got != want {
		t.Errorf("GAMES through addr2: Reply-To %q, want %q", got, want)
	}

	// A move sent to the plain address is refused from the sender's one
	// table, and the same move in answer to the refusal is played.
	h.WaitMail("carol", 1)
	h.Expect(h.SendMail("carol", lexiotest.MailSpec{Body: "PASS"}), table.OutcomeRejected, "bad-token")
	refusal := h.LastOf("carol", "rejected")
	if want := "lexio+" + h.Token("addr2", "carol") + "@localhost"; refusal.ReplyTo != want {
		t.Errorf("refusal without a token: Reply-To %q, want %q", refusal.ReplyTo, want)
	}
	h.Expect(h.ReplyTo("carol", &refusal, "PASS"), table.OutcomeApplied, "PASS")
}
