// Package engine is the pure rules engine of Lexio (RULES.md): a game of
// 2–4 players on the board of package board — the bag, the racks, turns,
// the probe reserve, exchanges, passes, resignations, the end of the game
// and each player's view of a table. It does no I/O, reads no clock and
// holds no global randomness: times and the bag's seed are passed in, and a
// game is its configuration plus an ordered list of actions.
package engine

import (
	"fmt"
	"slices"
	"time"

	"github.com/lexio-mail/lexio/engine/board"
)

// Dictionary is what the engine needs from a word list.
type Dictionary interface {
	Contains(word string) bool // word is uppercase A–Z
}

// Config sets up a game. The zero Rules are lexio.
type Config struct {
	board.Rules
	Players       int           `json:"players"` // 2–4 in join order (RULES §1.2); lexico 2
	Seed          uint64        `json:"seed"`    // the bag's seed
	ReserveSize   int           `json:"reserve_size,omitempty"`
	ReserveRefill time.Duration `json:"reserve_refill,omitempty"`
	Start         time.Time     `json:"start"` // when the first turn begins
}

func (c Config) withDefaults() Config {
	if c.Variant == "" {
		c.Variant = board.Lexio
	}
	if c.ReserveSize <= 0 {
		c.ReserveSize = DefaultReserveSize
	}
	if c.ReserveRefill <= 0 {
		c.ReserveRefill = DefaultReserveRefill
	}
	return c
}

// Validate reports a configuration the engine cannot play.
func (c Config) Validate() error {
	if err := c.Rules.Validate(); err != nil {
		return err
	}
	switch {
	case c.Players < 2 || c.Players > 4:
		return fmt.Errorf("engine: %d players, want 2 to 4: %w", c.Players, board.ErrConfig)
	case c.Variant == board.Lexico && c.Players != 2:
		return fmt.Errorf("engine: lexico is for 2 players, not %d: %w", c.Players, board.ErrConfig)
	}
	return nil
}

// ActionKind names an entry of the action list.
type ActionKind string

// The actions. Place, exchange, pass and expire end the turn; probe (a
// placement rejected for unknown words, which spent a reserve attempt) and
// present (an away player wrote again) do not. Resign (LEAGUES §2) may come
// at any time from a player still in; substitute (LEAGUES §4) records that
// a seat changed hands and changes nothing else; adjudicate (LEAGUES §7.3)
// is the table's: it ends an unfinished game when its league's season
// ends.
const (
	ActPlace      ActionKind = "place"
	ActExchange   ActionKind = "exchange"
	ActPass       ActionKind = "pass"
	ActExpire     ActionKind = "expire"
	ActProbe      ActionKind = "probe"
	ActPresent    ActionKind = "present"
	ActResign     ActionKind = "resign"
	ActSubstitute ActionKind = "substitute"
	ActAdjudicate ActionKind = "adjudicate"
)

// Action is one entry of a game's history: with the configuration (and its
// seed) the actions rebuild the whole state, without a dictionary.
type Action struct {
	Kind   ActionKind        `json:"kind"`
	Player int               `json:"player"`
	At     time.Time         `json:"at"`
	Tiles  []board.Placement `json:"tiles,omitempty"` // place
	Slots  []int             `json:"slots,omitempty"` // exchange: 1-based rack slots returned
	Words  []string          `json:"words,omitempty"` // probe: the rejected words
	Start  *board.Cell       `json:"start,omitempty"` // probe: where the refused play's word starts
	// Forfeit marks a resignation the table recorded for a player who let
	// too many turns expire (LEAGUES §2.3).
	Forfeit bool `json:"forfeit,omitempty"`
	// From and To are the display names of a seat's holders before and
	// after a substitution; the engine does not interpret them.
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
}

// EndReason says how a game ended.
type EndReason string

