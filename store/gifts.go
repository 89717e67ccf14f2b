package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// The store's side of GIVE, time given to the player on move: each seat's
// gifts, kept on its row (Seat.Gifts), read back by turn and bounded when
// written. It knows nothing of commands, deadlines or mail (player,
// table).

// The bounds of GIVE (issue #28): each gift from MinGift to MaxGift, a
// seat's gifts over a game at most GiftCap in all. Whole hours: no more
// than GiftCap/MinGift gifts can be written to a seat.
const (
	MinGift = time.Hour
	MaxGift = 7 * 24 * time.Hour
	GiftCap = 7 * 24 * time.Hour
)

// ErrGiftBound: a gift outside MinGift to MaxGift, or one that takes its
// seat's total past GiftCap. Nothing is written.
var ErrGiftBound = errors.New("gifts: out of bounds")

// Gift is time given to the player on move: To, the seat on move, gets
// Time more on Turn, the turn's number (1 the first).
type Gift struct {
	Turn, To int
	Time     time.Duration
}

// giftsOf reads a seat's gifts, in the order given.
func giftsOf(st Seat) []Gift {
	out := make([]Gift, 0, len(st.Gifts))
	for _, g := range st.Gifts {
		out = append(out, Gift{Turn: int(g[0]), To: int(g[1]), Time: time.Duration(g[2])})
	}
	return out
}

// Given is the time the seat gave over the game.
func (st Seat) Given() time.Duration {
	var sum time.Duration
	for _, g := range giftsOf(st) {
		sum += g.Time
	}
	return sum
}

// GiftsOnTurn is what the seats gave seat to on turn: the time, added to
// the turn's limit, and how many gifts (each moves the turn's calendar
// entry once).
func GiftsOnTurn(seats []Seat, turn, to int) (time.Duration, int) {
	var sum time.Duration
	n := 0
	for _, st := range seats {
		for _, g := range giftsOf(st) {
			if g.Turn == turn && g.To == to {
				sum += g.Time
				n++
			}
		}
	}
	return sum, n
}

// AddGift records gift g from seat st and appends it to st.Gifts; a gift
// under MinGift or over MaxGift, or past GiftCap with the seat's others,
// is ErrGiftBound and writes nothing.
func (tx *Tx) AddGift(st *Seat, g Gift) error {
	if g.Time < MinGift || g.Time > MaxGift || st.Given()+g.Time > GiftCap {
		return fmt.Errorf("gifts: %v from seat %d after %v given: %w", g.Time, st.Position, st.Given(), ErrGiftBound)
	}
	if g.Turn < 1 || g.To < 0 || g.To > 3 || g.To == st.Position {
		return fmt.Errorf("gifts: turn %d to seat %d from seat %d: %w", g.Turn, g.To, st.Position, ErrGiftBound)
	}
	gifts := append(append([][3]int64{}, st.Gifts...), [3]int64{int64(g.Turn), int64(g.To), int64(g.Time)})
	text, err := json.Marshal(gifts) // as the column's serializer writes it
	if err != nil {
		return err
	}
	res := tx.db.Model(&Seat{}).Where("id = ?", st.ID).Update("gifts", string(text))
	if res.Error != nil {
		return fmt.Errorf("store: gift: %w", MapErr(res.Error))
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("store: gift from seat %d: %w", st.ID, ErrNotFound)
	}
	st.Gifts = gifts
	return nil
}
