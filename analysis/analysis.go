// Package analysis tells what each player missed in a game: on every turn,
// the best placement their rack had (the highest score, as `lexio moves`
// ranks them) against what they did. The points left on the table are the
// sum over a player's turns of the best placement's score less theirs, an
// exchange, a pass or an expired turn scoring 0; a turn is never below 0
// (their move was the best, or as good). Decided: a turn without any legal
// placement leaves 0; the end-of-game rack adjustments (RULES §11) are not
// moves and count nowhere.
//
// Two sources give the turns: an engine game (FromGame: its configuration
// and actions, the racks as the engine dealt them) and a GCG record
// (FromRecord: the racks written on its lines). A turn whose rack is not
// known in full cannot be judged: it is skipped, and counted.
//
// Moves ranks a rack's placements as `lexio moves` lists them (moves.go).
// The package knows nothing of mail or files.
package analysis

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/lexio-mail/lexio/dict"
	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/engine/board"
	"github.com/lexio-mail/lexio/gcg"
	"github.com/lexio-mail/lexio/movegen"
	"github.com/lexio-mail/lexio/parser"
)

// Kind is what a player did on their turn.
type Kind int

// The kinds of turn.
const (
	Place Kind = iota + 1
	Exchange
	Pass
	Expire
)

func (k Kind) String() string {
	switch k {
	case Place:
		return "place"
	case Exchange:
		return "exchange"
	case Pass:
		return "pass"
	case Expire:
		return "expire"
	}
	return "unknown"
}

// Turn is one turn of a game: the position before it and what was done.
type Turn struct {
	Number int // the game's turn number, 1 the first (the log's numbering)
	Player int // the mover's seat
	Board  board.Board
	// Rack is the mover's rack then, letters A–Z and '?' for a blank; nil
	// when it is not known in full (the turn is skipped).
	Rack      []byte
	Kind      Kind
	Tiles     []board.Placement // Place: the tiles put down
	Exchanged string            // Exchange: the tiles returned, when known
	Score     int               // what the move scored: a placement's, else 0
}

// Miss is one judged turn: what the player did, and the best placement
// their rack had. Its JSON fields are a contract of `lexio analyze --json`.
type Miss struct {
	Turn int  `json:"turn"`
	Kind Kind `json:"-"`
	// Played is the move as a command: the canonical PLACE command (as
	// `lexio moves` writes it), "EXCHANGE" and the tiles returned when
	// known, "PASS", or "(expired)" for a turn that ran out.
	Played string `json:"played"`
	// Word is a placement's main word, a blank's letter lowercase.
	Word      string `json:"-"`
	Score     int    `json:"score"`
	Best      string `json:"best"` // the best placement's PLACE command; "" when there was none
	BestScore int    `json:"best_score"`
}

// Left is what the turn left on the table: never below 0.
func (m Miss) Left() int { return max(0, m.BestScore-m.Score) }

// Player is what one player missed.
type Player struct {
	Left    int    // points left on the table, the sum of the Turns' Left
	Turns   []Miss // every judged turn, in order
	Misses  []Miss // the three biggest that left points, biggest first, an earlier turn first on a tie
	Skipped int    // turns not judged: the rack was not known in full
}

// Report is a whole game's analysis, a Player per seat.
type Report struct {
	Players []Player
	Skipped int // turns not judged, every player's
}

// TopMisses is how many misses a Player lists.
const TopMisses = 3

