package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/lexio-mail/lexio/analysis"
	"github.com/lexio-mail/lexio/config"
	"github.com/lexio-mail/lexio/dict"
	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/gcg"
	"github.com/lexio-mail/lexio/movegen"
)

// gaddagSuffix names the GADDAG `lexio dict build OUT` writes beside OUT.
const gaddagSuffix = ".gaddag"

// moveLine is one move of `lexio moves --json`; its fields are a contract.
type moveLine struct {
	Command string   `json:"command"` // canonical PLACE command
	Score   int      `json:"score"`
	Words   []string `json:"words"` // main word first, uppercase
	Leave   string   `json:"leave"` // the rack left, in rack order, '?' a blank
}

func runMoves(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "moves")
	variant := fs.String("variant", "lexio", "rules: lexio or lexico")
	plain := fs.Bool("plain", false, "lexico without multipliers: no bonus cells, no blanks")
	dictPath := fs.String("dict", "", "word list, plain or compiled, with FILE"+gaddagSuffix+" beside it when there is one (default: the configured dictionary)")
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
	rules := engine.Rules{Variant: engine.Variant(*variant), Plain: *plain}
	if err := rules.Validate(); err != nil {
		return fmt.Errorf("%w: --variant %s --plain=%v: %v", errUsage, *variant, *plain, err)
	}
	rack, err := parseRack(fs.Arg(1), rules)
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
	if err := rackFits(rack, &board, rules); err != nil {
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
	lines := make([]moveLine, 0, len(moves))
	for i := range moves {
		l, err := describeMove(&board, rack, &moves[i], rules)
		if err != nil {
			return err
		}
		lines = append(lines, l)
	}
	slices.SortFunc(lines, func(a, b moveLine) int {
		if a.Score != b.Score {
			return b.Score - a.Score
		}
		return strings.Compare(a.Command, b.Command)
	})
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

// parseRack reads a rack as written in a GCG record: 1 to 7 letters, any
// case, '?' a blank (none in plain lexico).
func parseRack(s string, r engine.Rules) ([]byte, error) {
	bad := func(format string, args ...any) error {
		return &exitError{code: 1, err: fmt.Errorf("rack %q: "+format, append([]any{s}, args...)...)}
	}
	if len(s) == 0 || len(s) > engine.RackSize {
		return nil, bad("1 to %d tiles", engine.RackSize)
	}
	rack := []byte(strings.ToUpper(s))
	for _, t := range rack {
		switch {
		case t >= 'A' && t <= 'Z':
		case t == engine.BlankTile && !r.Blanks():
			return nil, bad("plain lexico has no blanks (RULES §12)")
		case t == engine.BlankTile:
		default:
			return nil, bad("letters A–Z and '?' for a blank only")
		}
	}
	return rack, nil
}

// rackFits checks that the game's tiles, less those on the board, hold the
// rack (RULES §3.1): no rack of two Z.
func rackFits(rack []byte, b *engine.Board, r engine.Rules) error {
	left := map[byte]int{}
	for _, t := range engine.TileSet(r) {
		left[t]++
	}
	for row := range engine.Size {
		for col := range engine.Size {
			sq := b.At(engine.Cell{Col: col, Row: row})
			switch {
			case sq.Empty():
			case sq.Blank:
				left[engine.BlankTile]--
			default:
				left[sq.Letter]--
			}
		}
	}
	for _, t := range rack {
		if left[t]--; left[t] < 0 {
			n := strings.Count(string(rack), string(rune(t)))
			return &exitError{code: 1, err: fmt.Errorf("rack %s holds %d %c, but the game has %d left off the board (RULES §3.1)", rack, n, t, n+left[t])}
		}
	}
	return nil
}

// loadGaddag opens the dictionary as replay does (--dict, else the
// configured one, else the default) and its GADDAG: FILE.gaddag beside a
// compiled FILE when `lexio dict build` wrote one, else built from the
// words (seconds for wfrench).
func loadGaddag(e *env, flagPath, cfgPath string) (*dict.Dict, *dict.Gaddag, error) {
	path := flagPath
	if path == "" {
		path = config.DefaultDictionary
		if _, err := os.Stat(cfgPath); err == nil {
			c, err := config.Load(cfgPath)
			if err != nil {
				return nil, nil, err
			}
			path = c.Dictionary
		}
	}
	d, err := loadDict(e, path, cfgPath)
	if err != nil {
		return nil, nil, err
	}
	gd, err := gaddagOf(path, d)
	return d, gd, err
}

// gaddagOf is the GADDAG of d, the dictionary read from path: the file
// path.gaddag that `lexio dict build` wrote beside it, checked to hold
// the same words, else built from d (seconds for wfrench).
func gaddagOf(path string, d *dict.Dict) (*dict.Gaddag, error) {
	if _, err := os.Stat(path + gaddagSuffix); err == nil {
		gd, err := dict.OpenGaddag(path + gaddagSuffix)
		if err == nil {
			err = gd.Pair(d)
		}
		if err != nil {
			return nil, fmt.Errorf("%w; `lexio dict build` writes both files again", err)
		}
		return gd, nil
	}
	return dict.BuildGaddag(d)
}

// position replays a game record (as `lexio replay --check` does) and
// returns the board after its last move.
func position(path string, r engine.Rules, d *dict.Dict) (engine.Board, error) {
	bad := func(err error) error { return &exitError{code: 1, err: err} }
	f, err := os.Open(path)
	if err != nil {
		return engine.Board{}, bad(err)
	}
	defer f.Close()
	rec, err := gcg.Read(f)
	if err != nil {
		return engine.Board{}, bad(fmt.Errorf("%s: %w", path, err))
	}
	sum, err := gcg.Replay(rec, gcg.Options{Rules: r, Dict: d, Check: true}, io.Discard)
	if err != nil {
		var p gcg.Problem
		if errors.As(err, &p) {
			return engine.Board{}, bad(fmt.Errorf("%s: %v (lexio replay tells every problem)", path, p))
		}
		return engine.Board{}, bad(fmt.Errorf("%s: %w", path, err))
	}
	if sum.Over {
		return engine.Board{}, bad(fmt.Errorf("%s: the game is over: no move to make", path))
	}
	return sum.Board, nil
}

// describeMove writes a move as `lexio moves` prints it, with the
// engine's words and score.
func describeMove(b *engine.Board, rack []byte, m *movegen.Move, r engine.Rules) (moveLine, error) {
	ps := m.Placements()
	play, err := engine.Evaluate(b, ps, r)
	if err != nil || play.Score != m.Score {
		return moveLine{}, fmt.Errorf("moves: the engine does not score %v as the generator (%d, %v): a bug", ps, m.Score, err)
	}
	left, err := engine.TakeTiles(rack, ps)
	if err != nil {
		return moveLine{}, err
	}
	return moveLine{Command: analysis.PlaceCommand(play), Score: play.Score, Words: play.WordTexts(), Leave: string(left)}, nil
}
