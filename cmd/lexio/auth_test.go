package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// urlWriter passes what auth login prints to the test, which plays the
// host's browser with the first address it sees.
type urlWriter struct {
	mu   sync.Mutex
	buf  strings.Builder
	urls chan string
}

var printedURL = regexp.MustCompile(`(?m)^http://\S+$`)

func (w *urlWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if u := printedURL.FindString(w.buf.String()); u != "" && w.urls != nil {
		w.urls <- u
		w.urls = nil
	}
	return len(p), nil
}

func (w *urlWriter) String() string { w.mu.Lock(); defer w.mu.Unlock(); return w.buf.String() }

// TestAuthLogin: `lexio auth login` prints the provider's authorization
// address, takes the code the browser brings back to its loopback
// listener, exchanges it (PKCE) and writes the refresh token, mode 600.
func TestAuthLogin(t *testing.T) {
	mux := http.NewServeMux()
	var challenge string
	mux.HandleFunc("/authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		challenge = q.Get("code_challenge")
		back := url.Values{"state": {q.Get("state")}, "code": {"the-code"}}
		http.Redirect(w, r, q.Get("redirect_uri")+"?"+back.Encode(), http.StatusFound)
	})
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		w.Header().Set("Content-Type", "application/json")
		if r.PostForm.Get("code") != "the-code" || r.PostForm.Get("code_verifier") == "" || challenge == "" {
			w.WriteHeader(400)
			io.WriteString(w, `{"error":"invalid_grant"}`)
			return
		}
		io.WriteString(w, `{"access_token":"at","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-first"}`)
	})
	ts := httptest.NewServer(mux)
	defer ts.Close()

	dir := t.TempDir()
	path, rt := filepath.Join(dir, "lexio.toml"), filepath.Join(dir, "refresh-token")
	writeFile(t, path, fmt.Sprintf(`[mail]
address = "lexio@example.org"
[imap]
address = "imap.example.org:993"
username = "lexio@example.org"
auth = "oauth2"
[smtp]
address = "smtp.example.org:587"
username = "lexio@example.org"
auth = "oauth2"
[oauth2]
token_url = "%s/token"
auth_url = "%s/authorize"
client_id = "desktop-client"
grant = "refresh_token"
refresh_token_file = %q
scope = "https://mail.example/"
`, ts.URL, ts.URL, rt), 0o600)

	urls := make(chan string, 1)
	out, errOut := &urlWriter{urls: urls}, &syncBuffer{}
	e := &env{stdin: strings.NewReader(""), stdout: out, stderr: errOut, getenv: func(string) string { return "" }}
	done := make(chan int, 1)
	go func() {
		done <- run(context.Background(), e, []string{"auth", "login", "-c", path, "--timeout", "30s"})
	}()
	select {
	case u := <-urls:
		resp, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	case code := <-done:
		t.Fatalf("auth login exited %d before it printed an address:\n%s%s", code, out.String(), errOut.String())
	}
	if code := <-done; code != 0 {
		t.Fatalf("auth login exited %d:\n%s%s", code, out.String(), errOut.String())
	}
	b, err := os.ReadFile(rt)
	fi, _ := os.Stat(rt)
	if err != nil || string(b) != "rt-first\n" || fi.Mode().Perm() != 0o600 {
		t.Errorf("refresh token file %q, %v, mode %v", b, err, fi.Mode())
	}
	if !strings.Contains(out.String(), "refresh token written to "+rt) || strings.Contains(out.String(), "rt-first") {
		t.Errorf("output:\n%s", out.String())
	}

	// A configuration whose grant needs no sign-in is told so.
	writeFile(t, path, strings.Replace(mustRead(t, path), `grant = "refresh_token"`, `grant = "client_credentials"`+"\nclient_secret_file = \""+rt+"\"", 1), 0o600)
	code, _, stderr := lexio(t, "auth", "login", "-c", path)
	if code == 0 || !strings.Contains(stderr, "needs no sign-in") {
		t.Errorf("client_credentials: exit %d, %s", code, stderr)
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
