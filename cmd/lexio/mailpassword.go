package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/lexio-mail/lexio/config"
	"github.com/lexio-mail/lexio/mailer/localmail"
)

// localMail is the embedded mail server and the password of the service's
// own mailbox on it.
type localMail struct {
	*localmail.Server
	password string
	// passwordFile keeps the password; "" when it lives for this run
	// only, as the mailboxes do without mail_dir.
	passwordFile string
}

// startLocalMail starts the embedded mail server with the service's
// mailbox and the players'. The service's mailbox holds every player's
// reply token, so its password is random, kept private in mail_dir; a
// player's password is the player's name, the demo's contract.
func startLocalMail(ctx context.Context, cfg *config.Config, log *slog.Logger) (*localMail, error) {
	srv, err := localmail.Start(ctx, localmail.Options{
		IMAPAddr: cfg.Embedded.IMAPListen, SMTPAddr: cfg.Embedded.SMTPListen,
		Domain: cfg.Embedded.Domain, Dir: cfg.Embedded.MailDir, Logger: log.With("part", "localmail"),
		MaxMessageBytes: cfg.Mail.MaxMessageBytes, MailboxQuota: cfg.Embedded.MailboxQuota,
	})
	if err != nil {
		return nil, fmt.Errorf("embedded mail server: %w", err)
	}
	local, _, _ := strings.Cut(cfg.Mail.Address, "@")
	m := &localMail{Server: srv}
	if cfg.Embedded.MailDir != "" {
		// Written after Start, which made the directory and holds its lock.
		m.passwordFile = filepath.Join(cfg.Embedded.MailDir, strings.ToLower(local)+".password")
	}
	if m.password, err = mailboxPassword(m.passwordFile); err != nil {
		srv.Close()
		return nil, fmt.Errorf("embedded mail server: the password of %s: %w", local, err)
	}
	if err := srv.AddUser(local, m.password); err != nil {
		srv.Close()
		return nil, err
	}
	for _, u := range cfg.Embedded.Users {
		if err := srv.AddUser(u, u); err != nil {
			srv.Close()
			return nil, err
		}
	}
	return m, nil
}

// mailboxPassword returns the password kept in the file at path, or the
// first time writes a new random one there, mode 0600. path "" gives a new
// password that is kept nowhere.
func mailboxPassword(path string) (string, error) {
	if path == "" {
		return randomPassword()
	}
	pw, err := config.SecretFile(path)
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

func randomPassword() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}
