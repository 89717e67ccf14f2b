package bearer_test

import (
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
	gomail "github.com/wneessen/go-mail"
	gomailsmtp "github.com/wneessen/go-mail/smtp"

	"github.com/lexio-mail/lexio/mailer/bearer"
)

const (
	mailbox   = "lexio@example.org"
	goodToken = "good-token"
)

// imapSession logs in by the bearer mechanisms alone.
type imapSession struct {
	*imapmemserver.UserSession
	check bearer.Validator
}

func (s *imapSession) Login(string, string) error { return imapserver.ErrAuthFailed }
func (s *imapSession) AuthenticateMechanisms() []string {
	return []string{bearer.XOAUTH2, bearer.OAuthBearer}
}
func (s *imapSession) Authenticate(mech string) (sasl.Server, error) {
	return bearer.NewServer(mech, s.check)
}

// startIMAP serves IMAP on the loopback, with SASL-IR or without.
func startIMAP(t *testing.T, saslIR bool) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	caps := imap.CapSet{imap.CapIMAP4rev1: {}}
	if saslIR {
		caps[imap.CapSASLIR] = struct{}{}
	}
	user := imapmemserver.NewUser(mailbox, "")
	user.Create("INBOX", nil)
	srv := imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return &imapSession{UserSession: imapmemserver.NewUserSession(user), check: func(u, tok string) error {
				if u != mailbox || tok != goodToken {
					return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeAuthenticationFailed, Text: "token refused"}
				}
				return nil
			}}, nil, nil
		},
		Caps:         caps,
		InsecureAuth: true,
	})
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// TestIMAP logs into go-imap's server with go-imap's client by each
// mechanism: a good token selects INBOX; a refused one fails with the
// server's NO, the client knows the refusal, and the connection goes on.
func TestIMAP(t *testing.T) {
	for _, saslIR := range []bool{true, false} {
		addr := startIMAP(t, saslIR)
		for _, mech := range []string{"xoauth2", "oauthbearer"} {
			for _, tok := range []string{goodToken, "stale-token"} {
				conn, err := net.Dial("tcp", addr)
				if err != nil {
					t.Fatal(err)
				}
				conn.SetDeadline(time.Now().Add(10 * time.Second)) // a stuck exchange fails, not hangs
				c := imapclient.New(conn, nil)
				sc, err := bearer.NewClient(mech, mailbox, tok)
				if err != nil {
					t.Fatal(err)
				}
				err = c.Authenticate(sc)
				_, refused := sc.Refused()
				name := mech + " " + tok
				if saslIR {
					name += " SASL-IR"
				}
				if tok == goodToken {
					if err != nil || refused {
						t.Errorf("%s: %v, refused %v", name, err, refused)
					} else if _, err := c.Select("INBOX", nil).Wait(); err != nil {
						t.Errorf("%s: SELECT after login: %v", name, err)
					}
				} else {
					var ie *imap.Error
					if !errors.As(err, &ie) || ie.Code != imap.ResponseCodeAuthenticationFailed || !refused {
						t.Errorf("%s: %v, refused %v", name, err, refused)
					}
					if err := c.Noop().Wait(); err != nil {
						t.Errorf("%s: the connection after the refusal: %v", name, err)
					}
				}
				if strings.Contains(errString(err), tok) {
					t.Errorf("%s: the error holds the token: %v", name, err)
				}
				c.Close()
			}
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// smtpBackend accepts the bearer mechanisms alone and keeps what it is
// sent.
type smtpBackend struct {
	mu  sync.Mutex
	got []string
}

func (b *smtpBackend) NewSession(*smtp.Conn) (smtp.Session, error) { return &smtpSession{b: b}, nil }

type smtpSession struct {
	b      *smtpBackend
	authed bool
}

func (s *smtpSession) AuthMechanisms() []string { return []string{bearer.XOAUTH2, bearer.OAuthBearer} }
func (s *smtpSession) Auth(mech string) (sasl.Server, error) {
	return bearer.NewServer(mech, func(u, tok string) error {
		if u != mailbox || tok != goodToken {
			return &smtp.SMTPError{Code: 535, EnhancedCode: smtp.EnhancedCode{5, 7, 8}, Message: "token refused"}
		}
		s.authed = true
		return nil
	})
}
func (s *smtpSession) Mail(string, *smtp.MailOptions) error {
	if !s.authed {
		return &smtp.SMTPError{Code: 530, EnhancedCode: smtp.EnhancedCode{5, 7, 0}, Message: "Authentication required"}
	}
	return nil
}
func (s *smtpSession) Rcpt(string, *smtp.RcptOptions) error { return nil }
func (s *smtpSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	s.b.mu.Lock()
	s.b.got = append(s.b.got, string(b))
	s.b.mu.Unlock()
	return err
}
func (s *smtpSession) Reset()        {}
func (s *smtpSession) Logout() error { return nil }

func startSMTP(t *testing.T) (host string, port int, b *smtpBackend) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	b = &smtpBackend{}
	srv := smtp.NewServer(b)
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	a := ln.Addr().(*net.TCPAddr)
	return "127.0.0.1", a.Port, b
}

// TestSMTP sends through go-smtp's server with go-mail: our clients by
// SMTPAuth, and go-mail's own XOAUTH2 against our server; a refused token
// fails with the server's 535 and sends nothing.
func TestSMTP(t *testing.T) {
	host, port, b := startSMTP(t)
	send := func(auth gomail.Option, extra ...gomail.Option) error {
		opts := append([]gomail.Option{gomail.WithPort(port), gomail.WithTLSPolicy(gomail.NoTLS), auth}, extra...)
		c, err := gomail.NewClient(host, opts...)
		if err != nil {
			t.Fatal(err)
		}
		m := gomail.NewMsg()
		m.From(mailbox)
		m.To("ann@example.org")
		m.Subject("a notice")
		m.SetBodyString(gomail.TypeTextPlain, "hello")
		return c.DialAndSend(m)
	}
	want := 0
	for _, mech := range []string{"xoauth2", "oauthbearer"} {
		for _, tok := range []string{goodToken, "stale-token"} {
			sc, err := bearer.NewClient(mech, mailbox, tok)
			if err != nil {
				t.Fatal(err)
			}
			err = send(gomail.WithSMTPAuthCustom(bearer.SMTPAuth(sc)))
			if tok == goodToken {
				want++
				if err != nil {
					t.Errorf("%s: %v", mech, err)
				}
				continue
			}
			_, refused := sc.Refused()
			if err == nil || !strings.Contains(err.Error(), "535") || !refused || strings.Contains(err.Error(), tok) {
				t.Errorf("%s, refused token: %v, refused %v", mech, err, refused)
			}
		}
	}
	// go-mail's XOAUTH2 speaks to our server.
	if err := send(gomail.WithSMTPAuth(gomail.SMTPAuthXOAUTH2), gomail.WithUsername(mailbox), gomail.WithPassword(goodToken)); err != nil {
		t.Errorf("go-mail's XOAUTH2: %v", err)
	}
	want++
	if err := send(gomail.WithSMTPAuth(gomail.SMTPAuthXOAUTH2), gomail.WithUsername(mailbox), gomail.WithPassword("stale-token")); err == nil {
		t.Error("go-mail's XOAUTH2, refused token: sent")
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.got) != want {
		t.Errorf("%d mails received, want %d", len(b.got), want)
	}
}

// TestSMTPAuthNeedsTLS: a token goes over TLS or to localhost only.
func TestSMTPAuthNeedsTLS(t *testing.T) {
	a := bearer.SMTPAuth(bearer.NewXOAUTH2Client(mailbox, goodToken))
	if _, _, err := a.Start(&gomailsmtp.ServerInfo{Name: "smtp.example.org"}); err == nil {
		t.Error("a token offered in clear to smtp.example.org")
	}
	for _, info := range []gomailsmtp.ServerInfo{{Name: "smtp.example.org", TLS: true}, {Name: "localhost"}, {Name: "127.0.0.1"}} {
		if mech, _, err := a.Start(&info); err != nil || mech != "XOAUTH2" {
			t.Errorf("%+v: %s %v", info, mech, err)
		}
	}
}
