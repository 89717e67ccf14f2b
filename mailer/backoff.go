package mailer

import (
	"math/rand/v2"
	"time"
)

// Backoff computes exponential delays with jitter: try n (from 1) waits
// Base·2^(n-1), capped at Max, then scaled by a random factor in [0.5, 1]
// ("equal jitter") so that many clients do not retry in step.
type Backoff struct {
	Base, Max time.Duration
	// Rand returns a number in [0, 1); nil uses math/rand/v2. Tests inject a
	// constant to get exact delays.
	Rand func() float64
}

// Delay returns the wait before try n (n ≥ 1).
func (b Backoff) Delay(n int) time.Duration {
	base, limit := b.Base, b.Max
	if base <= 0 {
		base = time.Second
	}
	if limit < base {
		limit = base
	}
	d := base
	for i := 1; i < n && d < limit; i++ {
		d *= 2
	}
	if d > limit {
		d = limit
	}
	r := rand.Float64
	if b.Rand != nil {
		r = b.Rand
	}
	return d/2 + time.Duration(r()*float64(d/2))
}
