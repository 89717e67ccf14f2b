// Package gifts holds the store's side of GIVE, time given to the player
// on move: each seat's gifts, kept on its row (store.Seat.Gifts), read
// back by turn and bounded when written. Each function runs in the
// caller's store.Tx or reads seats already loaded. It knows nothing of
// commands, deadlines or mail (player, table).
package gifts

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/lexio-mail/lexio/store"
)

// The bounds of GIVE (issue #28): each gift from Min to Max, a seat's
// gifts over a game at most Cap in all. Whole hours: no more than Cap/Min
// gifts can be written to a seat.
const (
	Min = time.Hour
	Max = 7 * 24 * time.Hour
	Cap = 7 * 24 * time.Hour
)

// ErrBound: a gift outside Min to Max, or one that takes its seat's total
// past Cap. Nothing is written.
var ErrBound = errors.New("gifts: out of bounds")

// Gift is time given to the player on move: To, the seat on move, gets
// Time more on Turn, the turn's number (1 the first).
type Gift struct {
	Turn, To int
	Time     time.Duration
}

// Of reads a seat's gifts, in the order given.
func Of(st store.Seat) []Gift {
	out := make([]Gift, 0, len(st.Gifts))
	for _, g := range st.Gifts {
		out = append(out, Gift{Turn: int(g[0]), To: int(g[1]), Time: time.Duration(g[2])})
	}
	return out
}

// Given is the time a seat gave over the game.
func Given(st store.Seat) time.Duration {
	var sum time.Duration
	for _, g := range Of(st) {
		sum += g.Time
	}
	return sum
}

// OnTurn is what the seats gave seat to on turn: the time, added to the
// turn's limit, and how many gifts (each moves the turn's calendar entry
// once).
func OnTurn(seats []store.Seat, turn, to int) (time.Duration, int) {
	var sum time.Duration
	n := 0
	for _, st := range seats {
		for _, g := range Of(st) {
			if g.Turn == turn && g.To == to {
				sum += g.Time
				n++
			}
		}
	}
	return sum, n
}

// Add records gift g from seat st, in tx, and appends it to st.Gifts; a
// gift under Min or over Max, or past Cap with the seat's others, is
// ErrBound and writes nothing.
func Add(tx *store.Tx, st *store.Seat, g Gift) error {
	if g.Time < Min || g.Time > Max || Given(*st)+g.Time > Cap {
		return fmt.Errorf("gifts: %v from seat %d after %v given: %w", g.Time, st.Position, Given(*st), ErrBound)
	}
	if g.Turn < 1 || g.To < 0 || g.To > 3 || g.To == st.Position {
		return fmt.Errorf("gifts: turn %d to seat %d from seat %d: %w", g.Turn, g.To, st.Position, ErrBound)
	}
	gifts := append(append([][3]int64{}, st.Gifts...), [3]int64{int64(g.Turn), int64(g.To), int64(g.Time)})
	text, err := json.Marshal(gifts) // as the column's serializer writes it
	if err != nil {
		return err
	}
	res := tx.DB().Model(&store.Seat{}).Where("id = ?", st.ID).Update("gifts", string(text))
	if res.Error != nil {
		return fmt.Errorf("store: gift: %w", store.MapErr(res.Error))
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("store: gift from seat %d: %w", st.ID, store.ErrNotFound)
	}
	st.Gifts = gifts
	return nil
}
