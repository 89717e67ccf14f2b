//go:build unix

package localmail

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive lock on f, or fails at once when another
// process holds it. The lock goes with the process, crash or not.
func lockFile(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}
