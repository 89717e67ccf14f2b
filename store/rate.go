package store

import (
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
)

// RateWindow returns when key's current window opened and how many events
// TakeRate counted in it; the zero time and 0 when no window is open.
func (tx *Tx) RateWindow(key string, window time.Duration, now time.Time) (time.Time, int, error) {
	var rc RateCounter
	err := tx.db.Where("rate_key = ?", rateKey(key)).Take(&rc).Error
	switch {
	case errors.Is(err, gorm.ErrRecordNotFound):
		return time.Time{}, 0, nil
	case err != nil:
		return time.Time{}, 0, fmt.Errorf("store: rate: %w", MapErr(err))
	}
	if !rc.WindowStart.After(now.UTC().Add(-window)) {
		return time.Time{}, 0, nil // closed
	}
	return rc.WindowStart, rc.Count, nil
}

// Rate is a bound TakeRates counts against: at most Limit events of Key
// per Window (TakeRate).
type Rate struct {
	Key    string
	Limit  int
	Window time.Duration
}

// TakeRates counts one event against every rate, or against none: it
// returns the first rate that refused, having counted nothing, or nil
// having counted one against each. A mail bounded several ways thus
// spends a bound only when it may go.
func (tx *Tx) TakeRates(now time.Time, rates ...Rate) (*Rate, error) {
	const sp = "take_rates"
	if err := tx.db.SavePoint(sp).Error; err != nil {
		return nil, fmt.Errorf("store: rates: %w", MapErr(err))
	}
	for i, r := range rates {
		ok, err := tx.TakeRate(r.Key, r.Limit, r.Window, now)
		if err != nil {
			return nil, err
		}
		if !ok {
			if err := tx.db.RollbackTo(sp).Error; err != nil {
				return nil, fmt.Errorf("store: rates: %w", MapErr(err))
			}
			return &rates[i], nil
		}
	}
	if err := tx.db.Exec("RELEASE SAVEPOINT " + sp).Error; err != nil {
		return nil, fmt.Errorf("store: rates: %w", MapErr(err))
	}
	return nil, nil
}

// PruneRates deletes at most limit rate counters whose window closed by
// now, which count nothing any more, and returns how many it deleted.
// Each key has a row while its window is open: without the prune, one
// for every sender ever seen.
func (tx *Tx) PruneRates(now time.Time, limit int) (int, error) {
	closed := tx.db.Model(&RateCounter{}).Select("rate_key").Where("window_end <= ?", now.UTC()).Limit(limit)
	res := tx.db.Where("rate_key IN (?)", closed).Delete(&RateCounter{})
	if res.Error != nil {
		return 0, fmt.Errorf("store: prune rates: %w", MapErr(res.Error))
	}
	return int(res.RowsAffected), nil
}
