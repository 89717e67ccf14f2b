package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"

	"github.com/lexio-mail/lexio/analysis"
	"github.com/lexio-mail/lexio/dict"
	"github.com/lexio-mail/lexio/engine/board"
)

// analyzeLine is one player of `lexio analyze --json`; its fields are a
// contract.
type analyzeLine struct {
	Player string          `json:"player"` // the record's nick
	Left   int             `json:"left"`   // points left on the table
	Misses []analysis.Miss `json:"misses"` // the three biggest, biggest first
}

func runAnalyze(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "analyze")
	variant := fs.String("variant", "lexio", "rules: lexio or lexico")
	plain := fs.Bool("plain", false, "lexico without multipliers: no bonus cells, no blanks")
	dictPath := fs.String("dict", "", "word list, plain or compiled, with FILE"+dict.GaddagSuffix+" beside it when there is one (default: the configured dictionary)")
	asJSON := fs.Bool("json", false, "one JSON object a player: player, left, misses (turn, played, score, best, best_score)")
	cfgPath := fs.String("c", configPath(e), "configuration `file`, read for the dictionary when it exists")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("%w: one game record", errUsage)
	}
	rules := board.Rules{Variant: board.Variant(*variant), Plain: *plain}
	if err := rules.Validate(); err != nil {
		return fmt.Errorf("%w: --variant %s --plain=%v: %v", errUsage, *variant, *plain, err)
	}
	d, gd, err := loadGaddag(e, *dictPath, *cfgPath)
	if err != nil {
		return err
	}
	path := fs.Arg(0)
	rec, err := readRecord(path)
	if err != nil {
		return err
	}
	turns, err := analysis.FromRecord(rec, rules, d)
	if err != nil {
		return &exitError{code: 1, err: fmt.Errorf("%s: %w (`%s replay %s` tells every problem)", path, err, e.program(), path)}
	}
	rep, err := analysis.Analyze(turns, len(rec.Players), rules, gd)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(e.stdout)
	for i, p := range rep.Players {
		nick := rec.Players[i].Nick
		if *asJSON {
			l := analyzeLine{Player: nick, Left: p.Left, Misses: append([]analysis.Miss{}, p.Misses...)}
			if err := enc.Encode(l); err != nil {
				return err
			}
			continue
		}
		fmt.Fprintf(e.stdout, "%s: %d point%s left on the table\n", nick, p.Left, plural(p.Left))
		for _, m := range p.Misses {
			fmt.Fprintf(e.stdout, "  turn %d: %s %d, best %s %d\n", m.Turn, m.Played, m.Score, m.Best, m.BestScore)
		}
	}
	if rep.Skipped > 0 {
		fmt.Fprintf(e.stderr, "%s: %d turn%s skipped: the rack written is not one the player holds in full\n", path, rep.Skipped, plural(rep.Skipped))
	}
	return nil
}

// plural is the "s" of a count other than 1.
func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
