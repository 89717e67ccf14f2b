// Package oauthtest is, for tests, an OAuth2 token endpoint of their own
// (RFC 6749 §4.4, the client credentials grant) and the mail server's
// side of it: each request of the right client gets a new token, which
// Check accepts for User until the test revokes it; any other client is
// refused with invalid_client (§5.2). It knows nothing of IMAP or SMTP.
package oauthtest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// Server is the token endpoint, at URL.
type Server struct {
	*httptest.Server
	// User is the mailbox the tokens log into ("lexio").
	User string

	clientID, secret string

	mu     sync.Mutex
	issued int
	valid  map[string]bool
	logins map[string]int
}

// New starts the endpoint of client clientID with secret, closed when the
// test ends.
func New(t testing.TB, clientID, secret string) *Server {
	s := &Server{User: "lexio", clientID: clientID, secret: secret, valid: map[string]bool{}, logins: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.token))
	t.Cleanup(s.Close)
	return s
}

func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	id, secret, _ := r.BasicAuth()
	if r.ParseForm() != nil || r.Form.Get("grant_type") != "client_credentials" || id != s.clientID || secret != s.secret {
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprint(w, `{"error":"invalid_client"}`)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.issued++
	tok := Token(s.issued)
	s.valid[tok] = true
	fmt.Fprintf(w, `{"access_token":%q,"token_type":"Bearer","expires_in":3600}`, tok)
}

// Token is the nth token the endpoint issues.
func Token(n int) string { return fmt.Sprintf("access-%d", n) }

// Check is the mail server's check of a login (localmail's CheckToken):
// the user is User and the token one issued and not revoked.
func (s *Server) Check(user, token string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if user != s.User || !s.valid[token] {
		return fmt.Errorf("oauthtest: token refused")
	}
	s.logins[token]++
	return nil
}

// Issued is how many tokens the endpoint gave.
func (s *Server) Issued() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.issued
}

// Logins is how many logins Check accepted with token.
func (s *Server) Logins(token string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.logins[token]
}

// RevokeAll makes every token issued so far refused, as a provider does
// when one expires early or its grant is withdrawn.
func (s *Server) RevokeAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.valid)
}