// End reasons.
const (
	EndOut     EndReason = "out"     // a player placed their last tile, bag empty (RULES §11.1, §12)
	EndIdle    EndReason = "idle"    // 2 × players turns without a placement (RULES §11.2)
	EndPasses  EndReason = "passes"  // lexico: both players passed in a row (RULES §12)
	EndResign  EndReason = "resign"  // one player left in: the others resigned (LEAGUES §2.1–2.2)
	EndForfeit EndReason = "forfeit" // as EndResign, the last to leave forfeited (LEAGUES §2.3)
	// EndAdjudicated: the league's season ended first; as RULES §11.2,
	// each player still in loses their rack's value and nobody gains, in
	// either variant (LEAGUES §7.3).
	EndAdjudicated EndReason = "adjudicated"
)

// EntryKind names a log entry.
type EntryKind string

// Log entry kinds (RULES §10.1).
const (
	LogPlace    EntryKind = "place"
	LogExchange EntryKind = "exchange"
	LogPass     EntryKind = "pass"
	LogExpire   EntryKind = "expire"
	LogRejected EntryKind = "rejected" // private to its author
	LogAdjust   EntryKind = "adjust"   // end-of-game rack adjustment, rack revealed
	LogEnd      EntryKind = "end"
	LogResign   EntryKind = "resign"     // a player left (Forfeit: by the table); Count tiles back in the bag
	LogSubst    EntryKind = "substitute" // a seat changed hands, From → To (LEAGUES §4.1)
)

// LogEntry is one line of the table's log.
type LogEntry struct {
	Seq     int         `json:"seq"`
	Kind    EntryKind   `json:"kind"`
	Player  int         `json:"player"` // -1 for the table
	At      time.Time   `json:"at"`
	Play    *board.Play `json:"play,omitempty"`
	Count   int         `json:"count,omitempty"`  // tiles exchanged
	Score   int         `json:"score,omitempty"`  // points of a placement or an adjustment
	Words   []string    `json:"words,omitempty"`  // rejected words
	Start   *board.Cell `json:"start,omitempty"`  // rejected: where the word starts; nil in logs older than the field
	Rack    string      `json:"rack,omitempty"`   // adjust: the rack at the end
	Reason  EndReason   `json:"reason,omitempty"` // end
	Private bool        `json:"private,omitempty"`
	Forfeit bool        `json:"forfeit,omitempty"` // resign: recorded by the table (LEAGUES §2.3)
	From    string      `json:"from,omitempty"`    // substitute: the seat's holder before
	To      string      `json:"to,omitempty"`      // substitute: and after
}

// Visible reports whether player may read the entry.
func (e LogEntry) Visible(player int) bool { return !e.Private || e.Player == player }

type player struct {
	rack    []byte
	score   int
	reserve reserve
	away    bool
	turns   int  // turns this player has ended
	left    bool // resigned or forfeited (LEAGUES §2)
	forfeit bool
	expired int // consecutive expired turns (LEAGUES §2.3)
}

// Game is one table's game. It is not safe for concurrent use.
type Game struct {
	cfg       Config
	board     board.Board
	bag       *bag
	players   []player
	turn      int
	turnStart time.Time
	idle      int // consecutive turns without a placement (RULES §11.2)
	passes    int // consecutive passes and expiries (lexico, RULES §12)
	over      bool
	reason    EndReason
	lastPlay  []board.Cell
	left      []int // players in the order they left (LEAGUES §2.2)
	actions   []Action
	log       []LogEntry
}

// New starts a game: the bag is shuffled from the seed and each player, in
// join order, draws 7 tiles (RULES §3.2). Player 0 has the first turn.
func New(cfg Config) (*Game, error) {
	cfg = cfg.withDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	g := &Game{
		cfg:       cfg,
		bag:       newBag(cfg.Rules, cfg.Seed),
		players:   make([]player, cfg.Players),
		turnStart: cfg.Start,
	}
	for i := range g.players {
		g.players[i].rack = g.bag.draw(make([]byte, 0, board.RackSize), board.RackSize)
		g.players[i].reserve.level = cfg.ReserveSize
	}
	return g, nil
}

