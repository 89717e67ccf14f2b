package table_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/mailer/client"
	"github.com/lexio-mail/lexio/table"
)

// responder is a bad out-of-office responder: it answers every mail with
// "Re: <subject>", no Auto-Submitted header, our text quoted or returned
// as it is, In-Reply-To set or not, to the Reply-To address or to From.
type responder struct {
	quote, inReplyTo, toFrom bool
}

// answer sends the responder's answer to m from name and returns its
// Message-ID.
func (r responder) answer(h *harness, name string, m client.Message) string {
	h.t.Helper()
	to := m.ReplyTo
	if to == "" || r.toFrom {
		to = m.From
		if i := strings.LastIndexByte(to, '<'); i >= 0 {
			to = strings.Trim(to[i:], "<>")
		}
	}
	body := "I am out of the office until Monday and will read your mail then.\n\n"
	for _, l := range strings.Split(strings.TrimRight(m.Text, "\r\n"), "\n") {
		if r.quote {
			l = "> " + l
		}
		body += strings.TrimRight(l, "\r") + "\n"
	}
	spec := mailSpec{To: to, Subject: "Re: " + m.Subject, Body: body}
	if r.inReplyTo {
		spec.Headers = []string{"In-Reply-To: <" + m.MessageID + ">", "References: <" + m.MessageID + ">"}
	}
	return h.sendMail(name, spec)
}

// run answers every mail name receives after the first seen, round after
// round, until a round brings nothing new or maxRounds passed; it returns
// how many answers it sent.
func (r responder) run(h *harness, name string, seen, maxRounds int) int {
	h.t.Helper()
	sent := 0
	for range maxRounds {
		h.outboxEmpty()
		msgs := h.inbox(name)
		if len(msgs) <= seen {
			return sent
		}
		for _, m := range msgs[seen:] {
			h.handled(r.answer(h, name, m))
			sent++
		}
		seen = len(msgs)
	}
	return sent
}

