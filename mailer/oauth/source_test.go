package oauth_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/mailer/oauth"
)

const (
	clientID     = "lexio"
	clientSecret = "s3cret-client-value"
)

// tokenServer is a token endpoint of the test's own: each request's form
// (with the client's credentials, from a Basic header or the form) is
// kept, and answer says what to send back.
type tokenServer struct {
	*httptest.Server
	mu       sync.Mutex
	requests []url.Values
	answer   func(n int, form url.Values) (status int, contentType, body string)
}

func newTokenServer(t *testing.T, answer func(n int, form url.Values) (int, string, string)) *tokenServer {
	ts := &tokenServer{answer: answer}
	ts.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil {
			t.Errorf("token request: %v", err)
		}
		form := r.PostForm
		if id, secret, ok := r.BasicAuth(); ok {
			form.Set("client_id", id)
			form.Set("client_secret", secret)
		}
		ts.mu.Lock()
		ts.requests = append(ts.requests, form)
		n := len(ts.requests)
		ts.mu.Unlock()
		status, ct, body := ts.answer(n, form)
		w.Header().Set("Content-Type", ct)
		w.WriteHeader(status)
		fmt.Fprint(w, body)
	}))
	t.Cleanup(ts.Close)
	return ts
}

func (ts *tokenServer) count() int {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return len(ts.requests)
}

func (ts *tokenServer) last() url.Values {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.requests[len(ts.requests)-1]
}

// grants answers every request with access token at-N, living an hour,
// and, for the refresh token grant, the refresh token rotate(N).
func grants(rotate func(n int) string) func(int, url.Values) (int, string, string) {
	return func(n int, form url.Values) (int, string, string) {
		if form.Get("client_id") != clientID {
			return 401, "application/json", `{"error":"invalid_client"}`
		}
		rt := ""
		if form.Get("grant_type") == "refresh_token" && rotate != nil {
			rt = fmt.Sprintf(`,"refresh_token":%q`, rotate(n))
		}
		return 200, "application/json", fmt.Sprintf(`{"access_token":"at-%d","token_type":"Bearer","expires_in":3600%s}`, n, rt)
	}
}

// clock is the time the test says.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func newClock() *clock { return &clock{t: time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)} }