// Rebuild replays actions on a new game from cfg. It needs no dictionary:
// the words of placements were checked when they were played.
func Rebuild(cfg Config, actions []Action) (*Game, error) {
	g, err := New(cfg)
	if err != nil {
		return nil, err
	}
	for i, a := range actions {
		if err := g.apply(a, nil); err != nil {
			return nil, fmt.Errorf("engine: action %d (%s by %d): %w: %w", i, a.Kind, a.Player, ErrBadLog, err)
		}
	}
	return g, nil
}

// Config returns the game's configuration, defaults filled in.
func (g *Game) Config() Config { return g.cfg }

// Rules returns the game's rules.
func (g *Game) Rules() board.Rules { return g.cfg.Rules }

// Players returns the number of players.
func (g *Game) Players() int { return len(g.players) }

// Turn returns the player whose turn it is.
func (g *Game) Turn() int { return g.turn }

// TurnStart returns when the current turn began; deadlines count from it
// (RULES §9.2).
func (g *Game) TurnStart() time.Time { return g.turnStart }

// Over reports whether the game has ended.
func (g *Game) Over() bool { return g.over }

// Board returns a copy of the board.
func (g *Game) Board() board.Board { return g.board }

// BagCount returns how many tiles remain in the bag.
func (g *Game) BagCount() int { return len(g.bag.tiles) }

// Score returns a player's score.
func (g *Game) Score(p int) int { return g.players[p].score }

// Rack returns a copy of a player's rack in rack order ('?' a blank). Only
// that player may see it before the end (RULES §3.2).
func (g *Game) Rack(p int) []byte { return slices.Clone(g.players[p].rack) }

// Away reports whether a player let their turn expire and has not written
// since (RULES §9.2).
func (g *Game) Away(p int) bool { return g.players[p].away }

// Left reports whether a player resigned or forfeited (LEAGUES §2).
func (g *Game) Left(p int) bool { return g.players[p].left }

// Forfeited reports whether a player left by forfeit (LEAGUES §2.3).
func (g *Game) Forfeited(p int) bool { return g.players[p].forfeit }

// Active returns how many players are still in.
func (g *Game) Active() int { return len(g.players) - len(g.left) }

// Expiries returns how many of player p's turns in a row expired: it
// counts from their last placement, exchange or pass (LEAGUES §2.3).
func (g *Game) Expiries(p int) int { return g.players[p].expired }

// Reserve returns a player's probe reserve at time at and when the next
// attempt comes back (zero when full) (RULES §6.2).
func (g *Game) Reserve(p int, at time.Time) (int, time.Time) {
	return g.players[p].reserve.state(at, g.cfg.ReserveSize, g.cfg.ReserveRefill)
}

// Actions returns a copy of the action list.
func (g *Game) Actions() []Action { return slices.Clone(g.actions) }

// Log returns the whole log, private entries included (for storage and
// administration; players get theirs through View).
func (g *Game) Log() []LogEntry { return slices.Clone(g.log) }

func (g *Game) checkPlayer(p int) error {
	if p < 0 || p >= len(g.players) {
		return fmt.Errorf("engine: player %d of %d: %w", p, len(g.players), ErrNoPlayer)
	}
	return nil
}

func (g *Game) checkTurn(p int) error {
	if err := g.checkIn(p); err != nil {
		return err
	}
	if p != g.turn {
		return &board.MoveError{Kind: board.KindNotYourTurn}
	}
	return nil
}

// checkIn checks that player p may still leave the game or change hands:
// the game runs and they have not left.
func (g *Game) checkIn(p int) error {
	if err := g.checkPlayer(p); err != nil {
		return err
	}
	if g.over {
		return &board.MoveError{Kind: board.KindGameOver}
	}
	if g.players[p].left {
		return &board.MoveError{Kind: board.KindResigned}
	}
	return nil
}

