package gcg

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/engine/enginetest"
)

// playLeaving plays a random game in which players resign or forfeit
// (LEAGUES §2), on their turn or not, after the given turns, and a seat
// changes hands (LEAGUES §4.1) after the first.
func playLeaving(t *testing.T, cfg engine.Config, r *rand.Rand, leaveAt []int) *engine.Game {
	t.Helper()
	g, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	at := cfg.Start
	for i := 0; i < 500 && !g.Over(); i++ {
		at = at.Add(time.Hour)
		if slices.Contains(leaveAt, i) {
			var in []int
			for q := range g.Players() {
				if !g.Left(q) {
					in = append(in, q)
				}
			}
			q := in[r.IntN(len(in))]
			if i == leaveAt[0] {
				if err := g.Substitute(q, "Old Name", "New\nName", at); err != nil {
					t.Fatal(err)
				}
			}
			if err := g.Resign(q, at, r.IntN(2) == 0); err != nil {
				t.Fatal(err)
			}
			continue
		}
		p := g.Turn()
		play, ok := enginetest.FindPlay(g, p, 0)
		switch x := r.IntN(10); {
		case ok && x < 7:
			_, err = g.PlaceTiles(p, play.Tiles, enginetest.AnyWord{}, at)
		case x < 8 && g.BagCount() >= 2:
			_, err = g.Exchange(p, engine.Selection{Slots: []int{1, 2}}, at)
		case x < 9:
			err = g.Expire(p, at)
		default:
			err = g.Pass(p, at)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if !g.Over() {
		t.Fatal("no end after 500 turns")
	}
	return g
}

// A game with resignations, written as GCG, reads back and replays with
// --check to the engine's scores and board: the tracker accounts for the
// racks returned to the bag (LEAGUES §2.2) and for those revealed at the
// end (LEAGUES §2.1), and players who left are skipped.
func TestResignRoundTrip(t *testing.T) {
	for _, s := range []struct {
		players int
		leaveAt []int
	}{
		{2, []int{5}}, {2, []int{0}}, // LEAGUES §2.4: before any move too
		{3, []int{4}}, {3, []int{3, 9}},
		{4, []int{2}}, {4, []int{6, 7}}, {4, []int{1, 8, 20}},
	} {
		endings := map[engine.EndReason]int{}
		for seed := uint64(1); seed <= 8; seed++ {
			t.Run(fmt.Sprintf("%dp-%v-seed%d", s.players, s.leaveAt, seed), func(t *testing.T) {
				cfg := engine.Config{Players: s.players, Seed: seed, Start: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
				g := playLeaving(t, cfg, rand.New(rand.NewPCG(seed, 3)), s.leaveAt)
				res := g.Result()
				endings[res.Reason]++
				rec, err := FromGame(g.Config(), g.Actions(), testNames[:s.players])
				if err != nil {
					t.Fatal(err)
				}
				var buf bytes.Buffer
				if _, err := rec.WriteTo(&buf); err != nil {
					t.Fatal(err)
				}
				text := buf.String()
				if got := strings.Count(text, "\n#resign ") + strings.Count(text, "\n#forfeit "); got != len(res.Left) {
					t.Errorf("%d resignation lines for %d who left\n%s", got, len(res.Left), text)
				}
				if !strings.Contains(text, "\n#note ") || !strings.Contains(text, "from Old Name to New Name\n") {
					t.Errorf("no substitution note on one line\n%s", text)
				}
				if ended := res.Reason == engine.EndResign || res.Reason == engine.EndForfeit; ended != strings.Contains(text, "\n#rack") {
					t.Errorf("end %s: #rack lines only at an end by resignation\n%s", res.Reason, text)
				}
				back, err := Read(bytes.NewReader(buf.Bytes()))
				if err != nil {
					t.Fatalf("%v\n%s", err, text)
				}
				var out bytes.Buffer
				sum, err := Replay(back, Options{Dict: enginetest.AnyWord{}, Check: true}, &out)
				if err != nil {
					t.Fatalf("%v\n%s\n%s", err, text, out.String())
				}
				if !slices.Equal(sum.Scores, res.Scores) || !sum.Over {
					t.Fatalf("replayed scores %v (over %v), the engine's %v\n%s", sum.Scores, sum.Over, res.Scores, text)
				}
				if b := g.Board(); sum.Board.String() != b.String() {
					t.Fatal("replayed board differs from the engine's")
				}
			})
		}
		t.Logf("%d players, leaving at %v: %v", s.players, s.leaveAt, endings)
	}
}

// The replay refuses what a resignation does not allow.
func TestResignReplayProblems(t *testing.T) {
	// Seed-free racks: the deal is unknown, so any rack of 7 can be held.
	head := "#player1 ann Ann\n#player2 ben Ben\n#player3 cat Cat\n"
	for _, tc := range []struct {
		name, body, want string
	}{
		{"moves after leaving", ">ann: ACEHRST 7D CHAT +8 8\n#resign ben EEILNRT\n>cat: AEINRST - +0 0\n>ann: AERSTXY - +0 8\n>ben: EEILNRT - +0 0\n",
			"ben left at line 5 and plays no more"},
		{"skipped", ">ann: ACEHRST 7D CHAT +8 8\n#resign ben EEILNRT\n>ben: EEILNRT - +0 0\n",
			"left at line 5"},
		{"resign twice", "#resign ben EEILNRT\n#resign ben EEILNRT\n", "already left at line 4"},
		{"short rack", "#resign ben EEIL\n", "has 4 tiles"},
		{"adjusted", "#resign ben EEILNRT\n#resign ann ACEHRST\n>cat: (AEINRST) -7 -7\n", "no rack adjustments at the end by resignation"},
		{"reveal while running", "#rack1 ACEHRST\n", "#rack line shows a rack at the end by resignation"},
		{"reveal the one who left first", "#resign ben EEILNRT\n#resign ann ACEHRST\n#rack2 EEILNRT\n", "ben left at line 4: their rack went back"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec, err := Read(strings.NewReader(head + tc.body))
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			_, err = Replay(rec, Options{Dict: enginetest.AnyWord{}, Check: true}, &out)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q\n%s", err, tc.want, out.String())
			}
		})
	}
}

// A record that resigns the right way replays: off turn, the turn kept;
// on turn, passed to the next still in; a #rack line for each still in.
func TestResignReplayOK(t *testing.T) {
	text := "#player1 ann Ann\n#player2 ben Ben\n#player3 cat Cat\n" +
		">ann: ACEHRST 7D CHAT +8 8\n" +
		"#forfeit cat AEINRST\n" + // off turn: still ben's
		">ben: EEILNRT - +0 0\n" +
		">ann: AERSTXY - +0 8\n" + // cat skipped
		"#resign ann AERSTXY\n" + // off turn, ben to play: ben is alone
		"#rack2 EEILNRT\n"
	rec, err := Read(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	sum, err := Replay(rec, Options{Dict: enginetest.AnyWord{}, Check: true}, &out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if !sum.Over || !slices.Equal(sum.Scores, []int{8, 0, 0}) || !strings.Contains(out.String(), "game over (resign)") {
		t.Errorf("%+v\n%s", sum, out.String())
	}
}
