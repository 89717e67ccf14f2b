package inbox_test

import (
	"net"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/mailer"
	"github.com/lexio-mail/lexio/store/outbox"
	"github.com/lexio-mail/lexio/table"
)

// mailboxCount is how many messages a user's mailbox of the local server
// holds.
func mailboxCount(h *lexiotest.Harness, user, mailbox string) int {
	h.T.Helper()
	n, err := h.Srv.Count(user, mailbox)
	if err != nil {
		return 0 // the mailbox does not exist yet
	}
	return n
}

// noDuplicates checks that no mailbox holds one Message-ID twice and
// returns how many messages they hold in all.
func noDuplicates(h *lexiotest.Harness, names ...string) int {
	h.T.Helper()
	total := 0
	for _, n := range names {
		seen := map[string]bool{}
		for _, m := range h.Inbox(n) {
			if seen[m.MessageID] {
				h.T.Errorf("%s received %s twice", n, m.MessageID)
			}
			seen[m.MessageID] = true
			total++
		}
	}
	return total
}

// processed waits until the service's INBOX is empty and Processed holds
// n messages: the receiver moved everything it was given.
func processed(h *lexiotest.Harness, n int) {
	h.T.Helper()
	defer func() {
		if h.T.Failed() {
			h.T.Logf("INBOX %d, Processed %d; log:\n%s", mailboxCount(h, "lexio", "INBOX"), mailboxCount(h, "lexio", "Processed"), h.Logs)
		}
	}()
	h.WaitFor("the service's INBOX to be processed", func() bool {
		return mailboxCount(h, "lexio", "INBOX") == 0 && mailboxCount(h, "lexio", "Processed") == n
	})
}

// TestExactlyOnce: a message is applied once whatever happens between the
// commit and the IMAP move, and a redelivered copy is recognised
// (EMAIL §2.2).
func TestExactlyOnce(t *testing.T) { lexiotest.EachDriver(t, testExactlyOnce) }

