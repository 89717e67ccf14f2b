package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/lexio-mail/lexio/config"
	"github.com/lexio-mail/lexio/dict"
	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/gcg"
	"github.com/lexio-mail/lexio/internal/weblink"
	"github.com/lexio-mail/lexio/parser"
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/templates"
)

// adminService opens the configured store with a service around it, for
// the table commands; it works while the daemon runs (SQLite takes one
// writer at a time, across processes too). Mail it queues is sent by the
// daemon.
func adminService(ctx context.Context, e *env, path string) (*services, func(), error) {
	c, err := loadConfig(path)
	if err != nil {
		return nil, nil, err
	}
	return adminServiceOf(ctx, e, c)
}

func adminServiceOf(ctx context.Context, e *env, c *config.Config) (*services, func(), error) {
	log := newLogger(e, "warn")
	st, err := openStore(ctx, c, log)
	if err != nil {
		return nil, nil, err
	}
	words, _, err := dict.Open(c.Dictionary)
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	tmpl, err := templates.New()
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	secret, err := c.Secret()
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	var links *weblink.Links
	if c.Web.On() {
		links = weblink.New(c.Web.BaseURL, secret) // the mails the admin's commands send link as the daemon's do
	}
	svc, err := wire(table.Options{Config: c, Store: st, Dict: words, Templates: tmpl, Secret: secret, Logger: log, Links: links}, log)
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return svc, func() { st.Close() }, nil
}

func runTableNew(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "table new")
	path := fs.String("c", configPath(e), "configuration `file`")
	league := fs.String("league", "", "the `league` whose rules the table plays (default: the first)")
	seed := fs.Uint64("seed", 0, "the bag's `seed` (default: random)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() < 3 {
		return fmt.Errorf("%w: a table name and 2 to 4 player addresses", errUsage)
	}
	c, err := loadConfig(*path)
	if err != nil {
		return err
	}
	svc, closeFn, err := adminServiceOf(ctx, e, c)
	if err != nil {
		return err
	}
	defer closeFn()
	name := fs.Arg(0)
	players := fs.Args()[1:]
	for i, p := range players {
		players[i] = strings.ToLower(strings.TrimSpace(p))
	}
	l := *league
	if l == "" {
		l = c.Leagues[0].Name
	}
	if err := svc.lobby.CreateTable(ctx, name, l, players, *seed); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "table %s opened for %s (league %s); %s plays first. The daemon sends the notices.\n",
		name, strings.Join(shownAll(players), ", "), l, parser.Shown(players[0]))
	return nil
}

func runTableList(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "table list")
	path := fs.String("c", configPath(e), "configuration `file`")
	if err := fs.Parse(args); err != nil {
		return err
	}
	svc, closeFn, err := adminService(ctx, e, *path)
	if err != nil {
		return err
	}
	defer closeFn()
	// A table that cannot be read is listed with its error, among the
	// others; the command then fails, naming it.
	ts, err := svc.views.List(ctx)
	if err != nil && ts == nil {
		return err
	}
	var bad []string
	w := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "TABLE\tLEAGUE\tVARIANT\tSTATUS\tMOVES\tTO PLAY\tDEADLINE\tPLAYERS")
	for _, t := range ts {
		if t.Err != nil {
			bad = append(bad, t.Name)
			fmt.Fprintf(w, "%s\terror: %v\n", t.Name, t.Err)
			continue
		}
		turn, deadline := "-", "-"
		players := shownAll(t.Players)
		if t.Turn >= 0 {
			turn = players[t.Turn]
		}
		if t.Deadline != nil {
			deadline = t.Deadline.Local().Format("2006-01-02 15:04")
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\n", t.Name, t.League, t.Variant, t.Status, t.Moves, turn, deadline, strings.Join(players, " "))
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if len(bad) > 0 {
		return fmt.Errorf("table list: %d of %d tables cannot be read: %s", len(bad), len(ts), strings.Join(bad, " "))
	}
	return nil
}

func runTableShow(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "table show")
	path := fs.String("c", configPath(e), "configuration `file`")
	asGCG := fs.Bool("gcg", false, "write the game as a GCG record (lexio replay reads it)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("%w: a table name", errUsage)
	}
	svc, closeFn, err := adminService(ctx, e, *path)
	if err != nil {
		return err
	}
	defer closeFn()
	t, err := svc.views.Show(ctx, fs.Arg(0))
	if err != nil {
		return err
	}
	if *asGCG {
		g, err := svc.tables.Game(ctx, t.Name)
		if err != nil {
			return err
		}
		if g == nil {
			return fmt.Errorf("table %s: the game has not started", t.Name)
		}
		rec, err := gcg.FromGame(g.Config(), g.Actions(), shownAll(t.Players))
		if err != nil {
			return err
		}
		rec.Title = "lexio table " + t.Name
		_, err = rec.WriteTo(e.stdout)
		return err
	}
	fmt.Fprintf(e.stdout, "table %s  league %s  variant %s  status %s  moves %d\n", t.Name, t.League, t.Variant, t.Status, t.Moves)
	players := shownAll(t.Players)
	if t.Deadline != nil {
		fmt.Fprintf(e.stdout, "turn of %s until %s\n", players[t.Turn], t.Deadline.Local().Format(time.RFC1123))
	}
	if u := svc.views.WatchURL(t.Name, t.League); u != "" {
		fmt.Fprintf(e.stdout, "spectators: %s\n", u)
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
		fmt.Fprintf(e.stdout, "  %d. %-32s %6s%s\n", i+1, p, score, left)
	}
	if t.Board != "" {
		fmt.Fprintf(e.stdout, "\n%s\n", t.Board)
	}
	for _, l := range t.Log {
		fmt.Fprintf(e.stdout, "%s\n", logText(l, players))
	}
	return nil
}

func runTableSubstitute(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "table substitute")
	path := fs.String("c", configPath(e), "configuration `file`")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 3 {
		return fmt.Errorf("%w: a table name, the address leaving the seat and the one taking it", errUsage)
	}
	svc, closeFn, err := adminService(ctx, e, *path)
	if err != nil {
		return err
	}
	defer closeFn()
	name, oldAddr, newAddr := fs.Arg(0), fs.Arg(1), fs.Arg(2)
	if err := svc.tables.Substitute(ctx, name, oldAddr, newAddr); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "table %s: %s now holds the seat of %s. The daemon sends the notices.\n", name, parser.Shown(newAddr), parser.Shown(oldAddr))
	return nil
}

// logText writes a log entry for the admin, who sees every entry; players
// are as shown, the names of the entry are made so here.
func logText(l engine.LogEntry, players []string) string {
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
		return head + "was refused (private): " + strings.Join(shownAll(l.Words), ", ")
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

// shownAll is parser.Shown of each of ss.
func shownAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = parser.Shown(s)
	}
	return out
}
