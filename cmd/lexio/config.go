package main

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/lexio-mail/lexio/config"
	"github.com/lexio-mail/lexio/dict"
	"github.com/lexio-mail/lexio/mailer"
	"github.com/lexio-mail/lexio/mailer/oauth"
	"github.com/lexio-mail/lexio/mailer/probe"
	"github.com/lexio-mail/lexio/service/watch"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/templates"
)

func runCheckConfig(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "check-config")
	path := fs.String("c", configPath(e), "configuration `file`")
	connect := fs.Bool("connect", false, "then log into IMAP (listing the mailbox and the processed folder) and SMTP (EHLO, STARTTLS, AUTH) as serve would, sending nothing; say what the servers offer and whether plus-addressing is needed, and exit 1 naming each failure")
	if err := fs.Parse(args); err != nil {
		return err
	}
	c, err := loadConfig(*path)
	if err != nil {
		return err
	}
	n, err := resolve(c, e.program())
	if err != nil {
		return fmt.Errorf("%s: %w", *path, err)
	}
	// The tables counted are the file's: those opened by mail or by
	// table new live in the store alone.
	fmt.Fprintf(e.stdout, "%s: ok: %d league%s, %d table%s in the file, storage %s, dictionary %s\n",
		*path, len(c.Leagues), plural(len(c.Leagues)), len(c.Tables), plural(len(c.Tables)), c.Storage.Driver, c.Dictionary)
	// What is allowed but exposed (a listener beyond the loopback) is
	// said, and fails nothing.
	for _, w := range c.Warnings() {
		fmt.Fprintf(e.stdout, "%s: warning: %s\n", *path, w)
	}
	if !*connect {
		return nil
	}
	return checkConnect(ctx, e.stdout, c, n)
}

// checkConnect logs into the mail servers as serve would, writes what
// succeeded to w, a line each, and returns every failure, one per line.
func checkConnect(ctx context.Context, w io.Writer, c *config.Config, n *needs) error {
	if c.Embedded.Enabled {
		fmt.Fprintln(w, "imap, smtp: the built-in mail server ([embedded]) starts with serve: nothing to connect to")
		return nil
	}
	rc, dc := mailConfigs(c, n, nil)
	s := probe.Setup{ClientID: c.OAuth2.ClientID, Address: c.Mail.Address, TokenInSubject: c.Mail.TokenInSubject,
		IMAP: rc, SMTP: dc}
	if n.tokens != nil {
		s.Tokens = n.tokens
	}
	if errs := probe.Check(ctx, s, func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }); len(errs) > 0 {
		return problems(errs)
	}
	return nil
}

// loadConfig reads the file at path; when it does not exist, the error
// says where lexio looks.
func loadConfig(path string) (*config.Config, error) {
	c, err := config.Load(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w (lexio reads -c FILE, else $LEXIO_CONFIG, else ./lexio.toml, else ./data/demo.toml, which `make run` writes)", err)
	}
	return c, err
}

// needs is what serve reads besides the configuration file: the secrets,
// the dictionary and the templates.
type needs struct {
	secret             []byte
	imapPass, smtpPass string
	// tokens are the OAuth2 tokens of the logins whose auth is oauth2,
	// one source for IMAP and SMTP; nil without such a login.
	tokens    *oauth.Source
	watch     *watch.Watch // newDaemon's: told of each token request
	words     *dict.Dict
	gaddag    *dict.Gaddag // the same words, for the computer's moves
	wordCount int
	tmpl      *templates.Set
}

// resolve reads and checks everything serve needs besides the file,
// without opening a connection: serve calls it before it starts (and at
// each reload), check-config to name every problem at once, one per line.
// prog is the program as it was run, which the hints name.
func resolve(c *config.Config, prog string) (*needs, error) {
	var n needs
	var errs []error
	var err error
	if n.secret, err = c.Secret(); err != nil {
		errs = append(errs, err)
	}
	if c.Storage.Driver == store.DriverPostgres {
		if dsn, err := c.PostgresDSN(); err != nil {
			errs = append(errs, fmt.Errorf("storage: postgres dsn: %w", err))
		} else if _, err := pgconn.ParseConfig(dsn); err != nil {
			// The parser's message may quote the DSN, password and all.
			errs = append(errs, errors.New("storage: the postgres dsn does not parse: want key=value pairs or a postgres:// URL"))
		}
	}
	if !c.Embedded.Enabled {
		// The embedded server has its own accounts, without TLS.
		if c.IMAP.Auth != config.AuthOAuth2 {
			if n.imapPass, err = c.IMAPPassword(); err != nil {
				errs = append(errs, fmt.Errorf("imap password: %w", err))
			}
		}
		if c.OAuth2On() {
			if n.tokens, err = tokenSource(c, prog, func(err error) { n.watch.TokenRequested(err) }); err != nil {
				errs = append(errs, err)
			}
		}
		if c.SMTP.Username != "" && c.SMTP.Auth != config.AuthOAuth2 {
			if n.smtpPass, err = c.SMTPPassword(); err != nil {
				errs = append(errs, fmt.Errorf("smtp password: %w", err))
			}
		}
		for _, ca := range []struct{ name, tls, file string }{
			{"imap.ca_file", c.IMAP.TLS, c.IMAP.CAFile},
			{"smtp.ca_file", c.SMTP.TLS, c.SMTP.CAFile},
		} {
			if ca.file != "" && ca.tls != "none" {
				if err := checkCAFile(ca.file); err != nil {
					errs = append(errs, fmt.Errorf("%s: %w", ca.name, err))
				}
			}
		}
	}
	words, st, err := dict.Open(c.Dictionary)
	if err != nil {
		errs = append(errs, fmt.Errorf("dictionary: %w (Debian's French list: apt-get install wfrench)", err))
	}
	n.words, n.wordCount = words, st.Kept
	if err == nil {
		if n.gaddag, err = dict.GaddagOf(c.Dictionary, words); err != nil {
			errs = append(errs, fmt.Errorf("dictionary: %w", err))
		}
	}
	if n.tmpl, err = templates.New(); err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return nil, problems(errs)
	}
	return &n, nil
}

