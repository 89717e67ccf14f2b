//go:build integration

package integration

import (
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/mailer/client"
)

// restartWith stops the daemon, rewrites its configuration and starts it
// again on the same database.
func (d *daemon) restartWith(o daemonOpts) {
	d.t.Helper()
	d.stop()
	d.cfgPath = writeConfig(d.t, d.dir, o)
	d.start()
}

// waitNotice waits for the turn notice of tableName at seq in who's
// mailbox.
func waitNotice(t *testing.T, box *mailbox, tableName string, seq int) *client.Message {
	t.Helper()
	var m *client.Message
	waitFor(t, "notice "+tableName+" "+box.name, 60*time.Second, func() bool {
		m = notice(box.mustPoll(t), tableName, seq)
		return m != nil
	})
	return m
}

// TestIdentity sends, through Postfix, every kind of message that must
// not act on a table (EMAIL §1.2–1.5): each is recorded as rejected (or
// recognised as a duplicate), logged with its Message-ID, and no game
// changes. The real players' moves still work, and no mailbox ever holds
// another player's rack.
func TestIdentity(t *testing.T) {
	resetMail(t)
	ida := simulate(t, tableSpec{"ida", []string{"alice", "bob"}, 5}, 3, 0, 6)
	idb := simulate(t, tableSpec{"idb", []string{"carol", "dave"}, 9}, 3, 0, 2)
	opts := daemonOpts{tables: []tableSpec{ida.spec, idb.spec}, words: wordsOf(ida, idb)}
	d := startDaemon(t, opts)
	boxes := mailboxes(t, append(stack.players, "eve")...)
	n0 := waitNotice(t, boxes["alice"], "ida", 0)
	waitNotice(t, boxes["carol"], "idb", 0)

	actions := func() [2]int {
		return [2]int{len(d.game("ida").Actions()), len(d.game("idb").Actions())}
	}
	unchanged := func(what string, before [2]int) {
		t.Helper()
		if after := actions(); after != before {
			t.Errorf("%s changed a game: actions %v, before %v", what, after, before)
		}
	}
	aliceTok := token("ida", "alice")
	flipped := []byte(aliceTok)
	if last := len(flipped) - 1; flipped[last] == 'a' {
		flipped[last] = 'b'
	} else {
		flipped[last] = 'a'
	}
	at := func(tok string) string { return stack.service + "+" + tok + "@" + stack.domain }
	attacks := []struct {
		name, account string
		m             mail
		reason, log   string
	}{
		{"forged From (bob) with alice's valid token, sent by eve", "eve",
			mail{From: addr("bob"), To: at(aliceTok), Body: ida.turns[0].cmd}, "bad-token", "forged or damaged reply token"},
		{"bob, his own From, with alice's token (another player's)", "bob",
			mail{From: addr("bob"), To: at(aliceTok), Body: "PASS"}, "bad-token", "forged or damaged reply token"},
		{"a stranger with alice's token", "eve",
			mail{To: at(aliceTok), Body: "PASS"}, "bad-token", "forged or damaged reply token"},
		{"alice with carol's token of another table", "alice",
			mail{To: at(token("idb", "carol")), Body: "PASS"}, "bad-token", "forged or damaged reply token"},
		{"alice with bob's token of her own table", "alice",
			mail{To: at(token("ida", "bob")), Body: "PASS"}, "bad-token", "forged or damaged reply token"},
		{"alice with a valid token of a table she has no seat at", "alice",
			mail{To: at(token("idb", "alice")), Body: "PASS"}, "not-a-player", "valid token from a player without a seat"},
		{"alice's token with one character changed", "alice",
			mail{To: at(string(flipped)), Body: ida.turns[0].cmd}, "bad-token", "forged or damaged reply token"},
	}
	for _, a := range attacks {
		before := actions()
		id := sendMail(t, a.account, a.m)
		rec := d.message(id, 30*time.Second)
		if rec.Outcome != "rejected" || !strings.Contains(rec.Reason, a.reason) {
			t.Errorf("%s: %s %q, want rejected %q", a.name, rec.Outcome, rec.Reason, a.reason)
		}
		d.logged(a.name, "message_id="+id, a.log)
		unchanged(a.name, before)
	}

	// Two real turns, then the replays of the first.
	reply := func(who string, n *client.Message, cmd, id string) (string, []byte) {
		return account(who).Reply(n, cmd, time.Now(), id)
	}
	id0 := newMessageID("alice")
	to0, raw0 := reply("alice", n0, ida.turns[0].cmd, id0)
	send(t, "alice", []string{to0}, string(raw0))
	if rec := d.message(id0, 30*time.Second); rec.Outcome != "applied" {
		t.Fatalf("alice's first move: %s %s", rec.Outcome, rec.Reason)
	}
	n1 := waitNotice(t, boxes["bob"], "ida", ida.turns[1].seq)
	id1 := newMessageID("bob")
	to1, raw1 := reply("bob", n1, ida.turns[1].cmd, id1)
	send(t, "bob", []string{to1}, string(raw1))
	if rec := d.message(id1, 30*time.Second); rec.Outcome != "applied" {
		t.Fatalf("bob's first move: %s %s", rec.Outcome, rec.Reason)
	}
	n2 := waitNotice(t, boxes["alice"], "ida", ida.turns[2].seq)

	// The same message again (same Message-ID): recognised, not applied.
	before := actions()
	handled := d.countLog("message_id=" + id0)
	send(t, "alice", []string{to0}, string(raw0))
	waitFor(t, "the replayed message to be seen", 30*time.Second, func() bool {
		return strings.Count(d.logText(), "message already handled") > 0 && d.countLog("message_id="+id0) > handled
	})
	d.logged("the replay", "message_id="+id0, "message already handled")
	unchanged("the replayed message", before)

	// A resent copy with a new Message-ID of alice's first move: stale.
	idStale := newMessageID("alice")
	toS, rawS := reply("alice", n0, ida.turns[0].cmd, idStale)
	send(t, "alice", []string{toS}, string(rawS))
	if rec := d.message(idStale, 30*time.Second); rec.Outcome != "rejected" || !strings.Contains(rec.Reason, "stale") {
		t.Errorf("resent old move: %s %q, want rejected stale", rec.Outcome, rec.Reason)
	}
	d.logged("the stale copy", "message_id="+idStale, "stale move refused")
	unchanged("the resent old move", before)

	// require_auth: the receiving server's Authentication-Results says
	// dmarc=fail: nothing happens; with dmarc=pass the move is played.
	opts.requireAuth = true
	d.restartWith(opts)
	idFail := newMessageID("alice")
	toF, rawF := reply("alice", n2, ida.turns[2].cmd, idFail)
	send(t, "alice", []string{toF}, "Authentication-Results: mx.localhost; spf=pass smtp.mailfrom=localhost; dkim=none; dmarc=fail header.from=localhost\r\n"+string(rawF))
	if rec := d.message(idFail, 30*time.Second); rec.Outcome != "rejected" || !strings.Contains(rec.Reason, "not-authenticated") {
		t.Errorf("dmarc=fail: %s %q, want rejected not-authenticated", rec.Outcome, rec.Reason)
	}
	d.logged("dmarc=fail", "message_id="+idFail, "sender not authenticated")
	unchanged("dmarc=fail", before)
	idPass := newMessageID("alice")
	toP, rawP := reply("alice", n2, ida.turns[2].cmd, idPass)
	send(t, "alice", []string{toP}, "Authentication-Results: mx.localhost; spf=pass smtp.mailfrom=localhost; dkim=pass header.d=localhost; dmarc=pass header.from=localhost\r\n"+string(rawP))
	if rec := d.message(idPass, 30*time.Second); rec.Outcome != "applied" {
		t.Errorf("dmarc=pass: %s %q, want applied", rec.Outcome, rec.Reason)
	}
	if got := actions(); got[0] != before[0]+1 || got[1] != before[1] {
		t.Errorf("after the authenticated move: actions %v, before %v", got, before)
	}
	d.outboxEmpty(30 * time.Second)
	waitFor(t, "Postfix to deliver", 30*time.Second, postfixQueueEmpty)
	checkNoForeignRacks(t, d, boxes)
}
