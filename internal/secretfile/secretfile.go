// Package secretfile reads and writes the files that hold secrets
// (passwords, OAuth client secrets and refresh tokens): a file open to its
// group or to others is refused, as ssh refuses such a private key, and a
// file is written whole or not at all, mode 0600. It knows nothing of what
// the secrets are for; the content never appears in an error.
package secretfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ErrNotPrivate reports a secret file open to its group or to others.
var ErrNotPrivate = errors.New("open to group or others")

// Read returns the secret in the file at path without its final line
// break. A missing file gives an error that is fs.ErrNotExist.
func Read(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return "", fmt.Errorf("%s: %w (mode %04o): chmod 600 it", path, ErrNotPrivate, perm)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err // the path is not secret; the content never appears
	}
	return strings.TrimRight(string(b), "\r\n"), nil
}

// Write replaces the file at path with secret and a line break, mode
// 0600: through a temporary file in the same directory, synced, then
// renamed, so that a crash leaves the old secret or the new one.
func Write(path, secret string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*") // mode 0600
	if err != nil {
		return err
	}
	_, err = tmp.WriteString(secret + "\n")
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return err
	}
	// The rename itself lasts once the directory is synced.
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
