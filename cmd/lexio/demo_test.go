package main

import (
	"bytes"
	"context"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
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
	go func() {
		done <- run(ctx, e, []string{"demo", "--data", dir, "--dict", words, "--imap", freeAddr(t), "--smtp", freeAddr(t)})
	}()
	defer func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("demo exited %d: %s", code, errOut.String())
		}
	}()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(out.String(), "lexio demo is running") {
		if time.Now().After(deadline) {
			t.Fatalf("the demo did not start:\n%s\n%s", out.String(), errOut.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	cfg := filepath.Join(dir, "demo.toml")
	var notice string
	for time.Now().Before(deadline) {
		_, notice, _ = lexio(t, "mail", "read", "--as", "alice@localhost", "-c", cfg)
		if strings.Contains(notice, "Your rack") {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.Contains(notice, "It is your turn") {
		t.Fatalf("alice's first mail:\n%s", notice)
	}
	code, sent, stderr := lexio(t, "mail", "send", "--as", "alice@localhost", "-c", cfg, "--wait", "15s", "PASS")
	if code != 0 || !strings.Contains(sent, "new mail:") {
		t.Fatalf("mail send: %d\n%s%s", code, sent, stderr)
	}
	for time.Now().Before(deadline) {
		_, notice, _ = lexio(t, "mail", "read", "--as", "bob@localhost", "-c", cfg, "--list")
		if strings.Count(notice, "\n") >= 2 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if _, last, _ := lexio(t, "mail", "read", "--as", "bob@localhost", "-c", cfg); !strings.Contains(last, "Alice passed") || !strings.Contains(last, "It is your turn") {
		t.Fatalf("bob's newest mail after alice's pass:\n%s", last)
	}
	if code, _, stderr := lexio(t, "mail", "read", "--as", "mallory@example.org", "-c", cfg); code != 2 || !strings.Contains(stderr, "--as takes a player's address") {
		t.Errorf("a foreign address: %d %q", code, stderr)
	}
}
