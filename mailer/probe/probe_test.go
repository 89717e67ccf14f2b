package probe_test

import (
	"context"
	"encoding/pem"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/mailer"
	"github.com/lexio-mail/lexio/mailer/bearer"
	"github.com/lexio-mail/lexio/mailer/localmail"
	"github.com/lexio-mail/lexio/mailer/oauth"
	"github.com/lexio-mail/lexio/mailer/oauth/oauthtest"
	"github.com/lexio-mail/lexio/mailer/probe"
)

// startLocal starts the built-in mail server with the user lexio,
// password "secret".
func startLocal(t *testing.T, opts localmail.Options) *localmail.Server {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := localmail.Start(ctx, opts)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		srv.Close()
	})
	if err := srv.AddUser("lexio", "secret"); err != nil {
		t.Fatal(err)
	}
	return srv
}

func imapConfig(srv *localmail.Server) mailer.ReceiverConfig {
	return mailer.ReceiverConfig{Addr: srv.IMAPAddr(), TLS: mailer.TLSNone, Username: "lexio", Password: "secret"}
}

func smtpConfig(srv *localmail.Server) mailer.DispatcherConfig {
	return mailer.DispatcherConfig{Addr: srv.SMTPAddr(), TLS: mailer.TLSNone, Username: "lexio", Password: "secret"}
}

// TestProbes: the probes log into the built-in server as serve would and
// report what it offers, sending nothing; a refused login and a server
// that is down each read as such.
func TestProbes(t *testing.T) {
	srv := startLocal(t, localmail.Options{RequireSMTPAuth: true})

	t.Run("password", func(t *testing.T) {
		rep, err := probe.IMAP(t.Context(), imapConfig(srv))
		want := probe.IMAPReport{Connected: true, LoggedIn: true, Mailbox: "INBOX", Processed: "Processed",
			Idle: true, Move: true, UIDPlus: true}
		if err != nil || rep != want {
			t.Errorf("IMAP = %+v, %v; want %+v", rep, err, want)
		}
		srep, err := probe.SMTP(t.Context(), smtpConfig(srv))
		if err != nil || !srep.Connected || !srep.LoggedIn || srep.Encrypted || !strings.Contains(srep.Auth, "PLAIN") {
			t.Errorf("SMTP = %+v, %v", srep, err)
		}
		if n, _ := srv.Count("lexio", "INBOX"); n != 0 {
			t.Errorf("the probe sent %d mails", n)
		}
	})

	t.Run("folders", func(t *testing.T) {
		// The receiver creates the processed folder.
		ctx, cancel := context.WithCancel(t.Context())
		r, err := mailer.NewReceiver(imapConfig(srv), mailer.HandlerFunc(func(context.Context, mailer.Inbound) error { return nil }))
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- r.Run(ctx) }()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			if _, err := srv.Count("lexio", "Processed"); err == nil {
				break
			} else if time.Now().After(deadline) {
				t.Fatal("no processed folder")
			}
		}
		cancel()
		<-done
		rep, err := probe.IMAP(t.Context(), imapConfig(srv))
		if err != nil || !rep.ProcessedFound {
			t.Errorf("IMAP = %+v, %v", rep, err)
		}
		cfg := imapConfig(srv)
		cfg.Mailbox = "Nowhere"
		if _, err = probe.IMAP(t.Context(), cfg); err == nil || err.Error() != `imap: no mailbox "Nowhere" on the server` {
			t.Errorf("a missing mailbox: %v", err)
		}
	})

	t.Run("a refused password", func(t *testing.T) {
		cfg := imapConfig(srv)
		cfg.Password = "wrong"
		rep, err := probe.IMAP(t.Context(), cfg)
		if err == nil || !rep.Connected || rep.LoggedIn || !strings.HasPrefix(err.Error(), "imap: login as lexio refused: NO") {
			t.Errorf("IMAP = %+v, %v", rep, err)
		}
		scfg := smtpConfig(srv)
		scfg.Password = "wrong"
		srep, err := probe.SMTP(t.Context(), scfg)
		if err == nil || !srep.Connected || srep.LoggedIn || !strings.HasPrefix(err.Error(), "smtp: login as lexio refused: 535") {
			t.Errorf("SMTP = %+v, %v", srep, err)
		}
	})

	t.Run("down", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		cfg := imapConfig(srv)
		cfg.Addr = addr
		rep, err := probe.IMAP(t.Context(), cfg)
		if err == nil || rep.Connected || !strings.HasPrefix(err.Error(), "imap: cannot connect to "+addr) {
			t.Errorf("IMAP = %+v, %v", rep, err)
		}
		scfg := smtpConfig(srv)
		scfg.Addr = addr
		srep, err := probe.SMTP(t.Context(), scfg)
		if err == nil || srep.Connected || !strings.HasPrefix(err.Error(), "smtp: cannot connect to "+addr) {
			t.Errorf("SMTP = %+v, %v", srep, err)
		}
	})

	t.Run("no MOVE", func(t *testing.T) {
		old := startLocal(t, localmail.Options{NoMove: true})
		rep, err := probe.IMAP(t.Context(), imapConfig(old))
		if err != nil || !rep.LoggedIn || rep.Move || rep.UIDPlus {
			t.Errorf("IMAP = %+v, %v", rep, err)
		}
	})
}

