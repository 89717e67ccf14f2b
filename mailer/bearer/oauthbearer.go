package bearer

import (
	"errors"

	"github.com/emersion/go-sasl"
)

// OAUTHBEARER (RFC 7628): go-sasl's client writes the initial response
// and go-sasl's server reads it. Around each, what RFC 7628 §3.2.3 asks
// and go-sasl leaves out: the client answers a refusal with the dummy
// response %x01 instead of dropping the exchange (an IMAP client would
// leave the command open), and the server ends a refusal with the
// Validator's error whatever the client answered.

type oauthBearerClient struct {
	sasl.Client
	refused *Status
}

// NewOAuthBearerClient returns a client logging user in with token; the
// authorization identity is user.
func NewOAuthBearerClient(user, token string) Client {
	return &oauthBearerClient{Client: sasl.NewOAuthBearerClient(&sasl.OAuthBearerOptions{Username: user, Token: token})}
}

func (c *oauthBearerClient) Next(challenge []byte) ([]byte, error) {
	if c.refused != nil {
		return nil, errors.New("bearer: OAUTHBEARER: a challenge after the refusal")
	}
	st := refusal(challenge)
	c.refused = &st
	return []byte{1}, nil
}

func (c *oauthBearerClient) Refused() (Status, bool) {
	if c.refused == nil {
		return Status{}, false
	}
	return *c.refused, true
}

// errRefused ends an exchange go-sasl refused before the Validator saw
// it (a malformed message).
var errRefused = errors.New("bearer: OAUTHBEARER: authentication failed")

type oauthBearerServer struct {
	inner   sasl.Server
	checked error // the Validator's error
	failed  bool  // an error challenge went out: the next response ends it
}

// NewOAuthBearerServer returns the server side, checking tokens with
// check; the user is the authorization identity (a=).
func NewOAuthBearerServer(check Validator) sasl.Server {
	s := &oauthBearerServer{}
	s.inner = sasl.NewOAuthBearerServer(func(o sasl.OAuthBearerOptions) *sasl.OAuthBearerError {
		if err := check(o.Username, o.Token); err != nil {
			s.checked = err
			return &sasl.OAuthBearerError{Status: "invalid_token", Schemes: "bearer"}
		}
		return nil
	})
	return s
}

func (s *oauthBearerServer) Next(response []byte) ([]byte, bool, error) {
	if s.failed {
		if s.checked != nil {
			return nil, true, s.checked
		}
		return nil, true, errRefused
	}
	challenge, done, err := s.inner.Next(response)
	if !done && err == nil && response != nil {
		s.failed = true // a refusal's JSON
	}
	return challenge, done, err
}
