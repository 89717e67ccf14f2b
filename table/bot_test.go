package table_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/bot"
	"github.com/lexio-mail/lexio/dict"
	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/engine/board"
	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/leagues"
	"github.com/lexio-mail/lexio/table"
)

// frenchSample is every tenth word of Debian's wfrench (scripts/deps.sh
// installs it) with its GADDAG: real words for games against the
// computer, built in a fraction of a second.
var frenchSample = sync.OnceValues(func() (*dict.Dict, error) {
	data, err := os.ReadFile("/usr/share/dict/french")
	if err != nil {
		return nil, fmt.Errorf("%w: the computer's tests play French (scripts/deps.sh installs wfrench)", err)
	}
	lines := strings.Split(string(data), "\n")
	var kept []string
	for i := 0; i < len(lines); i += 10 {
		kept = append(kept, lines[i])
	}
	d, _, err := dict.Build(strings.NewReader(strings.Join(kept, "\n")))
	return d, err
})

var frenchGaddag = sync.OnceValues(func() (*dict.Gaddag, error) {
	d, err := frenchSample()
	if err != nil {
		return nil, err
	}
	return dict.BuildGaddag(d)
})

// botHarness is a harness whose service plays the French sample, with
// its GADDAG for the computer's seats.
func botHarness(t *testing.T, config string) *lexiotest.Harness {
	t.Helper()
	return botHarnessDelay(t, time.Minute, config)
}

// botHarnessDelay is botHarness whose computer plays delay after its
// turn begins.
func botHarnessDelay(t *testing.T, delay time.Duration, config string) *lexiotest.Harness {
	t.Helper()
	d, err := frenchSample()
	if err != nil {
		t.Fatal(err)
	}
	gd, err := frenchGaddag()
	if err != nil {
		t.Fatal(err)
	}
	return lexiotest.New(t, lexiotest.Options{Dict: d, Gaddag: gd, Top: fmt.Sprintf("bot_delay = %q\n", delay), Config: lexiotest.OpenTablesConfig + config})
}

