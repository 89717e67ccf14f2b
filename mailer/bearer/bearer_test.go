package bearer_test

import (
	"encoding/base64"
	"errors"
	"testing"

	"github.com/lexio-mail/lexio/mailer/bearer"
)

// Google's documented XOAUTH2 example
// (developers.google.com/gmail/imap/xoauth2-protocol).
const (
	googleUser  = "someuser@example.com"
	googleToken = "ya29.vF9dft4qmTc2Nvb3RlckBhdHRhdmlzdGEuY29tCg"
	googleIR    = "dXNlcj1zb21ldXNlckBleGFtcGxlLmNvbQFhdXRoPUJlYXJlciB5YTI5LnZGOWRmdDRxbVRjMk52YjNSbGNrQmhkSFJoZG1semRHRXVZMjl0Q2cBAQ=="
	// {"status":"401","schemes":"bearer mac","scope":"https://mail.google.com/"}
	googleRefusal = "eyJzdGF0dXMiOiI0MDEiLCJzY2hlbWVzIjoiYmVhcmVyIG1hYyIsInNjb3BlIjoiaHR0cHM6Ly9tYWlsLmdvb2dsZS5jb20vIn0K"
)

// RFC 7628 §4.1 and §4.3.
const (
	rfcUser  = "user@example.com"
	rfcToken = "vF9dft4qmTc2Nvb3RlckBhbHRhdmlzdGEuY29tCg=="
	rfcIR    = "bixhPXVzZXJAZXhhbXBsZS5jb20sAWhvc3Q9c2VydmVyLmV4YW1wbGUuY29tAXBvcnQ9MTQzAWF1dGg9QmVhcmVyIHZGOWRmdDRxbVRjMk52YjNSbGNrQmhiSFJoZG1semRHRXVZMjl0Q2c9PQEB"
	// {"status":"invalid_token","scope":"example_scope","openid-configuration":"https://example.com/.well-known/openid-configuration"}
	rfcRefusal = "eyJzdGF0dXMiOiJpbnZhbGlkX3Rva2VuIiwic2NvcGUiOiJleGFtcGxlX3Njb3BlIiwib3BlbmlkLWNvbmZpZ3VyYXRpb24iOiJodHRwczovL2V4YW1wbGUuY29tLy53ZWxsLWtub3duL29wZW5pZC1jb25maWd1cmF0aW9uIn0="
)