func testExactlyOnce(t *testing.T, driver string) {
	h1 := lexiotest.New(t, lexiotest.Options{Driver: driver, Sockets: true})
	const name = "once"
	if err := h1.Lobby.CreateTable(h1.Ctx, name, "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h1.WaitMail("alice", 1)
	h1.WaitMail("bob", 1)
	to := "lexio+" + h1.Token(name, "alice") + "@localhost"

	// 1. The daemon committed alice's move, then died before it flagged
	// and moved the message: the copy is still handed over, and
	// recognised.
	notice := lexiotest.LatestNotice(h1.Inbox("alice"))
	_, raw := h1.Account("alice").Reply(notice, lexiotest.FindMove(h1.Game(name), 0), h1.Clock.Now(), "crash-1@localhost")
	if err := h1.Parts.Inbox.HandleMessage(h1.Ctx, mailer.Inbound{Raw: raw, Mailbox: "INBOX", Size: int64(len(raw))}); err != nil {
		t.Fatal(err)
	}
	if err := h1.Srv.Deliver(to, raw); err != nil {
		t.Fatal(err)
	}
	processed(h1, 1)
	logged(h1, "crash-1@localhost", "message already handled")
	if g := h1.Game(name); lexiotest.Turns(g) != 1 {
		t.Fatalf("%d turns after the crash copy", lexiotest.Turns(g))
	}

	// 2. The same with a restart: bob's move is committed, the daemon
	// stops with the message still in INBOX, and starts again on the same
	// database.
	h1.OutboxEmpty()
	notice = lexiotest.LatestNotice(h1.Inbox("bob"))
	_, raw = h1.Account("bob").Reply(notice, lexiotest.FindMove(h1.Game(name), 1), h1.Clock.Now(), "crash-2@localhost")
	if err := h1.Parts.Inbox.HandleMessage(h1.Ctx, mailer.Inbound{Raw: raw, Mailbox: "INBOX", Size: int64(len(raw))}); err != nil {
		t.Fatal(err)
	}
	// Its mail is sent first: a dispatcher stopped mid-send would send
	// again after the backoff, which is the outbox's own guarantee (at
	// least once), not this test's.
	h1.OutboxEmpty()
	h1.Stop()
	if err := h1.Srv.Deliver("lexio+"+h1.Token(name, "bob")+"@localhost", raw); err != nil {
		t.Fatal(err)
	}
	h := lexiotest.New(t, lexiotest.Options{Sockets: true, DB: h1.DB, Srv: h1.Srv, Clock: h1.Clock})
	processed(h, 2)
	logged(h, "crash-2@localhost", "message already handled")
	if g := h.Game(name); lexiotest.Turns(g) != 2 {
		t.Fatalf("%d turns after the restart", lexiotest.Turns(g))
	}

	// 3. A copy redelivered with the same Message-ID (a client that sent
	// twice, a relay that retried): one move.
	h.OutboxEmpty()
	notice = lexiotest.LatestNotice(h.Inbox("alice"))
	_, raw = h.Account("alice").Reply(notice, lexiotest.FindMove(h.Game(name), 0), h.Clock.Now(), "twice@localhost")
	for i := 0; i < 2; i++ {
		if err := h.Account("alice").Send(h.Ctx, []string{to}, raw); err != nil {
			t.Fatal(err)
		}
	}
	processed(h, 4)
	logged(h, "twice@localhost", "message already handled")
	if g := h.Game(name); lexiotest.Turns(g) != 3 {
		t.Fatalf("%d turns after the copy", lexiotest.Turns(g))
	}

	// Every player got each notice once: start + 3 turns; the author's
	// notice of each move says it was accepted (EMAIL §4.1), and only
	// the author's.
	h.OutboxEmpty()
	if n := noDuplicates(h, "alice", "bob"); n != 2*4 {
		t.Errorf("%d messages in all, want %d", n, 2*4)
	}
	acts := h.Game(name).Actions()
	acceptances := 0
	for p, who := range []string{"alice", "bob"} {
		notices := lexiotest.OfKind(h.Inbox(who), "turn-notice")
		if len(notices) != 4 {
			t.Errorf("%s: %d notices, want 4", who, len(notices))
		}
		for _, m := range notices {
			seq := lexiotest.Seq(m)
			author := seq > 0 && acts[seq-1].Player == p
			if said := strings.Contains(m.Text, "was accepted"); said != author {
				t.Errorf("%s: notice %s says accepted %v, author of the move %v", who, m.MessageID, said, author)
			}
			if author {
				acceptances++
				if !strings.HasPrefix(m.Subject, "[Lexio once] Played: ") {
					t.Errorf("%s: the author's notice is titled %q", who, m.Subject)
				}
			}
		}
	}
	if acceptances != 3 {
		t.Errorf("%d acceptances, want 3", acceptances)
	}
}

// TestSMTPOutage: while the SMTP server is unreachable, moves are still
// applied and their mail waits in the outbox; once it is back, every
// message is delivered, once (EMAIL §4.5). The service runs with
// separate_acceptance: the authors' acceptances are mails of their own.
func TestSMTPOutage(t *testing.T) { lexiotest.EachDriver(t, testSMTPOutage) }

func testSMTPOutage(t *testing.T, driver string) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := l.Addr().String()
	l.Close()
	h1 := lexiotest.New(t, lexiotest.Options{Driver: driver, Sockets: true, SMTPAddr: dead, Mail: "separate_acceptance = true"})
	const name = "outage"
	players := []string{"alice", "bob"}
	if err := h1.Lobby.CreateTable(h1.Ctx, name, "main", lexiotest.Emails(players...), 5); err != nil {
		t.Fatal(err)
	}
	// The players cannot see the notices: they write fresh messages.
	accepted := map[string]int{}
	for i := 0; i < 3; i++ {
		g := h1.Game(name)
		p := g.Turn()
		h1.Expect(h1.Fresh(players[p], name, lexiotest.FindMove(g, p)), table.OutcomeApplied, "PLACE")
		accepted[players[p]]++
	}
	// Every row was tried and deferred, none given up.
	h1.WaitFor("every outbox row to be tried", func() bool {
		rows, err := outbox.New(h1.Store).Due(h1.Ctx, h1.Clock.Now().Add(24*time.Hour), 100)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if r.Attempts == 0 {
				return false
			}
		}
		return len(rows) == 2*4+3
	})
	for _, p := range players {
		if n := len(h1.Inbox(p)); n != 0 {
			t.Fatalf("%s received %d messages during the outage", p, n)
		}
	}
	if g := h1.Game(name); lexiotest.Turns(g) != 3 {
		t.Fatalf("%d turns", lexiotest.Turns(g))
	}

	// The server is back (the daemon restarts with the right address);
	// the backoff has passed.
	h1.Stop()
	h := lexiotest.New(t, lexiotest.Options{Sockets: true, DB: h1.DB, Srv: h1.Srv, Clock: h1.Clock, Mail: "separate_acceptance = true"})
	h.Clock.Add(time.Hour)
	defer func() {
		if t.Failed() {
			t.Logf("log:\n%s", h.Logs)
		}
	}()
	h.OutboxEmpty()
	if n := noDuplicates(h, players...); n != 2*4+3 {
		t.Errorf("%d messages delivered, want %d", n, 2*4+3)
	}
	for p, who := range players {
		msgs := h.Inbox(who)
		if n := len(lexiotest.OfKind(msgs, "accepted")); n != accepted[who] {
			t.Errorf("%s: %d acceptances, want %d", who, n, accepted[who])
		}
		notices := lexiotest.OfKind(msgs, "turn-notice")
		if len(notices) != 4 {
			t.Fatalf("%s: %d notices, want 4", who, len(notices))
		}
		for _, m := range notices {
			if strings.Contains(m.Text, "was accepted") {
				t.Errorf("%s: notice %s repeats the separate acceptance", who, m.MessageID)
			}
			past, err := engine.Rebuild(h.Game(name).Config(), h.Game(name).Actions()[:lexiotest.Seq(m)])
			if err != nil {
				t.Fatal(err)
			}
			if got, want := lexiotest.RackLine(m.Text), string(past.Rack(p)); got != want {
				t.Errorf("%s: delayed notice %s shows rack %q, want %q", who, m.MessageID, got, want)
			}
		}
	}
	// The game goes on by mail. After the outage the notices may arrive
	// out of order (the retries are jittered): the player answers the
	// newest turn's, as a reply to an older one is stale (EMAIL §1.5).
	g := h.Game(name)
	who := players[g.Turn()]
	notices := lexiotest.OfKind(h.Inbox(who), "turn-notice")
	newest := notices[0]
	for _, m := range notices {
		if lexiotest.Seq(m) > lexiotest.Seq(newest) {
			newest = m
		}
	}
	h.Expect(h.ReplyTo(who, &newest, lexiotest.FindMove(g, g.Turn())), table.OutcomeApplied, "PLACE")
}
