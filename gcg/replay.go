package gcg

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/engine/board"
)

// Options set how a record is replayed.
type Options struct {
	Rules board.Rules
	// Dict checks every word a placement forms. Required.
	Dict engine.Dictionary
	// Check stops at the first illegal move, impossible rack or score
	// mismatch.
	Check bool
}

// Problem is a line whose move is illegal or whose figures are wrong.
type Problem struct {
	Line   int
	Reason string
}

func (p Problem) Error() string { return fmt.Sprintf("line %d: %s", p.Line, p.Reason) }

// Summary is the outcome of a replay.
type Summary struct {
	Board    board.Board
	Scores   []int // computed
	Over     bool
	Problems []Problem
	// Turns lists the placements, exchanges and passes replayed, in
	// order, with the position each was played on.
	Turns []Turn
}

// Turn is one move of the record as the replay followed it.
type Turn struct {
	Event  Event
	Player int         // the mover's index in Record.Players
	Board  board.Board // the position before the move
	Rack   string      // the rack written on the line, uppercase, '?' a blank
	// Full reports that the rack is one the player can hold, tile for
	// tile as many as they hold: a move without it cannot be judged.
	Full  bool
	Tiles []board.Placement // a placement's tiles
	Score int               // computed, 0 but for a placement
}

// ErrCheck is wrapped by Replay's error when Check found a problem.
var ErrCheck = errors.New("gcg: check failed")

// replayer holds what a record lets us know of the game: the board, the
// scores, the tiles (what each rack can hold, how many the bag holds) and
// the turn order.
type replayer struct {
	rec    *Record
	opt    Options
	out    io.Writer
	board  board.Board
	tiles  *tracker
	seat   map[string]int
	scores []int
	turn   int
	idle   int // consecutive turns without a placement (RULES §11.2)
	passes int // lexico: consecutive passes (RULES §12)
	turns  []int
	over   bool
	ending engine.EndReason
	endAt  int    // the line of the move that ended the game
	out1   int    // the player who went out, -1
	losses []bool // players whose end-of-game loss line was seen
	leftAt []int  // the line where each player resigned, 0 while in (LEAGUES §2)
	active int    // players still in
	gain   *Event // the finisher's gain line
	sum    Summary
}

// Replay plays every event of rec through the engine's rules and writes a
// line per event to out: the move, its words and computed score. It also
// follows the tiles: every rack written must be one the player can hold
// (its size, the game's tiles less those on the board and on other racks,
// the tiles kept from their last move, their exact rack once they draw no
// more), and a finished lexio game needs all its adjustments (RULES §11).
// Problems are written and collected; with opt.Check the first one ends
// the replay with an error wrapping ErrCheck.
func Replay(rec *Record, opt Options, out io.Writer) (Summary, error) {
	if opt.Dict == nil {
		return Summary{}, errors.New("gcg: replay needs a dictionary")
	}
	if err := opt.Rules.Validate(); err != nil {
		return Summary{}, err
	}
	n := len(rec.Players)
	if opt.Rules.Variant == board.Lexico && n != 2 {
		return Summary{}, fmt.Errorf("gcg: lexico is for 2 players, the record has %d (RULES §12)", n)
	}
	r := &replayer{
		rec: rec, opt: opt, out: out,
		seat:   map[string]int{},
		scores: make([]int, n),
		turns:  make([]int, n),
		losses: make([]bool, n),
		leftAt: make([]int, n),
		active: n,
		out1:   -1,
	}
	names := make([]string, n)
	for i, p := range rec.Players {
		r.seat[p.Nick] = i
		names[i] = p.Nick
	}
	r.tiles = newTracker(opt.Rules, names)
	for _, ev := range rec.Events {
		if err := r.event(ev); err != nil {
			var p Problem
			if !errors.As(err, &p) {
				p = Problem{Line: ev.Line, Reason: err.Error()}
			}
			r.sum.Problems = append(r.sum.Problems, p)
			fmt.Fprintf(out, "line %d: ! %s\n", p.Line, p.Reason)
			if opt.Check {
				return r.summary(), fmt.Errorf("%w: %w", ErrCheck, p)
			}
		}
	}
	if err := r.finish(); err != nil {
		var p Problem
		if !errors.As(err, &p) {
			p = Problem{Reason: err.Error()}
			if len(rec.Events) > 0 {
				p.Line = rec.Events[len(rec.Events)-1].Line
			}
		}
		r.sum.Problems = append(r.sum.Problems, p)
		fmt.Fprintf(out, "end: ! %s\n", p.Reason)
		if opt.Check {
			return r.summary(), fmt.Errorf("%w: %w", ErrCheck, p)
		}
	}
	return r.summary(), nil
}

