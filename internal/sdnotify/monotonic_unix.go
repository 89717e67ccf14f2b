//go:build unix

package sdnotify

import "golang.org/x/sys/unix"

// monotonicUsec reads CLOCK_MONOTONIC in microseconds, the clock the
// service manager compares MONOTONIC_USEC with.
func monotonicUsec() (int64, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts); err != nil {
		return 0, false
	}
	return ts.Nano() / 1000, true
}
