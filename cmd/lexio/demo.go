package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/lexio-mail/lexio/config"
	"github.com/lexio-mail/lexio/dict"
	"github.com/lexio-mail/lexio/internal/secretfile"
)

func runDemo(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "demo")
	dir := fs.String("data", "data", "data `directory`")
	imapAddr := fs.String("imap", "127.0.0.1:1143", "IMAP listen address of the embedded mail server")
	smtpAddr := fs.String("smtp", "127.0.0.1:2525", "SMTP listen address of the embedded mail server")
	webAddr := fs.String("web", "127.0.0.1:8080", "listen address of the web side (the pages mail links to)")
	words := fs.String("dict", config.DefaultDictionary, "word list to compile for the demo")
	if err := fs.Parse(args); err != nil {
		return err
	}
	path, err := prepareDemo(e, *dir, *words, *imapAddr, *smtpAddr, *webAddr)
	if err != nil {
		return err
	}
	return serve(ctx, e, path, func(d *daemon) {
		kept := fmt.Sprintf("The game and every mailbox are kept in %s (the mail in %s):\n"+
			"stop the demo, even with kill -9, and start it again to play on.", d.cfg.DataDir, d.cfg.Embedded.MailDir)
		if d.cfg.Embedded.MailDir == "" {
			kept = fmt.Sprintf("The game is kept in %s; the mail lives in memory until the demo stops\n"+
				"(add mail_dir = %q under [embedded] in %s to keep it).", d.cfg.DataDir, filepath.Join(d.cfg.DataDir, "mail"), path)
		}
		user, _, _ := strings.Cut(d.cfg.Mail.Address, "@")
		service := fmt.Sprintf("user %s, password %s, kept in %s (mode 600)", user, d.mail.password, d.mail.passwordFile)
		if d.mail.passwordFile == "" {
			service = fmt.Sprintf("user %s, password %s, random, new at each start", user, d.mail.password)
		}
		fmt.Fprintf(e.stdout, demoGuide, path, kept, d.cfg.Embedded.IMAPListen, d.cfg.Embedded.SMTPListen, d.cfg.Mail.Address, service)
		if d.cfg.Web.On() {
			fmt.Fprintf(e.stdout, "Every notice links to the game's page on the web side, %s (listening on %s).\n\n", d.cfg.Web.BaseURL, d.cfg.Web.Listen)
		}
	})
}

const demoGuide = `
lexio demo is running with %s. Ctrl-C stops it.
%s

Play from a terminal, in another window (alice opens the game, at G7):
  bin/lexio mail read --as alice@localhost
  bin/lexio mail send --as alice@localhost 'PLACE G7 ACROSS CHAT'
  bin/lexio mail read --as bob@localhost
  bin/lexio mail send --as bob@localhost 'PASS'
Commands: PLACE, EXCHANGE, PASS, PREVIEW, BOARD, LOG, GAMES, LANG fr, HELP, HELP RULES.

Or from a mail client (Thunderbird, mutt, aerc), one account per player:
  incoming  IMAP %s, no encryption, user alice, password alice
  outgoing  SMTP %s, no encryption, no authentication
  address   alice@localhost  (likewise bob, carol, dave)
Reply to the notice you received; carol and dave can open a new table by
writing NEW to lexio@localhost (then CONFIRM, in answer to "Was it you?"),
then JOIN <table>, then START.
The service's own mailbox, %s, holds every player's reply token; to look:
%s.

`

// prepareDemo writes the demo's configuration, secret and compiled
// dictionary under dir, once, and returns the configuration's path. The
// embedded server keeps the mail in dir/mail.
func prepareDemo(e *env, dir, words, imapAddr, smtpAddr, webAddr string) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil { // it holds the seeds, from which every rack follows
		return "", err
	}
	secret := filepath.Join(dir, "secret")
	if _, err := os.Stat(secret); errors.Is(err, fs.ErrNotExist) {
		b := make([]byte, 32)
		if _, err := rand.Read(b); err != nil {
			return "", err
		}
		if err := secretfile.Write(secret, hex.EncodeToString(b)); err != nil {
			return "", err
		}
	}
	compiled := filepath.Join(dir, "french.dawg")
	if _, err := os.Stat(compiled); errors.Is(err, fs.ErrNotExist) {
		f, err := os.Open(words)
		if err != nil {
			return "", fmt.Errorf("%w: install Debian's French word list: apt-get install wfrench", err)
		}
		st, _, _, err := dict.Compile(f, compiled)
		f.Close()
		if err != nil {
			return "", err
		}
		fmt.Fprintf(e.stdout, "compiled %s: %d words into %s (and its GADDAG)\n", words, st.Kept, compiled)
	}
	path := filepath.Join(dir, "demo.toml")
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		text := config.Demo(dir, compiled, secret, imapAddr, smtpAddr, webAddr)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			return "", err
		}
	}
	return path, nil
}