// Present records that player wrote to the table: an away player is
// present again (RULES §9.2). It does not change the turn's start. It does
// nothing when the player is not away or the game is over.
func (g *Game) Present(p int, at time.Time) error {
	if err := g.checkPlayer(p); err != nil {
		return err
	}
	if g.over || !g.players[p].away || g.players[p].left {
		return nil
	}
	return g.apply(Action{Kind: ActPresent, Player: p, At: at}, nil)
}

// PlayResult is an accepted placement.
type PlayResult struct {
	Play  board.Play
	Drawn int  // tiles drawn to refill the rack
	Over  bool // the placement ended the game
}

// Place plays a move written by a player (RULES §4–§6).
func (g *Game) Place(p int, m board.Move, d Dictionary, at time.Time) (PlayResult, error) {
	if err := g.Present(p, at); err != nil {
		return PlayResult{}, err
	}
	if err := g.checkTurn(p); err != nil {
		return PlayResult{}, err
	}
	ps, err := g.board.Resolve(m)
	if err != nil {
		return PlayResult{}, err
	}
	return g.place(p, ps, d, at)
}

// PlaceTiles plays an explicit list of placed tiles (RULES §4–§6).
func (g *Game) PlaceTiles(p int, ps []board.Placement, d Dictionary, at time.Time) (PlayResult, error) {
	if err := g.Present(p, at); err != nil {
		return PlayResult{}, err
	}
	if err := g.checkTurn(p); err != nil {
		return PlayResult{}, err
	}
	return g.place(p, slices.Clone(ps), d, at)
}

func (g *Game) place(p int, ps []board.Placement, d Dictionary, at time.Time) (PlayResult, error) {
	play, _, err := g.evaluate(p, ps)
	if err != nil {
		return PlayResult{}, err
	}
	// RULES §6.3: with the reserve at 0 every placement is rejected,
	// whether or not its words exist.
	// Only spending changes the stored reserve, so that a rebuild from
	// the actions holds exactly the same state.
	if left, next := g.Reserve(p, at); left <= 0 {
		return PlayResult{}, &board.MoveError{Kind: board.KindReserveEmpty, Reserve: left, NextAttempt: next}
	}
	var unknown []string
	for _, w := range play.Words {
		if !d.Contains(w.Text) && !slices.Contains(unknown, w.Text) {
			unknown = append(unknown, w.Text)
		}
	}
	if len(unknown) > 0 {
		// RULES §6.1–6.2: nothing placed, every rejected word named, one
		// attempt spent, still this player's turn.
		probe := Action{Kind: ActProbe, Player: p, At: at, Words: unknown}
		if len(play.Words) > 0 {
			start := play.Words[0].Start
			probe.Start = &start
		}
		if err := g.apply(probe, nil); err != nil {
			return PlayResult{}, err
		}
		left, next := g.Reserve(p, at)
		return PlayResult{}, &board.MoveError{Kind: board.KindUnknownWords, Cells: board.Cells(ps), Words: unknown, Reserve: left, NextAttempt: next}
	}
	before := len(g.bag.tiles)
	if err := g.apply(Action{Kind: ActPlace, Player: p, At: at, Tiles: ps}, &play); err != nil {
		return PlayResult{}, err
	}
	return PlayResult{Play: play, Drawn: before - len(g.bag.tiles), Over: g.over}, nil
}

// evaluate validates a placement by player p: shape, then rack.
func (g *Game) evaluate(p int, ps []board.Placement) (board.Play, []byte, error) {
	play, err := board.Evaluate(&g.board, ps, g.cfg.Rules)
	if err != nil {
		return board.Play{}, nil, err
	}
	left, err := board.TakeTiles(g.players[p].rack, ps)
	if err != nil {
		return board.Play{}, nil, err
	}
	return play, left, nil
}