func (r *replayer) summary() Summary {
	s := r.sum
	s.Board, s.Scores, s.Over = r.board, slices.Clone(r.scores), r.over
	return s
}

func (r *replayer) problem(ev Event, format string, args ...any) error {
	return Problem{Line: ev.Line, Reason: fmt.Sprintf(format, args...)}
}

func (r *replayer) event(ev Event) error {
	p := r.seat[ev.Nick]
	switch ev.Kind {
	case EndGain, EndLoss:
		return r.adjust(ev, p)
	case Resign:
		return r.resign(ev, p)
	case Reveal:
		return r.reveal(ev, p)
	case Adjudicate:
		if r.over {
			return r.problem(ev, "the game is over: it cannot be adjudicated after its end")
		}
		r.end(engine.EndAdjudicated, -1)
		r.endAt = ev.Line
		fmt.Fprintf(r.out, "line %d: adjudicated by the league (LEAGUES §7.3)\n", ev.Line)
		fmt.Fprintf(r.out, "game over (%s)\n", r.ending)
		return nil
	}
	if r.over {
		return r.problem(ev, "the game is over: no move after it (RULES §11)")
	}
	if r.leftAt[p] > 0 {
		return r.problem(ev, "%s left at line %d and plays no more (LEAGUES §2.2)", ev.Nick, r.leftAt[p])
	}
	if p != r.turn {
		return r.problem(ev, "%s plays out of turn: it is %s's turn (RULES §1.2)", ev.Nick, r.rec.Players[r.turn].Nick)
	}
	if err := checkRack(ev.Rack); err != nil {
		return r.problem(ev, "%v", err)
	}
	rack := []byte(strings.ToUpper(ev.Rack))
	// A rack no game could give is a problem; without Check the replay
	// goes on, taking the record's word for the rack.
	rackErr := r.tiles.check(p, rack)
	if rackErr != nil && r.opt.Check {
		return r.problem(ev, "%v", rackErr)
	}
	r.tiles.show(p, rack, ev.Line)
	turn := Turn{Event: ev, Player: p, Board: r.board, Rack: string(rack), Full: rackErr == nil}
	var score int
	var desc string
	switch ev.Kind {
	case Place:
		play, err := r.place(ev, rack)
		if err != nil {
			return err
		}
		score = play.Score
		desc = describe(ev, play)
		turn.Tiles, turn.Score = play.Tiles, play.Score
	case Exchange:
		if err := r.exchange(ev, rack); err != nil {
			return err
		}
		desc = fmt.Sprintf("exchanges %d", ev.Count)
		if ev.Tiles != "" {
			desc += " (" + ev.Tiles + ")"
		}
	case Pass:
		r.noPlacement(true)
		desc = "passes"
	}
	if r.over {
		r.endAt = ev.Line
	}
	r.sum.Turns = append(r.sum.Turns, turn)
	r.scores[p] += score
	r.turns[p]++
	r.turn = r.next(r.turn)
	fmt.Fprintf(r.out, "line %d: %-10s %-36s %+4d %5d\n", ev.Line, ev.Nick, desc, score, r.scores[p])
	if r.over {
		fmt.Fprintf(r.out, "game over (%s)\n", r.ending)
	}
	if rackErr != nil {
		return r.problem(ev, "%v", rackErr)
	}
	if ev.Score != score {
		return r.problem(ev, "score %+d in the record, %+d computed", ev.Score, score)
	}
	if ev.Total != r.scores[p] {
		return r.problem(ev, "cumulative %d in the record, %d computed", ev.Total, r.scores[p])
	}
	return nil
}

func describe(ev Event, play board.Play) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", ev.Pos(), ev.Word)
	for i, w := range play.Words {
		if i == 0 {
			b.WriteString(" =")
		} else {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " %s %d", w.Text, w.Score)
	}
	if play.AllTiles > 0 {
		fmt.Fprintf(&b, " +%d", play.AllTiles)
	}
	return b.String()
}

