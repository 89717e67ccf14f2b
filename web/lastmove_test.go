package web_test

import (
	"fmt"
	"html"
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/notice"
)

// TestLastMoveOnPage: a player's page and the spectators' say the last
// move in words and list the board's words, as a notice does.
func TestLastMoveOnPage(t *testing.T) {
	f := newFixture(t)
	name := f.startSeason()[0].Name
	f.play(name)
	f.play(name)
	v, err := f.game(name).View(0, f.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	b := v.Board
	l := notice.LastMove(notice.LogLines(v.Log, nil, &b))
	if l == nil || len(l.Words) == 0 {
		t.Fatalf("no placement last: %+v", l)
	}
	dir := map[bool]string{false: "across", true: "down"}
	want := []string{fmt.Sprintf(" played %s at %s %s for %d points.<", l.Words[0].Word, l.Pos, dir[l.Down], l.Score)}
	var list []string
	for _, w := range notice.BoardWords(&b) {
		list = append(list, fmt.Sprintf("%s %s %s", w.Word, w.Pos, dir[w.Down]))
	}
	want = append(want, ">Words on the board: "+strings.Join(list, ", ")+".<")
	for _, path := range []string{f.links.PlayerPath(name, f.playerID(f.seatAddr(name, 0))), f.links.SpectatorPath(name)} {
		page := html.UnescapeString(f.get(path).Body.String())
		for _, w := range want {
			if !strings.Contains(page, w) {
				t.Errorf("%s lacks %q", path, w)
			}
		}
	}
}
