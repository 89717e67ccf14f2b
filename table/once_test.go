package table_test

import (
	"net"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/mailer"
	"github.com/lexio-mail/lexio/store/outbox"
	"github.com/lexio-mail/lexio/table"
)

// mailboxCount is how many messages a user's mailbox of the local server
// holds.
func (h *harness) mailboxCount(user, mailbox string) int {
	h.t.Helper()
	n, err := h.srv.Count(user, mailbox)
	if err != nil {
		return 0 // the mailbox does not exist yet
	}
	return n
}

// noDuplicates checks that no mailbox holds one Message-ID twice and
// returns how many messages they hold in all.
func (h *harness) noDuplicates(names ...string) int {
	h.t.Helper()
	total := 0
	for _, n := range names {
		seen := map[string]bool{}
		for _, m := range h.inbox(n) {
			if seen[m.MessageID] {
				h.t.Errorf("%s received %s twice", n, m.MessageID)
			}
			seen[m.MessageID] = true
			total++
		}
	}
	return total
}

// processed waits until the service's INBOX is empty and Processed holds
// n messages: the receiver moved everything it was given.
func (h *harness) processed(n int) {
	h.t.Helper()
	defer func() {
		if h.t.Failed() {
			h.t.Logf("INBOX %d, Processed %d; log:\n%s", h.mailboxCount("lexio", "INBOX"), h.mailboxCount("lexio", "Processed"), h.logs)
		}
	}()
	h.waitFor("the service's INBOX to be processed", func() bool {
		return h.mailboxCount("lexio", "INBOX") == 0 && h.mailboxCount("lexio", "Processed") == n
	})
}

// TestExactlyOnce: a message is applied once whatever happens between the
// commit and the IMAP move, and a redelivered copy is recognised
// (EMAIL §2.2).
func TestExactlyOnce(t *testing.T) { eachDriver(t, testExactlyOnce) }

