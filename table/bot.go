package table

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/lexio-mail/lexio/bot"
	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/internal/botseat"
	"github.com/lexio-mail/lexio/notice"
	"github.com/lexio-mail/lexio/store"
)

// A computer seat (issue 17) is a player whose address is a seat name,
// "bot:strong": it gets no mail, never times out, and plays bot_delay
// after its turn begins, through the same engine and log as a person,
// from what its seat sees (bot.ViewOf). A table with one is never rated.

// isBot reports whether seat p of t is the computer's.
func (t *Table) isBot(p int) bool { return botseat.Is(t.Seats[p].Player.Address) }

// HasBot reports whether a seat of t is the computer's.
func (t *Table) HasBot() bool {
	for p := range t.Seats {
		if t.isBot(p) {
			return true
		}
	}
	return false
}

// botToMove reports whether the game is on and the computer is to move.
func (t *Table) botToMove() bool {
	return t.Game != nil && !t.Game.Over() && t.isBot(t.Game.Turn())
}

// botPlay plays the computer's turn at its time (its deadline: the turn's
// start plus bot_delay), the mails of now. The random source of the easy
// level is seeded by the table's seed and the number of actions, so that
// the same game plays the same.
func (s *Service) botPlay(tx *store.Tx, t *Table, now time.Time, out *notice.Batch) error {
	if s.gaddag == nil {
		return store.Permanent(errors.New("table: the computer cannot play without the dictionary's GADDAG"))
	}
	p, at := t.Game.Turn(), *t.Row.Deadline
	_, level, _ := botseat.Parse(t.Seats[p].Player.Address)
	v, err := t.Game.View(p, at)
	if err != nil {
		return store.Permanent(err)
	}
	rng := rand.New(rand.NewPCG(uint64(t.Row.Seed), uint64(len(t.Game.Actions()))))
	a, err := bot.New(s.gaddag).Choose(bot.ViewOf(v), bot.Level(level), rng)
	if err != nil {
		return store.Permanent(err)
	}
	switch a.Kind {
	case engine.ActPlace:
		_, err = t.Game.PlaceTiles(p, a.Tiles, s.dict, at)
	case engine.ActExchange:
		_, err = t.Game.Exchange(p, engine.Selection{Slots: a.Slots}, at)
	default:
		err = t.Game.Pass(p, at)
	}
	if err != nil {
		return store.Permanent(fmt.Errorf("table: the computer's %s at %s: %w", a.Kind, t.Row.Name, err))
	}
	if err := s.Save(tx, t, at); err != nil {
		return err
	}
	s.log.Info("computer played", "table", t.Row.Name, "player", p, "level", level, "action", a.Kind)
	return s.Announce(tx, t, now, out, -1, nil)
}

// Step does what is due first at t by until: the computer's move, or one
// expiry (enforce); it reports false when nothing was due.
func (s *Service) Step(tx *store.Tx, t *Table, until, now time.Time, out *notice.Batch) (bool, error) {
	if t.Game == nil || t.Game.Over() || t.Row.Deadline == nil || t.Row.Deadline.After(until) {
		return false, nil
	}
	if t.botToMove() {
		return true, s.botPlay(tx, t, now, out)
	}
	return true, s.Enforce(tx, t, *t.Row.Deadline, now, out)
}
