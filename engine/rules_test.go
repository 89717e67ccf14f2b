package engine

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/engine/board"
)

// dumpState writes every part of a game's state, hidden ones included, so
// that two games can be compared.
func dumpState(t testing.TB, g *Game) string {
	t.Helper()
	type pl struct {
		Rack  string
		Score int
		Level int
		Since time.Time
		Away  bool
		Turns int
		Left  bool
		Forf  bool
		Exp   int
	}
	s := struct {
		Cfg       Config
		Board     []string
		Bag       string
		Players   []pl
		Turn      int
		TurnStart time.Time
		Idle      int
		Passes    int
		Over      bool
		Reason    EndReason
		LastPlay  []board.Cell
		Left      []int
		Actions   []Action
		Log       []LogEntry
	}{g.cfg, g.board.Rows(), string(g.bag.tiles), nil, g.turn, g.turnStart, g.idle, g.passes, g.over, g.reason, g.lastPlay, g.left, g.actions, g.log}
	for _, p := range g.players {
		s.Players = append(s.Players, pl{string(p.rack), p.score, p.reserve.level, p.reserve.since, p.away, p.turns, p.left, p.forfeit, p.expired})
	}
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestUnknownWords(t *testing.T) {
	// RULES §6.1: nothing placed, every rejected word named, still the turn.
	g := newGame(t, Config{Seed: 2})
	rig(t, g, 0, "CHATONS")
	if _, err := g.Place(0, move(t, "D7 across CHAT"), words("CHAT"), at(0)); err != nil {
		t.Fatal(err)
	}
	rig(t, g, 1, "ONEEEEE")
	before := g.Board()
	_, err := g.Place(1, move(t, "E6 across ON"), words("ON"), at(10))
	me := wantKind(t, err, board.KindUnknownWords)
	if !slices.Equal(me.Words, []string{"OH", "NA"}) || cellList(me.Cells) != "E6 F6" {
		t.Errorf("words %q cells %v", me.Words, me.Cells)
	}
	if me.Reserve != 9 || !me.NextAttempt.Equal(at(25)) {
		t.Errorf("reserve %d next %v", me.Reserve, me.NextAttempt)
	}
	if g.Board() != before || g.Turn() != 1 || string(g.Rack(1)) != "ONEEEEE" || g.Score(1) != 0 {
		t.Error("a rejected placement changed the game")
	}
	// RULES §10.1: told only to its author.
	v0, _ := g.View(0, at(10))
	v1, _ := g.View(1, at(10))
	if len(v0.Log) != 1 || len(v1.Log) != 2 || v1.Log[1].Kind != LogRejected {
		t.Errorf("logs: %d for player 0, %d for player 1", len(v0.Log), len(v1.Log))
	}
}

func TestReserve(t *testing.T) {
	// RULES §6.2–6.3: 10 attempts, one back every 15 s; at 0 every
	// placement is rejected, valid or not, without naming words; shape
	// errors spend nothing; an accepted play gives nothing back.
	g := newGame(t, Config{Seed: 3})
	rig(t, g, 0, "CHATONS")
	none := words()
	good := words("CHAT")
	for i := range 10 {
		_, err := g.Place(0, move(t, "D7 across CHAT"), none, at(i))
		if me := wantKind(t, err, board.KindUnknownWords); me.Reserve != 9-i {
			t.Fatalf("attempt %d: reserve %d", i, me.Reserve)
		}
	}
	_, err := g.Place(0, move(t, "D7 across CHAT"), good, at(10))
	me := wantKind(t, err, board.KindReserveEmpty)
	if me.Words != nil || me.Cells != nil || me.Reserve != 0 || !me.NextAttempt.Equal(at(15)) {
		t.Errorf("reserve-empty error carries %+v", me)
	}
	if strings.Contains(me.Error(), "CHAT") {
		t.Errorf("message names the word: %v", me)
	}
	_, err = g.Place(0, move(t, "A7 across CHAT"), good, at(11))
	wantKind(t, err, board.KindFirstNotCentre)
	if n, _ := g.Reserve(0, at(14)); n != 0 {
		t.Errorf("reserve %d at 14 s", n)
	}
	if n, next := g.Reserve(0, at(15)); n != 1 || !next.Equal(at(30)) {
		t.Errorf("reserve %d next %v at 15 s", n, next)
	}
	if _, err := g.Place(0, move(t, "D7 across CHAT"), good, at(16)); err != nil {
		t.Fatal(err)
	}
	if n, _ := g.Reserve(0, at(16)); n != 1 {
		t.Errorf("after an accepted play: %d", n)
	}
	if n, next := g.Reserve(0, at(15+15*9)); n != 10 || !next.IsZero() {
		t.Errorf("full again: %d %v", n, next)
	}
	if n, _ := g.Reserve(0, at(10000)); n != 10 {
		t.Errorf("capped: %d", n)
	}
	// Table settings; exchange and pass still work at 0 (RULES §6.3).
	g2 := newGame(t, Config{Seed: 3, ReserveSize: 1, ReserveRefill: time.Minute})
	two := board.Move{Start: board.Fountain(), Dir: board.Down, Word: []board.Letter{rackLetter(g2.Rack(0)[0]), rackLetter(g2.Rack(0)[1])}}
	_, err = g2.Place(0, two, none, at(0))
	if me := wantKind(t, err, board.KindUnknownWords); me.Reserve != 0 || !me.NextAttempt.Equal(at(60)) {
		t.Errorf("custom reserve: %+v", me)
	}
	_, err = g2.Place(0, two, anyWord{}, at(59))
	wantKind(t, err, board.KindReserveEmpty)
	if err := g2.Pass(0, at(59)); err != nil {
		t.Error(err)
	}
	if _, err := g2.Exchange(1, Selection{All: true}, at(59)); err != nil {
		t.Error(err)
	}
	// Rebuilding replays the spent attempts and their times.
	r, err := Rebuild(g2.Config(), g2.Actions())
	if err != nil {
		t.Fatal(err)
	}
	if dumpState(t, r) != dumpState(t, g2) {
		t.Error("rebuild differs")
	}
}

func TestExchange(t *testing.T) {
	// RULES §7.1: draw first, then return and shuffle.
	g := newGame(t, Config{Seed: 4})
	rig(t, g, 0, "KWYZJXQ")
	setBag(g, "EEEEEEE")
	n, err := g.Exchange(0, Selection{All: true}, at(1))
	if err != nil || n != 7 {
		t.Fatal(n, err)
	}
	if string(g.Rack(0)) != "EEEEEEE" {
		t.Errorf("drew %q: returned tiles came back", g.Rack(0))
	}
	bagNow := slices.Clone(g.bag.tiles)
	slices.Sort(bagNow)
	if string(bagNow) != "JKQWXYZ" {
		t.Errorf("bag holds %q", bagNow)
	}
	// RULES §7.3: the table sees how many, never which.
	v, _ := g.View(1, at(1))
	e := v.Log[len(v.Log)-1]
	if e.Kind != LogExchange || e.Count != 7 || e.Play != nil || e.Rack != "" {
		t.Errorf("log entry %+v", e)
	}
	setBag(g, "AB?CDEF")
	rig(t, g, 1, "AB?CDEF")
	setBag(g, "ZZZ")
	for _, tc := range []struct {
		sel  Selection
		kind board.Kind
	}{
		{Selection{Slots: []int{0}}, board.KindBadSlot},
		{Selection{Slots: []int{8}}, board.KindBadSlot},
		{Selection{Slots: []int{2, 2}}, board.KindBadSlot},
		{Selection{Letters: "AQ"}, board.KindNotOnRack},
		{Selection{Letters: "AA"}, board.KindNotOnRack},
		{Selection{}, board.KindNoTiles},
		{Selection{Letters: "AB?C"}, board.KindBagTooSmall}, // RULES §7.1
		{Selection{All: true}, board.KindBagTooSmall},
	} {
		_, err := g.Exchange(1, tc.sel, at(2))
		wantKind(t, err, tc.kind)
	}
	if _, err := g.Exchange(0, Selection{Letters: "E"}, at(2)); kindOf(err) != board.KindNotYourTurn {
		t.Errorf("out of turn: %v", err)
	}
	// The bag holds exactly as many as returned: allowed.
	if n, err := g.Exchange(1, Selection{Letters: "b?f"}, at(3)); err != nil || n != 3 {
		t.Fatal(n, err)
	}
	if string(g.Rack(1)) != "ACDEZZZ" {
		t.Errorf("rack %q: order kept, draws appended", g.Rack(1))
	}
	setBag(g, "ABCDEFGHI")
	rig(t, g, 0, "ABCDEFG")
	if _, err := g.Exchange(0, Selection{Slots: []int{7, 1}}, at(4)); err != nil {
		t.Fatal(err)
	}
	if got := string(g.Rack(0)[:5]); got != "BCDEF" {
		t.Errorf("rack %q", g.Rack(0))
	}
}

func TestLexicoExchange(t *testing.T) {
	// RULES §12: no exchange on a player's first turn nor while the bag
	// holds fewer than 7 tiles.
	g := newGame(t, Config{Rules: board.Rules{Variant: board.Lexico}, Seed: 5})
	_, err := g.Exchange(0, Selection{Slots: []int{1}}, at(1))
	wantKind(t, err, board.KindExchangeNotAllowed)
	mustPass(t, g, 0, at(2))
	_, err = g.Exchange(1, Selection{Slots: []int{1}}, at(3))
	wantKind(t, err, board.KindExchangeNotAllowed)
	rig(t, g, 1, "CHATONS")
	if _, err := g.Place(1, move(t, "D7 across CHAT"), anyWord{}, at(4)); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Exchange(0, Selection{Slots: []int{1}}, at(5)); err != nil {
		t.Fatalf("second turn: %v", err)
	}
	setBag(g, "ABCDEF")
	_, err = g.Exchange(1, Selection{Slots: []int{1}}, at(6))
	if me := wantKind(t, err, board.KindExchangeNotAllowed); me.Have != 6 {
		t.Errorf("have %d", me.Have)
	}
}

func mustPass(t testing.TB, g *Game, p int, when time.Time) {
	t.Helper()
	if err := g.Pass(p, when); err != nil {
		t.Fatal(err)
	}
}

func TestExpireAndAway(t *testing.T) {
	// RULES §9.1–9.2: an expired turn is a pass; the player is away until
	// they write again, which does not restart the turn clock.
	g := newGame(t, Config{Players: 3, Seed: 6})
	if err := g.Expire(1, at(1)); kindOf(err) != board.KindNotYourTurn {
		t.Errorf("expire out of turn: %v", err)
	}
	if err := g.Expire(0, at(100)); err != nil {
		t.Fatal(err)
	}
	if !g.Away(0) || g.Turn() != 1 || !g.TurnStart().Equal(at(100)) {
		t.Errorf("away %v turn %d start %v", g.Away(0), g.Turn(), g.TurnStart())
	}
	mustPass(t, g, 1, at(110))
	if err := g.Present(0, at(120)); err != nil {
		t.Fatal(err)
	}
	if g.Away(0) || !g.TurnStart().Equal(at(110)) {
		t.Errorf("present: away %v start %v", g.Away(0), g.TurnStart())
	}
	if err := g.Expire(2, at(130)); err != nil {
		t.Fatal(err)
	}
	// A move from the away player, even out of turn, makes them present.
	_, err := g.Place(2, move(t, "G7 across AB"), anyWord{}, at(140))
	wantKind(t, err, board.KindNotYourTurn)
	if g.Away(2) {
		t.Error("still away after writing")
	}
	r, err := Rebuild(g.Config(), g.Actions())
	if err != nil {
		t.Fatal(err)
	}
	if r.Away(2) || dumpState(t, r) != dumpState(t, g) {
		t.Error("rebuild differs")
	}
	// RULES §10.1: the expiry is in everyone's log.
	v, _ := g.View(1, at(150))
	if v.Log[0].Kind != LogExpire || v.Log[1].Kind != LogPass {
		t.Errorf("log %+v", v.Log)
	}
}

func TestEndOut(t *testing.T) {
	// RULES §11.1: last tile placed with the bag empty; racks adjusted in
	// lexio, not in lexico (RULES §12); a blank costs nothing (§11.3).
	for _, tc := range []struct {
		name     string
		r        board.Rules
		want     []int
		adjusted bool
	}{
		// Player 0: CHAT 8, then E6 ON: ON 4 + OH 5 + NA 4 (F6 cross) = 13.
		// Player 1 keeps K E ? = 10 + 1 + 0 = 11.
		// Lexio: 8 + 13 + 11 = 32 and 0 − 11 = −11.
		{"lexio", board.Rules{}, []int{32, -11}, true},
		// Lexico: crosses plain, ON 2 + OH 5 + NA 2 = 9; no adjustment.
		{"lexico", board.Rules{Variant: board.Lexico}, []int{8 + 9, 0}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newGame(t, Config{Rules: tc.r, Seed: 8})
			rig(t, g, 0, "CHATONE")
			rig(t, g, 1, "KE?")
			if _, err := g.Place(0, move(t, "D7 across CHAT"), anyWord{}, at(1)); err != nil {
				t.Fatal(err)
			}
			rig(t, g, 0, "ON")
			setBag(g, "")
			mustPass(t, g, 1, at(2))
			res, err := g.Place(0, move(t, "E6 across ON"), anyWord{}, at(3))
			if err != nil {
				t.Fatal(err)
			}
			if !res.Over || !g.Over() {
				t.Fatal("not over")
			}
			r := g.Result()
			if !slices.Equal(r.Scores, tc.want) || !slices.Equal(r.Winners, []int{0}) || r.Reason != EndOut {
				t.Errorf("result %+v, want scores %v", r, tc.want)
			}
			if r.Racks[1] != "KE?" || r.Racks[0] != "" {
				t.Errorf("racks %q", r.Racks)
			}
			adjusts := 0
			for _, e := range g.Log() {
				if e.Kind == LogAdjust {
					adjusts++
				}
			}
			if (adjusts > 0) != tc.adjusted {
				t.Errorf("%d adjustments", adjusts)
			}
			// RULES §11.4: every rack revealed to everyone at the end.
			v, _ := g.View(0, at(4))
			if v.Result == nil || v.Result.Racks[1] != "KE?" {
				t.Errorf("view after the end: %+v", v.Result)
			}
			_, err = g.Place(1, move(t, "C7 across K(CHAT)"), anyWord{}, at(5))
			wantKind(t, err, board.KindGameOver)
			if err := g.Pass(1, at(5)); kindOf(err) != board.KindGameOver {
				t.Errorf("pass after the end: %v", err)
			}
			if _, err := g.Exchange(1, Selection{All: true}, at(5)); kindOf(err) != board.KindGameOver {
				t.Errorf("exchange after the end: %v", err)
			}
		})
	}
}