// TestProbeUntrusted: a server whose certificate the configured roots do
// not vouch for is named as such; with its CA, both log in over STARTTLS.
func TestProbeUntrusted(t *testing.T) {
	// httptest's certificate, for 127.0.0.1, serves the mail server too.
	hs := httptest.NewTLSServer(http.NotFoundHandler())
	defer hs.Close()
	serverTLS := hs.TLS.Clone()
	serverTLS.NextProtos = nil
	srv := startLocal(t, localmail.Options{TLSConfig: serverTLS})
	cfg, scfg := imapConfig(srv), smtpConfig(srv)
	cfg.TLS, scfg.TLS = mailer.TLSStartTLS, mailer.TLSStartTLS
	if _, err := probe.IMAP(t.Context(), cfg); err == nil ||
		!strings.HasPrefix(err.Error(), "imap: the TLS certificate of "+srv.IMAPAddr()+" is not trusted: x509: ") {
		t.Errorf("IMAP: %v", err)
	}
	if rep, err := probe.SMTP(t.Context(), scfg); err == nil || rep.Connected ||
		!strings.HasPrefix(err.Error(), "smtp: the TLS certificate of "+srv.SMTPAddr()+" is not trusted: x509: ") {
		t.Errorf("SMTP = %+v, %v", rep, err)
	}
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: hs.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg.CAFile, scfg.CAFile = caFile, caFile
	if rep, err := probe.IMAP(t.Context(), cfg); err != nil || !rep.LoggedIn {
		t.Errorf("IMAP = %+v, %v", rep, err)
	}
	if rep, err := probe.SMTP(t.Context(), scfg); err != nil || !rep.LoggedIn || !rep.Encrypted {
		t.Errorf("SMTP = %+v, %v", rep, err)
	}
}

// TestProbesByToken: the probes log in with a token of the test's own
// endpoint (RFC 6749 §4.4) by either mechanism; a token the server
// refuses is a refused login; a client the endpoint refuses stops them
// before the login, in the endpoint's words.
func TestProbesByToken(t *testing.T) {
	ts := oauthtest.New(t, "lexio", "s3cret")
	srv := startLocal(t, localmail.Options{RequireSMTPAuth: true, CheckToken: ts.Check})
	source := func(secret string) *oauth.Source {
		src, err := oauth.New(oauth.Config{TokenURL: ts.URL, ClientID: "lexio", ClientSecret: secret,
			Grant: oauth.ClientCredentials, Scopes: []string{"mail"}})
		if err != nil {
			t.Fatal(err)
		}
		return src
	}
	withTokens := func(src mailer.OAuthTokens, mech string) (mailer.ReceiverConfig, mailer.DispatcherConfig) {
		cfg, scfg := imapConfig(srv), smtpConfig(srv)
		cfg.Password, cfg.Tokens, cfg.Mechanism = "", src, mech
		scfg.Password, scfg.Tokens, scfg.Mechanism = "", src, mech
		return cfg, scfg
	}

	for _, mech := range []string{bearer.XOAUTH2, bearer.OAuthBearer} {
		cfg, scfg := withTokens(source("s3cret"), mech)
		if rep, err := probe.IMAP(t.Context(), cfg); err != nil || !rep.LoggedIn {
			t.Errorf("%s: IMAP = %+v, %v", mech, rep, err)
		}
		if rep, err := probe.SMTP(t.Context(), scfg); err != nil || !rep.LoggedIn {
			t.Errorf("%s: SMTP = %+v, %v", mech, rep, err)
		}
	}

	// A token the server no longer takes.
	src := source("s3cret")
	if _, err := src.Token(t.Context()); err != nil {
		t.Fatal(err)
	}
	ts.RevokeAll()
	cfg, _ := withTokens(src, bearer.XOAUTH2)
	if _, err := probe.IMAP(t.Context(), cfg); err == nil || !strings.HasPrefix(err.Error(), "imap: login as lexio refused: NO") {
		t.Errorf("a refused token: %v", err)
	}

	// A client the endpoint refuses.
	cfg, scfg := withTokens(source("wrong"), bearer.XOAUTH2)
	rep, err := probe.IMAP(t.Context(), cfg)
	if !errors.Is(err, probe.ErrNoToken) || !rep.Connected || rep.LoggedIn ||
		!strings.Contains(err.Error(), "the token endpoint refused client lexio: invalid_client") {
		t.Errorf("IMAP = %+v, %v", rep, err)
	}
	srep, err := probe.SMTP(t.Context(), scfg)
	if !errors.Is(err, probe.ErrNoToken) || !srep.Connected || srep.LoggedIn || !strings.Contains(err.Error(), "invalid_client") {
		t.Errorf("SMTP = %+v, %v", srep, err)
	}
	if err != nil && strings.Contains(err.Error(), "wrong") {
		t.Errorf("the secret is shown: %v", err)
	}
}