// Analyze judges every turn of a game of players seats under rules, with
// the GADDAG of the game's dictionary. It is deterministic: among
// placements of the best score the least command (in byte order) is shown.
func Analyze(turns []Turn, players int, rules board.Rules, gd *dict.Gaddag) (Report, error) {
	if gd == nil {
		return Report{}, errors.New("analysis: no GADDAG")
	}
	rep := Report{Players: make([]Player, players)}
	gen := movegen.New(gd)
	var moves []movegen.Move
	for _, t := range turns {
		if t.Player < 0 || t.Player >= players {
			return Report{}, fmt.Errorf("analysis: turn %d: seat %d of %d", t.Number, t.Player, players)
		}
		pl := &rep.Players[t.Player]
		if t.Rack == nil {
			pl.Skipped++
			rep.Skipped++
			continue
		}
		m, err := judge(gen, &moves, t, rules)
		if err != nil {
			return Report{}, fmt.Errorf("analysis: turn %d: %w", t.Number, err)
		}
		pl.Turns = append(pl.Turns, m)
		pl.Left += m.Left()
	}
	for i := range rep.Players {
		pl := &rep.Players[i]
		for _, m := range pl.Turns {
			if m.Left() > 0 {
				pl.Misses = append(pl.Misses, m)
			}
		}
		// Stable: an earlier turn stays first on a tie.
		slices.SortStableFunc(pl.Misses, func(a, b Miss) int { return b.Left() - a.Left() })
		pl.Misses = pl.Misses[:min(len(pl.Misses), TopMisses)]
	}
	return rep, nil
}

// judge finds the best placement of the turn's rack and describes the
// move played.
func judge(gen *movegen.Generator, buf *[]movegen.Move, t Turn, rules board.Rules) (Miss, error) {
	m := Miss{Turn: t.Number, Kind: t.Kind, Score: t.Score}
	switch t.Kind {
	case Place:
		play, err := board.Evaluate(&t.Board, t.Tiles, rules)
		if err != nil {
			return Miss{}, fmt.Errorf("the move played: %w", err)
		}
		m.Played, m.Word = PlaceCommand(play), mainWord(play)
	case Exchange:
		m.Played = strings.TrimSpace("EXCHANGE " + t.Exchanged)
	case Pass:
		m.Played = "PASS"
	case Expire:
		m.Played = "(expired)"
	default:
		return Miss{}, fmt.Errorf("unknown kind of turn %d", t.Kind)
	}
	moves, err := gen.Generate(&t.Board, t.Rack, rules, (*buf)[:0])
	*buf = moves
	if err != nil {
		return Miss{}, err
	}
	var best *movegen.Move
	for i := range moves {
		if best == nil || moves[i].Score > best.Score {
			best = &moves[i]
		}
	}
	if best == nil {
		return m, nil // no legal placement: nothing was missed
	}
	// The least command among the best scores, as `lexio moves` lists
	// them first.
	for i := range moves {
		if moves[i].Score != best.Score {
			continue
		}
		play, err := board.Evaluate(&t.Board, moves[i].Placements(), rules)
		if err != nil {
			return Miss{}, fmt.Errorf("a generated move: %w", err)
		}
		if c := PlaceCommand(play); m.Best == "" || c < m.Best {
			m.Best = c
		}
	}
	m.BestScore = best.Score
	return m, nil
}

// mainWord writes a play's main word, a blank's letter lowercase.
func mainWord(play board.Play) string {
	w := play.Words[0]
	b := []byte(w.Text)
	for i, c := range w.Cells {
		for _, t := range play.Tiles {
			if t.Cell == c && t.Blank {
				b[i] = b[i] - 'A' + 'a'
			}
		}
	}
	return string(b)
}

// PlaceCommand writes a play as the canonical PLACE command
// (parser.Command.String): the main word from its first cell, the tiles
// already on the board in parentheses, a blank as a lowercase letter. A
// word of blanks only would read back as ordinary tiles (lowercase
// letters are blanks only beside capitals), so it is written in brackets.
func PlaceCommand(play board.Play) string {
	w := play.Words[0]
	p := &parser.Placement{Col: w.Start.Col, Row: w.Start.Row, Dir: parser.Across}
	if w.Dir == board.Down {
		p.Dir = parser.Down
	}
	capital := false
	for i, c := range w.Cells {
		l := parser.Letter{Ch: w.Text[i], Through: true}
		for _, t := range play.Tiles {
			if t.Cell == c {
				l = parser.Letter{Ch: t.Letter, Blank: t.Blank}
			}
		}
		capital = capital || !l.Blank
		p.Letters = append(p.Letters, l)
	}
	cmd := (&parser.Command{Kind: parser.KindPlace, Place: p}).String()
	if capital {
		return cmd
	}
	var sb strings.Builder
	for _, l := range p.Letters {
		fmt.Fprintf(&sb, "[%c]", l.Ch)
	}
	return strings.TrimSuffix(cmd, p.Word()) + sb.String()
}

