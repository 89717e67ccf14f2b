//go:build integration

package integration

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// The client lexio is registered as at the test's token server, and the
// scope Dovecot's oauth2 passdb requires (scripts/mailstack.sh).
const (
	oauthClient = "lexio-app"
	oauthSecret = "lexio-app-secret-0123456789abcdef"
	oauthScope  = "mail"
	// oauthLifetime is the expires_in of every token: longer than the
	// test, so that a token ends only when the test expires it.
	oauthLifetime = time.Hour
)

// tokenServer is the OAuth2 provider of the test. Its token endpoint
// issues bearer tokens for the mailbox lexio by the client credentials
// grant (RFC 6749 §4.4); its introspection endpoint (RFC 7662) tells
// Dovecot, on every login by XOAUTH2 or OAUTHBEARER, whether a token is
// active, whose it is and its scope. It listens at stack.oauth, where
// mailstack.sh points Dovecot's oauth2 passdb.
type tokenServer struct {
	srv *http.Server

	mu       sync.Mutex
	expires  map[string]time.Time // token -> its end
	issued   []string             // tokens in the order issued
	requests int                  // token requests, answered or refused
	checks   []check              // introspections, in order
}

// check is one introspection: the token a login presented, the service
// that asked (X-Dovecot-Auth-Service: imap, or smtp for Postfix's
// submission) and whether the token was active.
type check struct {
	service, token string
	active         bool
}

func startTokenServer(t *testing.T) *tokenServer {
	t.Helper()
	if stack.oauth == "" {
		t.Fatal("the mail stack's env names no token server (MAILSTACK_OAUTH): run scripts/mailstack.sh start again")
	}
	ln, err := net.Listen("tcp", stack.oauth)
	if err != nil {
		t.Fatalf("the token server cannot listen at %s, where Dovecot's oauth2 passdb asks: %v", stack.oauth, err)
	}
	s := &tokenServer{expires: map[string]time.Time{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /token", s.token)
	mux.HandleFunc("POST /introspect", s.introspect)
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go s.srv.Serve(ln)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		s.srv.Shutdown(ctx)
	})
	return s
}

func (s *tokenServer) url(path string) string { return "http://" + stack.oauth + path }

// token answers a token request (RFC 6749 §4.4.2, §5.1, §5.2).
func (s *tokenServer) token(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests++
	s.mu.Unlock()
	if err := r.ParseForm(); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request")
		return
	}
	// The client authenticates by HTTP Basic or in the body (§2.3.1).
	id, secret, ok := r.BasicAuth()
	if !ok {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	switch {
	case id != oauthClient || secret != oauthSecret:
		oauthError(w, http.StatusUnauthorized, "invalid_client")
		return
	case r.PostForm.Get("grant_type") != "client_credentials":
		oauthError(w, http.StatusBadRequest, "unsupported_grant_type")
		return
	case r.PostForm.Get("scope") != oauthScope:
		oauthError(w, http.StatusBadRequest, "invalid_scope")
		return
	}
	tok := "at-" + rand.Text()
	s.mu.Lock()
	s.expires[tok] = time.Now().Add(oauthLifetime)
	s.issued = append(s.issued, tok)
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"access_token": tok, "token_type": "Bearer",
		"expires_in": int(oauthLifetime / time.Second), "scope": oauthScope})
}

// introspect answers Dovecot's introspection request (RFC 7662 §2): the
// token in the body, with Dovecot's own client credentials.
func (s *tokenServer) introspect(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request")
		return
	}
	if r.PostForm.Get("client_id") != stack.introspectClient || r.PostForm.Get("client_secret") != stack.introspectSecret {
		oauthError(w, http.StatusUnauthorized, "invalid_client")
		return
	}
	tok := r.PostForm.Get("token")
	s.mu.Lock()
	end, known := s.expires[tok]
	active := known && time.Now().Before(end)
	s.checks = append(s.checks, check{service: r.Header.Get("X-Dovecot-Auth-Service"), token: tok, active: active})
	s.mu.Unlock()
	if !active {
		writeJSON(w, http.StatusOK, map[string]any{"active": false})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"active": true, "username": stack.service, "sub": stack.service,
		"scope": oauthScope, "client_id": oauthClient, "token_type": "Bearer", "exp": end.Unix()})
}

func oauthError(w http.ResponseWriter, status int, code string) {
	writeJSON(w, status, map[string]string{"error": code})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// expire ends every token issued so far, as their expiry or a revocation
// would: the introspection answers active=false from now on. It returns
// the number of introspections before it.
func (s *tokenServer) expire() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	for tok := range s.expires {
		s.expires[tok] = now
	}
	return len(s.checks)
}

// seen reports whether one of checks was asked by service and found its
// token active (or not).
func seen(checks []check, service string, active bool) bool {
	for _, c := range checks {
		if c.service == service && c.active == active {
			return true
		}
	}
	return false
}

// kick ends user's IMAP sessions, as a server's restart or an idle
// timeout would (doveadm kick).
func kick(t *testing.T, user string) {
	t.Helper()
	out, err := exec.Command("doveadm", "-c", stack.dovecotConf, "kick", user).CombinedOutput()
	if err != nil {
		t.Fatalf("doveadm kick %s: %v\n%s", user, err, out)
	}
}

