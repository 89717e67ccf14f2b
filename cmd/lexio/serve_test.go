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
		if n := strings.Count(errOut.String(), "lexio serving"); n != 1 {
			t.Fatalf("%s: the pipeline restarted (%d starts):\n%s", bad.name, n, errOut.String())
		}
		writeFile(t, path, good, 0o600) // the mail commands read it too
		answered(bad.name)
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
