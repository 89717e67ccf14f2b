//go:build !unix

package localmail

import "os"

// lockFile does nothing where flock(2) is missing: two servers on one
// directory are then the user's to avoid.
func lockFile(*os.File) error { return nil }