// problems joins errs, one per line, under a count when there are several.
func problems(errs []error) error {
	if len(errs) == 1 {
		return errs[0]
	}
	lines := make([]string, len(errs))
	for i, err := range errs {
		lines[i] = "  " + err.Error()
	}
	return fmt.Errorf("%d problems:\n%s", len(errs), strings.Join(lines, "\n"))
}

// checkCAFile reads a PEM bundle as the mail clients will.
func checkCAFile(path string) error {
	pem, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if !x509.NewCertPool().AppendCertsFromPEM(pem) {
		return fmt.Errorf("%s holds no PEM certificate", path)
	}
	return nil
}

// tokenSource is the OAuth2 token source of the [oauth2] section, its
// secrets read, telling requested of each request; it asks nothing yet.
// prog names the program in the hint of a missing refresh token.
func tokenSource(c *config.Config, prog string, requested func(error)) (*oauth.Source, error) {
	o := c.OAuth2
	cfg := oauth.Config{TokenURL: o.TokenURL, AuthURL: o.AuthURL, ClientID: o.ClientID, Grant: oauth.Grant(o.Grant),
		RefreshTokenFile: o.RefreshTokenFile, Scopes: o.Scopes(), Requested: requested}
	var secretErr, tokenErr error
	cfg.ClientSecret, secretErr = c.OAuth2ClientSecret()
	if cfg.Grant == oauth.RefreshToken {
		if cfg.RefreshToken, tokenErr = c.OAuth2RefreshToken(); tokenErr != nil {
			tokenErr = fmt.Errorf("%w (`%s auth login` writes it)", tokenErr, prog)
		}
	}
	if err := errors.Join(secretErr, tokenErr); err != nil {
		return nil, err
	}
	src, err := oauth.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("oauth2: %w", err)
	}
	return src, nil
}

// mailConfigs are the receiver's and the dispatcher's connections and
// logins: the configured servers, each login by password or, with auth =
// "oauth2", by a token of n's source; or the built-in server's.
func mailConfigs(c *config.Config, n *needs, mail *localMail) (mailer.ReceiverConfig, mailer.DispatcherConfig) {
	rc := mailer.ReceiverConfig{Addr: c.IMAP.Address, TLS: mailer.TLSMode(c.IMAP.TLS), CAFile: c.IMAP.CAFile,
		Username: c.IMAP.Username, Password: n.imapPass, Mechanism: c.OAuth2.Mechanism, Mailbox: c.IMAP.Mailbox,
		Processed: c.IMAP.ProcessedMailbox, PollInterval: c.IMAP.PollInterval, DisableIdle: !*c.IMAP.IDLE}
	dc := mailer.DispatcherConfig{Addr: c.SMTP.Address, TLS: mailer.TLSMode(c.SMTP.TLS), CAFile: c.SMTP.CAFile,
		Username: c.SMTP.Username, Password: n.smtpPass, Mechanism: c.OAuth2.Mechanism}
	if n.tokens != nil && c.IMAP.Auth == config.AuthOAuth2 {
		rc.Tokens = n.tokens
	}
	if n.tokens != nil && c.SMTP.Auth == config.AuthOAuth2 {
		dc.Tokens = n.tokens
	}
	if mail != nil {
		local, _, _ := strings.Cut(c.Mail.Address, "@")
		rc.Addr, rc.TLS, rc.Username, rc.Password, rc.Tokens = mail.IMAPAddr(), mailer.TLSNone, local, mail.password, nil
		dc.Addr, dc.TLS, dc.Username, dc.Tokens = mail.SMTPAddr(), mailer.TLSNone, "", nil
	}
	return rc, dc
}
