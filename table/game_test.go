package table_test

import (
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/engine/enginetest"
	"github.com/lexio-mail/lexio/templates/noticetest"
)

// findMove returns a legal placement for player p written as a player
// would write it (through letters in parentheses, blanks in brackets), or
// "" when it finds none. It tries the longest runs of rack tiles first
// from every empty cell next to a tile.
func findMove(g *engine.Game, p int) string {
	cmd, _ := findPlay(g, p)
	return cmd
}

// findPlay is findMove with the play it found (its words and score).
func findPlay(g *engine.Game, p int) (string, engine.Play) {
	play, ok := enginetest.FindPlay(g, p, 0)
	if !ok {
		return "", engine.Play{}
	}
	return enginetest.Command(play), play
}

// nextCommand chooses what the player to move does: a placement if one
// is found, else an exchange while the bag allows, else a pass.
func nextCommand(g *engine.Game, idle bool) string {
	p := g.Turn()
	if idle {
		return "PASS"
	}
	if cmd := findMove(g, p); cmd != "" {
		return cmd
	}
	// RULES §7.1: the bag holds enough; §12: lexico wants 7 in the bag
	// (and no exchange on a first turn, which a placement always is here).
	need := len(g.Rack(p))
	if g.Rules().Variant == engine.Lexico {
		need = engine.RackSize
	}
	if g.BagCount() >= need {
		return "EXCHANGE ALL"
	}
	return "PASS"
}

// playGame plays a table to its end by mail; players are the mailbox
// names in seat order. After idleAfter turns (if > 0) everyone passes, to
// end the game by RULES §11.2.
func (h *harness) playGame(name string, players []string, idleAfter int) *engine.Game {
	h.t.Helper()
	for turn := 0; turn < 400; turn++ {
		g := h.game(name)
		if g.Over() {
			return g
		}
		who := players[g.Turn()]
		cmd := nextCommand(g, idleAfter > 0 && turn >= idleAfter)
		before := len(g.Actions())
		id := h.send(who, cmd)
		rec := h.handled(id)
		if rec.Outcome != "applied" {
			h.t.Fatalf("turn %d: %s sent %q: %s %s", turn, who, cmd, rec.Outcome, rec.Reason)
		}
		if after := len(h.game(name).Actions()); after <= before {
			h.t.Fatalf("turn %d: %q by %s was not played", turn, cmd, who)
		}
		h.outboxEmpty()
	}
	h.t.Fatalf("table %s: no end after 400 turns", name)
	return nil
}

// rackLine reads the tiles of the "Your rack" section of an English
// notice.
func rackLine(text string) string {
	_, after, ok := strings.Cut(text, "== Your rack ==")
	if !ok {
		return "(none)"
	}
	for _, l := range strings.Split(after, "\n") {
		f := strings.Fields(l)
		if len(f) > 0 && f[0] == "Tile" {
			return strings.Join(f[1:], "")
		}
	}
	return ""
}

