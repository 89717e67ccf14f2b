package mailer

import (
	"context"
	"errors"
	"time"

	"github.com/emersion/go-imap/v2/imapclient"
	gosmtp "github.com/wneessen/go-mail/smtp"
)

// ConnectIMAP connects to the IMAP server of cfg as the Receiver does (its
// TLS and CA) and reads the greeting. The connection's deadline,
// cfg.DialTimeout from now, bounds what the caller does next.
func ConnectIMAP(ctx context.Context, cfg ReceiverConfig) (*imapclient.Client, error) {
	r, err := NewReceiver(cfg, HandlerFunc(func(context.Context, Inbound) error {
		return errors.New("mailer: a bare connection handles no mail")
	}))
	if err != nil {
		return nil, err
	}
	dctx, cancel := context.WithTimeout(ctx, r.cfg.DialTimeout)
	defer cancel()
	c, _, err := r.connect(dctx, make(chan struct{}, 1))
	return c, err
}

// LoginIMAP logs c in as the Receiver of cfg does: with the password, or
// with a token of cfg.Tokens.
func LoginIMAP(ctx context.Context, c *imapclient.Client, cfg ReceiverConfig) error {
	return imapLogin(ctx, c, cfg.Username, cfg.Password, cfg.Tokens, cfg.Mechanism)
}

// DialSMTP connects to the SMTP server of cfg as the Dispatcher does:
// EHLO, STARTTLS and AUTH as configured. quit ends the session.
func DialSMTP(ctx context.Context, cfg DispatcherConfig) (c *gosmtp.Client, quit func(), err error) {
	d, err := NewDispatcher(cfg, noOutbox{})
	if err != nil {
		return nil, nil, err
	}
	if c, err = d.dial(ctx); err != nil {
		return nil, nil, err
	}
	return c, func() { _ = d.client.CloseWithSMTPClient(c) }, nil
}

// noOutbox stands in for the Outbox of a Dispatcher that only dials.
type noOutbox struct{}

var errNoOutbox = errors.New("mailer: a bare connection sends no mail")

func (noOutbox) Due(context.Context, time.Time, int) ([]Outgoing, error) { return nil, errNoOutbox }
func (noOutbox) Attempt(context.Context, []Try) error                    { return errNoOutbox }
func (noOutbox) Sent(context.Context, []int64, time.Time) error          { return errNoOutbox }
func (noOutbox) Failed(context.Context, int64, time.Time, string, bool) error {
	return errNoOutbox
}
