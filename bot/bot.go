// Package bot is Lexio's computer opponent: it chooses a player's action
// (a placement, an exchange or a pass) from what that player sees, at one
// of three levels. It finds every legal placement with movegen and leaves
// playing it to the caller, through the engine like any player's.
//
//   - easy plays a random move of the weaker half by score;
//   - medium plays the highest score;
//   - strong plays the highest score plus leave value (leave.go) while the
//     bag holds tiles, and exchanges when the best tiles to keep are worth
//     more than that; once the bag is empty it knows the other racks (the
//     tiles it has not seen) and weighs going out, the reply of a single
//     opponent and the racks left at the end (RULES §11).
package bot

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/lexio-mail/lexio/dict"
	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/engine/board"
	"github.com/lexio-mail/lexio/movegen"
)

// Level is how well a bot plays.
type Level string

// The levels.
const (
	Easy   Level = "easy"
	Medium Level = "medium"
	Strong Level = "strong"
)

// Levels lists the levels, weakest first.
func Levels() []Level { return []Level{Easy, Medium, Strong} }

// ParseLevel reads a level's name.
func ParseLevel(s string) (Level, error) {
	for _, l := range Levels() {
		if s == string(l) {
			return l, nil
		}
	}
	return "", fmt.Errorf("bot: unknown level %q (easy, medium or strong)", s)
}

// View is all a bot knows when it chooses: what its player sees, and no
// other player's rack. Make it with ViewOf.
type View struct {
	Player int
	Rules  board.Rules
	Board  board.Board
	Rack   []byte // the player's tiles in rack order, '?' a blank
	Bag    int    // tiles in the bag
	// Unseen holds the tiles neither on the board nor on the rack, sorted:
	// the bag's and the other racks', all of them the others' once the
	// bag is empty.
	Unseen    []byte
	Opponents int // players still in besides this one
	Turns     int // turns this player has ended (lexico: no exchange on the first, RULES §12)
	// Idle counts the turns in a row, up to this one, in which nobody
	// placed a tile (passes, exchanges, expiries).
	Idle    int
	Players int // players still in, this one included
}

// ViewOf returns the bot's view of a player's engine view.
func ViewOf(v engine.View) View {
	bv := View{Player: v.Player, Rules: v.Rules, Board: v.Board, Bag: v.Bag}
	for _, t := range v.Rack {
		bv.Rack = append(bv.Rack, t.Letter[0])
	}
	unseen := countsOf(board.TileSet(v.Rules))
	for i := range board.Size * board.Size {
		sq := v.Board.At(board.Cell{Col: i % board.Size, Row: i / board.Size})
		switch {
		case sq.Blank:
			unseen[blank]--
		case sq.Letter != 0:
			unseen[sq.Letter-'A']--
		}
	}
	for _, t := range bv.Rack {
		unseen[slot(t)]--
	}
	for range unseen[blank] { // '?' sorts before the letters
		bv.Unseen = append(bv.Unseen, board.BlankTile)
	}
	for l := range 26 {
		for range unseen[l] {
			bv.Unseen = append(bv.Unseen, byte('A'+l))
		}
	}
	for p := range v.Scores {
		if p != v.Player && (v.Left == nil || !v.Left[p]) {
			bv.Opponents++
		}
	}
	bv.Players = bv.Opponents + 1
	for _, e := range v.Log {
		switch e.Kind {
		case engine.LogPlace, engine.LogExchange, engine.LogPass, engine.LogExpire:
			if e.Player == v.Player {
				bv.Turns++
			}
			bv.Idle++
			if e.Kind == engine.LogPlace {
				bv.Idle = 0
			}
		}
	}
	return bv
}

// canExchange reports whether the player may return n tiles (RULES §7.1,
// §12) and should: after a whole round in which nobody placed a tile the
// board is likely blocked, and the bot passes rather than exchanges, so
// that the game ends (RULES §11.2; in lexico only passes end it).
func (v *View) canExchange(n int) bool {
	if v.Rules.Variant == board.Lexico && (v.Turns == 0 || v.Bag < board.RackSize) {
		return false
	}
	if v.Idle >= v.Players {
		return false
	}
	return n >= 1 && n <= v.Bag
}

// Bot chooses actions. It keeps its working memory from one choice to the
// next; it is not safe for concurrent use (make one per goroutine: they
// may share the GADDAG).
type Bot struct {
	gen     *movegen.Generator
	moves   []movegen.Move
	replies []movegen.Move
}

// New returns a bot playing the words of gd, which must be the GADDAG of
// the table's dictionary.
func New(gd *dict.Gaddag) *Bot { return &Bot{gen: movegen.New(gd)} }

// replyMoves is how many of its best-scoring moves a strong bot weighs
// against the opponent's best reply at the end of the game.
const replyMoves = 40

