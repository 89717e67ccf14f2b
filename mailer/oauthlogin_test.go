package mailer_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/lexio-mail/lexio/mailer"
	"github.com/lexio-mail/lexio/mailer/bearer"
	"github.com/lexio-mail/lexio/mailer/localmail"
	"github.com/lexio-mail/lexio/mailer/oauth"
)

// tokenServer is the test's own OAuth2 token endpoint (RFC 6749 §4.4):
// each request issues a new token, which the mail server accepts until
// the test revokes it.
type tokenServer struct {
	*httptest.Server
	mu       sync.Mutex
	issued   int
	valid    map[string]bool
	accepted map[string]int // logins by token
}

func newTokenServer(t *testing.T) *tokenServer {
	ts := &tokenServer{valid: map[string]bool{}, accepted: map[string]int{}}
	ts.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil || r.Form.Get("grant_type") != "client_credentials" {
			http.Error(w, `{"error":"unsupported_grant_type"}`, http.StatusBadRequest)
			return
		}
		if id, secret, _ := r.BasicAuth(); id != "lexio" || secret != "s3cret" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprint(w, `{"error":"invalid_client"}`)
			return
		}
		ts.mu.Lock()
		ts.issued++
		tok := fmt.Sprintf("access-%d", ts.issued)
		ts.valid[tok] = true
		ts.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"access_token":%q,"token_type":"Bearer","expires_in":3600}`, tok)
	}))
	t.Cleanup(ts.Close)
	return ts
}

// check is the mail server's side: the user is the service's mailbox and
// the token one the endpoint issued and did not revoke.
func (ts *tokenServer) check(user, token string) error {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if user != "lexio" || !ts.valid[token] {
		return fmt.Errorf("invalid token")
	}
	ts.accepted[token]++
	return nil
}

func (ts *tokenServer) logins(token string) int {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.accepted[token]
}

// revokeAll makes every token issued so far refused, as a provider does
// when one expires early or its grant is withdrawn.
func (ts *tokenServer) revokeAll() {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	clear(ts.valid)
}

func (ts *tokenServer) count() int {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.issued
}

func tokenSource(t *testing.T, ts *tokenServer) *oauth.Source {
	src, err := oauth.New(oauth.Config{TokenURL: ts.URL, ClientID: "lexio", ClientSecret: "s3cret",
		Grant: oauth.ClientCredentials, Scopes: []string{"mail"}})
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// TestOAuth2Logins: the receiver and the dispatcher log into the built-in
// server with a token from the token endpoint, by either mechanism; a
// token the server refuses is dropped, and the next login, after the
// usual backoff, presents a new one.
func TestOAuth2Logins(t *testing.T) {
	for _, mech := range []string{bearer.XOAUTH2, bearer.OAuthBearer} {
		t.Run(mech, func(t *testing.T) {
			ts := newTokenServer(t)
			srv := startLocal(t, localmail.Options{RequireSMTPAuth: true, CheckToken: ts.check})
			src := tokenSource(t, ts)

			// SMTP: a connection per batch, so that each batch logs in.
			ev := &events{}
			o := newOutbox(ev, composed(t, 1, "lexio+t1-aaaaaaaaaaaaaaaa@localhost"))
			clk := start2026()
			d, err := mailer.NewDispatcher(mailer.DispatcherConfig{Addr: srv.SMTPAddr(), TLS: mailer.TLSNone,
				Username: "lexio", Tokens: src, Mechanism: mech, KeepAlive: -1, Now: clk.Now}, o)
			if err != nil {
				t.Fatal(err)
			}
			if res, err := d.RunOnce(context.Background()); err != nil || res != (mailer.Result{Sent: 1}) {
				t.Fatalf("RunOnce = %+v, %v (%v)", res, err, o.row(1).reasons)
			}

			// IMAP: the mail just sent is read with the same token.
			h := newRecorder()
			cfg := receiverConfig(srv)
			cfg.Password, cfg.Tokens, cfg.Mechanism = "", src, mech
			r, err := mailer.NewReceiver(cfg, h)
			if err != nil {
				t.Fatal(err)
			}
			runReceiver(t, r)
			eventually(t, "the first mail read", func() bool { return count(t, srv, "Processed") == 1 })
			if n := ts.count(); n != 1 {
				t.Fatalf("%d tokens issued, want one cached for both logins", n)
			}

			// The token is revoked: the next logins are refused once, then
			// succeed with a new token.
			ts.revokeAll()
			o.add(composed(t, 2, "lexio+t1-aaaaaaaaaaaaaaaa@localhost"))
			if res, _ := d.RunOnce(context.Background()); res.Sent != 0 {
				t.Fatalf("sent with a revoked token: %+v", res)
			}
			clk.Add(mailer.DefaultBackoffBase)
			if res, err := d.RunOnce(context.Background()); err != nil || res.Sent != 1 {
				t.Fatalf("after the refusal, RunOnce = %+v, %v (%v)", res, err, o.row(2).reasons)
			}
			if n := ts.count(); n != 2 {
				t.Errorf("%d tokens issued, want 2: one refused at SMTP, one fetched after it", n)
			}
			eventually(t, "the second mail read", func() bool { return count(t, srv, "Processed") == 2 })
			// Revoked again, the receiver's next login is refused, then
			// made with a third token.
			ts.revokeAll()
			srv.DropIMAPConnections()
			eventually(t, "a login with a third token", func() bool { return ts.logins("access-3") > 0 })
			if n := ts.count(); n != 3 {
				t.Errorf("%d tokens issued, want 3: the second refused at IMAP, a third fetched after it", n)
			}
		})
	}
}
