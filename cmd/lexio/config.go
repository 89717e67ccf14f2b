package main

import (
	"context"
	"fmt"

	"github.com/lexio-mail/lexio/config"
)

func runCheckConfig(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "check-config")
	path := fs.String("c", configPath(e), "configuration `file`")
	if err := fs.Parse(args); err != nil {
		return err
	}
	c, err := config.Load(*path)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s: ok: %d leagues, %d tables, storage %s, dictionary %s\n",
		*path, len(c.Leagues), len(c.Tables), c.Storage.Driver, c.Dictionary)
	return nil
}