func TestEndIdle(t *testing.T) {
	// RULES §11.2: 2 × players turns in a row without a placement (passes,
	// exchanges, expiries); each loses their rack value, nobody gains;
	// scores may go negative (§11.3); a tie shares the victory (§11.4).
	g := newGame(t, Config{Players: 3, Seed: 9})
	rig(t, g, 0, "KE?") // 11
	rig(t, g, 1, "ZAE") // 12
	rig(t, g, 2, "W?E") // 11
	mustPass(t, g, 0, at(1))
	if _, err := g.Exchange(1, Selection{Letters: "A"}, at(2)); err != nil {
		t.Fatal(err)
	}
	if err := g.Expire(2, at(3)); err != nil {
		t.Fatal(err)
	}
	mustPass(t, g, 0, at(4))
	rig(t, g, 1, "ZAE")
	mustPass(t, g, 1, at(5))
	if g.Over() {
		t.Fatal("over after 5 turns")
	}
	mustPass(t, g, 2, at(6))
	r := g.Result()
	if !r.Over || r.Reason != EndIdle || !slices.Equal(r.Scores, []int{-11, -12, -11}) || !slices.Equal(r.Winners, []int{0, 2}) {
		t.Errorf("result %+v", r)
	}
	sum := 0
	for _, e := range g.Log() {
		if e.Player == 0 {
			sum += e.Score
		}
	}
	if sum != -11 {
		t.Errorf("log sums to %d for player 0", sum)
	}
}

