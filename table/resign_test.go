package table_test

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/engine/enginetest"
	"github.com/lexio-mail/lexio/gcg"
	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/table"
)

// play has the player to move play a placement (or pass) by mail.
func play(h *lexiotest.Harness, name string, players []string) {
	h.T.Helper()
	h.OutboxEmpty() // every notice delivered: the player answers theirs
	g := h.Game(name)
	who := players[g.Turn()]
	cmd := lexiotest.NextCommand(g, false)
	h.Expect(h.Send(who, cmd), table.OutcomeApplied, "")
	h.OutboxEmpty()
}

// spaced writes a rack as the text mail shows it: "A R T ?".
func spaced(rack string) string { return strings.Join(strings.Split(rack, ""), " ") }

// replays checks that the table's game, written as GCG, replays with
// --check to the same scores (the export and lexio replay).
func replays(t *testing.T, g *engine.Game, players []string) string {
	t.Helper()
	rec, err := gcg.FromGame(g.Config(), g.Actions(), players)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := rec.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := gcg.Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	sum, err := gcg.Replay(back, gcg.Options{Rules: g.Rules(), Dict: enginetest.AnyWord{}, Check: true}, &out)
	if err != nil {
		t.Fatalf("%v\n%s\n%s", err, buf.String(), out.String())
	}
	if !slices.Equal(sum.Scores, g.Result().Scores) || sum.Over != g.Over() {
		t.Fatalf("replayed %v over %v, the game %v over %v", sum.Scores, sum.Over, g.Result().Scores, g.Over())
	}
	return buf.String()
}

// TestResignTwoPlayers: LEAGUES §2.1, §2.5. Alice, ahead, resigns off turn
// in answer to an old notice (RESIGN is never stale): the game ends at
// once, Bob wins, no rack is adjusted, every rack is revealed.
func TestResignTwoPlayers(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{})
	const name = "r2"
	players := []string{"alice", "bob"}
	if err := h.Lobby.CreateTable(h.Ctx, name, "main", lexiotest.Emails(players...), 11); err != nil {
		t.Fatal(err)
	}
	first := lexiotest.LatestNotice(h.WaitMail("alice", 1))
	play(h, name, players)
	g := h.Game(name)
	scores := g.Result().Scores
	if scores[0] <= 0 || g.Turn() != 1 {
		t.Fatalf("scores %v, turn %d", scores, g.Turn())
	}
	racks := []string{string(g.Rack(0)), string(g.Rack(1))}
	bobsTurn := lexiotest.CalendarOf(t, h.LastOf("bob", "turn-notice"))
	h.Clock.Add(time.Hour)
	h.Expect(h.ReplyTo("alice", first, "ABANDON r2"), table.OutcomeApplied, "RESIGN r2")

	g = h.Game(name)
	r := g.Result()
	if !g.Over() || r.Reason != engine.EndResign || !slices.Equal(r.Winners, []int{1}) {
		t.Fatalf("over %v, result %+v", g.Over(), r)
	}
	if !slices.Equal(r.Scores, scores) || !slices.Equal(r.Racks, racks) {
		t.Errorf("scores %v racks %q, want %v and %q untouched", r.Scores, r.Racks, scores, racks)
	}
	if sum, _ := h.Views.Show(h.Ctx, name); sum.Status != string(store.StatusOver) {
		t.Errorf("status %s", sum.Status)
	}
	for _, p := range players {
		over := h.LastOf(p, "game-over")
		// The subject names the winner alone; the text marks him, keeps
		// the scores as they were, shows both racks and says who left.
		lexiotest.MustContain(t, p+"'s game over", over.Subject, "Bob")
		lexiotest.MustNotContain(t, p+"'s game over", over.Subject, "Alice")
		lexiotest.MustWin(t, p+"'s game over", over.Text, []string{"Bob"}, map[string]int{"Alice": scores[0], "Bob": scores[1]})
		lexiotest.MustContain(t, p+"'s game over", over.Text, spaced(racks[0]), spaced(racks[1]))
		lexiotest.MustContain(t, p+"'s game over", lexiotest.Intro(over.Text), "Alice")
		lexiotest.MustContain(t, p+"'s game over", over.HTML, "Alice", "Bob")
		lexiotest.MustNotContain(t, p+"'s game over", over.Text, "Racks: ")
	}
	// The turn Bob held ended without a move: his calendar entry goes.
	if c := lexiotest.CalendarOf(t, h.LastOf("bob", "game-over")); bobsTurn == nil || c == nil || c.Method != "CANCEL" || c.UID != bobsTurn.UID || c.Seq <= bobsTurn.Seq {
		t.Errorf("bob's entry %+v, then %+v: want it cancelled", bobsTurn, c)
	}
	replays(t, g, lexiotest.Emails(players...))
}