// Preview scores a move for player p without playing it and without a
// dictionary (RULES §5.8). It checks the shape and the player's rack, not
// the turn.
func (g *Game) Preview(p int, m board.Move) (board.Play, error) {
	if err := g.checkPlayer(p); err != nil {
		return board.Play{}, err
	}
	if g.over {
		return board.Play{}, &board.MoveError{Kind: board.KindGameOver}
	}
	ps, err := g.board.Resolve(m)
	if err != nil {
		return board.Play{}, err
	}
	play, _, err := g.evaluate(p, ps)
	return play, err
}

// Selection names rack tiles to exchange: All of them, or rack Slots
// (1-based), or Letters ('?' a blank). The first field set is used.
type Selection struct {
	All     bool
	Slots   []int
	Letters string
}

// slots resolves a selection against player p's rack.
func (g *Game) slots(p int, sel Selection) ([]int, error) {
	rack := g.players[p].rack
	switch {
	case sel.All:
		out := make([]int, len(rack))
		for i := range rack {
			out[i] = i + 1
		}
		return out, nil
	case len(sel.Slots) > 0:
		var bad []int
		for i, s := range sel.Slots {
			if s < 1 || s > len(rack) || slices.Contains(sel.Slots[:i], s) {
				bad = append(bad, s)
			}
		}
		if len(bad) > 0 {
			return nil, &board.MoveError{Kind: board.KindBadSlot, Slots: bad, Have: len(rack)}
		}
		return slices.Clone(sel.Slots), nil
	case sel.Letters != "":
		used := make([]bool, len(rack))
		var out []int
		var missing []byte
		for i := 0; i < len(sel.Letters); i++ {
			t := sel.Letters[i]
			if t >= 'a' && t <= 'z' {
				t -= 'a' - 'A'
			}
			found := false
			for j, r := range rack {
				if !used[j] && r == t {
					used[j], found = true, true
					out = append(out, j+1)
					break
				}
			}
			if !found {
				missing = append(missing, t)
			}
		}
		if len(missing) > 0 {
			return nil, &board.MoveError{Kind: board.KindNotOnRack, Letters: string(missing)}
		}
		return out, nil
	}
	return nil, &board.MoveError{Kind: board.KindNoTiles}
}

// Exchange returns the selected tiles to the bag for as many new ones
// (RULES §7.1, §12). It returns how many tiles were exchanged.
func (g *Game) Exchange(p int, sel Selection, at time.Time) (int, error) {
	if err := g.Present(p, at); err != nil {
		return 0, err
	}
	if err := g.checkTurn(p); err != nil {
		return 0, err
	}
	slots, err := g.slots(p, sel)
	if err != nil {
		return 0, err
	}
	if err := g.apply(Action{Kind: ActExchange, Player: p, At: at, Slots: slots}, nil); err != nil {
		return 0, err
	}
	return len(slots), nil
}

// Pass ends player p's turn without playing (RULES §7.2).
func (g *Game) Pass(p int, at time.Time) error {
	if err := g.Present(p, at); err != nil {
		return err
	}
	if err := g.checkTurn(p); err != nil {
		return err
	}
	return g.apply(Action{Kind: ActPass, Player: p, At: at}, nil)
}

// Expire passes for player p, whose turn ran out; they are away from now
// on (RULES §9.1–9.2).
func (g *Game) Expire(p int, at time.Time) error {
	if err := g.checkTurn(p); err != nil {
		return err
	}
	return g.apply(Action{Kind: ActExpire, Player: p, At: at}, nil)
}

// Resign records that player p leaves the game, on their turn or not
// (LEAGUES §2); forfeit marks it as the table's doing (LEAGUES §2.3). When
// one player would be left the game ends at once: no rack adjustments,
// every rack revealed, the one who left last below the one still in. With
// more still in, the rack goes back into the bag, which is shuffled; the
// player is skipped from then on with their score frozen, and if it was
// their turn the next player still in has it from at.
func (g *Game) Resign(p int, at time.Time, forfeit bool) error {
	if err := g.checkIn(p); err != nil {
		return err
	}
	return g.apply(Action{Kind: ActResign, Player: p, At: at, Forfeit: forfeit}, nil)
}

