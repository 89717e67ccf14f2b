//go:build integration

package integration

import (
	"testing"
	"time"

	"github.com/lexio-mail/lexio/mailer/client"
)

// pollNotice waits for a notice while the mail servers may be down: a
// failed poll is retried.
func pollNotice(t *testing.T, box *mailbox, tableName string, seq int, timeout time.Duration) *client.Message {
	t.Helper()
	var m *client.Message
	waitFor(t, "the notice "+tableName+" of "+box.name, timeout, func() bool {
		msgs, err := box.poll()
		if err != nil {
			return false
		}
		m = notice(msgs, tableName, seq)
		return m != nil
	})
	return m
}

// playTurn replies to the notice of turn i with its command and waits
// until it is applied.
func playTurn(t *testing.T, d *daemon, boxes map[string]*mailbox, p *plan, i int, timeout time.Duration) {
	t.Helper()
	tr := p.turns[i]
	who := p.spec.players[tr.seat]
	n := pollNotice(t, boxes[who], p.spec.name, tr.seq, timeout)
	id := newMessageID(who)
	to, raw := account(who).Reply(n, tr.cmd, time.Now(), id)
	send(t, who, []string{to}, string(raw))
	if rec := d.message(id, timeout); rec.Outcome != "applied" {
		t.Fatalf("%s turn %d: %s %s", p.spec.name, i, rec.Outcome, rec.Reason)
	}
}

// TestOutages stops Postfix mid-game: the daemon's notices are delayed
// (retried with backoff), then delivered, none lost. Then it restarts
// Dovecot while the daemon waits in IDLE, with a move submitted while
// Dovecot is down: the daemon reconnects with backoff and catches up.
func TestOutages(t *testing.T) {
	resetMail(t)
	p := simulate(t, tableSpec{"outage", []string{"alice", "bob"}, 13}, 3, 0, 6)
	t.Cleanup(func() {
		// Whatever happened, leave both servers running for the next test.
		script(t, "start-postfix")
		script(t, "restart-dovecot")
	})
	d := startDaemon(t, daemonOpts{tables: []tableSpec{p.spec}, words: p.words})
	boxes := mailboxes(t, p.spec.players...)
	playTurn(t, d, boxes, p, 0, 60*time.Second)
	playTurn(t, d, boxes, p, 1, 60*time.Second)

	// Postfix down while the daemon handles a move: alice's move reaches
	// Dovecot first (the daemon is stopped meanwhile), then Postfix stops
	// and the daemon starts.
	tr := p.turns[2]
	who := p.spec.players[tr.seat]
	n := pollNotice(t, boxes[who], p.spec.name, tr.seq, 60*time.Second)
	d.stop()
	id := newMessageID(who)
	to, raw := account(who).Reply(n, tr.cmd, time.Now(), id)
	send(t, who, []string{to}, string(raw))
	waitFor(t, "Postfix to deliver the move", 30*time.Second, postfixQueueEmpty)
	script(t, "stop-postfix")
	down := time.Now()
	d.start()
	if rec := d.message(id, 60*time.Second); rec.Outcome != "applied" {
		t.Fatalf("the move during the SMTP outage: %s %s", rec.Outcome, rec.Reason)
	}
	d.logged("a deferred mail", "mailer: mail deferred")
	time.Sleep(5 * time.Second)
	for _, w := range p.spec.players {
		if m := notice(boxes[w].mustPoll(t), p.spec.name, p.turns[3].seq); m != nil {
			t.Fatalf("%s got a notice while Postfix was down", w)
		}
	}
	script(t, "start-postfix")
	t.Logf("Postfix was down %s", time.Since(down).Round(time.Millisecond))
	up := time.Now()
	for _, w := range p.spec.players {
		pollNotice(t, boxes[w], p.spec.name, p.turns[3].seq, 3*time.Minute)
	}
	t.Logf("the delayed notices landed %s after Postfix came back (the dispatcher's backoff)", time.Since(up).Round(time.Millisecond))
	playTurn(t, d, boxes, p, 3, 60*time.Second)

	// Dovecot restarted while the daemon waits in IDLE; a move is
	// submitted while it is down (Postfix queues it and retries).
	lost := d.countLog("imap connection lost")
	connected := d.countLog("mailer: imap connected")
	tr = p.turns[4]
	who = p.spec.players[tr.seat]
	n = pollNotice(t, boxes[who], p.spec.name, tr.seq, 60*time.Second)
	time.Sleep(time.Second) // the daemon is in IDLE again
	for _, b := range boxes {
		b.close()
	}
	down = time.Now()
	stopDovecot(t)
	id = newMessageID(who)
	to, raw = account(who).Reply(n, tr.cmd, time.Now(), id)
	// Submission authenticates through Dovecot, which is down: the move
	// comes in on port 25, as from another domain's server.
	mx := account(who)
	mx.SMTPAddr, mx.SMTPAuth = stack.smtp, false
	if err := mx.Send(t.Context(), []string{to}, raw); err != nil {
		t.Fatalf("sending to port 25 while Dovecot is down: %v", err)
	}
	time.Sleep(3 * time.Second)
	script(t, "restart-dovecot")
	t.Logf("Dovecot was down %s", time.Since(down).Round(time.Millisecond))
	if rec := d.message(id, 2*time.Minute); rec.Outcome != "applied" {
		t.Fatalf("the move during the IMAP outage: %s %s", rec.Outcome, rec.Reason)
	}
	t.Logf("the move submitted during the IMAP outage was applied %s after Dovecot went down", time.Since(down).Round(time.Millisecond))
	if d.countLog("imap connection lost") <= lost || d.countLog("mailer: imap connected") <= connected {
		t.Errorf("no reconnection logged")
	}
	playTurn(t, d, boxes, p, 5, 60*time.Second)
	d.outboxEmpty(2 * time.Minute)
	waitFor(t, "Postfix to deliver", 60*time.Second, postfixQueueEmpty)

	// None lost, none twice: every notice of every turn, once.
	for _, w := range p.spec.players {
		msgs := ofTable(boxes[w].mustPoll(t), p.spec.name)
		seen := map[string]int{}
		for _, m := range msgs {
			seen[m.MessageID]++
		}
		for _, tr := range append(p.turns, turn{seq: len(p.final.Actions())}) {
			if n := notice(msgs, p.spec.name, tr.seq); n == nil {
				t.Errorf("%s: no notice at seq %d", w, tr.seq)
			} else if seen[n.MessageID] != 1 {
				t.Errorf("%s: notice %s %d times", w, n.MessageID, seen[n.MessageID])
			}
		}
	}
	checkNoForeignRacks(t, d, boxes)
}

// stopDovecot stops Dovecot by its PID (restart-dovecot starts it again).
func stopDovecot(t *testing.T) {
	t.Helper()
	script(t, "stop-dovecot")
}