// TestResignThreeAndFour: LEAGUES §2.2. At three, Bob resigns on his turn
// by mail to the plain address: his rack goes back into the bag, the turn
// passes to Carol at once, his score is frozen and he is skipped and told
// nothing more until the end; when Carol resigns too, Alice is left and
// wins. At four, two leave and the game ends idle between the two still
// in, counted as two (RULES §11.2).
func TestResignThreeAndFour(t *testing.T) {
	t.Parallel()
	t.Run("three", func(t *testing.T) {
		h := lexiotest.New(t, lexiotest.Options{})
		const name = "r3"
		players := []string{"alice", "bob", "carol"}
		if err := h.Lobby.CreateTable(h.Ctx, name, "main", lexiotest.Emails(players...), 12); err != nil {
			t.Fatal(err)
		}
		h.WaitMail("bob", 1)
		play(h, name, players) // alice; bob to move
		before := h.Game(name)
		bag, bobScore := before.BagCount(), before.Score(1)
		bobsTurn := lexiotest.CalendarOf(t, h.LastOf("bob", "turn-notice"))
		h.Clock.Add(time.Hour)
		resignAt := h.Clock.Now()
		h.Expect(h.SendMail("bob", lexiotest.MailSpec{Body: "RENDIRSE r3"}), table.OutcomeApplied, "RESIGN r3")

		g := h.Game(name)
		if g.Over() || !g.Left(1) || g.Turn() != 2 || !g.TurnStart().Equal(resignAt) || g.BagCount() != bag+7 {
			t.Fatalf("over %v left %v turn %d from %v, bag %d (was %d)", g.Over(), g.Left(1), g.Turn(), g.TurnStart(), g.BagCount(), bag)
		}
		if d := h.Deadline(name); !d.Equal(resignAt.Add(72 * time.Hour)) {
			t.Errorf("deadline %v, want turn_time from the resignation", d)
		}
		bye := h.LastOf("bob", "resigned")
		// Bob is told his frozen score and who plays next.
		lexiotest.MustName(t, "bob's confirmation", bye.Text, "r3", "Carol")
		lexiotest.MustNumbers(t, "bob's confirmation", lexiotest.Intro(bye.Text), bobScore)
		if c := lexiotest.CalendarOf(t, bye); bobsTurn == nil || c == nil || c.Method != "CANCEL" || c.UID != bobsTurn.UID {
			t.Errorf("bob's entry %+v, then %+v: want it cancelled", bobsTurn, c)
		}
		if c := lexiotest.CalendarOf(t, h.LastOf("carol", "turn-notice")); c == nil || c.Method != "REQUEST" || !c.End.Equal(resignAt.Add(72*time.Hour)) {
			t.Errorf("carol's entry %+v: want her turn's deadline", c)
		}
		for _, p := range []string{"alice", "carol"} {
			n := h.LastOf(p, "turn-notice")
			// The subject names who left; the text shows the bag with his
			// rack back in it.
			lexiotest.MustContain(t, p+"'s notice", n.Subject, "Bob")
			lexiotest.MustContain(t, p+"'s notice", n.Text, "Bob", fmt.Sprint(g.BagCount()))
		}
		bobNotices := h.Count("bob", "turn-notice")

		// Skipped from then on: carol, alice, carol; Bob's moves refused.
		h.Expect(h.Fresh("bob", name, "PASS"), table.OutcomeRejected, "resigned")
		h.LastOf("bob", "rejected")
		play(h, name, players)
		play(h, name, players)
		if g := h.Game(name); g.Turn() != 2 || g.Score(1) != bobScore {
			t.Fatalf("turn %d (want carol), bob's score %d (was %d)", g.Turn(), g.Score(1), bobScore)
		}
		if n := h.Count("bob", "turn-notice"); n != bobNotices {
			t.Errorf("bob got %d turn notices after leaving", n-bobNotices)
		}
		// GAMES tells Bob the game goes on without him.
		h.Expect(h.Fresh("bob", name, "GAMES"), table.OutcomeApplied, "GAMES")
		lexiotest.MustContain(t, "bob's GAMES", h.LastOf("bob", "games-reply").Text, "r3 (lexio): in play without you (you left it)")

		// Carol resigns off turn (Alice to move after her play): Alice alone.
		play(h, name, players)
		h.Expect(h.Fresh("carol", name, "ABANDONNER r3"), table.OutcomeApplied, "RESIGN r3")
		g = h.Game(name)
		r := g.Result()
		if !g.Over() || r.Reason != engine.EndResign || !slices.Equal(r.Winners, []int{0}) ||
			!slices.Equal(r.Ranking, []int{0, 2, 1}) || r.Scores[1] != bobScore {
			t.Fatalf("result %+v", r)
		}
		for _, p := range players {
			over := h.LastOf(p, "game-over").Text
			lexiotest.MustWin(t, p+"'s game over", over, []string{"Alice"}, nil)
			lexiotest.MustContain(t, p+"'s game over", lexiotest.Intro(over), "Bob", "Carol")
		}
		text := replays(t, g, lexiotest.Emails(players...))
		lexiotest.MustContain(t, "the GCG", text, "#resign bob ", "#resign carol ", "#rack1 ")
	})
	t.Run("four", func(t *testing.T) {
		h := lexiotest.New(t, lexiotest.Options{})
		const name = "r4"
		players := []string{"alice", "bob", "carol", "dave"}
		if err := h.Lobby.CreateTable(h.Ctx, name, "main", lexiotest.Emails(players...), 13); err != nil {
			t.Fatal(err)
		}
		h.WaitMail("dave", 1)
		play(h, name, players)
		h.Expect(h.Fresh("dave", name, "RESIGN r4"), table.OutcomeApplied, "RESIGN r4") // off turn
		play(h, name, players)                                                          // bob
		h.Expect(h.Fresh("alice", name, "RESIGN r4"), table.OutcomeApplied, "RESIGN r4")
		g := h.Game(name)
		if g.Over() || g.Active() != 2 || g.Turn() != 2 {
			t.Fatalf("over %v, %d still in, turn %d", g.Over(), g.Active(), g.Turn())
		}
		frozen := g.Score(0)
		// Bob and Carol pass: 2 × 2 turns end it (RULES §11.2).
		for i := 0; i < 4; i++ {
			if g.Over() {
				t.Fatalf("over after %d passes", i)
			}
			h.Expect(h.Send(players[g.Turn()], "PASS"), table.OutcomeApplied, "PASS")
			h.OutboxEmpty()
			g = h.Game(name)
		}
		r := g.Result()
		if !g.Over() || r.Reason != engine.EndIdle || r.Scores[0] != frozen || r.Places[3] != 4 || r.Places[0] != 3 {
			t.Fatalf("result %+v", r)
		}
		for _, p := range players {
			// Only the leavers' names come before the scores besides the
			// winners', and neither Dave nor Alice can win.
			lexiotest.MustContain(t, p+"'s game over", lexiotest.Intro(h.LastOf(p, "game-over").Text), "Dave", "Alice")
		}
		replays(t, g, lexiotest.Emails(players...))
	})
}

