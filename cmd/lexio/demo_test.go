package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-smtp"
)

// syncBuffer is a bytes.Buffer safe for the daemon's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// TestDemoByTerminal is the README's promise: `make run`, then play from a
// terminal with `lexio mail send` and `lexio mail read`.
func TestDemoByTerminal(t *testing.T) {
	dir := t.TempDir()
	words := filepath.Join("..", "..", "gcg", "testdata", "words.txt")
	ctx, cancel := context.WithCancel(context.Background())
	out, errOut := &syncBuffer{}, &syncBuffer{}
	e := &env{stdin: strings.NewReader(""), stdout: out, stderr: errOut, getenv: func(string) string { return "" }}
	done := make(chan int)
	imapAddr := freeAddr(t)
	go func() {
		done <- run(ctx, e, []string{"demo", "--data", dir, "--dict", words, "--imap", imapAddr, "--smtp", freeAddr(t), "--web", freeAddr(t)})
	}()
	defer func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("demo exited %d: %s", code, errOut.String())
		}
	}()
	deadline := time.Now().Add(20 * time.Second)
	waitFor(t, "the demo", deadline, func() string { return out.String() + errOut.String() }, "lexio demo is running")
	cfg := filepath.Join(dir, "demo.toml")
	waitFor(t, "alice's first mail", deadline, newestMail(t, cfg, "alice@localhost"), "It is your turn", "Your rack", "View this game in your browser")
	code, sent, stderr := lexio(t, "mail", "send", "--as", "alice@localhost", "-c", cfg, "--wait", "15s", "PASS")
	if code != 0 || !strings.Contains(sent, "new mail:") {
		t.Fatalf("mail send: %d\n%s%s", code, sent, stderr)
	}
	waitFor(t, "bob's newest mail after alice's pass", deadline, newestMail(t, cfg, "bob@localhost"), "Alice passed", "It is your turn")
	if code, _, stderr := lexio(t, "mail", "read", "--as", "mallory@example.org", "-c", cfg); code != 2 || !strings.Contains(stderr, "--as takes a player's address") {
		t.Errorf("a foreign address: %d %q", code, stderr)
	}

	// The service's mailbox holds every reply token: its password is
	// not its name but a random one, private in data/mail, which the
	// guide prints for whoever started the demo and the service itself
	// logs in with (alice's PASS was answered above).
	pwFile := filepath.Join(dir, "mail", "lexio.password")
	pw := servicePassword(t, pwFile)
	if !strings.Contains(out.String(), "user lexio, password "+pw+", kept in "+pwFile+" (mode 600)") {
		t.Errorf("the guide does not give the service's password and where it is kept:\n%s", out.String())
	}
	if code, read, _ := lexio(t, "mail", "read", "--as", "lexio@localhost", "-c", cfg); code == 0 {
		t.Errorf("mail read --as lexio@localhost read the service's mailbox:\n%s", read)
	}
	c, err := imapclient.DialInsecure(imapAddr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login("lexio", "lexio").Wait(); err == nil {
		t.Error("the service's mailbox opens with the password lexio")
	}
	if err := c.Login("lexio", pw).Wait(); err != nil {
		t.Errorf("the service's mailbox does not open with the password in %s: %v", pwFile, err)
	}
}

// servicePassword is the password in file, which must be private and
// random.
func servicePassword(t *testing.T, file string) string {
	t.Helper()
	fi, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("%s has mode %v, want 0600", file, fi.Mode().Perm())
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	pw := strings.TrimSpace(string(b))
	if len(pw) != 32 || strings.Trim(pw, "0123456789abcdef") != "" {
		t.Fatalf("the service's password %q is not 16 random bytes in hex", pw)
	}
	return pw
}

// demoChildEnv carries the arguments of a demo run in a child process, to
// be killed.
const demoChildEnv = "LEXIO_TEST_DEMO_CHILD"

