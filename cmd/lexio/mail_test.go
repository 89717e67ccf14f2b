package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// `lexio mail read --html` prints the HTML part alone, so that
// `> page.html` saves a page a browser opens; without --html the headers
// and the text part are shown.
func TestMailReadHTMLIsThePageAlone(t *testing.T) {
	dir := t.TempDir()
	path, secret := filepath.Join(dir, "lexio.toml"), filepath.Join(dir, "secret")
	writeFile(t, secret, "0123456789abcdef0123456789abcdef\n", 0o600)
	writeFile(t, path, testConfig(t, dir, secret, filepath.Join("..", "..", "gcg", "testdata", "words.txt"),
		"[[table]]\nname = \"t1\"\nplayers = [\"alice@localhost\", \"bob@localhost\"]\n"), 0o600)
	ctx, cancel := context.WithCancel(context.Background())
	errOut := &syncBuffer{}
	e := &env{stdin: strings.NewReader(""), stdout: &syncBuffer{}, stderr: errOut, getenv: func(string) string { return "" }}
	done := make(chan error, 1)
	go func() { done <- serveWith(ctx, e, path, nil, nil) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	}()
	defer func() {
		if t.Failed() {
			t.Logf("the daemon's log:\n%s", errOut.String())
		}
	}()
	text := waitFor(t, "alice's notice", time.Now().Add(20*time.Second), newestMail(t, path, "alice@localhost"), "It is your turn")
	if !strings.HasPrefix(text, "Message 1 of 1\nFrom: ") {
		t.Errorf("the text view lost its headers:\n%s", text)
	}
	code, page, stderr := lexio(t, "mail", "read", "--as", "alice@localhost", "-c", path, "--html")
	if code != 0 {
		t.Fatalf("--html: status %d: %s", code, stderr)
	}
	if !strings.HasPrefix(page, "<!DOCTYPE html>") || !strings.HasSuffix(strings.TrimSpace(page), "</html>") {
		t.Errorf("--html is not a page alone:\n%.300s\n...\n%s", page, page[max(0, len(page)-100):])
	}
	if strings.Contains(page, "Subject: ") || strings.Contains(page, "Message 1 of 1") {
		t.Errorf("--html prints headers:\n%.300s", page)
	}
}