// Substitute records that player p's seat passed from one holder to
// another (LEAGUES §4.1): rack, score and place in the order stay. The
// names are only logged.
func (g *Game) Substitute(p int, from, to string, at time.Time) error {
	if err := g.checkIn(p); err != nil {
		return err
	}
	return g.apply(Action{Kind: ActSubstitute, Player: p, At: at, From: from, To: to}, nil)
}

// Adjudicate ends the game at at because its league's season ended
// (LEAGUES §7.3): every player still in loses the value of their rack and
// nobody gains.
func (g *Game) Adjudicate(at time.Time) error {
	if g.over {
		return &board.MoveError{Kind: board.KindGameOver}
	}
	return g.apply(Action{Kind: ActAdjudicate, Player: -1, At: at}, nil)
}

// apply performs an action on the state and records it. The live methods
// checked the rules a player can break; apply checks them again (rebuild
// runs on stored logs) except the dictionary. play, when not nil, is the
// evaluated placement of a place action.
func (g *Game) apply(a Action, play *board.Play) error {
	if a.Kind == ActAdjudicate { // the table's, of no player
		if g.over {
			return &board.MoveError{Kind: board.KindGameOver}
		}
		g.actions = append(g.actions, a)
		g.end(EndAdjudicated, -1, a.At)
		return nil
	}
	if err := g.checkPlayer(a.Player); err != nil {
		return err
	}
	p := a.Player
	pl := &g.players[p]
	switch a.Kind {
	case ActPresent:
		pl.away = false
		g.actions = append(g.actions, a)
		return nil
	case ActProbe:
		if g.over {
			return &board.MoveError{Kind: board.KindGameOver}
		}
		pl.reserve.spend(a.At, g.cfg.ReserveSize, g.cfg.ReserveRefill)
		g.actions = append(g.actions, a)
		g.addLog(LogEntry{Kind: LogRejected, Player: p, At: a.At, Words: slices.Clone(a.Words), Start: a.Start, Private: true})
		return nil
	case ActResign:
		if err := g.checkIn(p); err != nil {
			return err
		}
		g.actions = append(g.actions, a)
		g.resign(p, a.At, a.Forfeit)
		return nil
	case ActSubstitute:
		if err := g.checkIn(p); err != nil {
			return err
		}
		g.actions = append(g.actions, a)
		g.addLog(LogEntry{Kind: LogSubst, Player: p, At: a.At, From: a.From, To: a.To})
		return nil
	}
	if err := g.checkTurn(p); err != nil {
		return err
	}
	switch a.Kind {
	case ActPlace:
		var left []byte
		if play == nil {
			pp, l, err := g.evaluate(p, a.Tiles)
			if err != nil {
				return err
			}
			play, left = &pp, l
		} else {
			l, err := board.TakeTiles(pl.rack, a.Tiles)
			if err != nil {
				return err
			}
			left = l
		}
		if err := g.board.Apply(a.Tiles); err != nil {
			return err
		}
		pl.rack = g.bag.draw(left, board.RackSize-len(left))
		pl.score += play.Score
		pl.away = false
		pl.expired = 0
		g.idle, g.passes = 0, 0
		g.lastPlay = board.Cells(a.Tiles)
		g.actions = append(g.actions, a)
		cp := *play
		g.addLog(LogEntry{Kind: LogPlace, Player: p, At: a.At, Play: &cp, Score: play.Score})
		g.endTurn(a.At)
		if len(pl.rack) == 0 {
			g.end(EndOut, p, a.At) // RULES §11.1
		}
		return nil
	case ActExchange:
		if err := g.canExchange(p, a.Slots); err != nil {
			return err
		}
		var back, keep []byte
		for i, t := range pl.rack {
			if slices.Contains(a.Slots, i+1) {
				back = append(back, t)
			} else {
				keep = append(keep, t)
			}
		}
		// RULES §7.1: draw first, then return the tiles and shuffle.
		pl.rack = g.bag.draw(keep, len(back))
		g.bag.putBack(back)
		pl.away = false
		pl.expired = 0
		g.passes = 0
		g.actions = append(g.actions, a)
		g.addLog(LogEntry{Kind: LogExchange, Player: p, At: a.At, Count: len(back)})
		g.idle++
	case ActPass, ActExpire:
		kind := LogPass
		if a.Kind == ActExpire {
			kind = LogExpire
			pl.away = true
			pl.expired++
		} else {
			pl.away = false
			pl.expired = 0
		}
		g.passes++
		g.idle++
		g.actions = append(g.actions, a)
		g.addLog(LogEntry{Kind: kind, Player: p, At: a.At})
	default:
		return fmt.Errorf("engine: unknown action %q", a.Kind)
	}
	g.endTurn(a.At)
	// Decided: the endings count the players still in; the count of turns
	// without a placement goes on across a resignation.
	switch {
	case g.cfg.Variant == board.Lexico && g.passes >= g.Active():
		g.end(EndPasses, -1, a.At) // RULES §12
	case g.cfg.Variant != board.Lexico && g.idle >= 2*g.Active():
		g.end(EndIdle, -1, a.At) // RULES §11.2
	}
	return nil
}

