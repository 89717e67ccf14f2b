package mailer

import (
	"context"
	"errors"
	"fmt"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	gosmtp "github.com/wneessen/go-mail/smtp"

	"github.com/lexio-mail/lexio/mailer/bearer"
)

// OAuthTokens hands out the OAuth2 bearer tokens a login presents
// (mailer/oauth's Source) and hears of one a server refused, so that the
// next login fetches a new one.
type OAuthTokens interface {
	Token(ctx context.Context) (string, error)
	Invalidate(refused string)
}

// imapLogin logs c in as user: with the password, or with a token from
// tokens by mechanism mech. A refused token is dropped; the reconnect
// backoff then spaces the next try, which fetches another.
func imapLogin(ctx context.Context, c *imapclient.Client, user, password string, tokens OAuthTokens, mech string) error {
	if tokens == nil {
		if err := c.Login(user, password).Wait(); err != nil {
			return fmt.Errorf("mailer: imap login as %q: %w", user, err)
		}
		return nil
	}
	tok, err := tokens.Token(ctx)
	if err != nil {
		return fmt.Errorf("mailer: imap login as %q: %w", user, err)
	}
	sc, err := bearer.NewClient(mechanism(mech), user, tok)
	if err != nil {
		return fmt.Errorf("mailer: imap login as %q: %w", user, err)
	}
	if err := c.Authenticate(sc); err != nil {
		var ie *imap.Error
		if _, refused := sc.Refused(); refused || errors.As(err, &ie) {
			tokens.Invalidate(tok)
		}
		return fmt.Errorf("mailer: imap login as %q with an OAuth2 token (%s): %w", user, mechanism(mech), err)
	}
	return nil
}

// dial connects to the SMTP server and logs in. With tokens, each dial
// presents the token of the moment: the client's login is set for it
// under dialMu, and a refused token is dropped.
func (d *Dispatcher) dial(ctx context.Context) (*gosmtp.Client, error) {
	if d.cfg.Tokens == nil {
		return d.client.DialToSMTPClientWithContext(ctx)
	}
	tok, err := d.cfg.Tokens.Token(ctx)
	if err != nil {
		return nil, err
	}
	sc, err := bearer.NewClient(mechanism(d.cfg.Mechanism), d.cfg.Username, tok)
	if err != nil {
		return nil, err
	}
	d.dialMu.Lock()
	d.client.SetSMTPAuthCustom(bearer.SMTPAuth(sc))
	c, err := d.client.DialToSMTPClientWithContext(ctx)
	d.dialMu.Unlock()
	if _, refused := sc.Refused(); err != nil && refused {
		d.cfg.Tokens.Invalidate(tok)
	}
	return c, err
}

// mechanism is mech, or XOAUTH2 when it is empty.
func mechanism(mech string) string {
	if mech == "" {
		return bearer.XOAUTH2
	}
	return mech
}
