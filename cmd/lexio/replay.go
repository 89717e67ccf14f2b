package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/lexio-mail/lexio/config"
	"github.com/lexio-mail/lexio/dict"
	"github.com/lexio-mail/lexio/engine/board"
	"github.com/lexio-mail/lexio/gcg"
)

func runReplay(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "replay")
	variant := fs.String("variant", "lexio", "rules: lexio or lexico")
	plain := fs.Bool("plain", false, "lexico without multipliers: no bonus cells, no blanks")
	dictPath := fs.String("dict", "", "word list, plain or compiled (default: the configured dictionary)")
	check := fs.Bool("check", false, "exit 1 at the first illegal move, impossible rack or score mismatch")
	cfgPath := fs.String("c", configPath(e), "configuration `file`, read for the dictionary when it exists")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("%w: one game record", errUsage)
	}
	rules := board.Rules{Variant: board.Variant(*variant), Plain: *plain}
	if err := rules.Validate(); err != nil {
		return fmt.Errorf("%w: --variant %s --plain=%v: %v", errUsage, *variant, *plain, err)
	}
	d, err := loadDict(e, *dictPath, *cfgPath)
	if err != nil {
		return err
	}
	f, err := os.Open(fs.Arg(0))
	if err != nil {
		return err
	}
	defer f.Close()
	rec, err := gcg.Read(f)
	if err != nil {
		return &exitError{code: 1, err: err}
	}
	sum, err := gcg.Replay(rec, gcg.Options{Rules: rules, Dict: d, Check: *check}, e.stdout)
	if err != nil {
		if errors.Is(err, gcg.ErrCheck) {
			var p gcg.Problem
			errors.As(err, &p)
			return &exitError{code: 1, err: fmt.Errorf("%s: %v", fs.Arg(0), p)}
		}
		return err
	}
	fmt.Fprintf(e.stdout, "\n%s", sum.Board.String())
	for i, p := range rec.Players {
		fmt.Fprintf(e.stdout, "%-12s %5d\n", p.Nick, sum.Scores[i])
	}
	switch {
	case len(sum.Problems) > 0:
		fmt.Fprintf(e.stdout, "%d problems; --check stops at the first\n", len(sum.Problems))
	case !sum.Over:
		fmt.Fprintln(e.stdout, "the game is not over")
	}
	return nil
}

// loadDict opens the word list given by --dict, else the configured one
// (when the configuration file exists), else the default.
func loadDict(e *env, flagPath, cfgPath string) (*dict.Dict, error) {
	path, err := dictFile(flagPath, cfgPath)
	if err != nil {
		return nil, err
	}
	d, _, err := dict.Open(path)
	if err != nil && path == config.DefaultDictionary {
		return nil, fmt.Errorf("%w (install Debian's list with: apt-get install wfrench)", err)
	}
	if err != nil {
		return nil, err
	}
	return d, nil
}

// dictFile is the word list's path: --dict, else the configured one
// (when the configuration file exists), else the default.
func dictFile(flagPath, cfgPath string) (string, error) {
	if flagPath != "" {
		return flagPath, nil
	}
	if _, err := os.Stat(cfgPath); err != nil {
		return config.DefaultDictionary, nil
	}
	c, err := config.Load(cfgPath)
	if err != nil {
		return "", err
	}
	return c.Dictionary, nil
}

func runDictBuild(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "dict build")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return fmt.Errorf("%w: a word list and an output file", errUsage)
	}
	in, out := fs.Arg(0), fs.Arg(1)
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	st, n, gn, err := dict.Compile(f, out)
	f.Close()
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s: %d lines: %d words kept, %d dropped (not A–Z once normalised), %d duplicates, %d blank\n",
		in, st.Lines, st.Kept, st.Dropped, st.Duplicates, st.Blank)
	fmt.Fprintf(e.stdout, "%s: %d bytes\n", out, n)
	fmt.Fprintf(e.stdout, "%s: %d bytes (the GADDAG for `%s moves`)\n", out+dict.GaddagSuffix, gn, e.program())
	return nil
}
