package web

import (
	"math"
	"net/netip"
	"sync"
	"time"
)

// limiter is a token bucket per client (clientKey): each client may make
// burst requests at once, and rate more per second after; a request
// beyond that is refused, with how long until the next one may come. It
// keeps at most max clients: when full, it forgets those whose bucket
// has filled again (they are as good as new), and if none has, one at
// random, so that memory stays bounded whatever the addresses.
type limiter struct {
	burst float64
	rate  float64 // tokens per second
	max   int
	now   func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newLimiter(perMinute, max int, now func() time.Time) *limiter {
	return &limiter{burst: float64(perMinute), rate: float64(perMinute) / 60, max: max, now: now,
		buckets: make(map[string]*bucket)}
}

// allow takes a token for the client at addr; when there is none it
// returns false and how many whole seconds until there is.
func (l *limiter) allow(addr string) (bool, int) {
	addr = clientKey(addr)
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.buckets[addr]
	if !ok {
		if len(l.buckets) >= l.max {
			l.evict(now)
		}
		b = &bucket{tokens: l.burst, at: now}
		l.buckets[addr] = b
	}
	b.tokens = math.Min(l.burst, b.tokens+now.Sub(b.at).Seconds()*l.rate)
	b.at = now
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	return false, int(math.Ceil((1 - b.tokens) / l.rate))
}

// evict makes room for one address.
func (l *limiter) evict(now time.Time) {
	for a, b := range l.buckets {
		if b.tokens+now.Sub(b.at).Seconds()*l.rate >= l.burst {
			delete(l.buckets, a)
		}
	}
	for a := range l.buckets {
		if len(l.buckets) < l.max {
			break
		}
		delete(l.buckets, a)
	}
}

// clientKey is the client an address stands for: an IPv4 address, or the
// /64 prefix of an IPv6 one, which one host usually holds whole (a
// client that picks a new address of its /64 for each request is still
// one client). An IPv4-mapped address (::ffff:192.0.2.1) is the IPv4
// address; a zone is dropped, and every spelling of one address gives
// one key. What is no address (a port after it is allowed) is its own
// key, as it came.
func clientKey(addr string) string {
	ip, err := netip.ParseAddr(addr)
	if err != nil {
		ap, err := netip.ParseAddrPort(addr)
		if err != nil {
			return addr
		}
		ip = ap.Addr()
	}
	ip = ip.WithZone("").Unmap()
	if ip.Is4() {
		return ip.String()
	}
	return netip.PrefixFrom(ip, 64).Masked().String()
}
