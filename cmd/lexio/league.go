package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/lexio-mail/lexio/league"
	"github.com/lexio-mail/lexio/parser"
	"github.com/lexio-mail/lexio/season"
	"github.com/lexio-mail/lexio/service"
)

func runLeagueList(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "league list")
	path := fs.String("c", configPath(e), "configuration `file`")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("%w: no arguments", errUsage)
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
	w := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "LEAGUE\tVARIANT\tTABLE SIZE\tDIVISIONS\tSIGNUP\tSEASON")
	for i := range c.Leagues {
		l := &c.Leagues[i]
		if !l.Seasons() {
			fmt.Fprintf(w, "%s\t%s\t-\t-\t-\tno seasons\n", l.Name, l.Variant)
			continue
		}
		cur, _, err := svc.Seasons.Show(ctx, l.Name)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s\t%s\t%d\t%d\t%t\t%s\n", l.Name, l.Variant, l.TableSize, len(l.Divisions), l.Signup, season.State(cur))
	}
	return w.Flush()
}

func runLeagueShow(ctx context.Context, e *env, args []string) error {
	svc, name, closeFn, err := leagueCommand(ctx, e, "league show", args)
	if err != nil {
		return err
	}
	defer closeFn()
	cur, next, err := svc.Seasons.Show(ctx, name)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "league %s: season %s\n", name, season.State(cur))
	if cur != nil {
		printTables(e, cur.Tables)
	}
	title := "next season"
	if cur != nil && cur.Running() {
		title += ", if the standings stay as they are"
	}
	fmt.Fprintf(e.stdout, "\n%s:\n", title)
	printDivisions(e, next)
	return nil
}

func printTables(e *env, ts []season.SeasonTable) {
	w := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "TABLE\tDIVISION\tROUND\tSTATUS\tTO PLAY\tPLAYERS")
	for _, t := range ts {
		turn := t.ToMove
		if turn == "" {
			turn = "-"
		}
		fmt.Fprintf(w, "%s\t%s\t%d\t%s\t%s\t%s\n", t.Name, t.Division, t.Round, t.Status, parser.Shown(turn), strings.Join(parser.ShownAll(t.Players), " "))
	}
	w.Flush()
}

func printDivisions(e *env, divs []league.Division) {
	if len(divs) == 0 {
		fmt.Fprintln(e.stdout, "  nobody")
	}
	for _, d := range divs {
		fmt.Fprintf(e.stdout, "  %s (%d): %s\n", d.Name, len(d.Players), strings.Join(parser.ShownAll(d.Players), " "))
	}
}

func runLeagueStart(ctx context.Context, e *env, args []string) error {
	svc, name, closeFn, err := leagueCommand(ctx, e, "league start", args)
	if err != nil {
		return err
	}
	defer closeFn()
	s, err := svc.Seasons.StartSeason(ctx, name)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "league %s: season %d started, %d tables, until %s. The daemon sends the notices.\n",
		s.League, s.Number, len(s.Tables), s.Ends.Local().Format("2006-01-02 15:04"))
	printDivisions(e, s.Divisions)
	printTables(e, s.Tables)
	return nil
}

func runLeagueClose(ctx context.Context, e *env, args []string) error {
	svc, name, closeFn, err := leagueCommand(ctx, e, "league close", args)
	if err != nil {
		return err
	}
	defer closeFn()
	s, err := svc.Seasons.CloseSeason(ctx, name)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "league %s: season %d closed. The daemon sends the game-over mails; `%s league standings %s` has the final standings.\n",
		s.League, s.Number, e.program(), s.League)
	return nil
}

// leagueCommand reads the flags and the one league name of a league
// command that takes nothing else, and opens the admin service.
func leagueCommand(ctx context.Context, e *env, name string, args []string) (*service.Parts, string, func(), error) {
	fs := newFlags(e, name)
	path := fs.String("c", configPath(e), "configuration `file`")
	if err := fs.Parse(args); err != nil {
		return nil, "", nil, err
	}
	if fs.NArg() != 1 {
		return nil, "", nil, fmt.Errorf("%w: a league's name", errUsage)
	}
	svc, closeFn, err := adminService(ctx, e, *path)
	if err != nil {
		return nil, "", nil, err
	}
	return svc, fs.Arg(0), closeFn, nil
}

func runLeagueStandings(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "league standings")
	path := fs.String("c", configPath(e), "configuration `file`")
	number := fs.Int("season", 0, "the season's `number` (default: the current one, else the last)")
	asJSON := fs.Bool("json", false, "print one JSON array, a line per player")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("%w: a league's name", errUsage)
	}
	if *number < 0 {
		return fmt.Errorf("%w: --season %d: seasons are numbered from 1", errUsage, *number)
	}
	svc, closeFn, err := adminService(ctx, e, *path)
	if err != nil {
		return err
	}
	defer closeFn()
	s, rows, err := svc.Seasons.Standings(ctx, fs.Arg(0), *number)
	if errors.Is(err, season.ErrNoSeason) {
		return fmt.Errorf("%w; `%s league start %s` starts the first", err, e.program(), fs.Arg(0))
	}
	if err != nil {
		return err
	}
	if *asJSON {
		b, err := season.StandingsJSON(rows)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(e.stdout, "%s\n", b)
		return err
	}
	fmt.Fprintf(e.stdout, "league %s, season %s\n", s.League, season.State(s))
	var w *tabwriter.Writer
	for i, r := range rows {
		if i == 0 || r.Division != rows[i-1].Division {
			if w != nil {
				w.Flush()
			}
			fmt.Fprintf(e.stdout, "\ndivision %s\n", r.Division)
			w = tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
			fmt.Fprintln(w, "RANK\tPLAYER\tPLAYED\tWON\tTIED\tLOST\tPOINTS\tSPREAD\tFOR\tRATING\tRD\t")
		}
		fmt.Fprintf(w, "%d\t%s\t%d\t%d\t%d\t%d\t%d\t%+d\t%d\t%.2f\t%.2f\t\n", r.Rank, parser.Shown(r.Player), r.Played, r.Won, r.Tied, r.Lost,
			r.Points, r.Spread, r.PointsFor, r.Rating, r.RD)
	}
	if w == nil {
		return nil
	}
	return w.Flush()
}
