package tableview

import (
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/engine/board"
	"github.com/lexio-mail/lexio/templates"
)

// TestLogTextLeaving: table show names resignations, forfeits and
// substitutions (LEAGUES §2.4, §4.1).
func TestLogTextLeaving(t *testing.T) {
	for _, tc := range []struct {
		l    templates.LogLine
		want string
	}{
		{templates.LogLine{Kind: templates.LogResign, Player: "bob@localhost", Count: 7}, "bob@localhost            resigned, 7 tiles back in the bag"},
		{templates.LogLine{Kind: templates.LogResign, Player: "alice@localhost", Forfeit: true}, "forfeited (turns expired in a row)"},
		{templates.LogLine{Kind: templates.LogSubstitute, From: "Bob", To: "Dave"}, "seat passed from Bob to Dave"},
	} {
		if got := LogText(tc.l); !strings.Contains(got, tc.want) || !strings.HasPrefix(got, "    - ") {
			t.Errorf("%q lacks %q, or is numbered", got, tc.want)
		}
	}
}

// TestWriteShow: table show draws the board with the coordinates moves
// are written in (columns A–M, rows 1–13), a blank in lowercase, and
// each move with its number in the players' LOG, its cell and its
// direction (#34).
func TestWriteShow(t *testing.T) {
	// CHAT down from G7, its A a blank, as board.Board.String writes it.
	rows := make([]string, board.Size)
	for i := range rows {
		rows[i] = strings.Repeat(".", board.Size)
	}
	for i, c := range "CHaT" {
		rows[6+i] = rows[6+i][:6] + string(c) + rows[6+i][7:]
	}
	grid := strings.Join(rows, "\n") + "\n"
	at := time.Date(2026, 12, 8, 0, 31, 0, 0, time.Local)
	sum := Summary{Name: "t1", League: "main", Variant: "lexio", Status: "playing", Players: []string{"alice@localhost", "bob@localhost"},
		Scores: []int{8, 0}, Turn: 1, Moves: 2, Board: grid, Log: []templates.LogLine{
			{Turn: 1, At: at, Kind: templates.LogPlace, Player: "alice@localhost", Words: []templates.Word{{Word: "CHaT", Points: 8}},
				Pos: templates.Pos{Row: 6, Col: 6}, Down: true, Score: 8},
			{Turn: 2, At: at, Kind: templates.LogPass, Player: "bob@localhost"},
			{At: at, Kind: templates.LogSubstitute, From: "Bob", To: "Dave"},
		}}
	var out strings.Builder
	WriteShow(&out, sum, "")
	got := out.String()
	for _, want := range []string{
		"moves 2\n",
		"\n    A B C D E F G H I J K L M\n",
		"\n  1 ",
		"\n  7 " + strings.Repeat(". ", 6) + "C",
		"\n  9 " + strings.Repeat(". ", 6) + "a",
		"\n 13 ",
		"\n   1. 2026-12-08 00:31  alice@localhost          placed CHaT at G7 down: 8 points (CHaT 8)\n",
		"\n   2. 2026-12-08 00:31  bob@localhost            passed\n",
		"\n    - 2026-12-08 00:31  table                    seat passed from Bob to Dave\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
}
