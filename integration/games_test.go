//go:build integration

package integration

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/mailer/client"
	"github.com/lexio-mail/lexio/templates/noticetest"
)

// TestFullGames plays a 2-player and a 4-player game to their end through
// Postfix and Dovecot at the same time, players replying to their notices
// from their own mailboxes, then checks every mailbox: a notice after
// every turn with the board, the player's own rack only and the scores;
// one game-over mail with the final scores, every rack and the log; one
// thread per table; no Message-ID twice.
func TestFullGames(t *testing.T) {
	resetMail(t)
	// Short placements make longer games: the duel ends with a player out,
	// the four-player one by eight passes in a row after 20 turns (RULES §11.2).
	duel := simulate(t, tableSpec{"duel", []string{"alice", "bob"}, 7}, 4, 0, 0)
	four := simulate(t, tableSpec{"four", []string{"alice", "bob", "carol", "dave"}, 3}, 3, 20, 0)
	d := startDaemon(t, daemonOpts{tables: []tableSpec{duel.spec, four.spec}, words: wordsOf(duel, four)})
	boxes := mailboxes(t, stack.players...)
	start := time.Now()
	dr := newDriver(t, d, boxes)
	dr.play(duel, four)
	d.outboxEmpty(60 * time.Second)
	turns := len(duel.turns) + len(four.turns)
	t.Logf("%d turns in %s (%.2f s a turn, two tables at once)", turns, time.Since(start).Round(time.Millisecond), time.Since(start).Seconds()/float64(turns))
	for _, p := range []*plan{duel, four} {
		g := d.game(p.spec.name)
		if !g.Over() {
			t.Fatalf("%s: not over", p.spec.name)
		}
		checkSameGame(t, p, g)
		checkMailboxes(t, boxes, p, g, false)
		t.Logf("%s: %d actions, ended by %s, scores %v", p.spec.name, len(g.Actions()), g.Result().Reason, g.Result().Scores)
	}
	checkNoForeignRacks(t, d, boxes)
}

// checkSameGame compares the daemon's game with the plan's: the same
// actions (kinds, players, tiles) and the same result.
func checkSameGame(t *testing.T, p *plan, g *engine.Game) {
	t.Helper()
	got, want := g.Actions(), p.final.Actions()
	if len(got) != len(want) {
		t.Fatalf("%s: %d actions, the plan has %d", p.spec.name, len(got), len(want))
	}
	for i := range got {
		if a, b := actionKey(got[i]), actionKey(want[i]); a != b {
			t.Fatalf("%s: action %d is %s, the plan's is %s", p.spec.name, i, a, b)
		}
	}
	if a, b := fmt.Sprint(g.Result().Scores), fmt.Sprint(p.final.Result().Scores); a != b {
		t.Errorf("%s: scores %s, the plan's %s", p.spec.name, a, b)
	}
}

func actionKey(a engine.Action) string {
	return fmt.Sprintf("%s/%d/%v/%v", a.Kind, a.Player, a.Tiles, a.Slots)
}

// rackOf reads the tiles of the "Your rack" section of an English
// notice; sections counts such sections.
func rackOf(text string) (rack string, sections int) {
	sections = strings.Count(text, "== Your rack ==")
	_, after, ok := strings.Cut(text, "== Your rack ==")
	if !ok {
		return "", 0
	}
	for _, l := range strings.Split(after, "\n") {
		f := strings.Fields(l)
		if len(f) > 0 && f[0] == "Tile" {
			return strings.Join(f[1:], ""), sections
		}
	}
	return "", sections
}