// humanCommand is what a careful player sends: the medium computer's
// choice for their own seat, written as a mail command.
func humanCommand(t *testing.T, gd *dict.Gaddag, g *engine.Game, d engine.Dictionary) string {
	t.Helper()
	p := g.Turn()
	v, err := g.View(p, g.TurnStart())
	if err != nil {
		t.Fatal(err)
	}
	a, err := bot.New(gd).Choose(bot.ViewOf(v), bot.Medium, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	switch a.Kind {
	case engine.ActPlace:
		clone, err := engine.Rebuild(g.Config(), g.Actions())
		if err != nil {
			t.Fatal(err)
		}
		res, err := clone.PlaceTiles(p, a.Tiles, d, g.TurnStart())
		if err != nil {
			t.Fatal(err)
		}
		w := res.Play.Words[0]
		word := []byte(w.Text)
		for i, c := range w.Cells {
			for _, tl := range a.Tiles {
				if tl.Cell == c && tl.Blank {
					word[i] = tl.Letter - 'A' + 'a'
				}
			}
		}
		dir := "ACROSS"
		if w.Dir == board.Down {
			dir = "DOWN"
		}
		return fmt.Sprintf("PLACE %c%d %s %s", 'A'+w.Start.Col, w.Start.Row+1, dir, bracketBlanks(string(word)))
	case engine.ActExchange:
		return "EXCHANGE ALL"
	}
	return "PASS"
}

// bracketBlanks writes a word's blanks (lowercase) in brackets, which
// reads the same whatever the other letters.
func bracketBlanks(w string) string {
	var b strings.Builder
	for _, c := range w {
		if 'a' <= c && c <= 'z' {
			fmt.Fprintf(&b, "[%c]", c-'a'+'A')
		} else {
			b.WriteRune(c)
		}
	}
	return b.String()
}

// TestBotGameByMail: issue 17. "NEW lexio bot:strong" (and "NEW lexico
// bot") opens a table against the computer, which starts at once; the
// player plays by mail, the computer bot_delay after its turn begins,
// through the same log and rules, never mailed, never timing out; the
// game goes to its end in each variant, and is not rated.
func TestBotGameByMail(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ cmd, variant, level string }{
		{"NEW lexio bot:strong", "lexio", "strong"},
		{"NEW lexico bot", "lexico", "medium"},
	} {
		t.Run(tc.variant, func(t *testing.T) {
			t.Parallel()
			h := botHarness(t, "")
			gd, _ := frenchGaddag()
			d, _ := frenchSample()
			id := h.SendMail("alice", lexiotest.MailSpec{Body: tc.cmd})
			rec := h.Expect(id, table.OutcomeApplied, "NEW ")
			name := strings.TrimPrefix(rec.Reason, "NEW ")
			g := h.Game(name)
			if g == nil || g.Players() != 2 || g.Rules().Variant != board.Variant(tc.variant) {
				t.Fatalf("table %s: game %v, want %s against the computer", name, g, tc.variant)
			}
			first := h.LastOf("alice", "turn-notice")
			if !strings.Contains(first.Text, "Bot ("+tc.level+")") {
				t.Errorf("the first notice does not name the computer\n%s", first.Text)
			}
			bots := 0
			for turn := 0; turn < 200 && !g.Over(); turn++ {
				if g.Turn() == 0 {
					h.AnswerAt(name, "alice", humanCommand(t, gd, g, d))
				} else {
					// Not before bot_delay; then once, at its time.
					n := len(g.Actions())
					h.TickAt(g.TurnStart().Add(59 * time.Second))
					if len(h.Game(name).Actions()) != n {
						t.Fatal("the computer played before bot_delay")
					}
					at := g.TurnStart().Add(time.Minute)
					h.TickAt(at)
					after := h.Game(name)
					if len(after.Actions()) != n+1 || !after.Actions()[n].At.Equal(at) {
						t.Fatalf("the computer's move: %d actions, want %d, at %v", len(after.Actions()), n+1, at)
					}
					bots++
				}
				g = h.Game(name)
			}
			if !g.Over() || bots == 0 {
				t.Fatalf("not over after 200 turns (%d by the computer)", bots)
			}
			// The computer never timed out, nor was mailed.
			for _, a := range g.Actions() {
				if a.Player == 1 && a.Kind == engine.ActExpire {
					t.Errorf("the computer's turn expired: %+v", a)
				}
			}
			h.OutboxEmpty()
			if n := len(lexiotest.OfKind(h.Inbox("alice"), "game-over")); n != 1 {
				t.Errorf("%d game-over mails to alice", n)
			}
			err := h.Store.View(h.Ctx, func(tx *store.Tx) error {
				p, err := tx.PlayerByAddress("alice@localhost")
				if err != nil {
					return err
				}
				rs, err := leagues.Ratings(tx, tc.variant, p.ID)
				if len(rs) != 0 {
					t.Errorf("a game against the computer rated alice: %+v", rs)
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d turns, %d by the computer, scores %v, %s", tc.variant, len(g.Actions()), bots, g.Result().Scores, g.Result().Reason)
		})
	}
}

// TestBotSeats: a table of the configuration may seat the computer, which
// opens if it is first; a player's seat may be handed to it (`lexio table
// substitute T alice bot:strong`), after which it plays that seat at its
// turn; a season table with the computer is not rated.
func TestBotSeats(t *testing.T) {
	t.Parallel()
	h := botHarness(t, `
[[table]]
name = "vsbot"
players = ["bot", "bob@localhost"]
seed = 9
[[league]]
name = "club"
[[league.division]]
name = "top"
players = ["alice@localhost", "carol@localhost"]
`)
	if err := h.Lobby.EnsureTables(h.Ctx); err != nil {
		t.Fatal(err)
	}
	start := h.Game("vsbot").TurnStart()
	h.TickAt(start.Add(time.Minute))
	g := h.Game("vsbot")
	if len(g.Actions()) != 1 || g.Actions()[0].Player != 0 || g.Turn() != 1 {
		t.Fatalf("the computer did not open: %+v", g.Actions())
	}
	h.OutboxEmpty()
	if n := len(lexiotest.OfKind(h.Inbox("bob"), "turn-notice")); n != 2 {
		t.Errorf("bob has %d notices, want the start's and the computer's move", n)
	}

	s, err := h.Seasons.StartSeason(h.Ctx, "club")
	if err != nil {
		t.Fatal(err)
	}
	st := s.Tables[0] // alice opens
	if err := h.Tables.Substitute(h.Ctx, st.Name, "alice@localhost", "BOT:Strong"); err != nil {
		t.Fatal(err)
	}
	g = h.Game(st.Name)
	h.TickAt(g.TurnStart().Add(time.Minute))
	if g = h.Game(st.Name); len(g.Actions()) < 2 || g.Turn() != 1 {
		t.Fatalf("the computer did not play alice's seat: %+v", g.Actions())
	}
	h.AnswerAt(st.Name, "carol", "RESIGN "+st.Name)
	err = h.Store.View(h.Ctx, func(tx *store.Tx) error {
		p, err := tx.PlayerByAddress("carol@localhost")
		if err != nil {
			return err
		}
		rs, err := leagues.Ratings(tx, "lexio", p.ID)
		if len(rs) != 0 {
			t.Errorf("a season game with the computer rated carol: %+v", rs)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, rows, err := h.Seasons.Standings(h.Ctx, "club", 0); err != nil || rows[0].Player != "bot:strong" || rows[0].Won != 1 {
		t.Errorf("standings %+v %v: the seat's last holder, the computer, won", rows, err)
	}
	// The computer stood in for alice this season; it plays no other.
	_, next, err := h.Seasons.Show(h.Ctx, "club")
	if err != nil || len(next) != 1 || strings.Join(next[0].Players, " ") != "alice@localhost carol@localhost" {
		t.Errorf("next season %+v %v: without the computer", next, err)
	}
}

// TestBotPlaysOnTime: issue 34. With the daemon's scheduler running on
// the test's clock (a tick every 30 s), the computer's move comes
// bot_delay after the player's, at its deadline, not at the period's
// tick after: the scheduler ticks then, knowing of it from the player's
// message when it comes before the next tick (a delay of 10 s), or from
// the tick before (a minute: the ticks at 30 s and 60 s find nothing).
func TestBotPlaysOnTime(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		delay time.Duration
		ticks string
	}{
		{time.Minute, "[30s 1m0s 1m10s]"},
		{10 * time.Second, "[20s]"},
	} {
		t.Run(tc.delay.String(), func(t *testing.T) {
			t.Parallel()
			h := botHarnessDelay(t, tc.delay, "")
			gd, _ := frenchGaddag()
			d, _ := frenchSample()
			start := h.Clock.Now()
			sched := h.RunScheduler()
			next := sched.Planned() // after the catch-up tick
			name := h.Open("alice", "NEW lexio bot")
			g := h.Game(name)
			if g.Turn() != 0 {
				t.Fatalf("the computer opens %s: the test wants alice first", name)
			}
			h.At(start.Add(10 * time.Second))
			h.AnswerAt(name, "alice", humanCommand(t, gd, g, d))
			n := len(h.Game(name).Actions())
			notices := len(lexiotest.OfKind(h.Inbox("alice"), "turn-notice"))
			due := start.Add(10*time.Second + tc.delay)
			if due.Before(next) {
				// Woken by alice's message, the scheduler sets its timer
				// sooner.
				if next = sched.Planned(); !next.Equal(due) {
					t.Fatalf("after alice's move, the next tick at %v, want %v", next.Sub(start), due.Sub(start))
				}
			}
			var ticks []time.Duration
			for len(h.Game(name).Actions()) == n {
				if len(ticks) == 4 {
					t.Fatalf("no move of the computer after the ticks at %v", ticks)
				}
				h.At(next)
				ticks = append(ticks, next.Sub(start))
				next = sched.Planned() // the tick is over: it set the next one's timer
			}
			if got := fmt.Sprint(ticks); got != tc.ticks {
				t.Errorf("ticks at %s, want %s", got, tc.ticks)
			}
			if a := h.Game(name).Actions()[n]; a.Player != 1 || !a.At.Equal(due) {
				t.Errorf("the computer's move %+v, want at %v", a, due)
			}
			// Its notice is alice's at once, with the clock at its time.
			if got := len(lexiotest.OfKind(h.Inbox("alice"), "turn-notice")); got != notices+1 {
				t.Errorf("alice has %d notices after the computer's move, want %d", got, notices+1)
			}
		})
	}
}
