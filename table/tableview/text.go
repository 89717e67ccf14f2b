package tableview

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/gcg"
	"github.com/lexio-mail/lexio/parser"
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
// score, the board and the whole log; watch is the spectators' link, or "".
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
		fmt.Fprintf(w, "\n%s\n", t.Board)
	}
	for _, l := range t.Log {
		fmt.Fprintf(w, "%s\n", LogText(l, players))
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

// LogText writes a log entry for the admin, who sees every entry; players
// are as shown, the names of the entry are made so here.
func LogText(l engine.LogEntry, players []string) string {
	who := "table"
	if l.Player >= 0 && l.Player < len(players) {
		who = players[l.Player]
	}
	head := fmt.Sprintf("%3d  %s  %-24s ", l.Seq, l.At.Local().Format("2006-01-02 15:04"), who)
	switch l.Kind {
	case engine.LogPlace:
		var ws []string
		for _, w := range l.Play.Words {
			ws = append(ws, fmt.Sprintf("%s %d", w.Text, w.Score))
		}
		return head + fmt.Sprintf("placed %s at %s: %d points (%s)", l.Play.Words[0].Text, l.Play.Words[0].Start, l.Play.Score, strings.Join(ws, ", "))
	case engine.LogExchange:
		return head + fmt.Sprintf("exchanged %d tiles", l.Count)
	case engine.LogPass:
		return head + "passed"
	case engine.LogExpire:
		return head + "let the turn expire"
	case engine.LogRejected:
		return head + "was refused (private): " + strings.Join(parser.ShownAll(l.Words), ", ")
	case engine.LogAdjust:
		return head + fmt.Sprintf("end of game: %+d (rack %q)", l.Score, l.Rack)
	case engine.LogEnd:
		return head + "game over: " + string(l.Reason)
	case engine.LogResign:
		what := "resigned"
		if l.Forfeit {
			what = "forfeited (turns expired in a row)"
		}
		if l.Count > 0 {
			what += fmt.Sprintf(", %d tiles back in the bag", l.Count)
		}
		return head + what
	case engine.LogSubst:
		return head + fmt.Sprintf("seat passed from %s to %s", parser.Shown(l.From), parser.Shown(l.To))
	}
	return head + string(l.Kind)
}
