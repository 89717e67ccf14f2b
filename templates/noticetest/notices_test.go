package noticetest

import (
	"testing"

	"github.com/lexio-mail/lexio/engine/board"
	"github.com/lexio-mail/lexio/templates"
)

// BoardShown finds a board drawn by the templates' text grid, and sees a
// tile that is missing, moved or not a blank.
func TestBoardShown(t *testing.T) {
	set, err := templates.New()
	if err != nil {
		t.Fatal(err)
	}
	var b board.Board
	g7, h7 := board.Fountain(), board.Fountain().Next(board.Across, 1)
	if err := b.Apply([]board.Placement{{Cell: g7, Letter: 'A'}, {Cell: h7, Letter: 'B', Blank: true}}); err != nil {
		t.Fatal(err)
	}
	draw := func(cells map[board.Cell]templates.Cell) string {
		var tb templates.Board
		for c, v := range cells {
			tb.Cells[c.Row][c.Col] = v
		}
		r, err := set.Render("en", templates.BoardMsg{Board: tb})
		if err != nil {
			t.Fatal(err)
		}
		return r.Text
	}
	good := draw(map[board.Cell]templates.Cell{g7: {Letter: 'A'}, h7: {Letter: 'B', Blank: true}})
	if !BoardShown(good, &b) {
		t.Fatalf("the board is not found in:\n%s", good)
	}
	for name, cells := range map[string]map[board.Cell]templates.Cell{
		"missing":   {g7: {Letter: 'A'}},
		"moved":     {g7: {Letter: 'A'}, h7.Next(board.Down, 1): {Letter: 'B', Blank: true}},
		"not blank": {g7: {Letter: 'A'}, h7: {Letter: 'B'}},
	} {
		if BoardShown(draw(cells), &b) {
			t.Errorf("%s: BoardShown is true", name)
		}
	}
}
