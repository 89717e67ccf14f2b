package engine

import "time"

// Default probe reserve settings (RULES §6.2).
const (
	DefaultReserveSize   = 10
	DefaultReserveRefill = 15 * time.Second
)

// reserve is a player's probe reserve, a token bucket (RULES §6.2): level
// attempts, one more every refill interval counted from since, up to the
// capacity. It is driven only by the times passed in.
type reserve struct {
	level int
	since time.Time // start of the current refill interval when not full
}

// refill brings the level up to date at time at.
func (r *reserve) refill(at time.Time, capacity int, every time.Duration) {
	if r.level >= capacity {
		r.level = capacity
		return
	}
	if at.Before(r.since) {
		return
	}
	n := int(at.Sub(r.since) / every)
	if n <= 0 {
		return
	}
	r.level += n
	r.since = r.since.Add(time.Duration(n) * every)
	if r.level >= capacity {
		r.level = capacity
	}
}

// spend takes one attempt at time at; the caller checked the level.
func (r *reserve) spend(at time.Time, capacity int, every time.Duration) {
	r.refill(at, capacity, every)
	if r.level >= capacity {
		r.since = at
	}
	if r.level > 0 {
		r.level--
	}
}

// state returns the level at time at and when the next attempt comes back
// (zero when full), without changing r.
func (r reserve) state(at time.Time, capacity int, every time.Duration) (int, time.Time) {
	r.refill(at, capacity, every)
	if r.level >= capacity {
		return r.level, time.Time{}
	}
	return r.level, r.since.Add(every)
}
