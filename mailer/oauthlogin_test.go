package mailer_test

import (
	"context"
	"testing"

	"github.com/lexio-mail/lexio/mailer"
	"github.com/lexio-mail/lexio/mailer/bearer"
	"github.com/lexio-mail/lexio/mailer/localmail"
	"github.com/lexio-mail/lexio/mailer/oauth"
	"github.com/lexio-mail/lexio/mailer/oauth/oauthtest"
)

func tokenSource(t *testing.T, ts *oauthtest.Server) *oauth.Source {
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
			ts := oauthtest.New(t, "lexio", "s3cret")
			srv := startLocal(t, localmail.Options{RequireSMTPAuth: true, CheckToken: ts.Check})
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
			if n := ts.Issued(); n != 1 {
				t.Fatalf("%d tokens issued, want one cached for both logins", n)
			}

			// The token is revoked: the next logins are refused once, then
			// succeed with a new token.
			ts.RevokeAll()
			o.add(composed(t, 2, "lexio+t1-aaaaaaaaaaaaaaaa@localhost"))
			if res, _ := d.RunOnce(context.Background()); res.Sent != 0 {
				t.Fatalf("sent with a revoked token: %+v", res)
			}
			clk.Add(mailer.DefaultBackoffBase)
			if res, err := d.RunOnce(context.Background()); err != nil || res.Sent != 1 {
				t.Fatalf("after the refusal, RunOnce = %+v, %v (%v)", res, err, o.row(2).reasons)
			}
			if n := ts.Issued(); n != 2 {
				t.Errorf("%d tokens issued, want 2: one refused at SMTP, one fetched after it", n)
			}
			eventually(t, "the second mail read", func() bool { return count(t, srv, "Processed") == 2 })
			// Revoked again, the receiver's next login is refused, then
			// made with a third token.
			ts.RevokeAll()
			srv.DropIMAPConnections()
			eventually(t, "a login with a third token", func() bool { return ts.Logins(oauthtest.Token(3)) > 0 })
			if n := ts.Issued(); n != 3 {
				t.Errorf("%d tokens issued, want 3: the second refused at IMAP, a third fetched after it", n)
			}
		})
	}
}
