package web_test

import (
	"html"
	"strings"
	"testing"
)

// TestNoteOnPage: a player's note (NOTE, written by mail) shows on their
// own page of the table, running and over, and on no one else's: not the
// other player's, not the spectators'.
func TestNoteOnPage(t *testing.T) {
	f := newFixture(t)
	name := f.startSeason()[0].Name
	author, other := f.seatAddr(name, 0), f.seatAddr(name, 1)
	const note = "keep the S for M13 <b>&</b>"
	f.send(author, name, "NOTE "+name+" "+note)
	f.play(name)
	page := func(addr string) string {
		path := f.links.SpectatorPath(name)
		if addr != "" {
			path = f.links.PlayerPath(name, f.playerID(addr))
		}
		return html.UnescapeString(f.get(path).Body.String())
	}
	check := func(when string) {
		t.Helper()
		if p := page(author); !strings.Contains(p, ">"+note+"</blockquote>") || !strings.Contains(p, "Your note (you alone see it):") {
			t.Errorf("%s: the author's page lacks the note", when)
		}
		for who, p := range map[string]string{"the other player's": page(other), "the spectators'": page("")} {
			if strings.Contains(p, "keep the S") || strings.Contains(p, "Your note") {
				t.Errorf("%s: %s page shows the author's note", when, who)
			}
		}
		w, err := f.views.WebTable(f.ctx, name, 0)
		if err != nil {
			t.Fatal(err)
		}
		if w.Notice.Note != "" {
			t.Errorf("%s: the spectators' data holds a note %q", when, w.Notice.Note)
		}
	}
	check("in play")
	f.send(other, name, "RESIGN "+name)
	if !f.game(name).Over() {
		t.Fatal("the game is not over")
	}
	check("over")
	gcg, err := f.views.WebGCG(f.ctx, name)
	if err != nil || len(gcg) == 0 || strings.Contains(string(gcg), "keep the S") {
		t.Errorf("the game's record: %v, holding the note %v", err, strings.Contains(string(gcg), "keep the S"))
	}
}
