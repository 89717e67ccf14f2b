// Package probe checks a host's mail setup before the daemon runs
// (`lexio check-config --connect`): it logs into IMAP and SMTP through
// mailer's own dial and login, as the receiver and the dispatcher would,
// lists the mailbox and the processed folder, reads what the servers
// offer, and says whether the mailbox must take plus-addresses. It reads,
// moves and sends no mail. Each success is a line and each failure an
// error in a host's words, starting "imap: ", "smtp: " or "oauth2: ".
//
// It knows nothing of games, the store or the configuration file beyond
// the mailer configurations it is given.
package probe

import (
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/textproto"
	"os"
	"strings"

	"github.com/emersion/go-imap/v2"

	"github.com/lexio-mail/lexio/mailer"
)

// ErrNoToken marks a login not tried because the OAuth2 source gave no
// token; the error wrapping it says why.
var ErrNoToken = errors.New("no OAuth2 token")

// IMAPReport is what IMAP found, as far as it got.
type IMAPReport struct {
	// Connected: the server greeted us over the configured TLS.
	Connected bool
	// LoggedIn: the server took the password or the token.
	LoggedIn bool
	// Mailbox and Processed are the folders asked for (defaults filled);
	// ProcessedFound says whether the second exists (serve creates it).
	Mailbox, Processed string
	ProcessedFound     bool
	// Idle, Move and UIDPlus say what the server offers once logged in.
	Idle, Move, UIDPlus bool
}

// IMAP connects to the IMAP server of cfg, logs in, reads the
// capabilities, lists the mailbox and the processed folder, and logs out.
// A missing mailbox is an error; a missing processed folder is not.
func IMAP(ctx context.Context, cfg mailer.ReceiverConfig) (IMAPReport, error) {
	rep := IMAPReport{Mailbox: cmp.Or(cfg.Mailbox, "INBOX"), Processed: cmp.Or(cfg.Processed, "Processed")}
	c, err := mailer.ConnectIMAP(ctx, cfg)
	if err != nil {
		return rep, hostWords("imap", cfg.Addr, err)
	}
	defer c.Close()
	rep.Connected = true
	if cfg.Tokens != nil {
		// Asked first so that the token endpoint's refusal reads as one;
		// the login then takes the cached token.
		if _, err := cfg.Tokens.Token(ctx); err != nil {
			return rep, fmt.Errorf("imap: %w to log in as %s: %w", ErrNoToken, cfg.Username, err)
		}
	}
	if err := mailer.LoginIMAP(ctx, c, cfg); err != nil {
		var ie *imap.Error
		if errors.As(err, &ie) {
			return rep, fmt.Errorf("imap: login as %s refused: %s", cfg.Username, refusal(ie))
		}
		// Without mailer's "mailer: imap login as ...: ", said here.
		if inner := errors.Unwrap(err); inner != nil {
			err = inner
		}
		return rep, fmt.Errorf("imap: no login as %s: %w", cfg.Username, err)
	}
	rep.LoggedIn = true
	caps := c.Caps()
	rep.Idle, rep.Move, rep.UIDPlus = caps.Has(imap.CapIdle), caps.Has(imap.CapMove), caps.Has(imap.CapUIDPlus)
	for _, box := range []string{rep.Mailbox, rep.Processed} {
		list, err := c.List("", box, nil).Collect()
		var ie *imap.Error
		switch {
		case errors.As(err, &ie):
			return rep, fmt.Errorf("imap: list %q refused: %s", box, refusal(ie))
		case err != nil:
			return rep, fmt.Errorf("imap: list %q: %w", box, err)
		case box == rep.Processed:
			rep.ProcessedFound = len(list) > 0
		case len(list) == 0:
			return rep, fmt.Errorf("imap: no mailbox %q on the server", box)
		}
	}
	_ = c.Logout().Wait()
	return rep, nil
}