// place validates and applies a placement: shape, rack, words, score.
func (r *replayer) place(ev Event, rack []byte) (board.Play, error) {
	m := board.Move{Start: board.Cell{Col: ev.Col, Row: ev.Row}, Dir: board.Across}
	if ev.Down {
		m.Dir = board.Down
	}
	for i := 0; i < len(ev.Word); i++ {
		c := ev.Word[i]
		switch {
		case c == '.':
			cell := m.Start.Next(m.Dir, i)
			sq := r.board.At(cell)
			if sq.Empty() {
				return board.Play{}, r.problem(ev, "'.' at %s stands for a letter on the board, but the cell is empty", cell)
			}
			m.Word = append(m.Word, board.Letter{Char: sq.Letter, Through: true})
		case c >= 'a' && c <= 'z':
			if !r.opt.Rules.Blanks() {
				return board.Play{}, r.problem(ev, "%q is a blank, and plain lexico has none (RULES §12)", c)
			}
			m.Word = append(m.Word, board.Letter{Char: c - 'a' + 'A', Blank: true})
		default:
			m.Word = append(m.Word, board.Letter{Char: c})
		}
	}
	ps, err := r.board.Resolve(m)
	if err != nil {
		return board.Play{}, r.problem(ev, "%v", err)
	}
	play, err := board.Evaluate(&r.board, ps, r.opt.Rules)
	if err != nil {
		return board.Play{}, r.problem(ev, "%v", err)
	}
	if _, err := board.TakeTiles(rack, ps); err != nil {
		return board.Play{}, r.problem(ev, "tiles not on the rack %s: %v", ev.Rack, err)
	}
	var unknown []string
	for _, w := range play.Words {
		if !r.opt.Dict.Contains(w.Text) && !slices.Contains(unknown, w.Text) {
			unknown = append(unknown, w.Text)
		}
	}
	if len(unknown) > 0 {
		return board.Play{}, r.problem(ev, "not in the dictionary: %s (RULES §4.4)", strings.Join(unknown, ", "))
	}
	if err := r.board.Apply(ps); err != nil {
		return board.Play{}, r.problem(ev, "%v", err)
	}
	p := r.seat[ev.Nick]
	r.tiles.place(p, placedTiles(ps))
	r.idle, r.passes = 0, 0
	if r.tiles.hands[p].count == 0 && r.tiles.bag == 0 {
		r.end(engine.EndOut, p) // RULES §11.1, §12
	}
	return play, nil
}

func (r *replayer) exchange(ev Event, rack []byte) error {
	p := r.seat[ev.Nick]
	if r.opt.Rules.Variant == board.Lexico {
		if r.turns[p] == 0 {
			return r.problem(ev, "no exchange on a player's first turn in lexico (RULES §12)")
		}
		if r.tiles.bag < board.RackSize {
			return r.problem(ev, "no exchange in lexico while the bag holds fewer than 7 tiles; it holds %d (RULES §12)", r.tiles.bag)
		}
	}
	if ev.Count > r.tiles.bag {
		return r.problem(ev, "exchange of %d tiles, the bag holds %d (RULES §7.1)", ev.Count, r.tiles.bag)
	}
	if ev.Count > len(rack) {
		return r.problem(ev, "exchange of %d tiles from the rack %s", ev.Count, ev.Rack)
	}
	returned := []byte(strings.ToUpper(ev.Tiles))
	left := slices.Clone(rack)
	for _, t := range returned {
		i := slices.Index(left, t)
		if i < 0 {
			return r.problem(ev, "exchanged tile %c is not on the rack %s", t, ev.Rack)
		}
		left = slices.Delete(left, i, i+1)
	}
	if ev.Score != 0 {
		return r.problem(ev, "an exchange scores 0, the record says %+d (RULES §7.3)", ev.Score)
	}
	r.tiles.exchange(p, countTiles(returned))
	r.noPlacement(false)
	return nil
}

// noPlacement counts a turn without a placement towards the endings of
// RULES §11.2 (lexio) and §12 (lexico: two passes in a row).
func (r *replayer) noPlacement(pass bool) {
	r.idle++
	if pass {
		r.passes++
	} else {
		r.passes = 0
	}
	// Decided: the players still in count (LEAGUES §2.2).
	n := r.active
	if r.opt.Rules.Variant == board.Lexico {
		if r.passes >= 2 {
			r.end(engine.EndPasses, -1)
		}
		return
	}
	if r.idle >= 2*n {
		r.end(engine.EndIdle, -1)
	}
}