// TestAutoResponderLoop: after one BOARD, an out-of-office responder that
// answers everything gets the board, one "no command found", and then
// nothing: no reply of ours reads back as a command, and a message
// without a command is answered once an hour per sender.
func TestAutoResponderLoop(t *testing.T) {
	t.Parallel()
	for _, r := range []responder{
		{quote: true, inReplyTo: true},
		{quote: true},
		{inReplyTo: true},
		{},
		{toFrom: true},
	} {
		t.Run(fmt.Sprintf("quote=%v,in-reply-to=%v,to-from=%v", r.quote, r.inReplyTo, r.toFrom), func(t *testing.T) {
			h := newHarness(t, harnessOpts{})
			const name = "away"
			if err := h.lobby.CreateTable(h.ctx, name, "main", emails("alice", "bob"), 5); err != nil {
				t.Fatal(err)
			}
			before := len(h.waitMail("alice", 1))
			h.expect(h.send("alice", "BOARD"), table.OutcomeApplied, "BOARD")

			const rounds = 12
			answers := r.run(h, "alice", before, rounds)
			got := h.inbox("alice")[before:]
			var kinds []string
			for _, m := range got {
				kinds = append(kinds, kind(m))
			}
			if answers != 2 || len(got) != 2 || kinds[0] != "board-reply" || kinds[1] != "rejected" {
				t.Fatalf("after BOARD: %d answers from the responder, %d mails from us %v; want 2 and [board-reply rejected]",
					answers, len(got), kinds)
			}
			// The refusal answers the responder's mail, found to hold no
			// command.
			if rec := h.handled(strings.Trim(got[1].InReplyTo, "<>")); rec.Outcome != table.OutcomeRejected || rec.Reason != "no-command" {
				t.Errorf("the refusal answers a message %s %q, want rejected no-command", rec.Outcome, rec.Reason)
			}
			if g := h.game(name); turns(g) != 0 {
				t.Errorf("the responder played %d turns", turns(g))
			}
			if n := len(h.inbox("bob")); n != 1 {
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
	h := newHarness(t, harnessOpts{mail: "replies_per_hour = 3"})
	const name = "bound"
	if err := h.lobby.CreateTable(h.ctx, name, "main", emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.waitMail("alice", 1)
	h.waitMail("bob", 1)
	for _, cmd := range []string{"HELP", "BOARD", "LOG", "HELP", "GAMES"} {
		h.expect(h.fresh("alice", name, cmd), table.OutcomeApplied, cmd)
	}
	// Still played: a move, which every player hears of.
	h.expect(h.fresh("alice", name, findMove(h.game(name), 0)), table.OutcomeApplied, "PLACE")
	h.outboxEmpty()
	msgs := h.inbox("alice")
	var kinds []string
	for _, m := range msgs {
		kinds = append(kinds, kind(m))
	}
	want := "turn-notice help board-reply log-reply replies-paused turn-notice"
	if strings.Join(kinds, " ") != want {
		t.Fatalf("alice got %v, want %s", kinds, want)
	}
	paused := ofKind(msgs, "replies-paused")[0]
	// It gives the bound (3) and when answers resume: an hour on.
	mustHaveNumbers(t, "the notice", paused.Text, 3)
	mustTell(t, "the notice", paused.Text, time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC))
	if v := paused.Header("Auto-Submitted"); v != "auto-replied" {
		t.Errorf("the notice's Auto-Submitted is %q", v)
	}
	if n := len(h.inbox("bob")); n != 2 {
		t.Errorf("bob got %d mails, want 2 notices", n)
	}

	// The hour the window opened is over: answered again.
	h.clock.Add(time.Hour)
	h.expect(h.fresh("alice", name, "HELP"), table.OutcomeApplied, "HELP")
	h.lastOf("alice", "help")
	if n := len(ofKind(h.inbox("alice"), "help")); n != 2 {
		t.Errorf("alice got %d help mails, want 2", n)
	}
}

// TestReplyAddress: a reply about a table carries the player's reply
// address for it, so that a move written in answer is played.
func TestReplyAddress(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOpts{})
	const name = "addr"
	if err := h.lobby.CreateTable(h.ctx, name, "main", emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.waitMail("alice", 1)
	own := "lexio+" + h.token(name, "alice") + "@localhost"

	// LANG through the table's address: the confirmation comes from it, and
	// a move in answer to it is played.
	h.expect(h.fresh("alice", name, "LANG fr"), table.OutcomeApplied, "LANG fr")
	lang := h.lastOf("alice", "lang-changed")
	if lang.ReplyTo != own {
		t.Errorf("LANG confirmation: Reply-To %q, want %q", lang.ReplyTo, own)
	}
	h.expect(h.replyTo("alice", &lang, findMove(h.game(name), 0)), table.OutcomeApplied, "PLACE")

	// GAMES to the plain address from a player at one table: from that
	// table's address.
	h.expect(h.sendMail("bob", mailSpec{Body: "GAMES"}), table.OutcomeApplied, "GAMES")
	games := h.lastOf("bob", "games-reply")
	if want := "lexio+" + h.token(name, "bob") + "@localhost"; games.ReplyTo != want {
		t.Errorf("GAMES reply: Reply-To %q, want %q", games.ReplyTo, want)
	}
	h.expect(h.replyTo("bob", &games, findMove(h.game(name), 1)), table.OutcomeApplied, "PLACE")

	// At two tables, GAMES to the plain address comes from the plain
	// address (no table is guessed); through a table's address, from it.
	if err := h.lobby.CreateTable(h.ctx, "addr2", "main", emails("carol", "bob"), 6); err != nil {
		t.Fatal(err)
	}
	h.expect(h.sendMail("bob", mailSpec{Body: "GAMES"}), table.OutcomeApplied, "GAMES")
	if got := h.lastOf("bob", "games-reply").ReplyTo; got != "lexio@localhost" {
		t.Errorf("GAMES at two tables: Reply-To %q, want the plain address", got)
	}
	h.expect(h.fresh("bob", "addr2", "GAMES"), table.OutcomeApplied, "GAMES")
	if got, want := h.lastOf("bob", "games-reply").ReplyTo, "lexio+"+h.token("addr2", "bob")+"@localhost"; got != want {
		t.Errorf("GAMES through addr2: Reply-To %q, want %q", got, want)
	}

	// A move sent to the plain address is refused from the sender's one
	// table, and the same move in answer to the refusal is played.
	h.waitMail("carol", 1)
	h.expect(h.sendMail("carol", mailSpec{Body: "PASS"}), table.OutcomeRejected, "bad-token")
	refusal := h.lastOf("carol", "rejected")
	if want := "lexio+" + h.token("addr2", "carol") + "@localhost"; refusal.ReplyTo != want {
		t.Errorf("refusal without a token: Reply-To %q, want %q", refusal.ReplyTo, want)
	}
	h.expect(h.replyTo("carol", &refusal, "PASS"), table.OutcomeApplied, "PASS")
}

// TestSecondJoin: a player who already sits at a table and sends JOIN
// again is told so.
func TestSecondJoin(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOpts{config: "[open_tables]\nallow = true\nleague = \"main\"\n"})
	rec := h.expect(h.sendMail("alice", mailSpec{Body: "NEW"}), table.OutcomeApplied, "NEW ")
	name := strings.TrimPrefix(rec.Reason, "NEW ")
	h.expect(h.sendMail("bob", mailSpec{Body: "JOIN " + name}), table.OutcomeApplied, "JOIN")
	h.expect(h.sendMail("bob", mailSpec{Body: "JOIN " + name}), table.OutcomeRejected, "already-seated")
	r := h.lastOf("bob", "rejected")
	mustContain(t, "the second JOIN's reply", r.Text, name)
	if want := "lexio+" + h.token(name, "bob") + "@localhost"; r.ReplyTo != want {
		t.Errorf("Reply-To %q, want %q", r.ReplyTo, want)
	}
	if n := len(ofKind(h.inbox("alice"), "table-joined")); n != 1 {
		t.Errorf("alice was told of %d joins, want 1", n)
	}
}

// TestProbeLog: a refused placement is logged where it was played, and
// the admin's move count counts turns, not probes or previews.
func TestProbeLog(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOpts{dict: words{}})
	const name = "probe"
	if err := h.lobby.CreateTable(h.ctx, name, "main", emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.waitMail("alice", 1)
	cmd, play := findPlay(h.game(name), 0)
	preview := "PREVIEW" + strings.TrimPrefix(cmd, "PLACE")
	h.expect(h.fresh("alice", name, preview), table.OutcomeApplied, "PREVIEW")
	h.expect(h.fresh("alice", name, cmd), table.OutcomeRejected, "unknown-words")
	h.expect(h.fresh("alice", name, "LOG"), table.OutcomeApplied, "LOG")
	start := play.Words[0].Start
	cell := fmt.Sprintf("%c%d", 'A'+start.Col, start.Row+1)
	mustContain(t, "the log", h.lastOf("alice", "log-reply").Text, play.Words[0].Text, cell)

	ts, err := h.views.List(h.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 1 || ts[0].Moves != 0 {
		t.Fatalf("after a preview and a probe: %d tables, moves %d; want 0 moves", len(ts), ts[0].Moves)
	}
	h.expect(h.fresh("alice", name, "PASS"), table.OutcomeApplied, "PASS")
	if sum, err := h.views.Show(h.ctx, name); err != nil || sum.Moves != 1 {
		t.Errorf("after a pass: moves %d (%v), want 1", sum.Moves, err)
	}
}