func token(t *testing.T, s *oauth.Source) string {
	t.Helper()
	tok, err := s.Token(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// TestClientCredentials: RFC 6749 §4.4 with the scopes; the token is
// cached, and replaced five minutes before its hour is up.
func TestClientCredentials(t *testing.T) {
	ts := newTokenServer(t, grants(nil))
	clk := newClock()
	s, err := oauth.New(oauth.Config{TokenURL: ts.URL, ClientID: clientID, ClientSecret: clientSecret,
		Grant: oauth.ClientCredentials, Scopes: []string{"https://outlook.office365.com/.default"}, Now: clk.now})
	if err != nil {
		t.Fatal(err)
	}
	if tok := token(t, s); tok != "at-1" {
		t.Fatalf("token %q", tok)
	}
	f := ts.last()
	if f.Get("grant_type") != "client_credentials" || f.Get("client_secret") != clientSecret || f.Get("scope") != "https://outlook.office365.com/.default" {
		t.Errorf("request %v", f)
	}
	clk.advance(54 * time.Minute)
	if tok := token(t, s); tok != "at-1" || ts.count() != 1 {
		t.Errorf("after 54 minutes: token %q, %d requests; want the cached one", tok, ts.count())
	}
	clk.advance(time.Minute + time.Second)
	if tok := token(t, s); tok != "at-2" || ts.count() != 2 {
		t.Errorf("five minutes before expiry: token %q, %d requests; want a new one", tok, ts.count())
	}
	if st := s.Stats(); st.Refreshes != 2 || st.Failures != 0 {
		t.Errorf("stats %+v", st)
	}
}

// TestInvalidate: a token a server refused is replaced at once; a token
// already replaced is not replaced again.
func TestInvalidate(t *testing.T) {
	ts := newTokenServer(t, grants(nil))
	s, err := oauth.New(oauth.Config{TokenURL: ts.URL, ClientID: clientID, ClientSecret: clientSecret, Grant: oauth.ClientCredentials, Now: newClock().now})
	if err != nil {
		t.Fatal(err)
	}
	first := token(t, s)
	s.Invalidate(first)
	second := token(t, s)
	if second == first || ts.count() != 2 {
		t.Fatalf("after Invalidate: %q then %q, %d requests", first, second, ts.count())
	}
	s.Invalidate(first) // a second connection refused the old one too
	if tok := token(t, s); tok != second || ts.count() != 2 {
		t.Errorf("invalidating a replaced token: %q, %d requests", tok, ts.count())
	}
}

// TestRefreshTokenRotation: RFC 6749 §6; a new refresh token in the
// answer is written to its file (mode 600, atomically) and used next.
func TestRefreshTokenRotation(t *testing.T) {
	ts := newTokenServer(t, grants(func(n int) string {
		if n == 1 {
			return "rt-1" // the same one: nothing to write
		}
		return fmt.Sprintf("rt-%d", n)
	}))
	dir := t.TempDir()
	file := filepath.Join(dir, "refresh-token")
	if err := os.WriteFile(file, []byte("rt-1\n"), 0o400); err != nil {
		t.Fatal(err)
	}
	clk := newClock()
	s, err := oauth.New(oauth.Config{TokenURL: ts.URL, ClientID: clientID, Grant: oauth.RefreshToken,
		RefreshToken: "rt-1", RefreshTokenFile: file, Now: clk.now})
	if err != nil {
		t.Fatal(err)
	}
	token(t, s)
	if f := ts.last(); f.Get("grant_type") != "refresh_token" || f.Get("refresh_token") != "rt-1" || f.Has("client_secret") {
		t.Errorf("request %v", f)
	}
	if st := s.Stats(); st.Rotations != 0 {
		t.Errorf("the same refresh token counted as rotated: %+v", st)
	}
	clk.advance(time.Hour)
	token(t, s)
	b, err := os.ReadFile(file)
	if err != nil || string(b) != "rt-2\n" {
		t.Fatalf("file holds %q, %v; want rt-2", b, err)
	}
	if fi, _ := os.Stat(file); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %04o, want 0600", fi.Mode().Perm())
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("the directory holds %d files; want the token's alone", len(ents))
	}
	clk.advance(time.Hour)
	token(t, s)
	if f := ts.last(); f.Get("refresh_token") != "rt-2" {
		t.Errorf("the rotated token is not the one sent: %v", f)
	}
	if st := s.Stats(); st.Rotations != 2 || st.WriteFailures != 0 {
		t.Errorf("stats %+v", st)
	}
}

// TestEarlyRefreshFails: a failed refresh ahead of expiry keeps the
// token in hand until it expires, then the failure is the caller's.
func TestEarlyRefreshFails(t *testing.T) {
	var down atomic.Bool
	ts := newTokenServer(t, func(n int, form url.Values) (int, string, string) {
		if down.Load() {
			return 503, "text/html", "<h1>down</h1>"
		}
		return grants(nil)(n, form)
	})
	clk := newClock()
	var logs bytes.Buffer
	s, err := oauth.New(oauth.Config{TokenURL: ts.URL, ClientID: clientID, ClientSecret: clientSecret, Grant: oauth.ClientCredentials,
		Now: clk.now, Log: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	token(t, s)
	down.Store(true)
	clk.advance(58 * time.Minute)
	if tok := token(t, s); tok != "at-1" {
		t.Errorf("early refresh failed: token %q, want the one in hand", tok)
	}
	clk.advance(2 * time.Minute)
	_, err = s.Token(context.Background())
	var oe *oauth.Error
	if !errors.As(err, &oe) || !oe.Temporary() || err.Error() != "the token endpoint answered client lexio with 503 Service Unavailable" {
		t.Errorf("expired: %v", err)
	}
	if strings.Contains(logs.String(), "at-1") || strings.Contains(logs.String(), clientSecret) {
		t.Errorf("a token or the secret in the log: %s", logs.String())
	}
	if st := s.Stats(); st.Failures == 0 {
		t.Errorf("stats %+v", st)
	}
}

// TestRefusals: a refusal reads as RFC 6749 §5.2's error code and a
// printable, bounded description; nothing secret and nothing else of the
// body reaches the error.
func TestRefusals(t *testing.T) {
	long := strings.Repeat("x", 300)
	tests := []struct {
		name        string
		status      int
		ct, body    string
		want        string
		temporary   bool
		mustNotHold []string
	}{
		{"invalid_client", 401, "application/json",
			`{"error":"invalid_client","error_description":"AADSTS7000215: Invalid client secret provided.\r\nTrace ID: 1"}`,
			"the token endpoint refused client lexio: invalid_client (AADSTS7000215: Invalid client secret provided. Trace ID: 1)", false, nil},
		{"secret echoed", 400, "application/json",
			`{"error":"invalid_grant","error_description":"bad refresh token rt-1 for secret ` + clientSecret + `\u0007"}`,
			"the token endpoint refused client lexio: invalid_grant (bad refresh token [redacted] for secret [redacted])", false, []string{clientSecret, "rt-1", "\a"}},
		{"long description", 400, "application/json",
			`{"error":"invalid_scope","error_description":"` + long + `"}`,
			"the token endpoint refused client lexio: invalid_scope (" + long[:200] + "…)", false, nil},
		{"form encoded", 400, "application/x-www-form-urlencoded", "error=temporarily_unavailable",
			"the token endpoint refused client lexio: temporarily_unavailable", true, nil},
		{"bad code", 400, "application/json", `{"error":"bad\"code\\"}`,
			"the token endpoint refused client lexio: (an error code with characters RFC 6749 forbids)", false, nil},
		{"html", 500, "text/html", "<p>oops " + clientSecret + "</p>",
			"the token endpoint answered client lexio with 500 Internal Server Error", true, []string{clientSecret, "oops"}},
		{"error with 200", 200, "application/json", `{"error":"unauthorized_client"}`,
			"the token endpoint refused client lexio: unauthorized_client", false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := newTokenServer(t, func(int, url.Values) (int, string, string) { return tt.status, tt.ct, tt.body })
			s, err := oauth.New(oauth.Config{TokenURL: ts.URL, ClientID: clientID, ClientSecret: clientSecret,
				Grant: oauth.RefreshToken, RefreshToken: "rt-1"})
			if err != nil {
				t.Fatal(err)
			}
			_, err = s.Token(context.Background())
			var oe *oauth.Error
			if !errors.As(err, &oe) || err.Error() != tt.want {
				t.Fatalf("err = %v\nwant    %s", err, tt.want)
			}
			if oe.Temporary() != tt.temporary {
				t.Errorf("Temporary() = %v", oe.Temporary())
			}
			for _, s := range tt.mustNotHold {
				if strings.Contains(err.Error(), s) {
					t.Errorf("the error holds %q", s)
				}
			}
		})
	}
}

// TestNotBearer: a token of another type is refused.
func TestNotBearer(t *testing.T) {
	ts := newTokenServer(t, func(int, url.Values) (int, string, string) {
		return 200, "application/json", `{"access_token":"at-1","token_type":"mac","expires_in":3600}`
	})
	s, err := oauth.New(oauth.Config{TokenURL: ts.URL, ClientID: clientID, ClientSecret: clientSecret, Grant: oauth.ClientCredentials})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Token(context.Background()); err == nil || err.Error() != `the token endpoint gave client lexio a token of type "mac", not bearer` {
		t.Errorf("err = %v", err)
	}
	if st := s.Stats(); st.Failures != 1 || st.Refreshes != 0 {
		t.Errorf("stats %+v", st)
	}
}

// TestUnreachable: a token endpoint that does not answer is named, with
// the client, and the request's body (the secret) is not.
func TestUnreachable(t *testing.T) {
	ts := httptest.NewServer(http.NotFoundHandler())
	ts.Close()
	s, err := oauth.New(oauth.Config{TokenURL: ts.URL + "/token", ClientID: clientID, ClientSecret: clientSecret, Grant: oauth.ClientCredentials})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Token(context.Background())
	if err == nil || !strings.HasPrefix(err.Error(), "client lexio got no token from the token endpoint: ") || strings.Contains(err.Error(), clientSecret) {
		t.Errorf("err = %v", err)
	}
}

// TestNew refuses a configuration that cannot get a token.
func TestNew(t *testing.T) {
	for _, c := range []oauth.Config{
		{ClientID: clientID, ClientSecret: clientSecret, Grant: oauth.ClientCredentials},
		{TokenURL: "https://x/token", ClientSecret: clientSecret, Grant: oauth.ClientCredentials},
		{TokenURL: "https://x/token", ClientID: clientID, Grant: oauth.ClientCredentials},
		{TokenURL: "https://x/token", ClientID: clientID, Grant: oauth.RefreshToken},
		{TokenURL: "https://x/token", ClientID: clientID, ClientSecret: clientSecret, Grant: "password"},
	} {
		if _, err := oauth.New(c); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
}

// TestRequested: Requested hears of each request to the token endpoint,
// nil when it gave a token, and of none when the cache answers.
func TestRequested(t *testing.T) {
	fail := false
	ts := newTokenServer(t, func(n int, form url.Values) (int, string, string) {
		if fail {
			return 401, "application/json", `{"error":"invalid_client"}`
		}
		return grants(nil)(n, form)
	})
	clk := newClock()
	var heard []error
	s, err := oauth.New(oauth.Config{TokenURL: ts.URL, ClientID: clientID, ClientSecret: clientSecret,
		Grant: oauth.ClientCredentials, Now: clk.now, Requested: func(err error) { heard = append(heard, err) }})
	if err != nil {
		t.Fatal(err)
	}
	token(t, s)
	token(t, s) // cached
	clk.advance(2 * time.Hour)
	fail = true
	if _, err := s.Token(context.Background()); err == nil {
		t.Fatal("a refused request gave a token")
	}
	if len(heard) != 2 || heard[0] != nil || heard[1] == nil {
		t.Errorf("Requested heard %v, want nil then the refusal", heard)
	}
}
