package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckConfigExposure (#35): check-config refuses tls = "none" to a
// mail server beyond this machine, naming the key and the fix, and warns,
// under its ok line, of a [web] or [metrics] listener beyond the
// loopback; the loopback gives no warning.
func TestCheckConfigExposure(t *testing.T) {
	dir := t.TempDir()
	words := filepath.Join("..", "..", "gcg", "testdata", "words.txt")
	secret := filepath.Join(dir, "secret")
	writeFile(t, secret, "0123456789abcdef0123456789abcdef\n", 0o600)
	path := filepath.Join(dir, "lexio.toml")

	t.Run("tls none to a remote server", func(t *testing.T) {
		writeFile(t, path, `dictionary = `+quote(words)+`
[mail]
address = "lexio@example.org"
secret_file = `+quote(secret)+`
[imap]
address = "imap.example.org:143"
tls = "none"
[smtp]
address = "127.0.0.1:25"
tls = "none"
`, 0o600)
		code, out, errOut := lexio(t, "check-config", "-c", path)
		if code != 1 || strings.Contains(out, "ok") {
			t.Fatalf("status %d, stdout %q, stderr %q", code, out, errOut)
		}
		for _, w := range []string{`imap.tls "none" to imap.example.org:143`, "in clear", `set tls = "tls" (port 993) or "starttls" (port 143)`} {
			if !strings.Contains(errOut, w) {
				t.Errorf("stderr does not say %q:\n%s", w, errOut)
			}
		}
		if strings.Contains(errOut, "smtp.tls") {
			t.Errorf("smtp to the loopback refused:\n%s", errOut)
		}
	})

	for _, tc := range []struct {
		name, extra string
		want        []string
	}{
		{"loopback listeners", "[web]\nlisten = \"127.0.0.1:8080\"\nbase_url = \"https://lexio.example.org\"\n[metrics]\nlisten = \"[::1]:9100\"\n", nil},
		{"listeners beyond the loopback", "[web]\nlisten = \":8080\"\nbase_url = \"https://lexio.example.org\"\n[metrics]\nlisten = \"0.0.0.0:9100\"\n",
			[]string{path + `: warning: web.listen ":8080" listens beyond this machine (every interface)`, "bind 127.0.0.1:8080",
				path + `: warning: metrics.listen "0.0.0.0:9100" listens beyond this machine (every interface): /metrics and /healthz have no authentication; bind 127.0.0.1:9100`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			writeFile(t, path, testConfig(t, dir, secret, words, tc.extra), 0o600)
			code, out, errOut := lexio(t, "check-config", "-c", path)
			if code != 0 || !strings.HasPrefix(out, path+": ok: ") {
				t.Fatalf("status %d, stdout %q, stderr %q", code, out, errOut)
			}
			if tc.want == nil && strings.Contains(out, "warning") {
				t.Errorf("warned of loopback listeners:\n%s", out)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("stdout does not say %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestServeWarnsOfExposure: serve logs the warnings check-config prints,
// and starts; it refuses tls = "none" to a remote server before anything
// starts.
func TestServeWarnsOfExposure(t *testing.T) {
	dir := t.TempDir()
	words := filepath.Join("..", "..", "gcg", "testdata", "words.txt")
	secret := filepath.Join(dir, "secret")
	writeFile(t, secret, "0123456789abcdef0123456789abcdef\n", 0o600)
	path := filepath.Join(dir, "lexio.toml")
	writeFile(t, path, testConfig(t, dir, secret, words, "[metrics]\nlisten = \"0.0.0.0:0\"\n"), 0o600)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errOut := &syncBuffer{}
	e := &env{stdin: strings.NewReader(""), stdout: &syncBuffer{}, stderr: errOut, getenv: func(string) string { return "" }}
	done := make(chan error, 1)
	go func() { done <- serveWith(ctx, e, path, nil, make(chan os.Signal)) }()
	waitLog(t, errOut, "lexio serving", 1)
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if log := errOut.String(); !strings.Contains(log, `metrics.listen \"0.0.0.0:0\" listens beyond this machine`) {
		t.Errorf("serve did not warn of its metrics listener:\n%s", log)
	}

	writeFile(t, path, `dictionary = `+quote(words)+`
[mail]
address = "lexio@example.org"
secret_file = `+quote(secret)+`
[imap]
address = "127.0.0.1:143"
tls = "none"
[smtp]
address = "smtp.example.org:25"
tls = "none"
`, 0o600)
	err := serveWith(context.Background(), e, path, nil, make(chan os.Signal))
	if err == nil || !strings.Contains(err.Error(), `smtp.tls "none" to smtp.example.org:25`) {
		t.Errorf("serve with smtp in clear to a remote server: %v", err)
	}
}
