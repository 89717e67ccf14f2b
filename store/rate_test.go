package store

import (
	"testing"
	"time"
)

// TestRateWindow: the window TakeRate opened, its count, and nothing once
// it closed.
func TestRateWindow(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		const window = time.Hour
		check := func(at time.Duration, wantStart time.Time, wantHits int) {
			t.Helper()
			mustTx(t, s, func(tx *Tx) error {
				start, hits, err := tx.RateWindow("k", window, t0.Add(at))
				if err != nil {
					return err
				}
				if !start.Equal(wantStart) || hits != wantHits {
					t.Errorf("+%v: window %v with %d, want %v with %d", at, start, hits, wantStart, wantHits)
				}
				return nil
			})
		}
		take := func(at time.Duration) {
			t.Helper()
			mustTx(t, s, func(tx *Tx) error {
				_, err := tx.TakeRate("k", 5, window, t0.Add(at))
				return err
			})
		}
		check(0, time.Time{}, 0)
		take(10 * time.Minute)
		take(20 * time.Minute)
		check(30*time.Minute, t0.Add(10*time.Minute), 2)
		check(70*time.Minute, time.Time{}, 0) // closed
		take(80 * time.Minute)
		check(80*time.Minute, t0.Add(80*time.Minute), 1)
	})
}
