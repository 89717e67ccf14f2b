package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/mailer"
)

// testConfig is a daemon on the embedded mail server with its secret in
// secretFile and the test word list.
func testConfig(t *testing.T, dir, secretFile, dictionary, tables string) string {
	t.Helper()
	return fmt.Sprintf(`dictionary = %q
[storage]
sqlite_path = %q
[mail]
address = "lexio@localhost"
secret_file = %q
[embedded]
enabled = true
imap_listen = %q
smtp_listen = %q
users = ["alice", "bob"]
%s`, dictionary, filepath.Join(dir, "lexio.db"), secretFile, freeAddr(t), freeAddr(t), tables)
}

func writeFile(t *testing.T, path, text string, perm os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), perm); err != nil {
		t.Fatal(err)
	}
}

// serveTest runs the daemon until the test ends on a fresh directory whose
// configuration is head, then the test configuration with tables; it
// returns the configuration's path and the daemon's log, which a failed
// test prints.
func serveTest(t *testing.T, head, tables string) (string, *syncBuffer) {
	t.Helper()
	dir := t.TempDir()
	path, secret := filepath.Join(dir, "lexio.toml"), filepath.Join(dir, "secret")
	writeFile(t, secret, "0123456789abcdef0123456789abcdef\n", 0o600)
	writeFile(t, path, head+testConfig(t, dir, secret, filepath.Join("..", "..", "gcg", "testdata", "words.txt"), tables), 0o600)
	ctx, cancel := context.WithCancel(context.Background())
	errOut := &syncBuffer{}
	e := &env{stdin: strings.NewReader(""), stdout: &syncBuffer{}, stderr: errOut, getenv: func(string) string { return "" }}
	done := make(chan error, 1)
	go func() { done <- serveWith(ctx, e, path, nil, nil) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
		if t.Failed() {
			t.Logf("the daemon's log:\n%s", errOut.String())
		}
	})
	return path, errOut
}