func (r *replayer) end(reason engine.EndReason, out int) {
	r.over, r.ending, r.out1 = true, reason, out
}

// next is the player after p still in (RULES §1.2, LEAGUES §2.2).
func (r *replayer) next(p int) int {
	for {
		p = (p + 1) % len(r.scores)
		if r.leftAt[p] == 0 {
			return p
		}
	}
}

// resigned reports whether the game ended by resignation or forfeit.
func (r *replayer) resigned() bool {
	return r.ending == engine.EndResign || r.ending == engine.EndForfeit
}

// resign follows a #resign or #forfeit line (LEAGUES §2.1–2.3): on turn or
// not, the rack must be one the player holds. With others still in it
// goes back into the bag and the player is skipped from then on; when one
// would be left, the game ends, the rack revealed, nothing adjusted.
func (r *replayer) resign(ev Event, p int) error {
	if r.over {
		return r.problem(ev, "the game is over: nobody resigns after it")
	}
	if r.leftAt[p] > 0 {
		return r.problem(ev, "%s already left at line %d", ev.Nick, r.leftAt[p])
	}
	rack := []byte(strings.ToUpper(ev.Rack))
	rackErr := r.tiles.check(p, rack)
	if rackErr != nil && r.opt.Check {
		return r.problem(ev, "%v", rackErr)
	}
	r.tiles.show(p, rack, ev.Line)
	r.leftAt[p] = ev.Line
	r.active--
	verb, reason := "resigns", engine.EndResign
	if ev.Forfeit {
		verb, reason = "forfeits", engine.EndForfeit
	}
	if r.active <= 1 {
		r.end(reason, -1)
		r.endAt = ev.Line
		fmt.Fprintf(r.out, "line %d: %-10s %-36s %+4d %5d\n", ev.Line, ev.Nick, verb+", rack ("+ev.Rack+") revealed", 0, r.scores[p])
		fmt.Fprintf(r.out, "game over (%s)\n", r.ending)
	} else {
		r.tiles.giveBack(p)
		if r.turn == p {
			r.turn = r.next(p)
		}
		fmt.Fprintf(r.out, "line %d: %-10s %-36s %+4d %5d\n", ev.Line, ev.Nick, verb+", ("+ev.Rack+") back in the bag", 0, r.scores[p])
	}
	if rackErr != nil {
		return r.problem(ev, "%v", rackErr)
	}
	return nil
}

// reveal checks a #rackN line: after an end by resignation, the rack of a
// player still in (LEAGUES §2.1, RULES §11.4).
func (r *replayer) reveal(ev Event, p int) error {
	if !r.over || !r.resigned() {
		return r.problem(ev, "a #rack line shows a rack at the end by resignation (LEAGUES §2.1), and the game is not over by one")
	}
	if r.leftAt[p] > 0 && r.leftAt[p] != r.endAt {
		return r.problem(ev, "%s left at line %d: their rack went back into the bag (LEAGUES §2.2)", ev.Nick, r.leftAt[p])
	}
	rack := []byte(strings.ToUpper(ev.Rack))
	err := r.tiles.check(p, rack)
	r.tiles.show(p, rack, ev.Line)
	fmt.Fprintf(r.out, "line %d: %-10s %-36s %+4d %5d\n", ev.Line, ev.Nick, "rack ("+ev.Rack+") revealed", 0, r.scores[p])
	if err != nil {
		return r.problem(ev, "%v", err)
	}
	return nil
}