// resign makes player p leave (LEAGUES §2.1–2.2).
func (g *Game) resign(p int, at time.Time, forfeit bool) {
	pl := &g.players[p]
	pl.left, pl.forfeit = true, forfeit
	g.left = append(g.left, p)
	if g.Active() <= 1 {
		reason := EndResign
		if forfeit {
			reason = EndForfeit
		}
		// LEAGUES §2.1: the game ends as it stands, every rack kept to
		// be revealed.
		g.addLog(LogEntry{Kind: LogResign, Player: p, At: at, Forfeit: forfeit})
		g.over, g.reason = true, reason
		g.addLog(LogEntry{Kind: LogEnd, Player: -1, At: at, Reason: reason})
		return
	}
	n := len(pl.rack)
	g.bag.putBack(pl.rack)
	pl.rack = nil
	g.addLog(LogEntry{Kind: LogResign, Player: p, At: at, Forfeit: forfeit, Count: n})
	if g.turn == p {
		g.turn = g.next(p)
		g.turnStart = at
	}
}

// next returns the player after p still in (RULES §1.2, LEAGUES §2.2).
func (g *Game) next(p int) int {
	for {
		p = (p + 1) % len(g.players)
		if !g.players[p].left {
			return p
		}
	}
}

// canExchange checks an exchange of the given slots by player p (RULES
// §7.1, §12).
func (g *Game) canExchange(p int, slots []int) error {
	pl := &g.players[p]
	if len(slots) == 0 {
		return &board.MoveError{Kind: board.KindNoTiles}
	}
	for i, s := range slots {
		if s < 1 || s > len(pl.rack) || slices.Contains(slots[:i], s) {
			return &board.MoveError{Kind: board.KindBadSlot, Slots: []int{s}, Have: len(pl.rack)}
		}
	}
	bagN := len(g.bag.tiles)
	if g.cfg.Variant == board.Lexico {
		if pl.turns == 0 {
			return &board.MoveError{Kind: board.KindExchangeNotAllowed}
		}
		if bagN < board.RackSize {
			return &board.MoveError{Kind: board.KindExchangeNotAllowed, Need: board.RackSize, Have: bagN}
		}
	}
	if bagN < len(slots) {
		return &board.MoveError{Kind: board.KindBagTooSmall, Need: len(slots), Have: bagN}
	}
	return nil
}

func (g *Game) endTurn(at time.Time) {
	g.players[g.turn].turns++
	g.turn = g.next(g.turn)
	g.turnStart = at
}