// checkMailboxes checks every player's mail about p's table. dupOK
// allows the same Message-ID twice (after a crash, a mail may be sent
// again: the copies are recognisable by their Message-ID).
func checkMailboxes(t *testing.T, boxes map[string]*mailbox, p *plan, g *engine.Game, dupOK bool) {
	t.Helper()
	acts := g.Actions()
	turns := 0
	for _, a := range acts {
		switch a.Kind {
		case engine.ActPlace, engine.ActExchange, engine.ActPass, engine.ActExpire:
			turns++
		}
	}
	res := g.Result()
	cfg := g.Config()
	for seat, who := range p.spec.players {
		msgs := ofTable(boxes[who].mustPoll(t), p.spec.name)
		seen := map[string]bool{}
		var unique []client.Message
		for _, m := range msgs {
			if seen[m.MessageID] {
				if !dupOK {
					t.Errorf("%s: Message-ID %s twice", who, m.MessageID)
				}
				continue
			}
			seen[m.MessageID] = true
			unique = append(unique, m)
			if !strings.Contains(strings.Join(m.References, " "), "lexio."+p.spec.name+"@") {
				t.Errorf("%s: %s is outside the table's thread: %v", who, m.MessageID, m.References)
			}
			if !strings.HasPrefix(m.ReplyTo, "lexio+"+p.spec.name+"-") && !strings.HasPrefix(m.ReplyTo, "lexio+") {
				t.Errorf("%s: %s has Reply-To %q", who, m.MessageID, m.ReplyTo)
			}
		}
		notices := ofKind(unique, "turn-notice")
		// The start, then every turn but the last, which ends the game.
		if len(notices) != turns {
			t.Errorf("%s/%s: %d turn notices, want %d", p.spec.name, who, len(notices), turns)
		}
		for _, m := range notices {
			_, seq, _, _ := idParts(m.MessageID)
			past, err := engine.Rebuild(cfg, acts[:seq])
			if err != nil {
				t.Fatal(err)
			}
			rack, n := rackOf(m.Text)
			if n != 1 || rack != string(past.Rack(seat)) {
				t.Errorf("%s: notice %s shows %d rack sections, rack %q; the rack was %q", who, m.MessageID, n, rack, string(past.Rack(seat)))
			}
			b := past.Board()
			if !noticetest.BoardShown(m.Text, &b) {
				t.Errorf("%s: notice %s does not show the board:\n%s", who, m.MessageID, m.Text)
			}
			for q := range p.spec.players {
				if !strings.Contains(m.Text, fmt.Sprint(past.Score(q))) {
					t.Errorf("%s: notice %s lacks score %d of seat %d", who, m.MessageID, past.Score(q), q)
				}
			}
			if !strings.Contains(m.HTML, "<table") {
				t.Errorf("%s: notice %s has no HTML board", who, m.MessageID)
			}
		}
		over := ofKind(unique, "game-over")
		if len(over) != 1 {
			t.Errorf("%s/%s: %d game-over mails", p.spec.name, who, len(over))
			continue
		}
		text := over[0].Text
		for q, other := range p.spec.players {
			if !noticetest.HasScoreLine(text, noticetest.DisplayName(other), res.Scores[q]) {
				t.Errorf("%s: game-over mail lacks %s's final score %d:\n%s", who, other, res.Scores[q], text)
			}
		}
		flat := strings.ReplaceAll(text, " ", "")
		for _, r := range res.Racks {
			if r != "" && !strings.Contains(flat, r) {
				t.Errorf("%s: game-over mail does not reveal rack %q", who, r)
			}
		}
		// The log: every placed word is in the final mail's log.
		upper := strings.ToUpper(text)
		for _, e := range g.Log() {
			if e.Play != nil && !strings.Contains(upper, e.Play.Words[0].Text) {
				t.Errorf("%s: game-over mail's log lacks %s", who, e.Play.Words[0].Text)
			}
		}
	}
}

// checkNoForeignRacks checks EMAIL §1.4 on every mailbox: while a game
// runs, no message to a player holds another player's rack of that time.
func checkNoForeignRacks(t *testing.T, d *daemon, boxes map[string]*mailbox) {
	t.Helper()
	for who, box := range boxes {
		for _, m := range box.mustPoll(t) {
			tb, seq, kind, ok := idParts(m.MessageID)
			if !ok || kind == "game-over" {
				continue
			}
			g := d.game(tb)
			if g == nil || seq > len(g.Actions()) {
				continue
			}
			past, err := engine.Rebuild(g.Config(), g.Actions()[:seq])
			if err != nil {
				t.Fatal(err)
			}
			rack, _ := rackOf(m.Text)
			for q := range past.Players() {
				other := string(past.Rack(q))
				if other == rack || other == "" {
					continue
				}
				if r, _ := rackOf(m.Text); r == other || strings.Contains(string(m.Raw), "Tile "+spaced(other)) {
					t.Errorf("%s: %s holds seat %d's rack %q", who, m.MessageID, q, other)
				}
			}
		}
	}
}

func spaced(s string) string { return strings.Join(strings.Split(s, ""), " ") }