// TestOAuth2Logins plays a short game whose daemon logs in with OAuth2
// bearer tokens only, fetched from the test's token server: into Dovecot
// for IMAP, and into Postfix's submission port, which asks Dovecot (the
// same oauth2 passdb). It runs once per SASL mechanism.
//
// In the middle of the game the token server ends every token, twice.
// A session already logged in goes on (as at Microsoft's or Google's
// servers): a token is checked at login only, so each time the servers
// end the daemon's sessions too. The first time Postfix restarts while
// the daemon stays in IMAP (IDLE) and reads the next move; the notices it
// then sends log into submission with the ended token and are refused,
// the token dropped, the mail deferred, and the retry fetches a new
// token. The second time the daemon's IMAP session is kicked: it logs
// back in with the token it holds, is refused, and logs in with a new
// one. The game goes on to its end.
func TestOAuth2Logins(t *testing.T) {
	for _, mech := range []string{"xoauth2", "oauthbearer"} {
		t.Run(mech, func(t *testing.T) { oauth2Game(t, mech) })
	}
}

func oauth2Game(t *testing.T, mech string) {
	resetMail(t)
	ts := startTokenServer(t)
	// Whole racks, then passes after four turns: a short game (RULES §11.2).
	p := simulate(t, tableSpec{mech, []string{"alice", "bob"}, 5}, 0, 4, 0)
	const smtpExpiry, imapExpiry = 2, 4
	if len(p.turns) <= imapExpiry+1 {
		t.Fatalf("the plan has %d turns: too few to expire tokens in the middle", len(p.turns))
	}
	secret := filepath.Join(t.TempDir(), "client-secret")
	if err := os.WriteFile(secret, []byte(oauthSecret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	d := startDaemon(t, daemonOpts{tables: []tableSpec{p.spec}, words: p.words, oauth2: fmt.Sprintf(`token_url = %q
client_id = %q
client_secret_file = %q
grant = "client_credentials"
scope = %q
mechanism = %q
`, ts.url("/token"), oauthClient, secret, oauthScope, mech)})
	boxes := mailboxes(t, p.spec.players...)
	dr := newDriver(t, d, boxes)
	// The notices after the first expiry wait for the dispatcher's
	// retry (30 s after the first try, with jitter).
	dr.turnTimeout = 2 * time.Minute
	var marks [2]int
	lost := -1
	t.Cleanup(func() { script(t, "start-postfix") })
	dr.beforeTurn = func(_ *plan, i int) {
		switch i {
		case smtpExpiry:
			marks[0] = ts.expire()
			// The daemon's SMTP connection, kept between batches, ends;
			// every mail it sent was accepted before (none sent twice).
			d.outboxEmpty(60 * time.Second)
			script(t, "stop-postfix")
			script(t, "start-postfix")
		case imapExpiry:
			marks[1] = ts.expire()
			lost = d.countLog("mailer: imap connection lost")
			kick(t, stack.service)
		}
	}
	dr.play(p)
	d.outboxEmpty(60 * time.Second)

	g := d.game(p.spec.name)
	if !g.Over() {
		t.Fatalf("%s: not over", p.spec.name)
	}
	checkSameGame(t, p, g)
	checkMailboxes(t, boxes, p, g, false)

	// Before the first expiry both logins took the first token; after
	// each, the login that came first was refused, and the logins went
	// on with new tokens.
	ts.mu.Lock()
	checks, issued, requests := slices.Clone(ts.checks), slices.Clone(ts.issued), ts.requests
	ts.mu.Unlock()
	before, between, after := checks[:marks[0]], checks[marks[0]:marks[1]], checks[marks[1]:]
	for _, c := range []struct {
		what    string
		checks  []check
		service string
		active  bool
	}{
		{"IMAP login with the first token", before, "imap", true},
		{"SMTP login with the first token", before, "smtp", true},
		{"SMTP login refused after the first expiry", between, "smtp", false},
		{"SMTP login with a new token after the first expiry", between, "smtp", true},
		{"IMAP login refused after the second expiry", after, "imap", false},
		{"IMAP login with a new token after the second expiry", after, "imap", true},
	} {
		if !seen(c.checks, c.service, c.active) {
			t.Errorf("the token server saw no %s", c.what)
		}
	}
	if d.countLog("mailer: imap connection lost") <= lost {
		t.Errorf("the kick of the daemon's IMAP session was not logged")
	}
	d.logged("the notice deferred by the refused SMTP login", "mailer: mail deferred")
	// One token at the start and at least one after each expiry; every
	// request the daemon made got one.
	if len(issued) < 3 || requests != len(issued) {
		t.Errorf("%d tokens issued for %d requests, want at least 3, one a request", len(issued), requests)
	}
	log := d.logText()
	for _, s := range append([]string{oauthSecret}, issued...) {
		if strings.Contains(log, s) {
			t.Errorf("a token or the client secret reached the daemon's log")
		}
	}
	t.Logf("%s: %d turns, %d tokens, %d introspections", mech, len(p.turns), len(issued), len(checks))
}
