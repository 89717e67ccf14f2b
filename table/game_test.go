package table_test

import (
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/templates/noticetest"
)

// playGame plays a table to its end by mail; players are the mailbox
// names in seat order. After idleAfter turns (if > 0) everyone passes, to
// end the game by RULES §11.2.
func playGame(h *lexiotest.Harness, name string, players []string, idleAfter int) *engine.Game {
	h.T.Helper()
	for turn := 0; turn < 400; turn++ {
		g := h.Game(name)
		if g.Over() {
			return g
		}
		who := players[g.Turn()]
		cmd := lexiotest.NextCommand(g, idleAfter > 0 && turn >= idleAfter)
		before := len(g.Actions())
		id := h.Send(who, cmd)
		rec := h.Handled(id)
		if rec.Outcome != "applied" {
			h.T.Fatalf("turn %d: %s sent %q: %s %s", turn, who, cmd, rec.Outcome, rec.Reason)
		}
		if after := len(h.Game(name).Actions()); after <= before {
			h.T.Fatalf("turn %d: %q by %s was not played", turn, cmd, who)
		}
		h.OutboxEmpty()
	}
	h.T.Fatalf("table %s: no end after 400 turns", name)
	return nil
}

// checkMailboxes checks what each player received during a whole game:
// a notice after every turn with their own rack as it was then, one
// game-over mail with the final scores and every rack, one thread, no
// Message-ID twice, the calendar entries of their turns (checkCalendars).
func checkMailboxes(h *lexiotest.Harness, name string, players []string, g *engine.Game) {
	h.T.Helper()
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
		msgs := h.Inbox(who)
		seen := map[string]bool{}
		for _, m := range msgs {
			if seen[m.MessageID] {
				h.T.Errorf("%s: Message-ID %s twice", who, m.MessageID)
			}
			seen[m.MessageID] = true
			if !strings.Contains(strings.Join(m.References, " "), "lexio."+name+"@localhost") {
				h.T.Errorf("%s: %s is outside the table's thread: %v", who, m.MessageID, m.References)
			}
		}
		notices := lexiotest.OfKind(msgs, "turn-notice")
		// The start, then every turn but the last, which ends the game.
		if len(notices) != turns {
			h.T.Errorf("%s: %d turn notices, want %d", who, len(notices), turns)
		}
		for _, m := range notices {
			past, err := engine.Rebuild(cfg, acts[:lexiotest.Seq(m)])
			if err != nil {
				h.T.Fatal(err)
			}
			if b := past.Board(); !noticetest.BoardShown(m.Text, &b) {
				h.T.Errorf("%s: notice %s does not show the board as it was:\n%s", who, m.MessageID, m.Text)
			}
			if got, want := lexiotest.RackLine(m.Text), string(past.Rack(p)); got != want {
				h.T.Errorf("%s: notice %s shows rack %q, the rack was %q", who, m.MessageID, got, want)
			}
			if !strings.Contains(m.HTML, "<table") {
				h.T.Errorf("%s: notice without an HTML board", who)
			}
		}
		checkCalendars(h, who, p, msgs, cfg, acts)
		over := lexiotest.OfKind(msgs, "game-over")
		if len(over) != 1 {
			h.T.Fatalf("%s: %d game-over mails", who, len(over))
		}
		text := over[0].Text
		for q, other := range players {
			if !noticetest.HasScoreLine(text, noticetest.DisplayName(other), res.Scores[q]) {
				h.T.Errorf("%s: game-over mail lacks %s's final score %d:\n%s", who, other, res.Scores[q], text)
			}
		}
		// RULES §11.1: each player's adjustment once; the finisher's empty
		// rack is no "+0" line beside their gain.
		if _, racks, ok := strings.Cut(text, "Racks:"); ok {
			racks, _, _ = strings.Cut(racks, ".")
			for _, other := range players {
				if n := strings.Count(racks, noticetest.DisplayName(other)+" "); n > 1 {
					h.T.Errorf("%s: %s adjusted %d times: %s", who, other, n, racks)
				}
			}
		}
		for _, r := range res.Racks {
			if r != "" && !strings.Contains(strings.ReplaceAll(text, " ", ""), r) {
				h.T.Errorf("%s: game-over mail does not reveal rack %q", who, r)
			}
		}
	}
}

// TestFullGames plays whole games by mail: 2, 3 and 4 players, both
// endings (RULES §11.1, §11.2), both variants (RULES §12).
func TestFullGames(t *testing.T) { lexiotest.EachDriver(t, testFullGames) }

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
			h := lexiotest.New(t, lexiotest.Options{Driver: driver})
			if err := h.Lobby.CreateTable(h.Ctx, tt.name, tt.league, lexiotest.Emails(tt.players...), tt.seed); err != nil {
				t.Fatal(err)
			}
			for _, p := range tt.players {
				h.WaitMail(p, 1)
			}
			g := playGame(h, tt.name, tt.players, tt.idleAfter)
			t.Logf("%s: %d actions, ended by %s, scores %v, racks %q", tt.name, len(g.Actions()), g.Result().Reason, g.Result().Scores, g.Result().Racks)
			if g.Result().Reason != tt.reason {
				t.Errorf("ended by %s, want %s", g.Result().Reason, tt.reason)
			}
			h.OutboxEmpty()
			checkMailboxes(h, tt.name, tt.players, g)
		})
	}
}
