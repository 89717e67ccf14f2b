package table

import (
	"errors"
	"fmt"
	"time"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/engine/board"
	"github.com/lexio-mail/lexio/notice"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/templates"
)

// This file is the move as a typed operation (issue #35), as GIVE is
// (give.go): a table, a seat and an Action in, inside the caller's
// transaction and without a mail; the move applied through the engine,
// saved, announced to the players and the mover's vacation ended; a Played
// or the engine's refusal out. Which seat a mail means, a reply to an
// earlier turn and the refusal's mail are the caller's (TableCommand).

// Action is a move a seat makes on its turn: a placement, an exchange or
// a pass. Build it with PlaceMove, ExchangeTiles or PassTurn.
type Action struct {
	// Kind is engine.ActPlace, engine.ActExchange or engine.ActPass.
	Kind engine.ActionKind
	// Move is the placement (ActPlace).
	Move board.Move
	// Tiles are the tiles put back (ActExchange).
	Tiles engine.Selection
}

// PlaceMove is the placement of m.
func PlaceMove(m board.Move) Action { return Action{Kind: engine.ActPlace, Move: m} }

// ExchangeTiles is the exchange of the tiles sel names.
func ExchangeTiles(sel engine.Selection) Action {
	return Action{Kind: engine.ActExchange, Tiles: sel}
}

// PassTurn is a pass.
func PassTurn() Action { return Action{Kind: engine.ActPass} }

// Played is a move made: by which seat, and what it did as the mover's
// acceptance tells it (EMAIL §4.1), with their rack after drawing.
type Played struct {
	Seat       int
	Kind       engine.ActionKind
	Acceptance templates.Acceptance
	Rack       templates.Rack
}

// Move has seat of t, loaded in tx, make the move a at now. The engine
// applies it (presence included, RULES §9.2); the turn is settled, the
// players told in out (the mover's acceptance in their notice, unless
// mail.separate_acceptance), the table saved, and the mover's vacation
// ended (LEAGUES §3.2). ack, if not nil, is called with the Played once
// the move is settled and before anyone is told, so that a mail of the
// caller's own (the separate acceptance) goes first.
//
// A move the rules refuse is the engine's *board.MoveError (not the
// seat's turn, not valid); any action it still wrote (a try of the probe
// reserve spent, RULES §6.2) is saved, and no one is told. Any other
// error of the engine is store.Permanent; the store's are as they come.
func (s *Service) Move(tx *store.Tx, t *Table, seat int, a Action, now time.Time, out *notice.Batch, ack func(Played)) (Played, error) {
	g := t.Game
	if g == nil {
		return Played{}, store.Permanent(fmt.Errorf("table: move at %s: no game", t.Row.Name))
	}
	before := len(g.Actions())
	var err error
	switch a.Kind {
	case engine.ActPlace:
		_, err = g.Place(seat, a.Move, s.dict, now)
	case engine.ActExchange:
		_, err = g.Exchange(seat, a.Tiles, now)
	case engine.ActPass:
		err = g.Pass(seat, now)
	default:
		return Played{}, store.Permanent(fmt.Errorf("table: move at %s: %q is not a move", t.Row.Name, a.Kind))
	}
	if err != nil {
		var me *board.MoveError
		if !errors.As(err, &me) {
			return Played{}, store.Permanent(err)
		}
		if len(g.Actions()) > before {
			if serr := s.Save(tx, t, now); serr != nil {
				return Played{}, serr
			}
		}
		return Played{}, err
	}
	// The turn is over: the mails start rendering, from the game and the
	// next deadline, while the log and the table row are written.
	s.settle(t, now)
	played, err := s.played(t, seat, a.Kind, now)
	if err != nil {
		return Played{}, err
	}
	if ack != nil {
		ack(played)
	}
	if err := s.Announce(tx, t, now, out, seat, &played.Acceptance); err != nil {
		return Played{}, err
	}
	if err := s.Save(tx, t, now); err != nil {
		return Played{}, err
	}
	if t.runningVacation(seat, now) != nil {
		if err := s.vacations.EndByMove(tx, t.Seats[seat].Player, now, s.log.With("table", t.Row.Name), out); err != nil {
			return Played{}, err
		}
	}
	return played, nil
}

// played is what seat p's move of kind k did: the last line of the log
// that is a move (EMAIL §4.1), their total, their rack after drawing.
func (s *Service) played(t *Table, p int, k engine.ActionKind, now time.Time) (Played, error) {
	v, err := t.Game.View(p, now)
	if err != nil {
		return Played{}, store.Permanent(err)
	}
	b := v.Board
	lines := notice.LogLines(v.Log, Names(t.Seats), &b)
	var last templates.LogLine
	for i := len(lines) - 1; i >= 0; i-- {
		if lines[i].Kind != templates.LogEnd && lines[i].Kind != templates.LogRejected {
			last = lines[i]
			break
		}
	}
	return Played{Seat: p, Kind: k, Acceptance: templates.Acceptance{Move: last, Total: v.Scores[p]},
		Rack: notice.RackData(v.Rack)}, nil
}
