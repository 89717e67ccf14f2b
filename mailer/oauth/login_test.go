package oauth_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/mailer/oauth"
)

// provider is an authorization server of the test's own: /authorize sends
// the browser back with a code (or refuse's error), /token exchanges the
// code for tokens when the PKCE verifier matches the challenge.
type provider struct {
	*httptest.Server
	t      *testing.T
	refuse string
	mu     sync.Mutex
	auth   url.Values // the authorization request's parameters
}

const authCode = "c0de-from-the-provider"

func newProvider(t *testing.T, refuse string) *provider {
	p := &provider{t: t, refuse: refuse}
	mux := http.NewServeMux()
	mux.HandleFunc("/authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		p.mu.Lock()
		p.auth = q
		p.mu.Unlock()
		back := url.Values{"state": {q.Get("state")}}
		if p.refuse != "" {
			back.Set("error", p.refuse)
			back.Set("error_description", "The user said no\n"+clientSecret)
		} else {
			back.Set("code", authCode)
		}
		http.Redirect(w, r, q.Get("redirect_uri")+"?"+back.Encode(), http.StatusFound)
	})
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		f := r.PostForm
		p.mu.Lock()
		challenge, redirect := p.auth.Get("code_challenge"), p.auth.Get("redirect_uri")
		p.mu.Unlock()
		sum := sha256.Sum256([]byte(f.Get("code_verifier")))
		w.Header().Set("Content-Type", "application/json")
		switch {
		case f.Get("grant_type") != "authorization_code" || f.Get("code") != authCode || f.Get("redirect_uri") != redirect:
			w.WriteHeader(400)
			io.WriteString(w, `{"error":"invalid_grant"}`)
		case base64.RawURLEncoding.EncodeToString(sum[:]) != challenge:
			w.WriteHeader(400)
			io.WriteString(w, `{"error":"invalid_grant","error_description":"PKCE verification failed"}`)
		default:
			io.WriteString(w, `{"access_token":"at","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-first"}`)
		}
	})
	p.Server = httptest.NewServer(mux)
	t.Cleanup(p.Close)
	return p
}

// browse plays the host's browser: it first sends the loopback listener
// a request that is not the provider's (refused, the flow goes on), then
// opens the authorization URL and follows the redirect back.
func browse(t *testing.T, done chan<- error) func(string) {
	return func(authURL string) {
		go func() {
			u, err := url.Parse(authURL)
			if err != nil {
				done <- err
				return
			}
			stray, err := http.Get(u.Query().Get("redirect_uri") + "?code=forged&state=guess")
			if err != nil {
				done <- err
				return
			}
			stray.Body.Close()
			if stray.StatusCode != http.StatusBadRequest {
				done <- errors.New("a request with the wrong state was not refused: " + stray.Status)
				return
			}
			resp, err := http.Get(authURL)
			if err != nil {
				done <- err
				return
			}
			resp.Body.Close()
			done <- nil
		}()
	}
}

// TestLogin drives the loopback flow: PKCE S256, the state, offline
// access, the loopback redirect; the refresh token lands in its file.
func TestLogin(t *testing.T) {
	p := newProvider(t, "")
	file := filepath.Join(t.TempDir(), "refresh-token")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	browsed := make(chan error, 1)
	err := oauth.Login(ctx, oauth.Config{AuthURL: p.URL + "/authorize", TokenURL: p.URL + "/token",
		ClientID: clientID, ClientSecret: clientSecret, RefreshTokenFile: file, Scopes: []string{"https://mail.google.com/"}},
		browse(t, browsed))
	if err != nil {
		t.Fatal(err)
	}
	if err := <-browsed; err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(file)
	if err != nil || string(b) != "rt-first\n" {
		t.Fatalf("file %q, %v", b, err)
	}
	if fi, _ := os.Stat(file); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %04o", fi.Mode().Perm())
	}
	p.mu.Lock()
	q := p.auth
	p.mu.Unlock()
	if q.Get("response_type") != "code" || q.Get("client_id") != clientID || q.Get("code_challenge_method") != "S256" ||
		q.Get("access_type") != "offline" || q.Get("scope") != "https://mail.google.com/" || q.Get("state") == "" {
		t.Errorf("authorization request %v", q)
	}
	if !strings.HasPrefix(q.Get("redirect_uri"), "http://127.0.0.1:") {
		t.Errorf("redirect_uri %q: want the loopback", q.Get("redirect_uri"))
	}
}

// TestLoginRefused: the provider's refusal is the error, bounded, without
// the secret; no file is written.
func TestLoginRefused(t *testing.T) {
	p := newProvider(t, "access_denied")
	file := filepath.Join(t.TempDir(), "refresh-token")
	browsed := make(chan error, 1)
	err := oauth.Login(context.Background(), oauth.Config{AuthURL: p.URL + "/authorize", TokenURL: p.URL + "/token",
		ClientID: clientID, ClientSecret: clientSecret, RefreshTokenFile: file}, browse(t, browsed))
	if err == nil || err.Error() != "the authorization endpoint refused client lexio: access_denied (The user said no [redacted])" {
		t.Errorf("err = %v", err)
	}
	<-browsed
	if _, err := os.Stat(file); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a file was written: %v", err)
	}
}

// TestLoginTimeout: nobody opens the URL; the context ends the wait.
func TestLoginTimeout(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	var shown string
	err := oauth.Login(ctx, oauth.Config{AuthURL: "https://auth.example.org/authorize", TokenURL: "https://auth.example.org/token",
		ClientID: clientID, RefreshTokenFile: filepath.Join(t.TempDir(), "rt")}, func(u string) { shown = u })
	if !errors.Is(err, context.DeadlineExceeded) || !strings.HasPrefix(shown, "https://auth.example.org/authorize?") {
		t.Errorf("err = %v, shown %q", err, shown)
	}
}
