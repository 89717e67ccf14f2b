package web_test

import (
	"fmt"
	"html"
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/notice"
)

// TestUnseenOnPage: a player's page shows the tiles they have not seen,
// as the notice's text part writes them, with the vowels and consonants;
// the spectators' page shows none, which would tell a rack apart.
func TestUnseenOnPage(t *testing.T) {
	f := newFixture(t)
	name := f.startSeason()[0].Name
	f.play(name)
	f.play(name)
	for p := range 2 {
		v, err := f.game(name).View(p, f.clock.Now())
		if err != nil {
			t.Fatal(err)
		}
		u := notice.UnseenData(v)
		page := html.UnescapeString(f.get(f.links.PlayerPath(name, f.playerID(f.seatAddr(name, p)))).Body.String())
		for _, want := range []string{
			fmt.Sprintf(">Unseen tiles (%d): %s<", u.Tiles, strings.Join(u.Groups, " ")),
			fmt.Sprintf(">Vowels %d, consonants %d.<", u.Vowels, u.Consonants),
		} {
			if !strings.Contains(page, want) {
				t.Errorf("seat %d's page lacks %q", p, want)
			}
		}
	}
	if page := f.get(f.links.SpectatorPath(name)).Body.String(); strings.Contains(page, "Unseen tiles") {
		t.Error("the spectators' page shows unseen tiles")
	}
	w, err := f.views.WebTable(f.ctx, name, 0)
	if err != nil {
		t.Fatal(err)
	}
	if w.Notice.Unseen.Tiles != 0 || w.Notice.Unseen.Groups != nil {
		t.Errorf("the spectators' data holds unseen tiles: %+v", w.Notice.Unseen)
	}
}