// SMTPReport is what SMTP found, as far as it got.
type SMTPReport struct {
	// Connected: the server answered EHLO, after STARTTLS where
	// configured.
	Connected bool
	// Encrypted: the session runs over TLS (implicit or STARTTLS).
	Encrypted bool
	// Auth lists the AUTH mechanisms the server offers ("" for none).
	Auth string
	// LoggedIn: AUTH succeeded; false too when cfg has no login.
	LoggedIn bool
}

// SMTP connects to the SMTP server of cfg as the dispatcher does: EHLO
// and STARTTLS as configured, then QUIT; then, when cfg has a login, once
// more with AUTH, then QUIT. Two sessions, so that a refused login is told
// apart from a connection that failed. It sends no mail.
func SMTP(ctx context.Context, cfg mailer.DispatcherConfig) (SMTPReport, error) {
	var rep SMTPReport
	bare := cfg
	bare.Username, bare.Password, bare.Tokens = "", "", nil
	c, quit, err := mailer.DialSMTP(ctx, bare)
	if err != nil {
		return rep, hostWords("smtp", cfg.Addr, err)
	}
	rep.Connected = true
	if st, err := c.GetTLSConnectionState(); err == nil && st.HandshakeComplete {
		rep.Encrypted = true
	}
	_, rep.Auth = c.Extension("AUTH")
	quit()
	if cfg.Username == "" && cfg.Tokens == nil {
		return rep, nil
	}
	if cfg.Tokens != nil {
		if _, err := cfg.Tokens.Token(ctx); err != nil {
			return rep, fmt.Errorf("smtp: %w to log in as %s: %w", ErrNoToken, cfg.Username, err)
		}
	}
	if _, quit, err = mailer.DialSMTP(ctx, cfg); err != nil {
		var te *textproto.Error
		if errors.As(err, &te) {
			return rep, fmt.Errorf("smtp: login as %s refused: %v", cfg.Username, te)
		}
		return rep, fmt.Errorf("smtp: no login as %s: %w", cfg.Username, err)
	}
	rep.LoggedIn = true
	quit()
	return rep, nil
}

// hostWords says why a connection to addr failed: not reached, not
// trusted, silent, or what went wrong.
func hostWords(proto, addr string, err error) error {
	var op *net.OpError
	var cv *tls.CertificateVerificationError
	switch {
	case errors.As(err, &op) && op.Op == "dial":
		return fmt.Errorf("%s: cannot connect to %s: %w", proto, addr, op)
	case errors.As(err, &cv):
		return fmt.Errorf("%s: the TLS certificate of %s is not trusted: %w", proto, addr, cv.Err)
	case errors.Is(err, os.ErrDeadlineExceeded) || errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%s: %s did not answer in time: %w", proto, addr, err)
	}
	// mailer's "mailer: imap greeting: ..." reads "greeting: ..." here.
	return fmt.Errorf("%s: %s: %s", proto, addr, strings.TrimPrefix(err.Error(), "mailer: "+proto+" "))
}

// refusal is a server's NO or BAD as it sent it, without go-imap's
// prefix.
func refusal(e *imap.Error) string {
	s := string(e.Type)
	if e.Code != "" {
		s += " [" + string(e.Code) + "]"
	}
	return s + " " + e.Text
}

// Setup is a host's mail setup, as the daemon would use it.
type Setup struct {
	IMAP mailer.ReceiverConfig
	SMTP mailer.DispatcherConfig
	// Tokens is the OAuth2 source of the logins that use one (nil
	// without), asked once before them; ClientID names its client.
	Tokens   mailer.OAuthTokens
	ClientID string
	// Address is the service's address; with TokenInSubject replies come
	// to it, else to its plus-addresses (EMAIL §1.2).
	Address        string
	TokenInSubject bool
}