// waitLog waits until what appears n times in the log.
func waitLog(t *testing.T, log *syncBuffer, what string, n int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for strings.Count(log.String(), what) < n {
		if time.Now().After(deadline) {
			t.Fatalf("%q not %d times in the log:\n%s", what, n, log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A reload is a value on serveWith's channel (SIGHUP in the command): a
// file that does not parse, or parses but names a secret file or a
// dictionary that is missing, is refused and the running pipeline goes
// on untouched (no restart, mail still answered); a good file applies.
func TestServeReload(t *testing.T) {
	dir := t.TempDir()
	path, secret := filepath.Join(dir, "lexio.toml"), filepath.Join(dir, "secret")
	words := filepath.Join("..", "..", "gcg", "testdata", "words.txt")
	writeFile(t, secret, "0123456789abcdef0123456789abcdef\n", 0o600)
	good := testConfig(t, dir, secret, words, "")
	writeFile(t, path, good, 0o600)

	ctx, cancel := context.WithCancel(context.Background())
	out, errOut := &syncBuffer{}, &syncBuffer{}
	e := &env{stdin: strings.NewReader(""), stdout: out, stderr: errOut, getenv: func(string) string { return "" }}
	reload := make(chan os.Signal, 1)
	done := make(chan error, 1)
	go func() { done <- serveWith(ctx, e, path, nil, reload) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	}()
	waitLog(t, errOut, "lexio serving", 1)
	// The collector is tuned by GOGC in the environment alone: serve
	// changes nothing of the process's runtime.
	if p := debug.SetGCPercent(100); os.Getenv("GOGC") == "" && p != 100 {
		t.Errorf("serve set the GC percent to %d", p)
	}

	answered := func(step string) {
		t.Helper()
		code, sent, stderr := lexio(t, "mail", "send", "--as", "alice@localhost", "-c", path, "--to", "lexio@localhost", "--wait", "15s", "HELP")
		if code != 0 || !strings.Contains(sent, "new mail:") {
			t.Fatalf("%s: HELP was not answered: %d\n%s%s\n%s", step, code, sent, stderr, errOut.String())
		}
	}
	refused := 0
	for _, bad := range []struct{ name, text string }{
		{"a file that does not parse", strings.Replace(good, "[mail]", "[mial]", 1)},
		{"a missing secret file", strings.Replace(good, secret, secret+"-gone", 1)},
		{"a missing dictionary", strings.Replace(good, words, words+"-gone", 1)},
	} {
		writeFile(t, path, bad.text, 0o600)
		reload <- syscall.SIGHUP
		refused++
		waitLog(t, errOut, "reload refused", refused)
		writeFile(t, path, good, 0o600) // the mail commands read it too
		answered(bad.name)
		// A restart after the refusal would have logged its start before
		// answering the HELP.
		if n := strings.Count(errOut.String(), "lexio serving"); n != 1 {
			t.Fatalf("%s: the pipeline restarted (%d starts):\n%s", bad.name, n, errOut.String())
		}
	}

	writeFile(t, path, good+"[[table]]\nname = \"late\"\nplayers = [\"alice@localhost\", \"bob@localhost\"]\n", 0o600)
	reload <- syscall.SIGHUP
	waitLog(t, errOut, "table created", 1)
	if !strings.Contains(errOut.String(), "table=late") {
		t.Errorf("the new table was not opened:\n%s", errOut.String())
	}
	waitLog(t, errOut, "lexio serving", 2)
	answered("after the good reload")
}

// Two-phase stop of the whole pipeline: a move whose handling is in
// flight when the stop comes (the handler is held until after the
// cancellation) is committed by the table service on the real store, the
// receiver moves it to Processed, and only then does run return.
func TestStopCommitsTheMoveInFlight(t *testing.T) {
	dir := t.TempDir()
	path, secret := filepath.Join(dir, "lexio.toml"), filepath.Join(dir, "secret")
	writeFile(t, secret, "0123456789abcdef0123456789abcdef\n", 0o600)
	writeFile(t, path, testConfig(t, dir, secret, filepath.Join("..", "..", "gcg", "testdata", "words.txt"),
		"[[table]]\nname = \"t1\"\nplayers = [\"alice@localhost\", \"bob@localhost\"]\n"), 0o600)
	cfg, err := loadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	n, err := resolve(cfg, "lexio")
	if err != nil {
		t.Fatal(err)
	}
	e := &env{stdin: strings.NewReader(""), stdout: &syncBuffer{}, stderr: &syncBuffer{}, getenv: func(string) string { return "" }}
	log := newLogger(e, "info")
	mail, err := startLocalMail(context.Background(), cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	defer mail.Close()
	st, err := openStore(context.Background(), cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	d, err := newDaemon(cfg, n, st, mail, log, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The same receiver as the daemon's, with its handler held at the door.
	held, release := make(chan struct{}, 10), make(chan struct{})
	d.recv, err = mailer.NewReceiver(mailer.ReceiverConfig{Addr: mail.IMAPAddr(), TLS: mailer.TLSNone,
		Username: "lexio", Password: mail.password, Logger: log},
		mailer.HandlerFunc(func(ctx context.Context, m mailer.Inbound) error {
			if !strings.Contains(string(m.Raw), "PASS") {
				return d.parts.Inbox.HandleMessage(ctx, m)
			}
			held <- struct{}{}
			<-release
			return d.parts.Inbox.HandleMessage(ctx, m)
		}))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- d.run(ctx, nil) }()

	waitFor(t, "alice's notice", time.Now().Add(20*time.Second), newestMail(t, path, "alice@localhost"), "It is your turn")
	if code, out, errOut := lexio(t, "mail", "send", "--as", "alice@localhost", "-c", path, "--wait", "1ms", "PASS"); code != 0 {
		t.Fatalf("mail send: %d %s%s", code, out, errOut)
	}
	select {
	case <-held:
	case <-time.After(20 * time.Second):
		t.Fatal("the PASS was not handed over")
	}
	cancel() // SIGTERM
	close(release)
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("run did not return")
	}
	tables, err := d.parts.Views.List(context.Background())
	if err != nil || len(tables) != 1 || tables[0].Moves != 1 {
		t.Fatalf("the PASS in flight at the stop was lost: %+v %v", tables, err)
	}
	if got, err := mail.Count("lexio", "Processed"); err != nil || got != 1 {
		t.Errorf("Processed holds %d (%v), want the PASS", got, err)
	}
	if got, err := mail.Count("lexio", "INBOX"); err != nil || got != 0 {
		t.Errorf("INBOX holds %d (%v), want nothing", got, err)
	}
}

// TestServeWeb: with [web] listen set, serve answers the web side on it
// (here 127.0.0.1:0), and the stop closes it before serve returns.
func TestServeWeb(t *testing.T) {
	dir := t.TempDir()
	path, secret := filepath.Join(dir, "lexio.toml"), filepath.Join(dir, "secret")
	words := filepath.Join("..", "..", "gcg", "testdata", "words.txt")
	writeFile(t, secret, "0123456789abcdef0123456789abcdef\n", 0o600)
	writeFile(t, path, testConfig(t, dir, secret, words, "[web]\nlisten = \"127.0.0.1:0\"\nbase_url = \"http://lexio.test\"\n"), 0o600)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, errOut := &syncBuffer{}, &syncBuffer{}
	e := &env{stdin: strings.NewReader(""), stdout: out, stderr: errOut, getenv: func(string) string { return "" }}
	done := make(chan error, 1)
	go func() { done <- serveWith(ctx, e, path, nil, make(chan os.Signal)) }()
	waitLog(t, errOut, "web side listening", 1)
	m := regexp.MustCompile(`"web side listening" address=(\S+)`).FindStringSubmatch(errOut.String())
	if m == nil {
		t.Fatalf("no address in the log:\n%s", errOut.String())
	}
	url := "http://" + m[1] + "/"
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound || resp.Header.Get("Content-Security-Policy") == "" {
		t.Errorf("GET /: %d, CSP %q", resp.StatusCode, resp.Header.Get("Content-Security-Policy"))
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve: %v", err)
	}
	if !strings.Contains(errOut.String(), "web side stopped") {
		t.Errorf("the web side did not stop:\n%s", errOut.String())
	}
	if resp, err := http.Get(url); err == nil {
		resp.Body.Close()
		t.Error("the web side still answers after serve returned")
	}
}

// adminConfig writes, in a new temporary directory, a configuration for
// the admin commands (the test word list, a secret file, tables as
// given) and returns the directory and the file's path.
func adminConfig(t *testing.T, tables string) (dir, cfg string) {
	t.Helper()
	words, err := filepath.Abs(filepath.Join("..", "..", "gcg", "testdata", "words.txt"))
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	secret := filepath.Join(dir, "secret")
	writeFile(t, secret, "0123456789abcdef0123456789abcdef\n", 0o600)
	cfg = filepath.Join(dir, "lexio.toml")
	writeFile(t, cfg, testConfig(t, dir, secret, words, tables), 0o600)
	return dir, cfg
}

// TestServeBotOnTime: issue 34. The computer plays bot_delay (here 1 s)
// after its turn begins, not at the scheduler's next tick: a PASS that
// hands it the turn wakes the scheduler, which ticks at the computer's
// time. The period's first tick after the start comes 30 s later, so a
// move of the computer within 10 s of a PASS sent in the first seconds
// was the wake's.
func TestServeBotOnTime(t *testing.T) {
	path, errOut := serveTest(t, "bot_delay = \"1s\"\n", "[[table]]\nname = \"t1\"\nplayers = [\"alice@localhost\", \"bot\"]\n")
	waitFor(t, "alice's notice", time.Now().Add(20*time.Second), newestMail(t, path, "alice@localhost"), "It is your turn")
	if code, out, errOut := lexio(t, "mail", "send", "--as", "alice@localhost", "-c", path, "--wait", "1ms", "PASS"); code != 0 {
		t.Fatalf("mail send: %d %s%s", code, out, errOut)
	}
	passed := time.Now()
	waitLog(t, errOut, "computer played", 1)
	if late := time.Since(passed); late > 10*time.Second {
		t.Errorf("the computer played %v after the PASS, at the period's tick", late.Round(time.Second))
	}
}
