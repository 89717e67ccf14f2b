//go:build !unix

package sdnotify

// monotonicUsec has no CLOCK_MONOTONIC to read here.
func monotonicUsec() (int64, bool) { return 0, false }