// Check probes s: the token, then IMAP, then SMTP, and writes what
// succeeded to say, a line each, and what the host should know about
// plus-addressing. It returns every failure.
func Check(ctx context.Context, s Setup, say func(format string, args ...any)) []error {
	var errs []error
	// The token is asked for once, first: its refusal is then one error,
	// and the logins that needed it say only that they were not tried.
	var tokenErr error
	if s.Tokens != nil {
		if _, tokenErr = s.Tokens.Token(ctx); tokenErr != nil {
			errs = append(errs, fmt.Errorf("oauth2: %w", tokenErr))
		} else {
			say("oauth2: the token endpoint gave client %s a token", s.ClientID)
		}
	}
	failed := func(proto, user string, err error) {
		if tokenErr != nil && errors.Is(err, ErrNoToken) {
			err = fmt.Errorf("%s: no login as %s without an OAuth2 token", proto, user)
		}
		errs = append(errs, err)
	}
	how := func(tokens mailer.OAuthTokens, mech string) string {
		if tokens == nil {
			return "password"
		}
		return "OAuth2 token, " + strings.ToUpper(cmp.Or(mech, "xoauth2"))
	}

	rc := s.IMAP
	rep, err := IMAP(ctx, rc)
	if rep.Connected {
		say("imap: connected to %s (%s)", rc.Addr, map[mailer.TLSMode]string{mailer.TLSImplicit: "TLS",
			mailer.TLSStartTLS: "STARTTLS", mailer.TLSNone: "in clear", "": "TLS"}[rc.TLS])
	}
	if rep.LoggedIn {
		say("imap: logged in as %s (%s)", rc.Username, how(rc.Tokens, rc.Mechanism))
		switch {
		case !rep.Idle:
			say("imap: no IDLE: serve looks for new mail every %s", rc.PollInterval)
		case rc.DisableIdle:
			say("imap: the server offers IDLE, left unused (idle = false): serve looks for new mail every %s", rc.PollInterval)
		default:
			say("imap: the server offers IDLE: serve reads new mail as it comes")
		}
		switch {
		case rep.Move:
			say("imap: the server offers MOVE")
		case rep.UIDPlus:
			say("imap: no MOVE: serve copies each message it handled to %q, then flags it deleted and expunges it", rep.Processed)
		default:
			say("imap: no MOVE and no UIDPLUS: serve copies each message it handled to %q, then flags it deleted and "+
				"expunges the mailbox, which also removes any other message flagged deleted in %q", rep.Processed, rep.Mailbox)
		}
	}
	if err != nil {
		failed("imap", rc.Username, err)
	} else {
		say("imap: mailbox %q found", rep.Mailbox)
		if rep.ProcessedFound {
			say("imap: folder %q found", rep.Processed)
		} else {
			say("imap: folder %q missing: serve creates it", rep.Processed)
		}
	}

	dc := s.SMTP
	srep, err := SMTP(ctx, dc)
	if srep.Connected {
		tls := "in clear"
		switch {
		case dc.TLS == mailer.TLSImplicit:
			tls = "TLS"
		case srep.Encrypted:
			tls = "STARTTLS"
		case dc.TLS == mailer.TLSStartTLSOpportunistic:
			tls = "in clear: the server offers no STARTTLS"
		}
		auth := "no AUTH offered"
		if srep.Auth != "" {
			auth = "AUTH " + srep.Auth + " offered"
		}
		say("smtp: connected to %s (%s), %s", dc.Addr, tls, auth)
	}
	switch {
	case srep.LoggedIn:
		say("smtp: logged in as %s (%s); nothing sent", dc.Username, how(dc.Tokens, dc.Mechanism))
	case err == nil:
		say("smtp: no login configured: the server must take our mail without AUTH; nothing sent")
	default:
		failed("smtp", dc.Username, err)
	}

	local, domain, _ := strings.Cut(s.Address, "@")
	if s.TokenInSubject {
		say("plus-addressing: not needed: the reply token travels in the subject (token_in_subject), and replies come to %s", s.Address)
	} else {
		say("plus-addressing: needed: replies come to %s+<token>@%s, which the server must deliver to %q of %s",
			local, domain, rep.Mailbox, s.Address)
		say("plus-addressing: to test it, send one mail to %s+test@%s, look for it in %q, and delete it before serve reads it",
			local, domain, rep.Mailbox)
	}
	return errs
}
