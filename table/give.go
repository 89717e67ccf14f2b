package table

import (
	"fmt"
	"time"

	"github.com/lexio-mail/lexio/store"
)

// This file is GIVE's rule (issue #28, PLAYING "giving time"): a seat
// gives the player on move more time on the current turn. The rule sits
// beside the turn's deadline, which the gift moves (Replan), as a typed
// operation (issue #35): a table, a seat and a duration in, a Gift or a
// *GiveError out, inside the caller's transaction and without a mail, so
// that the mail front door (player), the admin and the web call the same
// one. Who asked, through which mail, and telling everyone are the
// caller's.

// GiveKind says why a gift of time is refused.
type GiveKind string

// The kinds of GiveError.
const (
	GiveNotStarted GiveKind = "not-started" // no game yet; Seats: the seats taken
	GiveGameOver   GiveKind = "game-over"
	GiveResigned   GiveKind = "resigned" // the giver left the game (LEAGUES §2)
	GiveOwnTurn    GiveKind = "own-turn" // the giver is on move
	GiveComputer   GiveKind = "computer" // the computer is on move: it needs no time
	GiveRange      GiveKind = "range"    // Time is not whole hours from store.MinGift to store.MaxGift
	GiveCap        GiveKind = "cap"      // Time is more than Left, what the giver may still give (store.GiftCap)
)

// GiveError is a gift refused, with what its refusal tells; nothing was
// written.
type GiveError struct {
	Kind GiveKind
	// Time is the time asked.
	Time time.Duration
	// Left is what the giver may still give over the game (GiveCap).
	Left time.Duration
	// Seats are the seats taken at a table without a game (GiveNotStarted).
	Seats int
}

func (e *GiveError) Error() string {
	switch e.Kind {
	case GiveCap:
		return fmt.Sprintf("table: give: %v asked, %v left to give", e.Time, e.Left)
	case GiveRange:
		return fmt.Sprintf("table: give: %v out of range", e.Time)
	}
	return "table: give: " + string(e.Kind)
}

// Gift is a gift of time made: the giver's seat, the seat on move given
// Time on turn Turn (1 the first), the deadline it now has, and what the
// giver may still give over the game.
type Gift struct {
	Giver, To, Turn int
	Time            time.Duration
	Deadline        time.Time
	Left            time.Duration
}

// CheckGive is why seat giver of t may not give d now, a *GiveError, or
// nil; it writes nothing. Give checks it first.
func (t *Table) CheckGive(giver int, d time.Duration) error {
	g := t.Game
	if giver < 0 || giver >= len(t.Seats) {
		return fmt.Errorf("table: give from seat %d of %d: %w", giver, len(t.Seats), ErrNotSeated)
	}
	switch {
	case g == nil:
		return &GiveError{Kind: GiveNotStarted, Time: d, Seats: len(t.Seats)}
	case g.Over():
		return &GiveError{Kind: GiveGameOver, Time: d}
	case g.Left(giver):
		return &GiveError{Kind: GiveResigned, Time: d}
	case g.Turn() == giver:
		return &GiveError{Kind: GiveOwnTurn, Time: d}
	case t.isBot(g.Turn()):
		return &GiveError{Kind: GiveComputer, Time: d}
	}
	// Whole hours, as GIVE reads them: no more than GiftCap/MinGift
	// gifts fit a seat's row.
	if d < store.MinGift || d > store.MaxGift || d%time.Hour != 0 {
		return &GiveError{Kind: GiveRange, Time: d}
	}
	if left := store.GiftCap - t.Seats[giver].Given(); d > left {
		return &GiveError{Kind: GiveCap, Time: d, Left: left}
	}
	return nil
}

// Give has seat giver of t, loaded in tx, give the player on move d more
// on the current turn, at now: the gift is recorded on the giver's seat
// (store.Tx.AddGift) and the turn's deadline and reminders move by d on
// the receiver's clock (Replan). A gift the rule refuses is a *GiveError
// (CheckGive) and writes nothing.
func (s *Service) Give(tx *store.Tx, t *Table, giver int, d time.Duration, now time.Time) (Gift, error) {
	if err := t.CheckGive(giver, d); err != nil {
		return Gift{}, err
	}
	p, turn := t.Game.Turn(), t.TurnNumber()
	if err := tx.AddGift(&t.Seats[giver], store.Gift{Turn: turn, To: p, Time: d}); err != nil {
		return Gift{}, err
	}
	if _, err := s.Replan(tx, t, p, now); err != nil {
		return Gift{}, err
	}
	return Gift{Giver: giver, To: p, Turn: turn, Time: d, Deadline: *t.Row.Deadline,
		Left: store.GiftCap - t.Seats[giver].Given()}, nil
}
