// Package oauth gets and caches the OAuth2 access tokens lexio's mail
// logins present: the client credentials grant (RFC 6749 §4.4) and the
// refresh token grant (§6), through golang.org/x/oauth2; it writes a
// refresh token the provider rotates back to its file, and runs the
// installed-app loopback flow (RFC 8252, PKCE) that gets the first one.
//
// A token or a secret never appears in an error or a log line: a refusal
// by the provider reads as its RFC 6749 §5.2 error code and a bounded,
// printable description (Error).
//
// The package knows nothing of IMAP, SMTP or SASL: it hands out bearer
// tokens, and hears from its callers when a server refused one.
package oauth

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/lexio-mail/lexio/internal/secretfile"
)

// Grant is how tokens are obtained.
type Grant string

// The grants of RFC 6749 a Source uses.
const (
	ClientCredentials Grant = "client_credentials" // §4.4
	RefreshToken      Grant = "refresh_token"      // §6
)

// Config is what a Source needs of the provider and the client.
type Config struct {
	TokenURL string
	// AuthURL is the authorization endpoint; only Login uses it.
	AuthURL      string
	ClientID     string
	ClientSecret string // may be empty for a public client's refresh token
	Grant        Grant
	// RefreshToken is the current refresh token (grant RefreshToken).
	RefreshToken string
	// RefreshTokenFile receives a refresh token the provider rotates
	// (WriteFile), and Login's first one; "" keeps a rotated one in
	// memory only.
	RefreshTokenFile string
	Scopes           []string
	// HTTPClient talks to the token endpoint; nil is a client with a
	// 30-second timeout.
	HTTPClient *http.Client
	// Now is the clock the cache reads; nil is time.Now.
	Now func() time.Time
	// Log receives the failures a caller does not see (a rotated token
	// not written, an early refresh that failed); nil discards them.
	Log *slog.Logger
	// Requested, when set, is told of each request to the token
	// endpoint: its error, nil when it gave a token.
	Requested func(error)
}

// Timing of the cache.
const (
	// MaxEarly bounds how long before its expiry a token is replaced:
	// a tenth of its lifetime, from 10 seconds to MaxEarly.
	MaxEarly = 5 * time.Minute
	minEarly = 10 * time.Second
	// assumedLifetime is used for a token whose response says no
	// expires_in; a server refusing it sooner gets a new one anyway.
	assumedLifetime = 10 * time.Minute
	// retryEarly is the pause after an early refresh failed while the
	// token in hand was still good.
	retryEarly = 30 * time.Second
)

// Stats counts a Source's dealings with the token endpoint.
type Stats struct {
	Refreshes     uint64 // tokens obtained
	Failures      uint64 // requests that got no token
	Rotations     uint64 // new refresh tokens received
	WriteFailures uint64 // rotated refresh tokens not written to their file
}

// Source hands out access tokens, cached until shortly before they
// expire. It is safe for concurrent use; callers share one request.
type Source struct {
	cfg  Config
	now  func() time.Time
	log  *slog.Logger
	cc   *clientcredentials.Config
	rt   *oauth2.Config
	http *http.Client

	mu        sync.Mutex
	access    string
	expiry    time.Time // when access expires
	refreshAt time.Time // when to replace it
	refresh   string    // the current refresh token

	refreshes, failures, rotations, writeFailures atomic.Uint64
}

// New checks cfg and returns its Source. It requests nothing yet.
func New(cfg Config) (*Source, error) {
	switch {
	case cfg.TokenURL == "":
		return nil, errors.New("oauth: no token URL")
	case cfg.ClientID == "":
		return nil, errors.New("oauth: no client ID")
	case cfg.Grant == ClientCredentials && cfg.ClientSecret == "":
		return nil, errors.New("oauth: the client credentials grant needs the client secret")
	case cfg.Grant == RefreshToken && cfg.RefreshToken == "":
		return nil, errors.New("oauth: the refresh token grant needs a refresh token: run `lexio auth login`")
	case cfg.Grant != ClientCredentials && cfg.Grant != RefreshToken:
		return nil, fmt.Errorf("oauth: grant %q: want client_credentials or refresh_token", cfg.Grant)
	}
	s := &Source{cfg: cfg, now: cfg.Now, log: cfg.Log, http: cfg.HTTPClient, refresh: cfg.RefreshToken}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.http == nil {
		s.http = &http.Client{Timeout: 30 * time.Second}
	}
	// A public client has no secret to send in a Basic header.
	style := oauth2.AuthStyleAutoDetect
	if cfg.ClientSecret == "" {
		style = oauth2.AuthStyleInParams
	}
	if cfg.Grant == ClientCredentials {
		s.cc = &clientcredentials.Config{ClientID: cfg.ClientID, ClientSecret: cfg.ClientSecret,
			TokenURL: cfg.TokenURL, Scopes: cfg.Scopes, AuthStyle: style}
	} else {
		s.rt = &oauth2.Config{ClientID: cfg.ClientID, ClientSecret: cfg.ClientSecret,
			Endpoint: oauth2.Endpoint{TokenURL: cfg.TokenURL, AuthStyle: style}, Scopes: cfg.Scopes}
	}
	return s, nil
}