// TestResignRefused: LEAGUES §1, §2.5. A name that is not one of the
// sender's tables is refused with a reason, through the plain address or
// a table's, and no game changes.
func TestResignRefused(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{})
	if err := h.Lobby.CreateTable(h.Ctx, "mine", "main", lexiotest.Emails("alice", "bob"), 14); err != nil {
		t.Fatal(err)
	}
	if err := h.Lobby.CreateTable(h.Ctx, "theirs", "main", lexiotest.Emails("bob", "carol"), 15); err != nil {
		t.Fatal(err)
	}
	h.WaitMail("alice", 1)
	for i, send := range []func() string{
		func() string { return h.SendMail("alice", lexiotest.MailSpec{Body: "RESIGN theirs"}) },  // plain address, not her table
		func() string { return h.Fresh("alice", "mine", "RESIGN theirs") },                       // her table's address, another table
		func() string { return h.SendMail("alice", lexiotest.MailSpec{Body: "RESIGN nowhere"}) }, // no such table
	} {
		h.Expect(send(), table.OutcomeRejected, "not-your-table")
		h.OutboxEmpty()
		refusals := lexiotest.OfKind(h.Inbox("alice"), "rejected")
		if len(refusals) != i+1 {
			t.Fatalf("%d refusals, want %d", len(refusals), i+1)
		}
	}
	for _, name := range []string{"mine", "theirs"} {
		if g := h.Game(name); g.Over() || len(g.Actions()) != 0 {
			t.Errorf("%s changed: %d actions", name, len(g.Actions()))
		}
	}
}

