//go:build integration

package integration

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/engine/board"
	"github.com/lexio-mail/lexio/engine/enginetest"
	"github.com/lexio-mail/lexio/mailer/client"
)

// A plan is a whole game worked out in advance on the engine with the
// table's seed: the command of every turn and every word it forms. The
// daemon's word list is exactly those words (a small list written by the
// test), so the same commands are legal when the daemon plays them.

type turn struct {
	seat int
	cmd  string
	// seq is the number of actions before the turn: the notice the player
	// replies to is lexio.<table>.<seq>.turn-notice.<seat>@localhost.
	seq int
}

type plan struct {
	spec  tableSpec
	turns []turn
	final *engine.Game
	words []string
}

// simulate plays spec's game on the engine: each turn places at most
// maxTiles tiles (0: a whole rack) where the shape rules allow, else
// passes; after idleAfter turns (if > 0) everyone passes, which ends the
// game (RULES §11.2). maxTurns (if > 0) stops earlier.
func simulate(t *testing.T, spec tableSpec, maxTiles, idleAfter, maxTurns int) *plan {
	t.Helper()
	g, err := engine.New(engine.Config{Rules: board.Rules{Variant: board.Lexio}, Players: len(spec.players), Seed: spec.seed, Start: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	p := &plan{spec: spec}
	words := map[string]bool{}
	for !g.Over() && (maxTurns <= 0 || len(p.turns) < maxTurns) {
		seat := g.Turn()
		tr := turn{seat: seat, seq: len(g.Actions()), cmd: "PASS"}
		var play board.Play
		var ok bool
		if idleAfter <= 0 || len(p.turns) < idleAfter {
			play, ok = enginetest.FindPlay(g, seat, maxTiles)
		}
		if ok {
			tr.cmd = enginetest.Command(play)
			if _, err := g.PlaceTiles(seat, play.Tiles, enginetest.AnyWord{}, time.Now()); err != nil {
				t.Fatalf("simulate %s: %s: %v", spec.name, tr.cmd, err)
			}
			for _, w := range play.Words {
				words[w.Text] = true
			}
		} else if err := g.Pass(seat, time.Now()); err != nil {
			t.Fatal(err)
		}
		p.turns = append(p.turns, tr)
		if len(p.turns) > 500 {
			t.Fatalf("simulate %s: no end after 500 turns", spec.name)
		}
	}
	p.final = g
	for w := range words {
		p.words = append(p.words, w)
	}
	slices.Sort(p.words)
	return p
}

// wordsOf is the union of the plans' words.
func wordsOf(plans ...*plan) []string {
	var out []string
	for _, p := range plans {
		out = append(out, p.words...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// idParts splits one of the service's Message-IDs,
// lexio.<table>.<seq>.<kind>.<seat>[...]@<domain>.
func idParts(id string) (tableName string, seq int, kind string, ok bool) {
	local, _, _ := strings.Cut(id, "@")
	parts := strings.Split(local, ".")
	if len(parts) < 5 || parts[0] != "lexio" {
		return "", 0, "", false
	}
	n, err := strconv.Atoi(parts[2])
	if err != nil {
		return "", 0, "", false
	}
	return parts[1], n, parts[3], true
}

// ofTable keeps the messages about one table.
func ofTable(msgs []client.Message, tableName string) []client.Message {
	var out []client.Message
	for _, m := range msgs {
		if tb, _, _, ok := idParts(m.MessageID); ok && tb == tableName {
			out = append(out, m)
		}
	}
	return out
}

func ofKind(msgs []client.Message, kind string) []client.Message {
	var out []client.Message
	for _, m := range msgs {
		if _, _, k, ok := idParts(m.MessageID); ok && k == kind {
			out = append(out, m)
		}
	}
	return out
}

// notice finds the turn notice of a table at seq among msgs.
func notice(msgs []client.Message, tableName string, seq int) *client.Message {
	for i := range msgs {
		tb, s, k, ok := idParts(msgs[i].MessageID)
		if ok && tb == tableName && s == seq && k == "turn-notice" {
			return &msgs[i]
		}
	}
	return nil
}

// driver plays plans through the real stack: each player waits for the
// notice of their turn in their own mailbox and replies to it, as a mail
// client would. Tables advance concurrently.
type driver struct {
	t     *testing.T
	d     *daemon
	boxes map[string]*mailbox
	// sent records, per table, the Message-ID of every turn's reply.
	sent map[string][]string
	// beforeTurn, when set, runs before each reply is sent (the crash
	// test kills the daemon there); afterSend after it.
	beforeTurn, afterSend func(p *plan, i int)
	// turnTimeout bounds the wait for one turn.
	turnTimeout time.Duration
}

func newDriver(t *testing.T, d *daemon, boxes map[string]*mailbox) *driver {
	return &driver{t: t, d: d, boxes: boxes, sent: map[string][]string{}, turnTimeout: 60 * time.Second}
}

// play runs every plan's turns and waits for each table to end (or to
// reach its last planned turn).
func (dr *driver) play(plans ...*plan) {
	t := dr.t
	t.Helper()
	next := make([]int, len(plans))
	pending := make([]string, len(plans)) // Message-ID sent, not yet applied
	since := make([]time.Time, len(plans))
	for i := range since {
		since[i] = time.Now()
	}
	for {
		done := true
		progressed := false
		for k, p := range plans {
			if next[k] >= len(p.turns) {
				continue
			}
			done = false
			tr := p.turns[next[k]]
			if pending[k] != "" {
				rec, ok := dr.record(pending[k])
				if !ok {
					continue
				}
				if rec.Outcome != "applied" {
					t.Fatalf("%s turn %d: %q: %s %s", p.spec.name, next[k], tr.cmd, rec.Outcome, rec.Reason)
				}
				pending[k] = ""
				next[k]++
				since[k] = time.Now()
				progressed = true
				continue
			}
			who := p.spec.players[tr.seat]
			msgs, err := dr.boxes[who].poll()
			if err != nil {
				t.Logf("mailbox %s: %v (retrying)", who, err)
				continue
			}
			m := notice(msgs, p.spec.name, tr.seq)
			if m == nil {
				if time.Since(since[k]) > dr.turnTimeout {
					t.Fatalf("%s turn %d: no notice lexio.%s.%d.turn-notice for %s after %s", p.spec.name, next[k], p.spec.name, tr.seq, who, dr.turnTimeout)
				}
				continue
			}
			if dr.beforeTurn != nil {
				dr.beforeTurn(p, next[k])
			}
			id := newMessageID(who)
			to, raw := account(who).Reply(m, tr.cmd, time.Now(), id)
			send(t, who, []string{to}, string(raw))
			dr.sent[p.spec.name] = append(dr.sent[p.spec.name], id)
			pending[k] = id
			progressed = true
			if dr.afterSend != nil {
				dr.afterSend(p, next[k])
			}
		}
		if done {
			return
		}
		dr.d.checkAlive()
		if !progressed {
			time.Sleep(50 * time.Millisecond)
		}
	}
}

// record reads a message's record without waiting.
func (dr *driver) record(id string) (rec messageRecord, ok bool) {
	return dr.d.record(id)
}
