package tableview

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/lexio-mail/lexio/engine/board"
	"github.com/lexio-mail/lexio/gcg"
	"github.com/lexio-mail/lexio/parser"
	"github.com/lexio-mail/lexio/templates"
)

// This file is what the operator reads in a terminal (`lexio table list`
// and `show`): player text escaped by parser.Shown, times in the local
// zone.

// WriteList writes one line per table, under a header; a table that cannot
// be read is listed with its error, and its name returned in bad.
func WriteList(out io.Writer, ts []Summary) (bad []string, err error) {
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "TABLE\tLEAGUE\tVARIANT\tSTATUS\tMOVES\tTO PLAY\tDEADLINE\tPLAYERS")
	for _, t := range ts {
		if t.Err != nil {
			bad = append(bad, t.Name)
			fmt.Fprintf(w, "%s\terror: %v\n", t.Name, t.Err)
			continue
		}
		turn, deadline := "-", "-"
		players := parser.ShownAll(t.Players)
		if t.Turn >= 0 {
			turn = players[t.Turn]
		}
		if t.Deadline != nil {
			deadline = t.Deadline.Local().Format("2006-01-02 15:04")
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\n", t.Name, t.League, t.Variant, t.Status, t.Moves, turn, deadline, strings.Join(players, " "))
	}
	return bad, w.Flush()
}

// WriteShow writes table t for the operator: its state, each player's
// score, the board with its columns' letters and rows' numbers, and the
// log as the players' LOG numbers it; watch is the spectators' link, or
// "".
func WriteShow(w io.Writer, t Summary, watch string) {
	fmt.Fprintf(w, "table %s  league %s  variant %s  status %s  moves %d\n", t.Name, t.League, t.Variant, t.Status, t.Moves)
	players := parser.ShownAll(t.Players)
	if t.Deadline != nil {
		fmt.Fprintf(w, "turn of %s until %s\n", players[t.Turn], t.Deadline.Local().Format(time.RFC1123))
	}
	if watch != "" {
		fmt.Fprintf(w, "spectators: %s\n", watch)
	}
	for i, p := range players {
		score := "-"
		if i < len(t.Scores) {
			score = strconv.Itoa(t.Scores[i])
		}
		left := ""
		for _, d := range t.Left {
			if d.Player == i {
				left = "  resigned " + d.At.Local().Format("2006-01-02 15:04")
				if d.Forfeit {
					left = "  forfeited " + d.At.Local().Format("2006-01-02 15:04")
				}
			}
		}
		fmt.Fprintf(w, "  %d. %-32s %6s%s\n", i+1, p, score, left)
	}
	if t.Board != "" {
		fmt.Fprintln(w)
		writeBoard(w, t.Board)
		fmt.Fprintln(w)
	}
	for _, l := range t.Log {
		fmt.Fprintf(w, "%s\n", LogText(l))
	}
}

// writeBoard writes the text grid of board.Board.String() with the
// coordinates players write moves in: columns A to M, rows 1 to 13.
func writeBoard(w io.Writer, grid string) {
	rows := strings.Split(strings.TrimRight(grid, "\n"), "\n")
	head := "   "
	for c := range board.Size {
		head += " " + string(rune('A'+c))
	}
	fmt.Fprintln(w, head)
	for i, r := range rows {
		cells := make([]string, len(r))
		for j := range len(r) {
			cells[j] = r[j : j+1]
		}
		fmt.Fprintf(w, "%3d %s\n", i+1, strings.Join(cells, " "))
	}
}

// WriteGCG writes the game of table t as a GCG record (lexio replay reads
// it).
func (v *Service) WriteGCG(ctx context.Context, w io.Writer, t Summary) error {
	g, err := v.Tables.Game(ctx, t.Name)
	if err != nil {
		return err
	}
	if g == nil {
		return fmt.Errorf("table %s: the game has not started", t.Name)
	}
	rec, err := gcg.FromGame(g.Config(), g.Actions(), parser.ShownAll(t.Players))
	if err != nil {
		return err
	}
	rec.Title = "lexio table " + t.Name
	_, err = rec.WriteTo(w)
	return err
}

// LogText writes a line of the log for the admin, in English: its number
// as the players' LOG gives it ("   3.", "    -" for a line that ends no
// turn), its time, who, and what, a placement with its cell and
// direction and its words as played (a blank's letter in lowercase).
// Player text is escaped here.
func LogText(l templates.LogLine) string {
	num := "    -"
	if l.Turn > 0 {
		num = fmt.Sprintf("%4d.", l.Turn)
	}
	who := "table"
	if l.Player != "" {
		who = parser.Shown(l.Player)
	}
	head := fmt.Sprintf("%s %s  %-24s ", num, l.At.Local().Format("2006-01-02 15:04"), who)
	switch l.Kind {
	case templates.LogPlace:
		if len(l.Words) == 0 {
			return head + fmt.Sprintf("placed at %s: %d points", l.Pos, l.Score)
		}
		dir := "across"
		if l.Down {
			dir = "down"
		}
		ws := make([]string, len(l.Words))
		for i, w := range l.Words {
			ws[i] = fmt.Sprintf("%s %d", w.Word, w.Points)
		}
		bonus := ""
		if l.Bonus > 0 {
			bonus = fmt.Sprintf(", bonus %d", l.Bonus)
		}
		return head + fmt.Sprintf("placed %s at %s %s: %d points (%s%s)", l.Words[0].Word, l.Pos, dir, l.Score, strings.Join(ws, ", "), bonus)
	case templates.LogExchange:
		return head + fmt.Sprintf("exchanged %d tiles", l.Count)
	case templates.LogPass:
		return head + "passed"
	case templates.LogExpire:
		return head + "let the turn expire"
	case templates.LogEnd:
		end := "game over: " + l.End.String()
		if len(l.Adjustments) > 0 {
			racks := make([]string, len(l.Adjustments))
			for i, a := range l.Adjustments {
				racks[i] = fmt.Sprintf("%s %+d", parser.Shown(a.Player), a.Points)
			}
			end += "; racks: " + strings.Join(racks, ", ")
		}
		return head + end
	case templates.LogResign:
		what := "resigned"
		if l.Forfeit {
			what = "forfeited (turns expired in a row)"
		}
		if l.Count > 0 {
			what += fmt.Sprintf(", %d tiles back in the bag", l.Count)
		}
		return head + what
	case templates.LogSubstitute:
		return head + fmt.Sprintf("seat passed from %s to %s", parser.Shown(l.From), parser.Shown(l.To))
	}
	return head + fmt.Sprintf("entry of kind %d", l.Kind)
}
