package web_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestRateLimitPerClient: the rate limit counts a client, not an address
// spelling (EMAIL §7.4). The addresses of one IPv6 /64 are one client,
// whatever their spelling and zone, so that a host cannot take a fresh
// budget with each of its 2^64 addresses; an IPv4-mapped IPv6 address
// is its IPv4 address. Each case spends the 60 requests of a minute over
// the addresses it lists, in turn, and the next request, from the last
// of them, gets 429 with Retry-After; another client is not held back.
func TestRateLimitPerClient(t *testing.T) {
	slash64 := make([]string, 61)
	for i := range slash64 {
		// Each request a new address of 2001:db8:1:2::/64, some with
		// leading zeros or a zone.
		switch i % 3 {
		case 0:
			slash64[i] = fmt.Sprintf("[2001:db8:1:2:%x:%x::%x]:4000", i, i*7, i+1)
		case 1:
			slash64[i] = fmt.Sprintf("[2001:0db8:0001:0002:0:0:%04x:%x]:4001", i, i*3)
		default:
			slash64[i] = fmt.Sprintf("[2001:db8:1:2::%x%%eth0]:4002", i)
		}
	}
	tests := []struct {
		name    string
		remotes []string
		forward []string // X-Forwarded-For, when the peer is the proxy
		other   string   // another client, not held back
		otherFw string
	}{
		{name: "one IPv6 /64", remotes: slash64, other: "[2001:db8:1:3::1]:4000"},
		{name: "spellings of one IPv6 address",
			remotes: []string{"[2001:db8::1]:1", "[2001:0db8:0:0::1]:2", "[2001:DB8:0:0:0:0:0:1]:3", "[2001:db8::0.0.0.1]:4", "[2001:db8::1%25eth0]:5", "[2001:db8::1%eth1]:6"},
			other:   "[2001:db9::1]:1"},
		{name: "IPv4-mapped IPv6 and IPv4", remotes: []string{"127.0.0.1:1", "[::ffff:127.0.0.1]:2", "[::ffff:7f00:1]:3"}, other: "127.0.0.2:1"},
		{name: "forwarded IPv4-mapped and IPv4", remotes: []string{"127.0.0.1:5000"},
			forward: []string{"198.51.100.7", "::ffff:198.51.100.7", "198.51.100.7:4711", "[::ffff:198.51.100.7]:4711"},
			other:   "127.0.0.1:5000", otherFw: "198.51.100.8"},
		{name: "forwarded IPv6 /64", remotes: []string{"127.0.0.1:5000"},
			forward: []string{"2001:db8:5::1", "2001:db8:5::2", "2001:0db8:0005:0000:ffff::3", "[2001:db8:5::4]:80"},
			other:   "127.0.0.1:5000", otherFw: "2001:db8:6::1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			do := func(remote, forward string) *httptest.ResponseRecorder {
				r := httptest.NewRequest(http.MethodGet, "/", nil)
				r.RemoteAddr = remote
				if forward != "" {
					r.Header.Set("X-Forwarded-For", "203.0.113.9, "+forward)
				}
				w := httptest.NewRecorder()
				f.server.ServeHTTP(w, r)
				return w
			}
			at := func(i int) (string, string) {
				fw := ""
				if len(tt.forward) > 0 {
					fw = tt.forward[i%len(tt.forward)]
				}
				return tt.remotes[i%len(tt.remotes)], fw
			}
			for i := range 60 {
				remote, fw := at(i)
				if w := do(remote, fw); w.Code != http.StatusNotFound {
					t.Fatalf("request %d from %s %s: %d", i+1, remote, fw, w.Code)
				}
			}
			remote, fw := at(60)
			w := do(remote, fw)
			if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "1" {
				t.Fatalf("request 61 from %s %s: %d, Retry-After %q", remote, fw, w.Code, w.Header().Get("Retry-After"))
			}
			if w := do(tt.other, tt.otherFw); w.Code != http.StatusNotFound {
				t.Errorf("another client, %s %s: %d", tt.other, tt.otherFw, w.Code)
			}
			f.clock.Add(time.Second)
			if w := do(remote, fw); w.Code != http.StatusNotFound {
				t.Errorf("a second later: %d", w.Code)
			}
		})
	}
}
