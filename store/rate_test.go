package store

import (
	"fmt"
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

// TestTakeRatesAllOrNothing: a rate that refuses leaves the others as they
// were, in the same transaction; when all have room, each counts one.
func TestTakeRatesAllOrNothing(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		a := Rate{Key: "a", Limit: 5, Window: time.Hour}
		b := Rate{Key: "b", Limit: 1, Window: time.Hour}
		for i, want := range []string{"", "b", "b"} {
			mustTx(t, s, func(tx *Tx) error {
				refused, err := tx.TakeRates(t0, a, b)
				if err != nil {
					return err
				}
				if got := ""; refused != nil {
					got = refused.Key
					if got != want {
						t.Errorf("take %d: %q refused, want %q", i, got, want)
					}
				} else if want != "" {
					t.Errorf("take %d: nothing refused, want %q", i, want)
				}
				// The transaction goes on after a refusal.
				_, hits, err := tx.RateWindow("a", time.Hour, t0)
				if err == nil && hits != 1 {
					t.Errorf("take %d: a counted %d, want 1", i, hits)
				}
				return err
			})
		}
	})
}

// TestPruneRates: the prune deletes the counters whose window closed,
// each by its own window, at most limit at a time; a key pruned opens a
// fresh window at its next event.
func TestPruneRates(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		rows := func() int64 {
			t.Helper()
			var n int64
			if err := s.db.Model(&RateCounter{}).Count(&n).Error; err != nil {
				t.Fatal(err)
			}
			return n
		}
		prune := func(at time.Duration, limit, want int) {
			t.Helper()
			mustTx(t, s, func(tx *Tx) error {
				n, err := tx.PruneRates(t0.Add(at), limit)
				if err == nil && n != want {
					t.Errorf("prune at +%v: %d deleted, want %d", at, n, want)
				}
				return err
			})
		}
		mustTx(t, s, func(tx *Tx) error {
			for _, k := range []string{"h1", "h2", "h3"} {
				if ok, err := tx.TakeRate(k, 1, time.Hour, t0); err != nil || !ok {
					return fmt.Errorf("take %s: %v, %w", k, ok, err)
				}
			}
			if ok, err := tx.TakeRate("day", 1, 24*time.Hour, t0); err != nil || !ok {
				return fmt.Errorf("take day: %v, %w", ok, err)
			}
			return nil
		})
		prune(59*time.Minute, 10, 0)
		prune(time.Hour, 2, 2)
		prune(time.Hour, 2, 1)
		if n := rows(); n != 1 {
			t.Errorf("%d counters after the hour's prune, want the day's alone", n)
		}
		mustTx(t, s, func(tx *Tx) error {
			ok, err := tx.TakeRate("h1", 1, time.Hour, t0.Add(time.Hour))
			if err == nil && !ok {
				t.Error("h1 pruned: its next event refused")
			}
			return err
		})
		prune(24*time.Hour, 10, 2)
		if n := rows(); n != 0 {
			t.Errorf("%d counters after the day's prune, want none", n)
		}
	})
}
