package localmail

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/lexio-mail/lexio/internal/secretfile"
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
	pw, err := secretfile.Read(path)
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
	return pw, secretfile.Write(path, pw)
}

func randomPassword() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}
