package localmail

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// KeptPassword is the password of a mailbox that holds secrets (the
// service's, which holds every player's reply token): random, kept in
// Options.Dir in the file user.password (mode 0600), the first time
// written there, so that it lasts across restarts. Without Dir it is new
// and kept nowhere: file is "".
func (s *Server) KeptPassword(user string) (password, file string, err error) {
	if s.opts.Dir != "" {
		// Start made the directory and holds its lock.
		file = filepath.Join(s.opts.Dir, strings.ToLower(user)+".password")
	}
	password, err = mailboxPassword(file)
	return password, file, err
}

// mailboxPassword returns the password kept in the file at path, or the
// first time writes a new random one there, mode 0600. path "" gives a new
// password that is kept nowhere.
func mailboxPassword(path string) (string, error) {
	if path == "" {
		return randomPassword()
	}
	pw, err := privateFile(path)
	if err == nil {
		if pw = strings.TrimSpace(pw); pw != "" {
			return pw, nil
		}
		return "", fmt.Errorf("%s is empty: delete it to get a new password", path)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	if pw, err = randomPassword(); err != nil {
		return "", err
	}
	// A whole file or none, even after a crash.
	tmp, err := os.CreateTemp(filepath.Dir(path), ".password-*") // mode 0600
	if err != nil {
		return "", err
	}
	_, err = tmp.WriteString(pw + "\n")
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
		return "", err
	}
	return pw, nil
}

// privateFile reads a file that only its owner may read or write, as
// ssh reads a private key: one open to group or others is refused.
func privateFile(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return "", fmt.Errorf("%s: open to group or others (mode %04o): chmod 600 it", path, perm)
	}
	b, err := os.ReadFile(path)
	return string(b), err
}

func randomPassword() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}