// waitFor polls the output of cmd until it contains every want; the
// deadline only bounds a broken test.
func waitFor(t *testing.T, what string, deadline time.Time, cmd func() string, want ...string) string {
	t.Helper()
	for {
		got := cmd()
		ok := true
		for _, w := range want {
			ok = ok && strings.Contains(got, w)
		}
		if ok {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: no %q in\n%s", what, want, got)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// newestMail reads as's newest mail (or the error) with `lexio mail read`.
func newestMail(t *testing.T, cfg, as string) func() string {
	return func() string {
		_, out, errOut := lexio(t, "mail", "read", "--as", as, "-c", cfg)
		return out + errOut
	}
}

// The demo keeps its mail: a player's notice, delivered before a kill -9,
// is still in their mailbox when the demo starts again, and their reply
// to it is applied.
func TestDemoKeepsMailAfterKill(t *testing.T) {
	if args := os.Getenv(demoChildEnv); args != "" {
		// The child: the demo, until killed or until the test is gone.
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			io.Copy(io.Discard, os.Stdin)
			cancel()
		}()
		e := &env{stdin: strings.NewReader(""), stdout: os.Stdout, stderr: os.Stderr, getenv: func(string) string { return "" }}
		os.Exit(run(ctx, e, strings.Split(args, "\n")))
	}
	dir := t.TempDir()
	words := filepath.Join("..", "..", "gcg", "testdata", "words.txt")
	cfg := filepath.Join(dir, "demo.toml")
	deadline := time.Now().Add(60 * time.Second)

	cmd := exec.Command(os.Args[0], "-test.run=^TestDemoKeepsMailAfterKill$", "-test.count=1")
	cmd.Env = append(os.Environ(), demoChildEnv+"="+strings.Join([]string{"demo", "--data", dir, "--dict", words, "--imap", freeAddr(t), "--smtp", freeAddr(t), "--web", freeAddr(t)}, "\n"))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	out, errOut := &syncBuffer{}, &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	defer func() {
		if !killed {
			cmd.Process.Kill()
			cmd.Wait()
		}
	}()
	waitFor(t, "the first demo", deadline, func() string { return out.String() + errOut.String() }, "lexio demo is running")
	waitFor(t, "alice's first notice", deadline, newestMail(t, cfg, "alice@localhost"), "It is your turn", "Your rack")
	if code, sent, stderr := lexio(t, "mail", "send", "--as", "alice@localhost", "-c", cfg, "--wait", "15s", "PASS"); code != 0 || !strings.Contains(sent, "new mail:") {
		t.Fatalf("alice's PASS: %d\n%s%s", code, sent, stderr)
	}
	waitFor(t, "bob's notice", deadline, newestMail(t, cfg, "bob@localhost"), "Alice passed", "It is your turn")
	pwFile := filepath.Join(dir, "mail", "lexio.password")
	pw := servicePassword(t, pwFile)
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	killed = true
	if err := cmd.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("the demo ended with %v, not by the kill:\n%s", err, errOut.String())
	}

	// The same data directory; demo.toml keeps the addresses.
	ctx, cancel := context.WithCancel(context.Background())
	out, errOut = &syncBuffer{}, &syncBuffer{}
	e := &env{stdin: strings.NewReader(""), stdout: out, stderr: errOut, getenv: func(string) string { return "" }}
	done := make(chan int)
	go func() { done <- run(ctx, e, []string{"demo", "--data", dir, "--dict", words}) }()
	defer func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("the second demo exited %d: %s", code, errOut.String())
		}
	}()
	waitFor(t, "the second demo", deadline, func() string { return out.String() + errOut.String() }, "lexio demo is running")
	if !strings.Contains(out.String(), "every mailbox are kept in "+dir) {
		t.Errorf("the guide does not say where the mail is kept:\n%s", out.String())
	}
	if _, notice, _ := lexio(t, "mail", "read", "--as", "bob@localhost", "-c", cfg); !strings.Contains(notice, "Alice passed") || !strings.Contains(notice, "It is your turn") {
		t.Fatalf("bob's newest mail after the restart:\n%s", notice)
	}
	if code, sent, stderr := lexio(t, "mail", "send", "--as", "bob@localhost", "-c", cfg, "--wait", "15s", "PASS"); code != 0 || !strings.Contains(sent, "new mail:") {
		t.Fatalf("bob's reply after the restart: %d\n%s%s", code, sent, stderr)
	}
	waitFor(t, "alice's notice of bob's move", deadline, newestMail(t, cfg, "alice@localhost"), "Bob passed", "It is your turn")
	// The service answered bob with the password it had before the kill.
	if again := servicePassword(t, pwFile); again != pw {
		t.Errorf("the service's password changed at the restart: %q, then %q", pw, again)
	}
	if fi, err := os.Stat(filepath.Join(dir, "mail")); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("the mail directory: %v", err)
	}
}