// anyWord accepts every word: a game's words were checked when they were
// played.
type anyWord struct{}

func (anyWord) Contains(string) bool { return true }

// FromGame replays a game from its configuration and actions on a fresh
// engine game, and returns its turns with each mover's rack as the engine
// held it. Probes, returns from away and substitutions change no tile and
// are passed over.
func FromGame(cfg engine.Config, actions []engine.Action) ([]Turn, error) {
	g, err := engine.New(cfg)
	if err != nil {
		return nil, err
	}
	var turns []Turn
	for i, a := range actions {
		var err error
		switch a.Kind {
		case engine.ActPlace, engine.ActExchange, engine.ActPass, engine.ActExpire:
			t := Turn{Number: len(turns) + 1, Player: a.Player, Board: g.Board(), Rack: g.Rack(a.Player)}
			switch a.Kind {
			case engine.ActPlace:
				var res engine.PlayResult
				res, err = g.PlaceTiles(a.Player, a.Tiles, anyWord{}, a.At)
				t.Kind, t.Tiles, t.Score = Place, a.Tiles, res.Play.Score
			case engine.ActExchange:
				var back []byte
				for _, s := range a.Slots {
					if s >= 1 && s <= len(t.Rack) {
						back = append(back, t.Rack[s-1])
					}
				}
				t.Kind, t.Exchanged = Exchange, string(back)
				_, err = g.Exchange(a.Player, engine.Selection{Slots: a.Slots}, a.At)
			case engine.ActPass:
				t.Kind = Pass
				err = g.Pass(a.Player, a.At)
			case engine.ActExpire:
				t.Kind = Expire
				err = g.Expire(a.Player, a.At)
			}
			turns = append(turns, t)
		case engine.ActResign:
			err = g.Resign(a.Player, a.At, a.Forfeit)
		case engine.ActAdjudicate:
			err = g.Adjudicate(a.At)
		}
		if err != nil {
			return nil, fmt.Errorf("analysis: action %d (%s by %d): %w", i+1, a.Kind, a.Player, err)
		}
	}
	return turns, nil
}

// FromRecord replays a GCG record and returns its turns, numbered as the
// record's placements, exchanges and passes come. A line whose rack is not
// one the player can hold in full (a partial rack, say) gives a turn with
// no rack, which Analyze skips. Any other problem of the record (an
// illegal move, a word not in the dictionary, a wrong score) is an error:
// `lexio replay` tells them all.
func FromRecord(rec *gcg.Record, rules board.Rules, d engine.Dictionary) ([]Turn, error) {
	sum, err := gcg.Replay(rec, gcg.Options{Rules: rules, Dict: d}, io.Discard)
	if err != nil {
		return nil, err
	}
	partial := map[int]bool{} // lines whose rack is not known in full
	for _, t := range sum.Turns {
		if !t.Full {
			partial[t.Event.Line] = true
		}
	}
	for _, p := range sum.Problems {
		if !partial[p.Line] {
			return nil, fmt.Errorf("analysis: %w", p)
		}
	}
	turns := make([]Turn, 0, len(sum.Turns))
	for i, rt := range sum.Turns {
		t := Turn{Number: i + 1, Player: rt.Player, Board: rt.Board, Tiles: rt.Tiles, Score: rt.Score}
		if rt.Full {
			t.Rack = []byte(rt.Rack)
		}
		switch rt.Event.Kind {
		case gcg.Place:
			t.Kind = Place
		case gcg.Exchange:
			t.Kind, t.Exchanged = Exchange, strings.ToUpper(rt.Event.Tiles)
		default:
			t.Kind = Pass
		}
		turns = append(turns, t)
	}
	return turns, nil
}