func TestLexicoEndPasses(t *testing.T) {
	// RULES §12: ends when both pass in a row without exchanging (an
	// expiry counts as a pass); no rack adjustment.
	g := newGame(t, Config{Rules: board.Rules{Variant: board.Lexico}, Seed: 10})
	rig(t, g, 0, "CHATONS")
	if _, err := g.Place(0, move(t, "D7 across CHAT"), anyWord{}, at(1)); err != nil {
		t.Fatal(err)
	}
	mustPass(t, g, 1, at(2))
	if _, err := g.Exchange(0, Selection{Slots: []int{1}}, at(3)); err != nil {
		t.Fatal(err)
	}
	mustPass(t, g, 1, at(4))
	if g.Over() {
		t.Fatal("an exchange between two passes ended the game")
	}
	if err := g.Expire(0, at(5)); err != nil {
		t.Fatal(err)
	}
	r := g.Result()
	if !r.Over || r.Reason != EndPasses || !slices.Equal(r.Scores, []int{8, 0}) {
		t.Errorf("result %+v", r)
	}
	// Lexio goes on after 2 passes of 2 players; ends after 4 (§11.2).
	l := newGame(t, Config{Seed: 10})
	mustPass(t, l, 0, at(1))
	mustPass(t, l, 1, at(2))
	if l.Over() {
		t.Error("lexio ended after 2 passes of 2 players")
	}
	mustPass(t, l, 0, at(3))
	mustPass(t, l, 1, at(4))
	if !l.Over() {
		t.Error("lexio did not end after 4 passes of 2 players")
	}
}