// forfeitConfig is a league whose tables record a forfeit at the second
// expired turn in a row (LEAGUES §2.3).
const forfeitConfig = `
[[league]]
name = "strict"
turn_time = "72h"
reminders = []
away_grace = "2h"
forfeit_after = 2
`

// TestForfeitByTick: LEAGUES §2.3. Alice lets two turns in a row expire:
// the second expiry is a forfeit at its deadline, and with two players
// the game ends; Bob wins.
func TestForfeitByTick(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{Config: forfeitConfig})
	t0 := h.Clock.Now()
	const name = "ff"
	if err := h.Lobby.CreateTable(h.Ctx, name, "strict", lexiotest.Emails("alice", "bob"), 16); err != nil {
		t.Fatal(err)
	}
	h.WaitMail("alice", 1)
	h.TickAt(t0.Add(72 * time.Hour)) // the first expiry: a pass
	if g := h.Game(name); g.Over() || g.Expiries(0) != 1 {
		t.Fatalf("over %v, expiries %d", g.Over(), g.Expiries(0))
	}
	h.OutboxEmpty()
	h.Expect(h.Send("bob", "PASS"), table.OutcomeApplied, "PASS")
	second := h.Deadline(name) // alice is away: the grace
	h.TickAt(second.Add(time.Minute))
	g := h.Game(name)
	r := g.Result()
	acts := g.Actions()
	last := acts[len(acts)-1]
	if !g.Over() || r.Reason != engine.EndForfeit || !slices.Equal(r.Winners, []int{1}) ||
		last.Kind != engine.ActResign || !last.Forfeit || !last.At.Equal(second) {
		t.Fatalf("result %+v, last action %+v (deadline %v)", r, last, second)
	}
	for _, p := range []string{"alice", "bob"} {
		over := h.LastOf(p, "game-over").Text
		lexiotest.MustWin(t, p+"'s game over", over, []string{"Bob"}, nil)
		lexiotest.MustContain(t, p+"'s game over", lexiotest.Intro(over), "Alice")
	}
	if n := h.Count("alice", "expired"); n != 1 {
		t.Errorf("%d expiry notices: the forfeit is not one", n)
	}
}

