package bearer

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"github.com/emersion/go-sasl"
)

// XOAUTH2 as Google documents it
// (developers.google.com/gmail/imap/xoauth2-protocol) and Microsoft
// follows: the initial response is
//
//	"user=" user "\x01auth=Bearer " token "\x01\x01"
//
// (base64 on the wire); a server refusing the token sends a base64 JSON
// Status as a challenge, which the client answers with an empty response,
// and then fails the command.

// XOAUTH2Client is the client side.
type XOAUTH2Client struct {
	user, token string
	refused     *Status
}

// NewXOAUTH2Client returns a client logging user in with token.
func NewXOAUTH2Client(user, token string) *XOAUTH2Client {
	return &XOAUTH2Client{user: user, token: token}
}

// Start returns the initial response.
func (c *XOAUTH2Client) Start() (string, []byte, error) {
	if strings.ContainsRune(c.user, 1) || strings.ContainsRune(c.token, 1) {
		return "", nil, errors.New("bearer: XOAUTH2: a user name or token holding ^A cannot be sent")
	}
	return XOAUTH2, []byte("user=" + c.user + "\x01auth=Bearer " + c.token + "\x01\x01"), nil
}

// Next answers the server's one challenge, its refusal, with the empty
// response XOAUTH2 asks for; the server then fails the command.
func (c *XOAUTH2Client) Next(challenge []byte) ([]byte, error) {
	if c.refused != nil {
		return nil, errors.New("bearer: XOAUTH2: a challenge after the refusal")
	}
	st := refusal(challenge)
	c.refused = &st
	return []byte{}, nil
}

// Refused returns the status of the server's refusal.
func (c *XOAUTH2Client) Refused() (Status, bool) {
	if c.refused == nil {
		return Status{}, false
	}
	return *c.refused, true
}

// ErrMalformed is a server's answer to an initial response that is not
// XOAUTH2's.
var ErrMalformed = errors.New("bearer: malformed initial response")

type xoauth2Server struct {
	check  Validator
	asked  bool  // an empty challenge asked for the initial response
	failed error // the token was refused: the client's empty answer ends it
}

// NewXOAUTH2Server returns the server side: it reads the initial
// response and checks its token with check; a refused token gets the
// JSON challenge {"status":"401","schemes":"bearer"} and, after the
// client's empty response, check's error.
func NewXOAUTH2Server(check Validator) sasl.Server {
	return &xoauth2Server{check: check}
}

func (s *xoauth2Server) Next(response []byte) ([]byte, bool, error) {
	if s.failed != nil {
		return nil, true, s.failed
	}
	if response == nil {
		if s.asked {
			return nil, true, ErrMalformed
		}
		s.asked = true
		return []byte{}, false, nil
	}
	user, token, ok := parseXOAUTH2(response)
	if !ok {
		return nil, true, ErrMalformed
	}
	if err := s.check(user, token); err != nil {
		s.failed = err
		challenge, _ := json.Marshal(Status{Status: "401", Schemes: "bearer"})
		return challenge, false, nil
	}
	return nil, true, nil
}

// parseXOAUTH2 reads "user=U\x01auth=Bearer T\x01\x01"; the keys'
// order may vary, the scheme's case too.
func parseXOAUTH2(b []byte) (user, token string, ok bool) {
	rest, found := bytes.CutSuffix(b, []byte("\x01\x01"))
	if !found {
		return "", "", false
	}
	var haveUser, haveAuth bool
	for _, f := range bytes.Split(rest, []byte{1}) {
		k, v, found := strings.Cut(string(f), "=")
		if !found {
			return "", "", false
		}
		switch k {
		case "user":
			user, haveUser = v, true
		case "auth":
			scheme, t, found := strings.Cut(v, " ")
			if !found || !strings.EqualFold(scheme, "Bearer") || t == "" {
				return "", "", false
			}
			token, haveAuth = t, true
		default:
			return "", "", false
		}
	}
	return user, token, haveUser && haveAuth && user != ""
}