// The embedded server of serve and demo takes its limits from the file:
// SMTP refuses a message over mail.max_message_bytes with 552 and says
// SIZE, and a mailbox past embedded.mailbox_quota_bytes with 452. The
// service's password is kept in mail_dir, private, the same after a
// restart, and refused once others may read it.
func TestDemoEmbeddedLimitsAndPassword(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "lexio.toml")
	writeFile(t, path, fmt.Sprintf(`dictionary = "unused"
[mail]
address = "lexio@localhost"
max_message_bytes = 2048
[embedded]
enabled = true
imap_listen = "127.0.0.1:0"
smtp_listen = "127.0.0.1:0"
users = ["alice"]
mail_dir = %q
mailbox_quota_bytes = 8192
`, filepath.Join(dir, "mail")), 0o600)
	cfg, err := loadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	mail, err := startLocalMail(t.Context(), cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	defer mail.Close()

	c, err := smtp.Dial(mail.SMTPAddr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Hello("client.example"); err != nil {
		t.Fatal(err)
	}
	if ok, size := c.Extension("SIZE"); !ok || size != "2048" {
		t.Errorf("EHLO says SIZE %v %q, want 2048", ok, size)
	}
	code := func(err error) int {
		var se *smtp.SMTPError
		if errors.As(err, &se) {
			return se.Code
		}
		return 0
	}
	mailOf := func(size int) *strings.Reader { // size bytes, lines of 100
		body := strings.Repeat(strings.Repeat("x", 98)+"\r\n", size/100)
		return strings.NewReader("Subject: x\r\n\r\n" + body[:size-14])
	}
	if err := c.SendMail("a@example.org", []string{"alice@localhost"}, mailOf(3000)); code(err) != 552 {
		t.Errorf("a 3000-byte message: %v, want 552", err)
	}
	delivered := 0
	for ; delivered < 10; delivered++ {
		if err := c.SendMail("a@example.org", []string{"alice@localhost"}, mailOf(1500)); err != nil {
			if code(err) != 452 {
				t.Errorf("past the quota: %v, want 452", err)
			}
			break
		}
	}
	// 8192 bytes hold an INBOX and three 1500-byte messages, with what
	// each counts beside its text.
	if n, err := mail.Count("alice", "INBOX"); err != nil || n != delivered || delivered != 3 {
		t.Errorf("alice holds %d messages (%v), %d delivered, want 3", n, err, delivered)
	}
	c.Close()

	pwFile := filepath.Join(dir, "mail", "lexio.password")
	if mail.passwordFile != pwFile {
		t.Errorf("the password is kept in %q, want %q", mail.passwordFile, pwFile)
	}
	pw := servicePassword(t, pwFile)
	if mail.password != pw {
		t.Errorf("the service logs in with %q, the file says %q", mail.password, pw)
	}
	mail.Close()
	again, err := startLocalMail(t.Context(), cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	if again.password != pw {
		t.Errorf("after a restart the password is %q, was %q", again.password, pw)
	}
	again.Close()
	if err := os.Chmod(pwFile, 0o644); err != nil {
		t.Fatal(err)
	}
	if m, err := startLocalMail(t.Context(), cfg, log); err == nil {
		m.Close()
		t.Error("a password file others may read was used")
	} else if !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("error: %v", err)
	}
}