func TestPreview(t *testing.T) {
	// RULES §5.8: the score without a dictionary; shape and rack checked.
	g := newGame(t, Config{Seed: 12})
	rig(t, g, 1, "CHATONS")
	p, err := g.Preview(1, move(t, "D7 across CHAT"))
	if err != nil || p.Score != 8 || p.Words[0].Text != "CHAT" {
		t.Errorf("preview %+v %v", p, err)
	}
	_, err = g.Preview(1, move(t, "D7 across CHATTE"))
	wantKind(t, err, board.KindNotOnRack)
	_, err = g.Preview(1, move(t, "A7 across CHAT"))
	wantKind(t, err, board.KindFirstNotCentre)
	if len(g.Actions()) != 0 {
		t.Error("preview recorded an action")
	}
}

func TestJSONRoundTrip(t *testing.T) {
	g := newGame(t, Config{Players: 3, Seed: 11})
	if _, err := g.Place(0, board.Move{Start: board.Fountain(), Dir: board.Across, Word: []board.Letter{{Char: g.Rack(0)[0]}}}, anyWord{}, at(1)); kindOf(err) != board.KindFirstTooShort {
		t.Fatalf("single-tile first move: %v", err)
	}
	mustPass(t, g, 0, at(2))
	if _, err := g.Exchange(1, Selection{Slots: []int{1, 2}}, at(3)); err != nil {
		t.Fatal(err)
	}
	back := rebuildThroughJSON(t, g)
	if dumpState(t, back) != dumpState(t, g) {
		t.Errorf("state differs after JSON:\n%s\n%s", dumpState(t, back), dumpState(t, g))
	}
	// A log that does not replay is refused.
	bad := append(g.Actions(), Action{Kind: ActPass, Player: 0, At: at(4)})
	if _, err := Rebuild(g.Config(), bad); !errors.Is(err, ErrBadLog) {
		t.Errorf("rebuild of a bad log: %v", err)
	}
}

// rackLetter writes a rack tile as a letter to place (a blank as E).
func rackLetter(t byte) board.Letter {
	if t == board.BlankTile {
		return board.Letter{Char: 'E', Blank: true}
	}
	return board.Letter{Char: t}
}
