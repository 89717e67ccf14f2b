package gcg

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/engine/board"
	"github.com/lexio-mail/lexio/engine/enginetest"
)

// written is a game as `lexio table show --gcg` writes it, read back so
// that every event has its line number.
func written(t *testing.T, g *engine.Game) *Record {
	t.Helper()
	rec, err := FromGame(g.Config(), g.Actions(), testNames[:g.Players()])
	if err != nil {
		t.Fatal(err)
	}
	return reread(t, rec)
}

// reread writes rec as GCG and reads it back.
func reread(t *testing.T, rec *Record) *Record {
	t.Helper()
	var buf bytes.Buffer
	if _, err := rec.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := Read(&buf)
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	return back
}

// outGame is a random lexio game of n players that ends with a player
// placing their last tile (RULES §11.1) while the others still hold
// letters worth something: the finisher gains.
func outGame(t *testing.T, n int) *engine.Game {
	t.Helper()
	for seed := uint64(1); seed <= 50; seed++ {
		cfg := engine.Config{Players: n, Seed: seed, Start: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
		g := playRandom(t, cfg, rand.New(rand.NewPCG(seed, 7)), -1)
		res := g.Result()
		if res.Reason != engine.EndOut {
			continue
		}
		worth := 0
		for _, r := range res.Racks {
			for _, c := range []byte(r) {
				worth += board.TileValue(c)
			}
		}
		if worth > 0 {
			return g
		}
	}
	t.Fatalf("no %d-player game out of 50 ends with a gain (RULES §11.1)", n)
	return nil
}

// layOut finds a placement of exactly these tiles on b that the shape
// rules accept ('?' is played as a blank E).
func layOut(b *board.Board, tiles []byte, rules board.Rules) (board.Play, bool) {
	for r := range board.Size {
		for c := range board.Size {
			for _, dir := range []board.Dir{board.Across, board.Down} {
				var ps []board.Placement
				for cur := (board.Cell{Col: c, Row: r}); len(ps) < len(tiles) && cur.OnBoard() && board.Playable(cur); cur = cur.Next(dir, 1) {
					if !b.At(cur).Empty() {
						continue
					}
					p := board.Placement{Cell: cur, Letter: tiles[len(ps)]}
					if p.Letter == board.BlankTile {
						p.Letter, p.Blank = 'E', true
					}
					ps = append(ps, p)
				}
				if len(ps) < len(tiles) {
					continue
				}
				if play, err := board.Evaluate(b, ps, rules); err == nil {
					return play, true
				}
			}
		}
	}
	return board.Play{}, false
}

// moreTilesThanHeld is a real game cut at a placement made with fewer
// than 7 tiles (the bag is empty), where the record claims one tile more
// than the player holds and places them all.
func moreTilesThanHeld(t *testing.T) (string, int) {
	for seed := uint64(1); seed <= 50; seed++ {
		cfg := engine.Config{Players: 2, Seed: seed, Start: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
		rec := written(t, playRandom(t, cfg, rand.New(rand.NewPCG(seed, 7)), -1))
		for k, ev := range rec.Events {
			if ev.Kind != Place || len(ev.Rack) >= board.RackSize {
				continue
			}
			before, err := Replay(&Record{Players: rec.Players, Events: rec.Events[:k]}, Options{Dict: enginetest.AnyWord{}}, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			tiles := ev.Rack + "E"
			play, ok := layOut(&before.Board, []byte(tiles), board.Rules{})
			if !ok {
				continue
			}
			bad := ev
			bad.Rack = tiles
			placeEvent(&bad, play)
			bad.Total = before.Scores[seatOf(rec, ev.Nick)] + play.Score
			rec.Events = append(rec.Events[:k], bad)
			return gcgText(t, rec), ev.Line
		}
	}
	t.Fatal("no game of 50 has a placement of more tiles than held that fits on the board")
	return "", 0
}

// seatOf is the index of nick among rec's players.
func seatOf(rec *Record, nick string) int {
	for i, p := range rec.Players {
		if p.Nick == nick {
			return i
		}
	}
	return -1
}

func gcgText(t *testing.T, rec *Record) string {
	t.Helper()
	var buf bytes.Buffer
	if _, err := rec.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// endEdit changes the end-of-game lines of a 3-player game that ends out
// (RULES §11.1); the problem is expected at the record's last line.
func endEdit(edit func(evs []Event) []Event) func(t *testing.T) (string, int) {
	return func(t *testing.T) (string, int) {
		rec := written(t, outGame(t, 3))
		rec.Events = edit(rec.Events)
		back := reread(t, rec)
		return gcgText(t, rec), back.Events[len(back.Events)-1].Line
	}
}

func firstOf(evs []Event, k Kind) int {
	for i, e := range evs {
		if e.Kind == k {
			return i
		}
	}
	return -1
}

// idleEdit changes one line of testdata/idle.gcg (RULES §11.2).
func idleEdit(old, new string, line int) func(t *testing.T) (string, int) {
	return func(t *testing.T) (string, int) {
		good, err := os.ReadFile(filepath.Join("testdata", "idle.gcg"))
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Replace(string(good), old, new, 1)
		if text == string(good) {
			t.Fatalf("%q not found in idle.gcg", old)
		}
		return text, line
	}
}

func fixed(text string, line int) func(t *testing.T) (string, int) {
	return func(*testing.T) (string, int) { return text, line }
}

// TestReplayRacks: records no game could produce, because of what they say
// about racks, are refused at the line that contradicts the tiles
// (RULES §3, §4.5, §7.1, §11, §12).
func TestReplayRacks(t *testing.T) {
	plain := board.Rules{Variant: board.Lexico, Plain: true}
	tests := []struct {
		name  string
		rules board.Rules
		make  func(t *testing.T) (text string, line int)
		want  string
	}{
		{"more tiles than held", board.Rules{}, moreTilesThanHeld, "holds"},
		{"second Z", board.Rules{}, idleEdit(">bob: LMNPXZK -XZ", ">bob: LMNPZZK -ZZ", 11), "2 Z"},
		{"Z on the board and on a rack", board.Rules{}, fixed(`#player1 a
#player2 b
>a: ZEAIRST 7F ZE +11 11
>b: ZAEIRST - +0 0
`, 4), "Z"},
		{"6 tiles while the bag is full", board.Rules{}, idleEdit(">alice: ACHTEIR 7F", ">alice: ACHTEI 7F", 6), "6 tiles"},
		{"8 tiles", board.Rules{}, idleEdit(">alice: ACHTEIR 7F", ">alice: ACHTEIRS 7F", 6), "8 tiles"},
		{"blank in plain lexico", plain, fixed("#player1 a\n#player2 b\n>a: ACHTEI? 7F CHAT +8 8\n", 3), "plain lexico has none"},
		{"kept tiles gone", board.Rules{}, idleEdit(">alice: EIRANSU 8F", ">alice: EIXANSU 8F", 10), "kept"},
		{"rack changed by a pass", board.Rules{}, idleEdit(">alice: ENRSUOT - +0 29\n>bob: LMNPKAE - +0 8\n>alice: ENRSUOT", ">alice: ENRSUOT - +0 29\n>bob: LMNPKAE - +0 8\n>alice: ENRSUOI", 14), "exactly"},
		{"wrong rack in an adjustment", board.Rules{}, idleEdit("(ENRSUOT) -7", "(ENRSUOE) -7", 15), "exactly"},
		{"short rack in an adjustment", board.Rules{}, idleEdit("(ENRSUOT) -7 22", "(ENRSUO) -6 23", 15), "6 tiles"},
		{"missing loss after two idle rounds", board.Rules{}, idleEdit(">bob: (LMNPKAE) -18 -10", "", 15), "bob"},
		{"missing loss after going out", board.Rules{}, endEdit(func(evs []Event) []Event {
			// The gain is lowered to match, so that the figures add up.
			i, g := firstOf(evs, EndLoss), firstOf(evs, EndGain)
			evs[g].Rack = strings.TrimPrefix(evs[g].Rack, evs[i].Rack)
			evs[g].Score += evs[i].Score
			evs[g].Total += evs[i].Score
			return append(evs[:i], evs[i+1:]...)
		}), "is missing"},
		{"missing gain after going out", board.Rules{}, endEdit(func(evs []Event) []Event {
			i := firstOf(evs, EndGain)
			return append(evs[:i], evs[i+1:]...)
		}), "is missing"},
		{"gain of nothing after going out", board.Rules{}, endEdit(func(evs []Event) []Event {
			i := firstOf(evs, EndGain)
			evs[i].Total -= evs[i].Score
			evs[i].Rack, evs[i].Score = "", 0
			return evs
		}), "gains"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, line := tt.make(t)
			rec, err := Read(strings.NewReader(text))
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			_, err = Replay(rec, Options{Rules: tt.rules, Dict: enginetest.AnyWord{}, Check: true}, &out)
			var p Problem
			if !errors.Is(err, ErrCheck) || !errors.As(err, &p) || p.Line != line || !strings.Contains(p.Reason, tt.want) {
				t.Fatalf("err = %v; want line %d: %q\n%s", err, line, tt.want, text)
			}
		})
	}
}

// Without --check a rack no game could give is counted, and the replay
// goes on with the record's word for it: the rest of the game is checked
// as usual.
func TestReplayRackProblemGoesOn(t *testing.T) {
	text, _ := idleEdit(">alice: ACHTEIR 7F", ">alice: ACHTEI 7F", 6)(t)
	rec, err := Read(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	sum, err := Replay(rec, Options{Dict: testDict(t)}, &out)
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Problems) != 1 || sum.Problems[0].Line != 6 || !strings.Contains(sum.Problems[0].Reason, "has 6 tiles, but alice holds 7") {
		t.Fatalf("problems %v\n%s", sum.Problems, out.String())
	}
	if !sum.Over || sum.Scores[0] != 22 || sum.Scores[1] != -10 {
		t.Fatalf("scores %v (over %v), want [22 -10]\n%s", sum.Scores, sum.Over, out.String())
	}
}

// The finisher's gain may come before the losses it adds up, as the
// package's example writes it (RULES §11.1).
func TestReplayGainFirst(t *testing.T) {
	rec := written(t, outGame(t, 3))
	g := firstOf(rec.Events, EndGain)
	l := firstOf(rec.Events, EndLoss)
	gain := rec.Events[g]
	rec.Events = append(rec.Events[:g], rec.Events[g+1:]...)
	rec.Events = append(rec.Events[:l], append([]Event{gain}, rec.Events[l:]...)...)
	var out bytes.Buffer
	if _, err := Replay(reread(t, rec), Options{Dict: enginetest.AnyWord{}, Check: true}, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
}
