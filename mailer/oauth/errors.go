package oauth

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"golang.org/x/oauth2"
)

// Error is a refusal by the provider, in a host's words: the error code
// of RFC 6749 §5.2 (or §4.1.2.1 from the authorization endpoint) and its
// description, bounded and printable, or the HTTP status when the answer
// held no code. It carries nothing of the response body beyond those.
type Error struct {
	Endpoint    string // "token endpoint" or "authorization endpoint"
	ClientID    string
	Code        string // invalid_client, invalid_grant ...
	Description string
	Status      int // the HTTP status; 0 from the authorization endpoint
}

func (e *Error) Error() string {
	if e.Code == "" {
		return fmt.Sprintf("the %s answered client %s with %d %s", e.Endpoint, e.ClientID, e.Status, http.StatusText(e.Status))
	}
	s := fmt.Sprintf("the %s refused client %s: %s", e.Endpoint, e.ClientID, e.Code)
	if e.Description != "" {
		s += " (" + e.Description + ")"
	}
	return s
}

// Temporary reports whether asking again later may succeed: the server
// busy or failing, not a refusal of the client or its grant.
func (e *Error) Temporary() bool {
	switch e.Code {
	case "temporarily_unavailable", "server_error":
		return true
	case "":
		return e.Status >= 500 || e.Status == http.StatusTooManyRequests
	}
	return false
}

// Bounds of what an Error repeats of the provider's answer.
const (
	maxCode        = 64
	maxDescription = 200
)

// describe turns an error of x/oauth2 into one fit for a log line. The
// secrets given are cut out of the description, should a server echo
// one.
func describe(err error, endpoint, clientID string, secrets ...string) error {
	var re *oauth2.RetrieveError
	if !errors.As(err, &re) {
		// A transport error names the URL and the network's failure,
		// x/oauth2's an answer it could not read: nothing of the
		// request's body, nor of the answer's.
		return fmt.Errorf("client %s got no token from the %s: %w", clientID, endpoint, err)
	}
	e := &Error{Endpoint: endpoint, ClientID: clientID, Code: errorCode(re.ErrorCode)}
	if re.Response != nil {
		e.Status = re.Response.StatusCode
	}
	if e.Code != "" {
		e.Description = description(re.ErrorDescription, secrets...)
	}
	return e
}

// errorCode keeps a code made of RFC 6749's characters (%x20-21 /
// %x23-5B / %x5D-7E), within bounds.
func errorCode(c string) string {
	if len(c) > maxCode {
		return "(an overlong error code)"
	}
	for i := 0; i < len(c); i++ {
		if b := c[i]; b < 0x20 || b > 0x7e || b == '"' || b == '\\' {
			return "(an error code with characters RFC 6749 forbids)"
		}
	}
	return c
}

// description makes d printable on one line, cuts the secrets out of it
// and bounds it.
func description(d string, secrets ...string) string {
	for _, s := range secrets {
		if len(s) >= 4 {
			d = strings.ReplaceAll(d, s, "[redacted]")
		}
	}
	return printable(d, maxDescription)
}

// printable replaces control characters and invalid UTF-8 by spaces,
// folds runs of spaces and cuts s to n runes.
func printable(s string, n int) string {
	var b strings.Builder
	runes, space := 0, false
	for _, r := range strings.ToValidUTF8(s, " ") {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == utf8.RuneError || r == ' ' {
			if !space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		if runes == n {
			return strings.TrimRight(b.String(), " ") + "…"
		}
		space = false
		b.WriteRune(r)
		runes++
	}
	return strings.TrimRight(b.String(), " ")
}
