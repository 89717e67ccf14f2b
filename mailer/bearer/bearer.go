// Package bearer holds the SASL mechanisms that log into a mail server
// with an OAuth2 bearer token: XOAUTH2 (Google's and Microsoft's, which
// go-sasl does not carry: ours) and OAUTHBEARER (RFC 7628: go-sasl's),
// as clients for go-imap's Authenticate, go-smtp's Auth and, through
// SMTPAuth, go-mail; and as servers, checking a token with a Validator,
// for the tests and the built-in mail server.
//
// The package knows nothing of where tokens come from (mailer/oauth),
// nor of IMAP or SMTP beyond go-mail's Auth interface. It never puts a
// token into an error.
package bearer

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/emersion/go-sasl"
)

// The mechanisms' names on the wire.
const (
	XOAUTH2     = "XOAUTH2"
	OAuthBearer = sasl.OAuthBearer
)

// Status is the JSON a server sends as its challenge when it refuses a
// token (RFC 7628 §3.2.2; XOAUTH2 sends the same with an HTTP status
// code, e.g. {"status":"401","schemes":"bearer","scope":"..."}).
type Status struct {
	Status  string `json:"status"`
	Schemes string `json:"schemes,omitempty"`
	Scope   string `json:"scope,omitempty"`
}

// Client is a SASL client that keeps the status of a server's refusal,
// to tell a refused token (get a new one) from other failures.
type Client interface {
	sasl.Client
	// Refused returns the server's error challenge, if it sent one.
	Refused() (Status, bool)
}

// NewClient returns the client of mechanism mech ("xoauth2" or
// "oauthbearer", in any case) logging user in with token.
func NewClient(mech, user, token string) (Client, error) {
	switch strings.ToUpper(mech) {
	case XOAUTH2:
		return NewXOAUTH2Client(user, token), nil
	case OAuthBearer:
		return NewOAuthBearerClient(user, token), nil
	}
	return nil, fmt.Errorf("bearer: mechanism %q: want xoauth2 or oauthbearer", mech)
}

// Validator checks the token a client presents for user; an error
// refuses the login, and is what the server's Next returns at the end.
type Validator func(user, token string) error

// NewServer returns the server of mechanism mech checking tokens with
// check.
func NewServer(mech string, check Validator) (sasl.Server, error) {
	switch strings.ToUpper(mech) {
	case XOAUTH2:
		return NewXOAUTH2Server(check), nil
	case OAuthBearer:
		return NewOAuthBearerServer(check), nil
	}
	return nil, fmt.Errorf("bearer: mechanism %q: want xoauth2 or oauthbearer", mech)
}

// refusal reads a server's error challenge; one that is not JSON is kept
// as an empty status.
func refusal(challenge []byte) Status {
	var st Status
	if json.Unmarshal(challenge, &st) != nil {
		return Status{}
	}
	return st
}
