package bearer

import (
	"errors"

	"github.com/emersion/go-sasl"
	"github.com/wneessen/go-mail/smtp"
)

// SMTPAuth adapts a SASL client to go-mail's smtp.Auth, for
// mail.WithSMTPAuthCustom (go-mail has XOAUTH2 of its own, not
// OAUTHBEARER). Like go-mail's PLAIN it sends a token over TLS only, but
// to localhost.
func SMTPAuth(c sasl.Client) smtp.Auth { return smtpAuth{c} }

type smtpAuth struct{ c sasl.Client }

func (a smtpAuth) Start(server *smtp.ServerInfo) (string, []byte, error) {
	if !server.TLS && server.Name != "localhost" && server.Name != "127.0.0.1" && server.Name != "::1" {
		return "", nil, errors.New("bearer: a token is sent over TLS only")
	}
	return a.c.Start()
}

func (a smtpAuth) Next(fromServer []byte, more bool) ([]byte, error) {
	if !more {
		return nil, nil
	}
	return a.c.Next(fromServer)
}