// TestForfeitCatchUp: LEAGUES §2.3, EMAIL §5.2. The daemon was down for a
// month: one Tick enforces every deadline in order, at its time; the
// second expiry of each is a forfeit, the first of them (at three) puts
// the rack back and passes the turn, the next leaves Carol alone.
func TestForfeitCatchUp(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{Config: forfeitConfig})
	t0 := h.Clock.Now()
	const name = "cu"
	if err := h.Lobby.CreateTable(h.Ctx, name, "strict", lexiotest.Emails("alice", "bob", "carol"), 17); err != nil {
		t.Fatal(err)
	}
	h.WaitMail("carol", 1)
	h.TickAt(t0.Add(30 * 24 * time.Hour))
	g := h.Game(name)
	d1 := t0.Add(72 * time.Hour)
	d2, d3 := d1.Add(72*time.Hour), d1.Add(144*time.Hour)
	d4 := d3.Add(2 * time.Hour) // alice, away: the grace
	d5 := d4.Add(2 * time.Hour) // bob, away, from alice's forfeit
	want := []struct {
		kind    engine.ActionKind
		player  int
		at      time.Time
		forfeit bool
	}{
		{engine.ActExpire, 0, d1, false}, {engine.ActExpire, 1, d2, false}, {engine.ActExpire, 2, d3, false},
		{engine.ActResign, 0, d4, true}, {engine.ActResign, 1, d5, true},
	}
	acts := g.Actions()
	if len(acts) != len(want) {
		t.Fatalf("%d actions %+v, want %d", len(acts), acts, len(want))
	}
	for i, w := range want {
		a := acts[i]
		if a.Kind != w.kind || a.Player != w.player || !a.At.Equal(w.at) || a.Forfeit != w.forfeit {
			t.Errorf("action %d: %+v, want %+v", i+1, a, w)
		}
	}
	r := g.Result()
	if !g.Over() || r.Reason != engine.EndForfeit || !slices.Equal(r.Ranking, []int{2, 1, 0}) {
		t.Fatalf("result %+v", r)
	}
	// Alice was told she forfeited while Bob and Carol played on.
	// Alice was told of the 2 expiries, her frozen score, and that Bob
	// plays next.
	forfeit := h.LastOf("alice", "resigned").Text
	lexiotest.MustContain(t, "alice's forfeit", forfeit, "Bob")
	lexiotest.MustNumbers(t, "alice's forfeit", lexiotest.Intro(forfeit), 2, g.Score(0))
	over := h.LastOf("carol", "game-over").Text
	lexiotest.MustWin(t, "carol's game over", over, []string{"Carol"}, nil)
	lexiotest.MustContain(t, "carol's game over", lexiotest.Intro(over), "Alice", "Bob")
	replays(t, g, lexiotest.Emails("alice", "bob", "carol"))
}