func b64(t *testing.T, s string) []byte {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var errRefused = errors.New("token refused")

// accept takes the given user and token alone.
func accept(user, token string) bearer.Validator {
	return func(u, tok string) error {
		if u != user || tok != token {
			return errRefused
		}
		return nil
	}
}

// TestXOAUTH2Client: Google's initial response, byte for byte; its
// refusal answered with the empty response, its status kept.
func TestXOAUTH2Client(t *testing.T) {
	c := bearer.NewXOAUTH2Client(googleUser, googleToken)
	mech, ir, err := c.Start()
	if err != nil || mech != "XOAUTH2" || base64.StdEncoding.EncodeToString(ir) != googleIR {
		t.Fatalf("Start: %s %q %v", mech, base64.StdEncoding.EncodeToString(ir), err)
	}
	if _, ok := c.Refused(); ok {
		t.Error("refused before any challenge")
	}
	resp, err := c.Next(b64(t, googleRefusal))
	if err != nil || resp == nil || len(resp) != 0 {
		t.Fatalf("Next: %q %v; want an empty response", resp, err)
	}
	st, ok := c.Refused()
	if !ok || st != (bearer.Status{Status: "401", Schemes: "bearer mac", Scope: "https://mail.google.com/"}) {
		t.Errorf("Refused: %+v %v", st, ok)
	}
	if _, _, err := bearer.NewXOAUTH2Client("a\x01b", "t").Start(); err == nil {
		t.Error("a user name with ^A accepted")
	}
}

// TestXOAUTH2Server reads Google's initial response, with or without
// SASL-IR, and refuses a token as XOAUTH2 does.
func TestXOAUTH2Server(t *testing.T) {
	s := bearer.NewXOAUTH2Server(accept(googleUser, googleToken))
	if ch, done, err := s.Next(b64(t, googleIR)); ch != nil || !done || err != nil {
		t.Errorf("good token: %q %v %v", ch, done, err)
	}

	s = bearer.NewXOAUTH2Server(accept(googleUser, googleToken))
	if ch, done, err := s.Next(nil); len(ch) != 0 || done || err != nil {
		t.Fatalf("no initial response: %q %v %v; want an empty challenge", ch, done, err)
	}
	if _, done, err := s.Next(b64(t, googleIR)); !done || err != nil {
		t.Errorf("the response after the empty challenge: %v %v", done, err)
	}

	s = bearer.NewXOAUTH2Server(accept(googleUser, "another"))
	ch, done, err := s.Next(b64(t, googleIR))
	if done || err != nil || string(ch) != `{"status":"401","schemes":"bearer"}` {
		t.Fatalf("bad token: %q %v %v", ch, done, err)
	}
	if _, done, err := s.Next([]byte{}); !done || !errors.Is(err, errRefused) {
		t.Errorf("after the empty response: %v %v; want the validator's error", done, err)
	}

	for _, ir := range []string{
		"user=a\x01auth=Bearer t\x01",               // one ^A at the end
		"user=a\x01auth=Basic dA==\x01\x01",         // not a bearer token
		"auth=Bearer t\x01\x01",                     // no user
		"user=\x01auth=Bearer t\x01\x01",            // an empty user
		"user=a\x01auth=Bearer \x01\x01",            // an empty token
		"user=a\x01auth=Bearer t\x01host=x\x01\x01", // a key XOAUTH2 has not
		"",
	} {
		s := bearer.NewXOAUTH2Server(func(string, string) error { t.Errorf("%q reached the validator", ir); return nil })
		if _, done, err := s.Next([]byte(ir)); !done || !errors.Is(err, bearer.ErrMalformed) {
			t.Errorf("%q: %v %v", ir, done, err)
		}
	}
	// The scheme's case does not matter; the keys' order neither.
	s = bearer.NewXOAUTH2Server(accept("a", "t"))
	if _, done, err := s.Next([]byte("auth=bearer t\x01user=a\x01\x01")); !done || err != nil {
		t.Errorf("lower-case scheme, auth first: %v %v", done, err)
	}
}

// TestOAuthBearer: RFC 7628's example read by the server; the client's
// message; a refusal answered with %x01, its status kept; the server
// ends it with the validator's error, whatever the client answered.
func TestOAuthBearer(t *testing.T) {
	var got [2]string
	s := bearer.NewOAuthBearerServer(func(u, tok string) error { got = [2]string{u, tok}; return nil })
	if _, done, err := s.Next(b64(t, rfcIR)); !done || err != nil || got != [2]string{rfcUser, rfcToken} {
		t.Errorf("RFC 7628 §4.1: %v %v, read %q", done, err, got)
	}

	c, err := bearer.NewClient("oauthbearer", rfcUser, rfcToken)
	if err != nil {
		t.Fatal(err)
	}
	mech, ir, err := c.Start()
	if err != nil || mech != "OAUTHBEARER" || string(ir) != "n,a="+rfcUser+",\x01auth=Bearer "+rfcToken+"\x01\x01" {
		t.Fatalf("Start: %s %q %v", mech, ir, err)
	}
	resp, err := c.Next(b64(t, rfcRefusal))
	if err != nil || string(resp) != "\x01" {
		t.Fatalf("Next: %q %v; want %%x01", resp, err)
	}
	if st, ok := c.Refused(); !ok || st.Status != "invalid_token" || st.Scope != "example_scope" {
		t.Errorf("Refused: %+v %v", st, ok)
	}

	for _, last := range [][]byte{{1}, {}, []byte("junk")} {
		s := bearer.NewOAuthBearerServer(accept(rfcUser, "another"))
		ch, done, err := s.Next(ir)
		if done || err != nil || string(ch) != `{"status":"invalid_token","schemes":"bearer","scope":""}` {
			t.Fatalf("bad token: %q %v %v", ch, done, err)
		}
		if _, done, err := s.Next(last); !done || !errors.Is(err, errRefused) {
			t.Errorf("after %q: %v %v; want the validator's error", last, done, err)
		}
	}
	s = bearer.NewOAuthBearerServer(accept(rfcUser, rfcToken))
	if _, done, err := s.Next([]byte("y,,\x01auth=Bearer x\x01\x01")); done || err != nil {
		t.Fatalf("malformed: %v %v; want an error challenge", done, err)
	}
	if _, done, err := s.Next([]byte{}); !done || err == nil {
		t.Errorf("malformed, then an empty response: %v %v", done, err)
	}
}

func TestUnknownMechanism(t *testing.T) {
	if _, err := bearer.NewClient("plain", "u", "t"); err == nil {
		t.Error("NewClient: plain accepted")
	}
	if _, err := bearer.NewServer("plain", accept("u", "t")); err == nil {
		t.Error("NewServer: plain accepted")
	}
}
