package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/lexio-mail/lexio/analysis"
	"github.com/lexio-mail/lexio/dict"
	"github.com/lexio-mail/lexio/engine/board"
	"github.com/lexio-mail/lexio/gcg"
	"github.com/lexio-mail/lexio/movegen"
)

func runMoves(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "moves")
	variant := fs.String("variant", "lexio", "rules: lexio or lexico")
	plain := fs.Bool("plain", false, "lexico without multipliers: no bonus cells, no blanks")
	dictPath := fs.String("dict", "", "word list, plain or compiled, with FILE"+dict.GaddagSuffix+" beside it when there is one (default: the configured dictionary)")
	asJSON := fs.Bool("json", false, "one JSON object a line: command, score, words, leave")
	limit := fs.Int("limit", 0, "print only the best `N` moves (0: all)")
	count := fs.Bool("count", false, "print only the number of legal moves")
	cfgPath := fs.String("c", configPath(e), "configuration `file`, read for the dictionary when it exists")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %v", errUsage, err) // exit status 2
	}
	if fs.NArg() != 2 {
		return fmt.Errorf("%w: a game record and a rack", errUsage)
	}
	if *limit < 0 {
		return fmt.Errorf("%w: --limit %d: 0 for all, or a number of moves", errUsage, *limit)
	}
	rules := board.Rules{Variant: board.Variant(*variant), Plain: *plain}
	if err := rules.Validate(); err != nil {
		return fmt.Errorf("%w: --variant %s --plain=%v: %v", errUsage, *variant, *plain, err)
	}
	rack, err := gcg.ParseRack(fs.Arg(1), rules)
	if err != nil {
		return err
	}
	d, gd, err := loadGaddag(e, *dictPath, *cfgPath)
	if err != nil {
		return err
	}
	board, err := position(fs.Arg(0), rules, d)
	if err != nil {
		return err
	}
	if err := gcg.RackFits(rack, &board, rules); err != nil {
		return err
	}
	moves, err := movegen.New(gd).Generate(&board, rack, rules, nil)
	if err != nil {
		return err
	}
	if *count {
		fmt.Fprintln(e.stdout, len(moves))
		return nil
	}
	lines, err := analysis.Moves(&board, rack, moves, rules)
	if err != nil {
		return err
	}
	if *limit > 0 && len(lines) > *limit {
		lines = lines[:*limit]
	}
	enc := json.NewEncoder(e.stdout)
	for _, l := range lines {
		if *asJSON {
			if err := enc.Encode(l); err != nil {
				return err
			}
			continue
		}
		fmt.Fprintf(e.stdout, "%s %d\n", l.Command, l.Score)
	}
	return nil
}

// loadGaddag opens the dictionary as replay does (--dict, else the
// configured one, else the default) and its GADDAG: FILE.gaddag beside a
// compiled FILE when `lexio dict build` wrote one, else built from the
// words (seconds for wfrench).
func loadGaddag(e *env, flagPath, cfgPath string) (*dict.Dict, *dict.Gaddag, error) {
	path, err := dictFile(flagPath, cfgPath)
	if err != nil {
		return nil, nil, err
	}
	d, err := loadDict(e, path, cfgPath)
	if err != nil {
		return nil, nil, err
	}
	gd, err := dict.GaddagOf(path, d)
	return d, gd, err
}

// readRecord reads the game record in the file at path.
func readRecord(path string) (*gcg.Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rec, err := gcg.Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rec, nil
}

// position replays a game record (as `lexio replay --check` does) and
// returns the board after its last move.
func position(path string, r board.Rules, d *dict.Dict) (board.Board, error) {
	rec, err := readRecord(path)
	if err != nil {
		return board.Board{}, err
	}
	b, err := gcg.Position(rec, gcg.Options{Rules: r, Dict: d})
	if err != nil {
		return board.Board{}, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}
