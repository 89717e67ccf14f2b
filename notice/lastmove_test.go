package notice

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/engine/board"
	"github.com/lexio-mail/lexio/engine/enginetest"
	"github.com/lexio-mail/lexio/templates"
)

// TestLastMoveAndBoardWords plays a three-player game through every kind
// of move and checks, after each, the last move the presenter reads off
// the log and the board's words it lists: every word of every placement
// so far, with its first cell and direction.
func TestLastMoveAndBoardWords(t *testing.T) {
	at := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	g, err := engine.New(engine.Config{Rules: board.Rules{Variant: board.Lexio}, Players: 3, Seed: 7, Start: at})
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"Alice", "Bob", "Chloé"}
	last := func() (*templates.LogLine, []templates.BoardWord) {
		v, err := g.View(0, at)
		if err != nil {
			t.Fatal(err)
		}
		b := v.Board
		return LastMove(LogLines(v.Log, names, &b)), BoardWords(&b)
	}
	if l, ws := last(); l != nil || ws != nil {
		t.Fatalf("before any move: last %+v, words %+v", l, ws)
	}
	var played []board.Word
	place := func(p int) *board.Play {
		t.Helper()
		play, ok := enginetest.FindPlay(g, p, 0)
		if !ok {
			t.Fatalf("no play for player %d", p)
		}
		got, err := g.PlaceTiles(p, play.Tiles, enginetest.AnyWord{}, at)
		if err != nil {
			t.Fatal(err)
		}
		played = got.Play.Words // a later play may lengthen these
		return &got.Play
	}
	checkWords := func(ws []templates.BoardWord) {
		t.Helper()
		for _, w := range played {
			if !slices.ContainsFunc(ws, func(b templates.BoardWord) bool {
				return b.Pos == Pos(w.Start) && b.Down == (w.Dir == board.Down) && strings.ToUpper(b.Word) == w.Text
			}) {
				t.Errorf("%s at %v not among the board's words %+v", w.Text, Pos(w.Start), ws)
			}
		}
	}

	at = at.Add(time.Hour)
	p := place(0)
	l, ws := last()
	main := p.Words[0]
	if l == nil || l.Kind != templates.LogPlace || l.Player != "Alice" || l.Pos != Pos(main.Start) ||
		l.Down != (p.Dir == board.Down) || l.Score != p.Score || len(l.Words) == 0 || l.Words[0].Word != main.Text {
		t.Fatalf("after a placement: last %+v, want %s at %v for %d", l, main.Text, Pos(main.Start), p.Score)
	}
	if len(ws) != len(p.Words) {
		t.Errorf("after the first placement: words %+v, want %d", ws, len(p.Words))
	}
	checkWords(ws)

	at = at.Add(time.Hour)
	if _, err := g.Exchange(1, engine.Selection{Slots: []int{1, 2, 3}}, at); err != nil {
		t.Fatal(err)
	}
	if l, _ := last(); l == nil || l.Kind != templates.LogExchange || l.Player != "Bob" || l.Count != 3 {
		t.Errorf("after an exchange: last %+v", l)
	}
	at = at.Add(time.Hour)
	if err := g.Pass(2, at); err != nil {
		t.Fatal(err)
	}
	if l, _ := last(); l == nil || l.Kind != templates.LogPass || l.Player != "Chloé" {
		t.Errorf("after a pass: last %+v", l)
	}
	at = at.Add(time.Hour)
	if err := g.Expire(0, at); err != nil {
		t.Fatal(err)
	}
	if l, _ := last(); l == nil || l.Kind != templates.LogExpire || l.Player != "Alice" {
		t.Errorf("after an expiry: last %+v", l)
	}
	at = at.Add(time.Hour)
	place(1)
	_, ws = last()
	checkWords(ws)
	at = at.Add(time.Hour)
	if err := g.Resign(2, at, false); err != nil {
		t.Fatal(err)
	}
	if l, _ := last(); l == nil || l.Kind != templates.LogResign || l.Player != "Chloé" || l.Forfeit {
		t.Errorf("after a resignation: last %+v", l)
	}
}
