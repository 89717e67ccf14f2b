package main

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/lexio-mail/lexio/analysis"
	"github.com/lexio-mail/lexio/config"
	"github.com/lexio-mail/lexio/dict"
	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/engine/board"
	"github.com/lexio-mail/lexio/internal/secretfile"
	"github.com/lexio-mail/lexio/movegen"
	"github.com/lexio-mail/lexio/parser"
	"github.com/lexio-mail/lexio/store"
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
		fmt.Fprintf(e.stdout, "\nlexio demo is running with %s. Ctrl-C stops it.\n%s\n\n", path, kept)
		fmt.Fprint(e.stdout, demoTurn(ctx, e, d))
		fmt.Fprintf(e.stdout, demoGuide, d.cfg.Embedded.IMAPListen, d.cfg.Embedded.SMTPListen, e.program(), d.cfg.Mail.Address, service)
		if d.cfg.Web.On() {
			fmt.Fprintf(e.stdout, "Every notice links to the game's page on the web side, %s (listening on %s).\n\n", d.cfg.Web.BaseURL, d.cfg.Web.Listen)
		}
	})
}

const demoGuide = `Or from a mail client (Thunderbird, mutt, aerc), one account per player:
  incoming  IMAP %s, no encryption, user alice, password alice
  outgoing  SMTP %s, no encryption, the same user and password
            (or none: the demo takes mail from this machine without a login)
  address   alice@localhost  (likewise bob, carol, dave)
Reply to the notice you received. carol can open a table of her own,
and dave answer her invitation:
  %[3]s mail send --as carol@localhost --to lexio@localhost 'NEW lexio dave@localhost'
  %[3]s mail send --as carol@localhost CONFIRM
  %[3]s mail send --as dave@localhost JOIN
The service's own mailbox, %[4]s, holds every player's reply token; to look:
%[5]s.

`

// demoTable is the table the demo opens for alice and bob.
const demoTable = "demo"

// demoOpening is the first move the README and the guide suggest: the
// demo deals alice a rack that plays it (demoSeed).
const demoOpening = "PLACE F7 ACROSS POSE"

// demoSeed is the first seed from start on whose deal lets the first
// player open with demoOpening: the deal is random, and a newcomer's
// first move, copied from the README, is played. About one deal in a
// hundred does; with a word list that lacks its word none does, and ok is
// false after a bounded search.
func demoSeed(words engine.Dictionary, start uint64) (seed uint64, ok bool, err error) {
	c, err := parser.ParseCommand(demoOpening)
	if err != nil {
		return 0, false, err
	}
	m := c.Place.Move()
	for seed = start; seed < start+100_000; seed++ {
		if seed == 0 {
			continue // chosen at random when the table opens
		}
		g, err := engine.New(engine.Config{Players: 2, Seed: seed})
		if err != nil {
			return 0, false, err
		}
		if _, err := g.Place(0, m, words, time.Now()); err == nil {
			return seed, true, nil
		}
	}
	return 0, false, nil
}

// demoTurn tells whose turn it is at the demo table and what they might
// try, as the game stands: a restart finds it where it was left.
func demoTurn(ctx context.Context, e *env, d *daemon) string {
	var b strings.Builder
	prog := e.program()
	err := d.store.View(ctx, func(tx *store.Tx) error {
		t, err := d.parts.Tables.Load(tx, demoTable)
		if err != nil {
			return err
		}
		g := t.Game
		if g == nil {
			return fmt.Errorf("not started")
		}
		addr := func(p int) string { return t.Seats[p].Player.Address }
		name := func(p int) string { local, _, _ := strings.Cut(addr(p), "@"); return local }
		if g.Over() {
			fmt.Fprintf(&b, "The game at the table %s is over:", demoTable)
			for p := range t.Seats {
				fmt.Fprintf(&b, " %s %d", name(p), g.Score(p))
			}
			fmt.Fprintf(&b, ".\nRead it, and ask for another (REMATCH), from a terminal:\n"+
				"  %s mail read --as %s\n  %s mail send --as %s 'REMATCH %s'\n\n", prog, addr(0), prog, addr(0), demoTable)
			return nil
		}
		p := g.Turn()
		try := demoTry(d, g, p)
		other := addr((p + 1) % len(t.Seats))
		if len(g.Actions()) == 0 {
			fmt.Fprintf(&b, "Play from a terminal, in another window: %s opens the game at the table %s.\n", name(p), demoTable)
		} else {
			fmt.Fprintf(&b, "Play from a terminal, in another window: the game at the table %s goes on, %s to play.\n", demoTable, name(p))
		}
		fmt.Fprintf(&b, "  %s mail read --as %s\n  %s mail send --as %s '%s'\n  %s mail read --as %s\n",
			prog, addr(p), prog, addr(p), try, prog, other)
		fmt.Fprintf(&b, "Commands: PLACE, EXCHANGE, PASS, PREVIEW, BOARD, LOG, GAMES, LANG fr, HELP, HELP RULES.\n\n")
		return nil
	})
	if err != nil {
		return fmt.Sprintf("(the table %s cannot be read: %v; %s table list says more)\n\n", demoTable, err, prog)
	}
	return b.String()
}

// demoTry is a move player p may send now: the README's opening where it
// is legal, else the best-scoring placement of their rack, else an
// exchange of the whole rack, else a pass.
func demoTry(d *daemon, g *engine.Game, p int) string {
	rack, b := g.Rack(p), g.Board()
	if moves, err := movegen.New(d.gaddag).Generate(&b, rack, g.Rules(), nil); err == nil && len(moves) > 0 {
		if lines, err := analysis.Moves(&b, rack, moves, g.Rules()); err == nil && len(lines) > 0 {
			for _, l := range lines {
				if l.Command == demoOpening {
					return demoOpening
				}
			}
			return lines[0].Command
		}
	}
	if g.BagCount() >= board.RackSize && len(rack) > 0 {
		return "EXCHANGE " + string(rack)
	}
	return "PASS"
}

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
		d, _, err := dict.Open(compiled)
		if err != nil {
			return "", err
		}
		var b [8]byte
		if _, err := rand.Read(b[:]); err != nil {
			return "", err
		}
		// A seed the table row's int64 keeps as it is.
		seed, ok, err := demoSeed(d, binary.LittleEndian.Uint64(b[:])>>2)
		if err != nil {
			return "", err
		}
		if !ok {
			fmt.Fprintf(e.stdout, "no deal lets alice open with %s with the words of %s: the deal is random\n", demoOpening, words)
		}
		text := config.Demo(dir, compiled, secret, imapAddr, smtpAddr, webAddr, seed)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			return "", err
		}
	}
	return path, nil
}