// Choose returns the action of v's player at level: a placement, an
// exchange (Slots, 1-based in rack order) or a pass, for the caller to
// play through the engine; its At is left unset. rng draws easy's move;
// medium and strong do not use it, choosing the same in the same view.
func (b *Bot) Choose(v View, level Level, rng *rand.Rand) (engine.Action, error) {
	var err error
	b.moves, err = b.gen.Generate(&v.Board, v.Rack, v.Rules, b.moves[:0])
	if err != nil {
		return engine.Action{}, fmt.Errorf("bot: %w", err)
	}
	// Best score first; equal scores keep the generator's order, which
	// depends on the position only.
	slices.SortStableFunc(b.moves, func(x, y movegen.Move) int { return cmp.Compare(y.Score, x.Score) })
	moves := b.moves
	switch level {
	case Easy:
		if len(moves) == 0 {
			return noMove(&v), nil
		}
		weaker := moves[len(moves)/2:]
		return place(&v, &weaker[rng.IntN(len(weaker))]), nil
	case Medium:
		if len(moves) == 0 {
			return noMove(&v), nil
		}
		return place(&v, &moves[0]), nil
	case Strong:
		if v.Bag == 0 {
			return b.endgame(&v), nil
		}
		return b.strong(&v), nil
	}
	return engine.Action{}, fmt.Errorf("bot: unknown level %q", level)
}

// noMove is what easy and medium do without a placement: exchange the
// whole rack when they may, pass otherwise.
func noMove(v *View) engine.Action {
	if v.canExchange(len(v.Rack)) {
		return exchange(v, 0)
	}
	return engine.Action{Kind: engine.ActPass, Player: v.Player}
}

func place(v *View, m *movegen.Move) engine.Action {
	return engine.Action{Kind: engine.ActPlace, Player: v.Player, Tiles: m.Placements()}
}

// exchange returns every tile of the rack but those whose bit is set in
// keep.
func exchange(v *View, keep uint) engine.Action {
	a := engine.Action{Kind: engine.ActExchange, Player: v.Player}
	for i := range v.Rack {
		if keep&(1<<i) == 0 {
			a.Slots = append(a.Slots, i+1)
		}
	}
	return a
}

// leftAfter is the rack's tiles once m is played.
func leftAfter(rack counts, m *movegen.Move) counts {
	for i := range m.N {
		if p := m.Tile(i); p.Blank {
			rack[blank]--
		} else {
			rack[p.Letter-'A']--
		}
	}
	return rack
}

// strong plays the best score plus leave, or exchanges for the best leave
// when that is worth more.
func (b *Bot) strong(v *View) engine.Action {
	rack := countsOf(v.Rack)
	act := engine.Action{Kind: engine.ActPass, Player: v.Player}
	best := math.Inf(-1)
	for i := range b.moves {
		m := &b.moves[i]
		left := leftAfter(rack, m)
		if val := float64(m.Score) + leave(&left); val > best {
			best, act = val, place(v, m)
		}
	}
	n := len(v.Rack)
	for keep := uint(0); keep < 1<<n-1; keep++ { // at least one tile goes back
		if !v.canExchange(n - bits.OnesCount(keep)) {
			continue
		}
		var kept counts
		for i, t := range v.Rack {
			if keep&(1<<i) != 0 {
				kept[slot(t)]++
			}
		}
		if val := leave(&kept); val > best {
			best, act = val, exchange(v, keep)
		}
	}
	return act
}

// rackValue is what tiles are worth at the end (RULES §11.1, §11.3).
func rackValue(c *counts) int {
	v := 0
	for l := range 26 {
		v += c[l] * board.LetterValue(byte('A'+l))
	}
	return v
}

// endgame plays with the bag empty, every unseen tile on another rack:
// going out scores the move and, in lexio, ends the game with twice the
// others' tiles (they lose them, the bot gains them, RULES §11.1). Against
// one opponent, whose rack is then known, each of the best moves is
// weighed against the opponent's best reply, their going out included;
// against more, a move costs the tiles it leaves.
func (b *Bot) endgame(v *View) engine.Action {
	if len(b.moves) == 0 {
		return engine.Action{Kind: engine.ActPass, Player: v.Player}
	}
	adjust := 2 // lexio's rack adjustments count twice between two players
	if v.Rules.Variant == board.Lexico {
		adjust = 0 // lexico has none (RULES §12)
	}
	rack, unseen := countsOf(v.Rack), countsOf(v.Unseen)
	best, choice := math.MinInt, 0
	for i := range b.moves {
		m := &b.moves[i]
		left := leftAfter(rack, m)
		var val int
		switch {
		case m.N == len(v.Rack):
			val = m.Score + adjust*rackValue(&unseen)
		case v.Opponents == 1 && i < replyMoves:
			val = m.Score - b.bestReply(v, m, adjust*rackValue(&left))
		case v.Opponents == 1:
			continue // a lower score than the moves weighed, and no reply known
		default:
			val = m.Score - adjust/2*rackValue(&left)
		}
		if val > best {
			best, choice = val, i
		}
	}
	return place(v, &b.moves[choice])
}

// bestReply is the most the opponent, holding the unseen tiles, scores
// after m: their best move, plus out when it uses all their tiles.
func (b *Bot) bestReply(v *View, m *movegen.Move, out int) int {
	board := v.Board
	if err := board.Apply(m.Placements()); err != nil {
		return 0 // not a move of the generator's
	}
	var err error
	b.replies, err = b.gen.Generate(&board, v.Unseen, v.Rules, b.replies[:0])
	if err != nil {
		return 0
	}
	best := 0
	for _, r := range b.replies {
		s := r.Score
		if r.N == len(v.Unseen) {
			s += out
		}
		best = max(best, s)
	}
	return best
}
