package main

import (
	"context"
	"fmt"
	"log/slog"
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
	if m.password, m.passwordFile, err = srv.KeptPassword(local); err != nil {
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