// TestSubstitute: LEAGUES §4.1. Mid-game Dave takes Bob's seat: his rack,
// score and turn; Bob's reply token no longer works and changes nothing;
// Dave is mailed the table with a reply address of his own and plays;
// the others are told; the log records it. The admin's mistakes are
// refused with a reason.
func TestSubstitute(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{})
	const name = "sub"
	players := []string{"alice", "bob", "carol"}
	if err := h.Lobby.CreateTable(h.Ctx, name, "main", lexiotest.Emails(players...), 18); err != nil {
		t.Fatal(err)
	}
	h.WaitMail("bob", 1)
	play(h, name, players) // alice; bob to move
	before := h.Game(name)
	rack, score := string(before.Rack(1)), before.Score(1)
	bobsNotice := lexiotest.LatestNotice(h.Inbox("bob"))

	if err := h.Tables.Substitute(h.Ctx, name, "Bob@localhost", "dave@localhost"); err != nil {
		t.Fatal(err)
	}
	g := h.Game(name)
	if string(g.Rack(1)) != rack || g.Score(1) != score || g.Turn() != 1 {
		t.Fatalf("seat 2: rack %q score %d turn %d, want %q %d 1", g.Rack(1), g.Score(1), g.Turn(), rack, score)
	}
	if last := g.Actions()[len(g.Actions())-1]; last.Kind != engine.ActSubstitute || last.From != "Bob" || last.To != "Dave" {
		t.Errorf("last action %+v", last)
	}
	sum, _ := h.Views.Show(h.Ctx, name)
	if !slices.Equal(sum.Players, lexiotest.Emails("alice", "dave", "carol")) {
		t.Errorf("seats %v", sum.Players)
	}

	// Bob's token is bound to his address, which holds no seat now.
	actions := len(g.Actions())
	h.Expect(h.ReplyTo("bob", bobsNotice, lexiotest.NextCommand(g, false)), table.OutcomeRejected, "not-a-player")
	if n := len(h.Game(name).Actions()); n != actions {
		t.Fatalf("bob's old token changed the game: %d actions, was %d", n, actions)
	}

	// Dave is told, with the table, from his own reply address.
	seat := h.LastOf("dave", "seat-taken")
	lexiotest.MustContain(t, "dave's notice", seat.Subject, "Bob")
	lexiotest.MustName(t, "dave's notice", seat.Text, "sub", "Bob")
	lexiotest.MustContain(t, "dave's notice", seat.Text, spaced(rack))
	if want := "lexio+" + h.Token(name, "dave") + "@localhost"; seat.ReplyTo != want {
		t.Errorf("reply address %q, want %q", seat.ReplyTo, want)
	}
	// The others' notices open with the news, the seat passed, each
	// thing said once (#34): the seat, then Alice's move in words.
	for _, p := range []string{"alice", "carol"} {
		n := h.LastOf(p, "turn-notice")
		lexiotest.MustContain(t, p+"'s notice", n.Subject, "Dave", "Bob")
		body := strings.Join(strings.Fields(n.Text), " ")
		news := "Bob's seat passed to Dave, with its rack and score."
		if i := strings.Index(body, news); i < 0 || strings.Count(body, news) != 1 || i > strings.Index(body, "Alice played ") {
			t.Errorf("%s's notice does not open with the seat passed, once:\n%s", p, n.Text)
		}
		if c := strings.Count(body, "Alice played "); c != 1 {
			t.Errorf("%s's notice tells Alice's move %d times, want once:\n%s", p, c, n.Text)
		}
	}
	h.Expect(h.ReplyTo("dave", &seat, lexiotest.NextCommand(g, false)), table.OutcomeApplied, "")
	if g := h.Game(name); g.Turn() != 2 || len(g.Actions()) != actions+1 {
		t.Fatalf("dave's move: turn %d, %d actions", g.Turn(), len(g.Actions()))
	}
	text := replays(t, h.Game(name), sum.Players)
	lexiotest.MustContain(t, "the GCG", text, "#note dave: seat 2 passed from Bob to Dave")

	for _, tc := range []struct {
		name, table, old, new string
		want                  error
	}{
		{"unknown table", "nosuch", "alice@localhost", "eve@localhost", store.ErrNotFound},
		{"old not seated", name, "bob@localhost", "eve@localhost", table.ErrNotSeated},
		{"new already seated", name, "alice@localhost", "carol@localhost", table.ErrAlreadySeated},
	} {
		if err := h.Tables.Substitute(h.Ctx, tc.table, tc.old, tc.new); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	h.Expect(h.Fresh("carol", name, "RESIGN sub"), table.OutcomeApplied, "RESIGN")
	h.Expect(h.Fresh("dave", name, "RESIGN sub"), table.OutcomeApplied, "RESIGN")
	if err := h.Tables.Substitute(h.Ctx, name, "alice@localhost", "eve@localhost"); !errors.Is(err, table.ErrNotRunning) {
		t.Errorf("game over: %v, want ErrNotRunning", err)
	}
	if n := len(h.Game(name).Actions()); n != actions+3 {
		t.Errorf("refused substitutions changed the game: %d actions", n)
	}
}