func (g *Game) addLog(e LogEntry) {
	e.Seq = len(g.log) + 1
	g.log = append(g.log, e)
}

// end closes the game. In lexio every player loses the value of their rack
// and the finisher, if any, gains the total (RULES §11.1–11.3); lexico
// makes no adjustment (RULES §12), except when adjudicated (LEAGUES §7.3).
func (g *Game) end(reason EndReason, finisher int, at time.Time) {
	g.over, g.reason = true, reason
	if g.cfg.Variant != board.Lexico || reason == EndAdjudicated {
		total := 0
		for i := range g.players {
			if g.players[i].left {
				continue // their rack went back into the bag, their score is frozen
			}
			v := rackValue(g.players[i].rack)
			total += v
			g.players[i].score -= v
			g.addLog(LogEntry{Kind: LogAdjust, Player: i, At: at, Score: -v, Rack: string(g.players[i].rack)})
		}
		if finisher >= 0 && total > 0 {
			g.players[finisher].score += total
			g.addLog(LogEntry{Kind: LogAdjust, Player: finisher, At: at, Score: total})
		}
	}
	g.addLog(LogEntry{Kind: LogEnd, Player: -1, At: at, Reason: reason})
}

// Departure is a player who left the game (LEAGUES §2).
type Departure struct {
	Player  int       `json:"player"`
	Forfeit bool      `json:"forfeit,omitempty"`
	At      time.Time `json:"at"`
}

// Result is the outcome of a game.
type Result struct {
	Over    bool      `json:"over"`
	Reason  EndReason `json:"reason,omitempty"`
	Scores  []int     `json:"scores"`
	Winners []int     `json:"winners,omitempty"` // the players still in with the top score (RULES §11.4, LEAGUES §2.2)
	Racks   []string  `json:"racks,omitempty"`   // every rack, revealed at the end
	// Left lists the players who resigned or forfeited, in the order they
	// left.
	Left []Departure `json:"left,omitempty"`
	// Ranking is every player, best first, once the game is over: those
	// still in by score, then those who left, the later one higher
	// (LEAGUES §2.2, §8.1). Places gives each player's place, 1 the best;
	// players with the same score share a place, and the next place skips
	// as many (1, 1, 3).
	Ranking []int `json:"ranking,omitempty"`
	Places  []int `json:"places,omitempty"`
}

// Result returns the scores, who left and, once the game is over, the
// winners, the ranking and every rack.
func (g *Game) Result() Result {
	r := Result{Over: g.over, Reason: g.reason, Scores: make([]int, len(g.players))}
	for i, p := range g.players {
		r.Scores[i] = p.score
	}
	for _, a := range g.actions {
		if a.Kind == ActResign {
			r.Left = append(r.Left, Departure{Player: a.Player, Forfeit: a.Forfeit, At: a.At})
		}
	}
	if !g.over {
		return r
	}
	var in []int
	for i, p := range g.players {
		if !p.left {
			in = append(in, i)
		}
	}
	// Stable: equal scores keep the seat order.
	slices.SortStableFunc(in, func(a, b int) int { return r.Scores[b] - r.Scores[a] })
	r.Ranking = in
	for i := len(g.left) - 1; i >= 0; i-- {
		r.Ranking = append(r.Ranking, g.left[i])
	}
	r.Places = make([]int, len(g.players))
	for k, p := range r.Ranking {
		r.Places[p] = k + 1
		if k > 0 && k < len(in) && r.Scores[p] == r.Scores[r.Ranking[k-1]] {
			r.Places[p] = r.Places[r.Ranking[k-1]]
		}
	}
	for _, p := range in {
		if r.Scores[p] == r.Scores[in[0]] {
			r.Winners = append(r.Winners, p)
		}
	}
	slices.Sort(r.Winners)
	r.Racks = make([]string, len(g.players))
	for i, p := range g.players {
		r.Racks[i] = string(p.rack)
	}
	return r
}