// Token returns an access token, from the cache while it has time left,
// else from the token endpoint. An early refresh that fails while the
// token in hand is still good returns that token (and tries again in
// 30 seconds).
func (s *Source) Token(ctx context.Context) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	if s.access != "" && now.Before(s.refreshAt) {
		return s.access, nil
	}
	err := s.fetch(ctx)
	if s.cfg.Requested != nil {
		s.cfg.Requested(err)
	}
	if err == nil {
		return s.access, nil
	}
	if s.access != "" && now.Before(s.expiry) {
		s.log.Warn("oauth: early token refresh failed; the current token serves until it expires", "err", err, "expires", s.expiry)
		s.refreshAt = now.Add(retryEarly)
		if s.refreshAt.After(s.expiry) {
			s.refreshAt = s.expiry
		}
		return s.access, nil
	}
	s.access = ""
	return "", err
}

// Invalidate drops the cached token if it is refused (the token a server
// just refused), so that the next Token asks for a new one. Several
// connections refusing the same token cause one request.
func (s *Source) Invalidate(refused string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if refused == s.access {
		s.access = ""
	}
}

// Stats returns the counts so far.
func (s *Source) Stats() Stats {
	return Stats{Refreshes: s.refreshes.Load(), Failures: s.failures.Load(),
		Rotations: s.rotations.Load(), WriteFailures: s.writeFailures.Load()}
}

// fetch asks the token endpoint for a new token; s.mu is held.
func (s *Source) fetch(ctx context.Context) error {
	ctx = context.WithValue(ctx, oauth2.HTTPClient, s.http)
	var tok *oauth2.Token
	var err error
	if s.cc != nil {
		tok, err = s.cc.Token(ctx)
	} else {
		tok, err = s.rt.TokenSource(ctx, &oauth2.Token{RefreshToken: s.refresh}).Token()
	}
	if err != nil {
		s.failures.Add(1)
		return s.describe(err)
	}
	if tok.TokenType != "" && !strings.EqualFold(tok.TokenType, "bearer") {
		s.failures.Add(1)
		return fmt.Errorf("the token endpoint gave client %s a token of type %q, not bearer", s.cfg.ClientID, printable(tok.TokenType, 20))
	}
	s.refreshes.Add(1)
	now := s.now()
	life := lifetime(tok)
	s.access = tok.AccessToken
	s.expiry = now.Add(life)
	s.refreshAt = now.Add(life - min(max(life/10, minEarly), MaxEarly))
	if s.rt != nil && tok.RefreshToken != "" && tok.RefreshToken != s.refresh {
		s.rotations.Add(1)
		s.refresh = tok.RefreshToken
		if f := s.cfg.RefreshTokenFile; f != "" {
			if err := secretfile.Write(f, s.refresh); err != nil {
				s.writeFailures.Add(1)
				s.log.Error("oauth: the provider rotated the refresh token, and the new one could not be written: it lasts until lexio stops", "err", err)
			}
		}
	}
	return nil
}

// lifetime is the token's expires_in. x/oauth2 turns it into an Expiry on
// its own clock; the wire value is kept in ExpiresIn for JSON answers.
func lifetime(tok *oauth2.Token) time.Duration {
	switch {
	case tok.ExpiresIn > 0:
		return time.Duration(tok.ExpiresIn) * time.Second
	case !tok.Expiry.IsZero():
		return max(time.Until(tok.Expiry), 0)
	}
	return assumedLifetime
}

// describe turns an error of x/oauth2 into one in a host's words, without
// the response body or anything secret.
func (s *Source) describe(err error) error {
	return describe(err, "token endpoint", s.cfg.ClientID, s.cfg.ClientSecret, s.refresh)
}