// adjust checks an end-of-game line: "(TILES) -N" for a player losing their
// rack's value, "(TILES) +N" for the finisher gaining the others' (RULES §11).
// A rack lost must be the one the player holds, as far as the record tells.
func (r *replayer) adjust(ev Event, p int) error {
	if !r.over {
		return r.problem(ev, "an end-of-game adjustment before the game is over")
	}
	if r.opt.Rules.Variant == board.Lexico && r.ending != engine.EndAdjudicated {
		return r.problem(ev, "lexico has no rack adjustments (RULES §12)")
	}
	if r.resigned() {
		return r.problem(ev, "no rack adjustments at the end by resignation (LEAGUES §2.1)")
	}
	if r.leftAt[p] > 0 {
		return r.problem(ev, "%s left at line %d: no rack to lose or gain with (LEAGUES §2.2)", ev.Nick, r.leftAt[p])
	}
	if err := checkRack(ev.Rack); err != nil {
		return r.problem(ev, "%v", err)
	}
	rack := []byte(strings.ToUpper(ev.Rack))
	value := countTiles(rack).value()
	switch ev.Kind {
	case EndLoss:
		if r.losses[p] {
			return r.problem(ev, "%s loses their rack twice", ev.Nick)
		}
		if p == r.out1 {
			return r.problem(ev, "%s went out and has no rack to lose (RULES §11.1)", ev.Nick)
		}
		r.losses[p] = true
		err := r.tiles.check(p, rack)
		r.tiles.show(p, rack, ev.Line)
		if err != nil {
			return r.problem(ev, "%v", err)
		}
		if -ev.Score != value {
			return r.problem(ev, "the rack %s is worth %d, the record says %d (RULES §11.3)", ev.Rack, value, ev.Score)
		}
	case EndGain:
		if p != r.out1 {
			return r.problem(ev, "only the player who went out gains points at the end (RULES §11.1, §11.2)")
		}
		if r.gain != nil {
			return r.problem(ev, "%s gains twice: line %d already gained (RULES §11.1)", ev.Nick, r.gain.Line)
		}
		r.gain = &ev
		if ev.Score != value {
			return r.problem(ev, "the tiles %s are worth %d, the record says %+d (RULES §11.1)", ev.Rack, value, ev.Score)
		}
	}
	r.scores[p] += ev.Score
	fmt.Fprintf(r.out, "line %d: %-10s %-36s %+4d %5d\n", ev.Line, ev.Nick, "end: rack ("+ev.Rack+")", ev.Score, r.scores[p])
	if ev.Total != r.scores[p] {
		return r.problem(ev, "cumulative %d in the record, %d computed", ev.Total, r.scores[p])
	}
	return nil
}

// finish checks that a lexio record that ends the game has all its
// adjustments: every player's loss but the finisher's, and the finisher's
// gain of exactly the tiles the others lost (RULES §11.1, §11.2). A
// missing line is told at the record's last line.
func (r *replayer) finish() error {
	if !r.over || r.opt.Rules.Variant == board.Lexico && r.ending != engine.EndAdjudicated || r.resigned() {
		return nil
	}
	rule := "RULES §11.2"
	if r.ending == engine.EndAdjudicated {
		rule = "LEAGUES §7.3"
	}
	if r.out1 >= 0 {
		rule = "RULES §11.1"
	}
	last := r.rec.Events[len(r.rec.Events)-1].Line
	var lost tiles
	for p, seen := range r.losses {
		if p == r.out1 || r.leftAt[p] > 0 {
			continue
		}
		if !seen {
			nick := r.rec.Players[p].Nick
			want := ""
			if rack, ok := r.tiles.known(p); ok {
				want = fmt.Sprintf(": >%s: (%s) -%d", nick, rack, rack.value())
			}
			return Problem{Line: last, Reason: fmt.Sprintf("the game ended at line %d (%s), but %s's loss of their rack is missing%s", r.endAt, rule, nick, want)}
		}
		lost = lost.plus(r.tiles.hands[p].hold)
	}
	if r.out1 < 0 {
		return nil
	}
	nick := r.rec.Players[r.out1].Nick
	if r.gain == nil {
		if lost.value() == 0 {
			return nil // blanks only: nothing to gain (RULES §11.3)
		}
		return Problem{Line: last, Reason: fmt.Sprintf("the game ended at line %d when %s went out (%s), but their gain of the other racks is missing: >%s: (%s) +%d", r.endAt, nick, rule, nick, lost, lost.value())}
	}
	if got := countTiles([]byte(strings.ToUpper(r.gain.Rack))); got != lost {
		return Problem{Line: r.gain.Line, Reason: fmt.Sprintf("%s gains the tiles left on the other racks, %s worth %d (%s), not (%s) %+d", nick, lost, lost.value(), rule, r.gain.Rack, r.gain.Score)}
	}
	return nil
}
