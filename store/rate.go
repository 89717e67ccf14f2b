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