// checkMailboxes checks what each player received during a whole game:
// a notice after every turn with their own rack as it was then, one
// game-over mail with the final scores and every rack, one thread, no
// Message-ID twice, the calendar entries of their turns (checkCalendars).
func (h *harness) checkMailboxes(name string, players []string, g *engine.Game) {
	h.t.Helper()
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
	for p, who := range players {
		msgs := h.inbox(who)
		seen := map[string]bool{}
		for _, m := range msgs {
			if seen[m.MessageID] {
				h.t.Errorf("%s: Message-ID %s twice", who, m.MessageID)
			}
			seen[m.MessageID] = true
			if !strings.Contains(strings.Join(m.References, " "), "lexio."+name+"@localhost") {
				h.t.Errorf("%s: %s is outside the table's thread: %v", who, m.MessageID, m.References)
			}
		}
		notices := ofKind(msgs, "turn-notice")
		// The start, then every turn but the last, which ends the game.
		if len(notices) != turns {
			h.t.Errorf("%s: %d turn notices, want %d", who, len(notices), turns)
		}
		for _, m := range notices {
			past, err := engine.Rebuild(cfg, acts[:seqOf(m)])
			if err != nil {
				h.t.Fatal(err)
			}
			if b := past.Board(); !noticetest.BoardShown(m.Text, &b) {
				h.t.Errorf("%s: notice %s does not show the board as it was:\n%s", who, m.MessageID, m.Text)
			}
			if got, want := rackLine(m.Text), string(past.Rack(p)); got != want {
				h.t.Errorf("%s: notice %s shows rack %q, the rack was %q", who, m.MessageID, got, want)
			}
			if !strings.Contains(m.HTML, "<table") {
				h.t.Errorf("%s: notice without an HTML board", who)
			}
		}
		h.checkCalendars(who, p, msgs, cfg, acts)
		over := ofKind(msgs, "game-over")
		if len(over) != 1 {
			h.t.Fatalf("%s: %d game-over mails", who, len(over))
		}
		text := over[0].Text
		for q, other := range players {
			if !noticetest.HasScoreLine(text, noticetest.DisplayName(other), res.Scores[q]) {
				h.t.Errorf("%s: game-over mail lacks %s's final score %d:\n%s", who, other, res.Scores[q], text)
			}
		}
		// RULES §11.1: each player's adjustment once; the finisher's empty
		// rack is no "+0" line beside their gain.
		if _, racks, ok := strings.Cut(text, "Racks:"); ok {
			racks, _, _ = strings.Cut(racks, ".")
			for _, other := range players {
				if n := strings.Count(racks, noticetest.DisplayName(other)+" "); n > 1 {
					h.t.Errorf("%s: %s adjusted %d times: %s", who, other, n, racks)
				}
			}
		}
		for _, r := range res.Racks {
			if r != "" && !strings.Contains(strings.ReplaceAll(text, " ", ""), r) {
				h.t.Errorf("%s: game-over mail does not reveal rack %q", who, r)
			}
		}
	}
}

func emails(names ...string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n + "@localhost"
	}
	return out
}

// TestFullGames plays whole games by mail: 2, 3 and 4 players, both
// endings (RULES §11.1, §11.2), both variants (RULES §12).
func TestFullGames(t *testing.T) { eachDriver(t, testFullGames) }

func testFullGames(t *testing.T, driver string) {
	tests := []struct {
		name, league string
		players      []string
		seed         uint64
		idleAfter    int
		reason       engine.EndReason
	}{
		{"duel", "main", []string{"alice", "bob"}, 7, 0, engine.EndOut},
		{"trio-idle", "main", []string{"alice", "bob", "carol"}, 11, 4, engine.EndIdle},
		{"four", "main", []string{"alice", "bob", "carol", "dave"}, 3, 0, engine.EndOut},
		{"lexico", "duo", []string{"alice", "bob"}, 5, 0, engine.EndOut},
		{"lexico-plain-passes", "plain", []string{"carol", "dave"}, 9, 3, engine.EndPasses},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, harnessOpts{driver: driver})
			if err := h.lobby.CreateTable(h.ctx, tt.name, tt.league, emails(tt.players...), tt.seed); err != nil {
				t.Fatal(err)
			}
			for _, p := range tt.players {
				h.waitMail(p, 1)
			}
			g := h.playGame(tt.name, tt.players, tt.idleAfter)
			t.Logf("%s: %d actions, ended by %s, scores %v, racks %q", tt.name, len(g.Actions()), g.Result().Reason, g.Result().Scores, g.Result().Racks)
			if g.Result().Reason != tt.reason {
				t.Errorf("ended by %s, want %s", g.Result().Reason, tt.reason)
			}
			h.outboxEmpty()
			h.checkMailboxes(tt.name, tt.players, g)
		})
	}
}
