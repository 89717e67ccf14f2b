//go:build integration

package integration

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/engine"
)

// TestCrashes plays a seeded 4-player game and kills the daemon with
// SIGKILL at 20 seeded points — from just after a move was submitted to
// while its notices go out — restarting it each time. The game's actions
// and log equal those of the same game played without crashes (the
// plan, computed on the engine), every move was applied once, and every
// player got every notice; a mail sent twice has the same Message-ID.
func TestCrashes(t *testing.T) {
	resetMail(t)
	p := simulate(t, tableSpec{"crash", []string{"alice", "bob", "carol", "dave"}, 42}, 3, 0, 0)
	const kills = 20
	if len(p.turns) < kills {
		t.Fatalf("the game has %d turns, fewer than %d", len(p.turns), kills)
	}
	r := rand.New(rand.NewPCG(20, 26))
	at := map[int]time.Duration{}
	for k, i := range r.Perm(len(p.turns))[:kills] {
		// 0–1.5 s after the reply was submitted: before the daemon saw it,
		// inside its transaction, or while the notices are being sent.
		// Every other point is instead right after the move's commit (-1):
		// before the message is moved out of INBOX and before its mails
		// are all sent.
		at[i] = time.Duration(r.IntN(1500)) * time.Millisecond
		if k%2 == 1 {
			at[i] = -1
		}
	}
	d := startDaemon(t, daemonOpts{tables: []tableSpec{p.spec}, words: p.words})
	boxes := mailboxes(t, p.spec.players...)
	dr := newDriver(t, d, boxes)
	var points []string
	dr.afterSend = func(_ *plan, i int) {
		delay, ok := at[i]
		if !ok {
			return
		}
		what := fmt.Sprintf("turn %d +%s", i, delay)
		if delay < 0 {
			id := dr.sent["crash"][i]
			deadline := time.Now().Add(30 * time.Second)
			for time.Now().Before(deadline) {
				if _, ok := d.record(id); ok {
					break
				}
				time.Sleep(time.Millisecond)
			}
			what = fmt.Sprintf("turn %d at commit", i)
		} else {
			time.Sleep(delay)
		}
		d.kill9()
		points = append(points, what)
		d.start()
	}
	start := time.Now()
	dr.play(p)
	d.outboxEmpty(2 * time.Minute)
	waitFor(t, "Postfix to deliver", 60*time.Second, postfixQueueEmpty)
	t.Logf("%d turns, %d kill -9 and restarts (%s), in %s", len(p.turns), len(points), strings.Join(points, ", "), time.Since(start).Round(time.Millisecond))
	if d.starts != kills+1 {
		t.Errorf("%d starts, want %d", d.starts, kills+1)
	}

	g := d.game("crash")
	if !g.Over() {
		t.Fatal("the game is not over")
	}
	checkSameGame(t, p, g)
	if a, b := logKeys(g), logKeys(p.final); a != b {
		t.Errorf("the log differs from the game without crashes:\n%s\nwant\n%s", a, b)
	}
	// Every move applied once: one applied record per reply, and as many
	// turn-ending actions as replies.
	for i, id := range dr.sent["crash"] {
		if rec, ok := d.record(id); !ok || rec.Outcome != "applied" {
			t.Errorf("turn %d (%s): %+v", i, id, rec)
		}
	}
	if n := len(dr.sent["crash"]); n != len(p.turns) {
		t.Errorf("%d replies sent for %d turns", n, len(p.turns))
	}
	checkMailboxes(t, boxes, p, g, true)
	dups := 0
	for _, who := range p.spec.players {
		seen := map[string]bool{}
		for _, m := range ofTable(boxes[who].mustPoll(t), "crash") {
			if seen[m.MessageID] {
				dups++
			}
			seen[m.MessageID] = true
		}
	}
	t.Logf("mails received twice after a crash (same Message-ID): %d; 'already handled' on restart: %d", dups, d.countLog("message already handled"))
	checkNoForeignRacks(t, d, boxes)
}

// logKeys is a game's log without its times.
func logKeys(g *engine.Game) string {
	var b strings.Builder
	for _, e := range g.Log() {
		fmt.Fprintf(&b, "%d %s p%d score=%d count=%d words=%v rack=%q reason=%s private=%v", e.Seq, e.Kind, e.Player, e.Score, e.Count, e.Words, e.Rack, e.Reason, e.Private)
		if e.Play != nil {
			fmt.Fprintf(&b, " play=%v/%d", e.Play.WordTexts(), e.Play.Score)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
