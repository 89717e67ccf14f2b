package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func writeConfig(t *testing.T, path, dir, tables string) {
	t.Helper()
	text := fmt.Sprintf(`dictionary = %q
[storage]
sqlite_path = %q
[mail]
address = "lexio@localhost"
secret = "0123456789abcdef0123456789abcdef"
[embedded]
enabled = true
imap_listen = %q
smtp_listen = %q
users = ["alice", "bob"]
%s`, filepath.Join("..", "..", "gcg", "testdata", "words.txt"), filepath.Join(dir, "lexio.db"), freeAddr(t), freeAddr(t), tables)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// SIGHUP re-reads the file: a table added to it is opened without a
// restart, and a broken file is refused while the daemon goes on.
func TestServeReloadsOnSIGHUP(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "lexio.toml")
	writeConfig(t, path, dir, "")
	ctx, cancel := context.WithCancel(context.Background())
	out, errOut := &syncBuffer{}, &syncBuffer{}
	e := &env{stdin: strings.NewReader(""), stdout: out, stderr: errOut, getenv: func(string) string { return "" }}
	started := make(chan struct{})
	done := make(chan error)
	go func() { done <- serve(ctx, e, path, func(*daemon) { close(started) }) }()
	<-started

	waitLog := func(what string) {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for !strings.Contains(errOut.String(), what) {
			if time.Now().After(deadline) {
				t.Fatalf("no %q in the log:\n%s", what, errOut.String())
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	waitLog("lexio serving")

	// Keep the same listen addresses: [embedded] is not reloaded.
	old, _ := os.ReadFile(path)
	broken := strings.Replace(string(old), "[mail]", "[mial]", 1)
	os.WriteFile(path, []byte(broken), 0o644)
	syscall.Kill(os.Getpid(), syscall.SIGHUP)
	waitLog("reload refused")

	added := string(old) + "[[table]]\nname = \"late\"\nplayers = [\"alice@localhost\", \"bob@localhost\"]\n"
	os.WriteFile(path, []byte(added), 0o644)
	syscall.Kill(os.Getpid(), syscall.SIGHUP)
	waitLog("table created")
	if !strings.Contains(errOut.String(), "table=late") {
		t.Errorf("the new table was not opened:\n%s", errOut.String())
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve: %v", err)
	}
}
