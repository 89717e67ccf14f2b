package oauth

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"golang.org/x/oauth2"

	"github.com/lexio-mail/lexio/internal/secretfile"
)

// Login gets the first refresh token by the installed-app loopback flow
// (RFC 8252 §7.3; Google refuses the device flow for mail scopes): it
// listens on 127.0.0.1 at a port of the system's choosing, hands show the
// authorization URL for the host to open in a browser, waits for the
// provider to send the browser back with a code (PKCE S256, RFC 7636; the
// state checked), exchanges the code and writes the refresh token to
// cfg.RefreshTokenFile (WriteFile). It needs cfg's AuthURL, TokenURL,
// ClientID and RefreshTokenFile; ctx bounds the wait.
func Login(ctx context.Context, cfg Config, show func(authURL string)) error {
	switch {
	case cfg.AuthURL == "":
		return errors.New("oauth: no authorization URL")
	case cfg.TokenURL == "":
		return errors.New("oauth: no token URL")
	case cfg.ClientID == "":
		return errors.New("oauth: no client ID")
	case cfg.RefreshTokenFile == "":
		return errors.New("oauth: no file to write the refresh token to")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("oauth: the loopback listener: %w", err)
	}
	style := oauth2.AuthStyleAutoDetect
	if cfg.ClientSecret == "" {
		style = oauth2.AuthStyleInParams
	}
	oc := &oauth2.Config{
		ClientID:     cfg.ClientID,
		ClientSecret: cfg.ClientSecret,
		Endpoint:     oauth2.Endpoint{AuthURL: cfg.AuthURL, TokenURL: cfg.TokenURL, AuthStyle: style},
		RedirectURL:  "http://" + ln.Addr().String() + "/",
		Scopes:       cfg.Scopes,
	}
	verifier := oauth2.GenerateVerifier()
	state := rand.Text()

	type answer struct{ code, errCode, errDesc string }
	got := make(chan answer, 1)
	var mu sync.Mutex
	answered := false
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		// Another page's request to this port carries no state of ours:
		// refuse it and go on waiting for the provider's.
		if subtle.ConstantTimeCompare([]byte(q.Get("state")), []byte(state)) != 1 {
			http.Error(w, "lexio: this request does not answer lexio's authorization request (state)", http.StatusBadRequest)
			return
		}
		a := answer{code: q.Get("code"), errCode: q.Get("error"), errDesc: q.Get("error_description")}
		if a.code == "" && a.errCode == "" {
			http.Error(w, "lexio: the answer holds neither a code nor an error", http.StatusBadRequest)
			return
		}
		mu.Lock()
		first := !answered
		answered = true
		mu.Unlock()
		if !first {
			http.Error(w, "lexio: already answered", http.StatusConflict)
			return
		}
		// The page is written before Login goes on, which shuts the
		// server down once the handler returns.
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if a.errCode != "" {
			fmt.Fprintln(w, "lexio: the authorization was refused; see the terminal.")
		} else {
			fmt.Fprintln(w, "lexio has the provider's answer: you may close this window and read the terminal.")
		}
		got <- a
	})}
	go srv.Serve(ln)
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	}()

	show(oc.AuthCodeURL(state, oauth2.AccessTypeOffline, oauth2.ApprovalForce, oauth2.S256ChallengeOption(verifier)))

	var a answer
	select {
	case <-ctx.Done():
		return fmt.Errorf("oauth: no answer from the browser: %w", context.Cause(ctx))
	case a = <-got:
	}
	if a.errCode != "" {
		return &Error{Endpoint: "authorization endpoint", ClientID: cfg.ClientID,
			Code: errorCode(a.errCode), Description: description(a.errDesc, cfg.ClientSecret)}
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	tok, err := oc.Exchange(context.WithValue(ctx, oauth2.HTTPClient, hc), a.code, oauth2.VerifierOption(verifier))
	if err != nil {
		return describe(err, "token endpoint", cfg.ClientID, cfg.ClientSecret, a.code)
	}
	if tok.RefreshToken == "" {
		return fmt.Errorf("the token endpoint gave client %s no refresh token: the scopes must ask for offline access (Microsoft: offline_access)", cfg.ClientID)
	}
	if err := secretfile.Write(cfg.RefreshTokenFile, tok.RefreshToken); err != nil {
		return fmt.Errorf("oauth: writing the refresh token: %w", err)
	}
	return nil
}
