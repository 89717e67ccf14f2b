package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/lexio-mail/lexio/config"
	"github.com/lexio-mail/lexio/dict"
	"github.com/lexio-mail/lexio/internal/weblink"
	"github.com/lexio-mail/lexio/parser"
	"github.com/lexio-mail/lexio/service"
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/table/tableview"
	"github.com/lexio-mail/lexio/templates"
)

// adminService opens the configured store with a service around it, for
// the table commands; it works while the daemon runs (SQLite takes one
// writer at a time, across processes too). Mail it queues is sent by the
// daemon.
func adminService(ctx context.Context, e *env, path string) (*service.Parts, func(), error) {
	c, err := loadConfig(path)
	if err != nil {
		return nil, nil, err
	}
	return adminServiceOf(ctx, e, c)
}

func adminServiceOf(ctx context.Context, e *env, c *config.Config) (*service.Parts, func(), error) {
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
	svc, err := service.New(table.Options{Config: c, Store: st, Dict: words, Templates: tmpl, Secret: secret, Logger: log, Links: links}, log)
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
	if err := svc.Lobby.CreateTable(ctx, name, l, players, *seed); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "table %s opened for %s (league %s); %s plays first. The daemon sends the notices.\n",
		name, strings.Join(parser.ShownAll(players), ", "), l, parser.Shown(players[0]))
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
	ts, err := svc.Views.List(ctx)
	if err != nil && ts == nil {
		return err
	}
	bad, err := tableview.WriteList(e.stdout, ts)
	if err != nil {
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
	asGCG := fs.Bool("gcg", false, "write the game as a GCG record ("+e.program()+" replay reads it)")
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
	t, err := svc.Views.Show(ctx, fs.Arg(0))
	if err != nil {
		return err
	}
	if *asGCG {
		return svc.Views.WriteGCG(ctx, e.stdout, t)
	}
	tableview.WriteShow(e.stdout, t, svc.Views.WatchURL(t.Name, t.League))
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
	if err := svc.Tables.Substitute(ctx, name, oldAddr, newAddr); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "table %s: %s now holds the seat of %s. The daemon sends the notices.\n", name, parser.Shown(newAddr), parser.Shown(oldAddr))
	return nil
}