func testExactlyOnce(t *testing.T, driver string) {
	h1 := newHarness(t, harnessOpts{driver: driver, sockets: true})
	const name = "once"
	if err := h1.lobby.CreateTable(h1.ctx, name, "main", emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h1.waitMail("alice", 1)
	h1.waitMail("bob", 1)
	to := "lexio+" + h1.token(name, "alice") + "@localhost"

	// 1. The daemon committed alice's move, then died before it flagged
	// and moved the message: the copy is still handed over, and
	// recognised.
	notice := latestNotice(h1.inbox("alice"))
	_, raw := h1.account("alice").Reply(notice, findMove(h1.game(name), 0), h1.clock.Now(), "crash-1@localhost")
	if err := h1.front.HandleMessage(h1.ctx, mailer.Inbound{Raw: raw, Mailbox: "INBOX", Size: int64(len(raw))}); err != nil {
		t.Fatal(err)
	}
	if err := h1.srv.Deliver(to, raw); err != nil {
		t.Fatal(err)
	}
	h1.processed(1)
	h1.logged("crash-1@localhost", "message already handled")
	if g := h1.game(name); turns(g) != 1 {
		t.Fatalf("%d turns after the crash copy", turns(g))
	}

	// 2. The same with a restart: bob's move is committed, the daemon
	// stops with the message still in INBOX, and starts again on the same
	// database.
	h1.outboxEmpty()
	notice = latestNotice(h1.inbox("bob"))
	_, raw = h1.account("bob").Reply(notice, findMove(h1.game(name), 1), h1.clock.Now(), "crash-2@localhost")
	if err := h1.front.HandleMessage(h1.ctx, mailer.Inbound{Raw: raw, Mailbox: "INBOX", Size: int64(len(raw))}); err != nil {
		t.Fatal(err)
	}
	// Its mail is sent first: a dispatcher stopped mid-send would send
	// again after the backoff, which is the outbox's own guarantee (at
	// least once), not this test's.
	h1.outboxEmpty()
	h1.stop()
	if err := h1.srv.Deliver("lexio+"+h1.token(name, "bob")+"@localhost", raw); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, harnessOpts{sockets: true, db: h1.db, srv: h1.srv, clock: h1.clock})
	h.processed(2)
	h.logged("crash-2@localhost", "message already handled")
	if g := h.game(name); turns(g) != 2 {
		t.Fatalf("%d turns after the restart", turns(g))
	}

	// 3. A copy redelivered with the same Message-ID (a client that sent
	// twice, a relay that retried): one move.
	h.outboxEmpty()
	notice = latestNotice(h.inbox("alice"))
	_, raw = h.account("alice").Reply(notice, findMove(h.game(name), 0), h.clock.Now(), "twice@localhost")
	for i := 0; i < 2; i++ {
		if err := h.account("alice").Send(h.ctx, []string{to}, raw); err != nil {
			t.Fatal(err)
		}
	}
	h.processed(4)
	h.logged("twice@localhost", "message already handled")
	if g := h.game(name); turns(g) != 3 {
		t.Fatalf("%d turns after the copy", turns(g))
	}

	// Every player got each notice once: start + 3 turns; the author's
	// notice of each move says it was accepted (EMAIL §4.1), and only
	// the author's.
	h.outboxEmpty()
	if n := h.noDuplicates("alice", "bob"); n != 2*4 {
		t.Errorf("%d messages in all, want %d", n, 2*4)
	}
	acts := h.game(name).Actions()
	acceptances := 0
	for p, who := range []string{"alice", "bob"} {
		notices := ofKind(h.inbox(who), "turn-notice")
		if len(notices) != 4 {
			t.Errorf("%s: %d notices, want 4", who, len(notices))
		}
		for _, m := range notices {
			seq := seqOf(m)
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
func TestSMTPOutage(t *testing.T) { eachDriver(t, testSMTPOutage) }

func testSMTPOutage(t *testing.T, driver string) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := l.Addr().String()
	l.Close()
	h1 := newHarness(t, harnessOpts{driver: driver, sockets: true, smtpAddr: dead, mail: "separate_acceptance = true"})
	const name = "outage"
	players := []string{"alice", "bob"}
	if err := h1.lobby.CreateTable(h1.ctx, name, "main", emails(players...), 5); err != nil {
		t.Fatal(err)
	}
	// The players cannot see the notices: they write fresh messages.
	accepted := map[string]int{}
	for i := 0; i < 3; i++ {
		g := h1.game(name)
		p := g.Turn()
		h1.expect(h1.fresh(players[p], name, findMove(g, p)), table.OutcomeApplied, "PLACE")
		accepted[players[p]]++
	}
	// Every row was tried and deferred, none given up.
	h1.waitFor("every outbox row to be tried", func() bool {
		rows, err := outbox.New(h1.store).Due(h1.ctx, h1.clock.Now().Add(24*time.Hour), 100)
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
		if n := len(h1.inbox(p)); n != 0 {
			t.Fatalf("%s received %d messages during the outage", p, n)
		}
	}
	if g := h1.game(name); turns(g) != 3 {
		t.Fatalf("%d turns", turns(g))
	}

	// The server is back (the daemon restarts with the right address);
	// the backoff has passed.
	h1.stop()
	h := newHarness(t, harnessOpts{sockets: true, db: h1.db, srv: h1.srv, clock: h1.clock, mail: "separate_acceptance = true"})
	h.clock.Add(time.Hour)
	defer func() {
		if t.Failed() {
			t.Logf("log:\n%s", h.logs)
		}
	}()
	h.outboxEmpty()
	if n := h.noDuplicates(players...); n != 2*4+3 {
		t.Errorf("%d messages delivered, want %d", n, 2*4+3)
	}
	for p, who := range players {
		msgs := h.inbox(who)
		if n := len(ofKind(msgs, "accepted")); n != accepted[who] {
			t.Errorf("%s: %d acceptances, want %d", who, n, accepted[who])
		}
		notices := ofKind(msgs, "turn-notice")
		if len(notices) != 4 {
			t.Fatalf("%s: %d notices, want 4", who, len(notices))
		}
		for _, m := range notices {
			if strings.Contains(m.Text, "was accepted") {
				t.Errorf("%s: notice %s repeats the separate acceptance", who, m.MessageID)
			}
			past, err := engine.Rebuild(h.game(name).Config(), h.game(name).Actions()[:seqOf(m)])
			if err != nil {
				t.Fatal(err)
			}
			if got, want := rackLine(m.Text), string(past.Rack(p)); got != want {
				t.Errorf("%s: delayed notice %s shows rack %q, want %q", who, m.MessageID, got, want)
			}
		}
	}
	// The game goes on by mail. After the outage the notices may arrive
	// out of order (the retries are jittered): the player answers the
	// newest turn's, as a reply to an older one is stale (EMAIL §1.5).
	g := h.game(name)
	who := players[g.Turn()]
	notices := ofKind(h.inbox(who), "turn-notice")
	newest := notices[0]
	for _, m := range notices {
		if seqOf(m) > seqOf(newest) {
			newest = m
		}
	}
	h.expect(h.replyTo(who, &newest, findMove(g, g.Turn())), table.OutcomeApplied, "PLACE")
}
