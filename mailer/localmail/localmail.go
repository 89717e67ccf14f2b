// Package localmail runs a small mail server on the loopback interface for
// `make run` and for tests: go-imap's in-memory IMAP server and a go-smtp
// server that delivers into it.
//
// With Options.Dir the mailboxes are also kept on disk, in a journal of
// every change (see journal.go), and a new Server on the same directory
// starts where the last one stopped or crashed: a message is on disk before
// SMTP answers 250 or IMAP APPEND answers OK, and keeps its UID, its
// mailbox's UIDVALIDITY and its flags. Without Dir everything is in memory
// and lost at Close.
//
// Every user has one set of mailboxes (INBOX is created with the user) and a
// password. SMTP accepts mail for user@domain and user+anything@domain (the
// part after '+' is ignored for delivery, as plus-addressing servers do) and
// appends it unchanged to that user's INBOX; unknown users are refused with
// 550. A message over Options.MaxMessageBytes is refused with 552, and a
// user's mailboxes stay within Options.MailboxQuota (see quota.go). A
// session silent for Options.SMTPTimeout, or whose DATA takes longer,
// is closed. Submission without AUTH is accepted from loopback peers unless
// Options.RequireSMTPAuth is set; AUTH PLAIN checks the same passwords as
// IMAP.
//
// The IMAP side advertises IMAP4rev1 and IMAP4rev2, so IDLE, MOVE and UIDPLUS
// are available; Options.NoMove advertises IMAP4rev1 only, without MOVE and
// UIDPLUS, to exercise clients' fallbacks.
//
// Server.KeptPassword gives the mailbox that holds secrets (the service's)
// a random password kept private in Options.Dir. The package knows nothing
// of games.
package localmail

import (
	"bytes"
	"context"
	"crypto/subtle"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/lexio-mail/lexio/mailer/bearer"
)

// ErrUnknownUser is returned for a user that was never added.
var ErrUnknownUser = errors.New("localmail: unknown user")

// ErrClosed is returned by operations on a closed server.
var ErrClosed = errors.New("localmail: server closed")

// Options configures a Server. The zero value listens on 127.0.0.1 with
// ports chosen by the system and delivers for the domain "localhost".
type Options struct {
	// IMAPAddr and SMTPAddr are the listen addresses; empty means
	// "127.0.0.1:0". Only loopback addresses are meant to be used.
	IMAPAddr, SMTPAddr string
	// Domain is the mail domain delivered locally (default "localhost").
	Domain string
	// RequireSMTPAuth refuses MAIL FROM before a successful AUTH, even from
	// loopback.
	RequireSMTPAuth bool
	// CheckToken, when set, lets IMAP and SMTP also log in with an OAuth2
	// bearer token (XOAUTH2, OAUTHBEARER), which it checks: the tests'
	// token server stands behind it. The demo leaves it nil.
	CheckToken bearer.Validator
	// NoMove advertises IMAP4rev1 without MOVE and UIDPLUS.
	NoMove bool
	// TLSConfig, when set, offers STARTTLS on both servers (plain
	// connections stay allowed, for the demo).
	TLSConfig *tls.Config
	// MaxMessageBytes limits SMTP DATA (advertised as SIZE, 552 beyond)
	// and IMAP APPEND (default 10 MiB).
	MaxMessageBytes int64
	// MailboxQuota bounds the bytes of a user's mailboxes, all together,
	// each message and mailbox counting entryBytes more (default 64 MiB).
	MailboxQuota int64
	// SMTPTimeout bounds how long an SMTP session may stay silent, and
	// how long its DATA may take from the command to the final dot
	// (default 5 minutes): then the session is closed.
	SMTPTimeout time.Duration
	// Logger receives server errors; nil discards them.
	Logger *slog.Logger
	// Dir, when set, keeps the mailboxes in this directory (created 0700),
	// which one Server at a time may use.
	Dir string
}

// Server is a running local mail server. Its methods are safe for
// concurrent use.
type Server struct {
	opts   Options
	domain string
	log    *slog.Logger

	// changeMu orders the changes to the mailboxes, so that the quota
	// holds and the journal has them in order; it is taken before mu.
	changeMu sync.Mutex
	journal  *journal // with Options.Dir; nil once closed
	broken   error    // a journal write failed: no more changes
	accounts map[string]*account

	mu       sync.Mutex
	users    map[string]*user // the users added since Start
	imapAddr string
	imap     *imapserver.Server
	imapLn   *trackingListener
	imapDone chan struct{}
	smtp     *smtp.Server
	smtpLn   net.Listener
	smtpDone chan struct{}
	closed   bool
}

type user struct {
	name, password string
	acc            *account
}

// Start listens on both ports and serves until Close or until ctx is done.
func Start(ctx context.Context, opts Options) (*Server, error) {
	if opts.IMAPAddr == "" {
		opts.IMAPAddr = "127.0.0.1:0"
	}
	if opts.SMTPAddr == "" {
		opts.SMTPAddr = "127.0.0.1:0"
	}
	if opts.MaxMessageBytes <= 0 {
		opts.MaxMessageBytes = 10 << 20
	}
	if opts.MailboxQuota <= 0 {
		opts.MailboxQuota = defaultMailboxQuota
	}
	if opts.SMTPTimeout <= 0 {
		opts.SMTPTimeout = 5 * time.Minute
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	domain := strings.ToLower(opts.Domain)
	if domain == "" {
		domain = "localhost"
	}
	s := &Server{
		opts:     opts,
		domain:   domain,
		log:      logger,
		accounts: make(map[string]*account),
		users:    make(map[string]*user),
	}
	if opts.Dir != "" {
		j, err := openJournal(opts.Dir, logger, func(rec *record) error { return replayRecord(s.accounts, rec) })
		if err != nil {
			return nil, err
		}
		s.journal = j
	}
	if err := s.startIMAP(ctx, opts.IMAPAddr); err != nil {
		s.closeJournal()
		return nil, err
	}
	if err := s.startSMTP(ctx); err != nil {
		s.stopIMAPLocked()
		s.closeJournal()
		return nil, err
	}
	go func() {
		<-ctx.Done()
		_ = s.Close()
	}()
	return s, nil
}

func (s *Server) imapCaps() imap.CapSet {
	if s.opts.NoMove {
		return imap.CapSet{imap.CapIMAP4rev1: {}}
	}
	return imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapIMAP4rev2: {}}
}

func (s *Server) startIMAP(ctx context.Context, addr string) error {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("localmail: imap listen: %w", err)
	}
	tl := &trackingListener{Listener: ln, conns: make(map[net.Conn]struct{}), accepting: make(chan struct{})}
	srv := imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return journalSession{&session{s: s}}, nil, nil
		},
		Caps:         s.imapCaps(),
		TLSConfig:    s.opts.TLSConfig,
		InsecureAuth: true,
		Logger:       slogPrintf{s.log, "imap"},
	})
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(tl); err != nil {
			s.log.Warn("localmail: imap serve", "err", err)
		}
	}()
	s.imap, s.imapLn, s.imapDone = srv, tl, done
	s.imapAddr = ln.Addr().String()
	return nil
}

func (s *Server) startSMTP(ctx context.Context) error {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", s.opts.SMTPAddr)
	if err != nil {
		return fmt.Errorf("localmail: smtp listen: %w", err)
	}
	srv := smtp.NewServer(smtpBackend{s})
	srv.Domain = s.domain
	srv.TLSConfig = s.opts.TLSConfig
	srv.AllowInsecureAuth = true
	srv.MaxMessageBytes = s.opts.MaxMessageBytes
	srv.MaxRecipients = 100
	// go-smtp sets the read deadline before each command only: a DATA
	// that never ends (v0.25.1 misses the final dot after a lone CR)
	// runs into the deadline of its command.
	srv.ReadTimeout = s.opts.SMTPTimeout
	srv.WriteTimeout = s.opts.SMTPTimeout
	srv.ErrorLog = slogPrintf{s.log, "smtp"}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, smtp.ErrServerClosed) && !errors.Is(err, net.ErrClosed) {
			s.log.Warn("localmail: smtp serve", "err", err)
		}
	}()
	s.smtp, s.smtpLn, s.smtpDone = srv, ln, done
	return nil
}

// IMAPAddr is the IMAP listen address (host:port).
func (s *Server) IMAPAddr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.imapAddr
}

// SMTPAddr is the SMTP listen address (host:port).
func (s *Server) SMTPAddr() string {
	return s.smtpLn.Addr().String()
}

// Domain is the mail domain delivered locally.
func (s *Server) Domain() string { return s.domain }

// AddUser lets a user log in and receive mail, with a new INBOX, or with
// the mailboxes it had in Options.Dir. Adding a user twice to one Server
// changes nothing and returns an error.
func (s *Server) AddUser(name, password string) error {
	name = strings.ToLower(name)
	if name == "" || strings.ContainsAny(name, "+@ \t\r\n") {
		return fmt.Errorf("localmail: invalid user name %q", name)
	}
	s.changeMu.Lock()
	defer s.changeMu.Unlock()
	s.mu.Lock()
	closed, added := s.closed, s.users[name] != nil
	s.mu.Unlock()
	if closed {
		return ErrClosed
	}
	if added {
		return fmt.Errorf("localmail: user %q exists", name)
	}
	acc := s.accounts[name]
	if acc == nil {
		if err := s.usableLocked(); err != nil {
			return err
		}
		var err error
		if acc, err = newAccount(name); err != nil {
			return err
		}
		s.accounts[name] = acc
		if err := s.writeLocked(&record{Op: opUser, User: name}); err != nil {
			return err
		}
	}
	s.mu.Lock()
	s.users[name] = &user{name: name, password: password, acc: acc}
	s.mu.Unlock()
	return nil
}

// Deliver appends raw to the INBOX of the user that address names
// (user@domain or user+tag@domain), as SMTP delivery does.
func (s *Server) Deliver(address string, raw []byte) error {
	u, err := s.lookup(address)
	if err != nil {
		return err
	}
	if err := s.deliver([]*user{u}, raw, time.Now()); err != nil {
		return fmt.Errorf("localmail: deliver to %s: %w", address, err)
	}
	return nil
}

// deliver appends raw to the INBOX of every user in us (twice to a user
// named twice), or to none when one of them has no room for it.
func (s *Server) deliver(us []*user, raw []byte, t time.Time) error {
	s.changeMu.Lock()
	defer s.changeMu.Unlock()
	if err := s.usableLocked(); err != nil {
		return err
	}
	need := make(map[*user]int64)
	for _, u := range us {
		need[u] += messageCost(int64(len(raw)))
		if err := s.roomLocked(u.acc, need[u]); err != nil {
			return fmt.Errorf("%s: %w", u.name, err)
		}
	}
	for _, u := range us {
		if _, err := s.appendLocked(u, "INBOX", raw, nil, t); err != nil {
			return fmt.Errorf("%s: %w", u.name, err)
		}
	}
	return nil
}

// appendMessage adds a message to a mailbox if the user has room for it.
func (s *Server) appendMessage(u *user, mailbox string, raw []byte, flags []imap.Flag, t time.Time) (*imap.AppendData, error) {
	s.changeMu.Lock()
	defer s.changeMu.Unlock()
	if err := s.usableLocked(); err != nil {
		return nil, err
	}
	if err := s.roomLocked(u.acc, messageCost(int64(len(raw)))); err != nil {
		return nil, err
	}
	return s.appendLocked(u, mailbox, raw, flags, t)
}

// appendLocked adds a message to a mailbox. With a journal, the message
// is on disk before any client can see it.
func (s *Server) appendLocked(u *user, mailbox string, raw []byte, flags []imap.Flag, t time.Time) (*imap.AppendData, error) {
	if t.IsZero() {
		t = time.Now() // the journal keeps the internal date
	}
	st, err := u.acc.Status(mailbox, &imap.StatusOptions{UIDNext: true})
	if err != nil {
		return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeTryCreate, Text: "No such mailbox"}
	}
	rec := &record{Op: opAppend, User: u.name, Mailbox: mailbox, Flags: flags, Time: t, UID: st.UIDNext, Body: raw}
	if err := s.writeLocked(rec); err != nil {
		return nil, err
	}
	data, err := u.acc.Append(mailbox, newLiteral(raw), &imap.AppendOptions{Flags: flags, Time: t})
	if err == nil && data.UID != rec.UID {
		err = fmt.Errorf("localmail: the message got UID %d, the journal says %d", data.UID, rec.UID)
	}
	if err != nil && s.journal != nil {
		s.broken = fmt.Errorf("the journal has a message the mailbox lacks: %w", err)
		s.log.Error("localmail: "+s.broken.Error(), "user", u.name, "mailbox", mailbox)
	}
	if err != nil {
		return nil, err
	}
	return data, nil
}

// change runs f, which changes the mailboxes and says how, and journals
// that before returning. f's error is returned, after the journal's.
func (s *Server) change(f func() (*record, error)) error {
	s.changeMu.Lock()
	defer s.changeMu.Unlock()
	if err := s.usableLocked(); err != nil {
		return err
	}
	rec, err := f()
	if rec != nil {
		if werr := s.writeLocked(rec); werr != nil {
			return werr
		}
	}
	return err
}

// usableLocked says whether the mailboxes may change.
func (s *Server) usableLocked() error {
	if s.broken != nil {
		return fmt.Errorf("localmail: no more changes until a restart: %w", s.broken)
	}
	if s.opts.Dir != "" && s.journal == nil {
		return ErrClosed // the journal is closed
	}
	return nil
}

// writeLocked journals rec. A failed write stops every later change: the
// memory may be ahead of the disk.
func (s *Server) writeLocked(rec *record) error {
	if s.journal == nil {
		return nil
	}
	if err := s.journal.write(rec); err != nil {
		s.broken = err
		s.log.Error("localmail: the mail journal failed; no more changes until a restart", "err", err)
		return err
	}
	return nil
}

func (s *Server) closeJournal() {
	s.changeMu.Lock()
	defer s.changeMu.Unlock()
	if s.journal != nil {
		if err := s.journal.close(); err != nil {
			s.log.Warn("localmail: close the journal", "err", err)
		}
		s.journal = nil
	}
}

// Count returns the number of messages in a user's mailbox.
func (s *Server) Count(userName, mailbox string) (int, error) {
	s.mu.Lock()
	u, ok := s.users[strings.ToLower(userName)]
	s.mu.Unlock()
	if !ok {
		return 0, fmt.Errorf("%w: %s", ErrUnknownUser, userName)
	}
	st, err := u.acc.Status(mailbox, &imap.StatusOptions{NumMessages: true})
	if err != nil {
		return 0, fmt.Errorf("localmail: status %s: %w", mailbox, err)
	}
	if st.NumMessages == nil {
		return 0, nil
	}
	return int(*st.NumMessages), nil
}

// Mailbox is the user an address of domain is delivered to: its local
// part in lower case without a +tag; ok is false for another domain or
// no address. The tests' in-process mail delivers by the same rule.
func Mailbox(address, domain string) (name string, ok bool) {
	at := strings.LastIndexByte(address, '@')
	if at < 0 || !strings.EqualFold(address[at+1:], domain) {
		return "", false
	}
	local := strings.ToLower(address[:at])
	if plus := strings.IndexByte(local, '+'); plus >= 0 {
		local = local[:plus]
	}
	return local, true
}

// lookup maps an address to its user, ignoring a +tag.
func (s *Server) lookup(address string) (*user, error) {
	local, ok := Mailbox(address, s.domain)
	if !ok {
		return nil, fmt.Errorf("%w: %s (not our domain)", ErrUnknownUser, address)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.users[local]
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrUnknownUser, address)
	}
	return u, nil
}

// mechanisms are the SASL mechanisms both servers offer: PLAIN, and the
// bearer tokens' when Options.CheckToken is set.
func (s *Server) mechanisms() []string {
	if s.opts.CheckToken == nil {
		return []string{sasl.Plain}
	}
	return []string{sasl.Plain, bearer.XOAUTH2, bearer.OAuthBearer}
}

func (s *Server) checkPassword(name, password string) bool {
	s.mu.Lock()
	u, ok := s.users[strings.ToLower(name)]
	s.mu.Unlock()
	return ok && subtle.ConstantTimeCompare([]byte(password), []byte(u.password)) == 1
}

// DropIMAPConnections closes every open IMAP connection, as a network
// failure would, and keeps listening. Mailbox contents are kept.
func (s *Server) DropIMAPConnections() {
	s.mu.Lock()
	tl := s.imapLn
	s.mu.Unlock()
	if tl != nil {
		tl.dropAll()
	}
}

// StopIMAP stops the IMAP listener and closes its connections, keeping the
// mailboxes, as a server restart does; StartIMAP listens again on the same
// address.
func (s *Server) StopIMAP() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopIMAPLocked()
}

func (s *Server) stopIMAPLocked() {
	if s.imap == nil {
		return
	}
	select {
	case <-s.imapLn.accepting: // Serve is in its loop
	case <-s.imapDone: // or gone
	}
	_ = s.imap.Close()
	// Close the listener too: Close may run before Serve registered it.
	_ = s.imapLn.Close()
	s.imapLn.dropAll()
	<-s.imapDone
	s.imap, s.imapLn, s.imapDone = nil, nil, nil
}

// StartIMAP listens again on the address used before StopIMAP.
func (s *Server) StartIMAP(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	if s.imap != nil {
		return nil
	}
	return s.startIMAP(ctx, s.imapAddr)
}

// Close stops both servers.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.stopIMAPLocked()
	srv, ln, done := s.smtp, s.smtpLn, s.smtpDone
	s.mu.Unlock()
	err := srv.Close()
	_ = ln.Close() // in case Close ran before Serve registered it
	<-done
	s.closeJournal()
	if err != nil && !errors.Is(err, net.ErrClosed) && !errors.Is(err, smtp.ErrServerClosed) {
		return fmt.Errorf("localmail: close smtp: %w", err)
	}
	return nil
}

// trackingListener remembers accepted connections so they can be dropped.
type trackingListener struct {
	net.Listener
	mu    sync.Mutex
	conns map[net.Conn]struct{}
	// accepting is closed at the first Accept: the IMAP server's Serve
	// has counted itself in its wait group by then, which its Close waits
	// on (a Close before that count races with it).
	accepting chan struct{}
	once      sync.Once
}

func (l *trackingListener) Accept() (net.Conn, error) {
	l.once.Do(func() { close(l.accepting) })
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	tc := &trackedConn{Conn: c, l: l}
	l.mu.Lock()
	l.conns[tc] = struct{}{}
	l.mu.Unlock()
	return tc, nil
}

func (l *trackingListener) dropAll() {
	l.mu.Lock()
	conns := make([]net.Conn, 0, len(l.conns))
	for c := range l.conns {
		conns = append(conns, c)
	}
	l.mu.Unlock()
	for _, c := range conns {
		_ = c.Close()
	}
}

type trackedConn struct {
	net.Conn
	l    *trackingListener
	once sync.Once
}

func (c *trackedConn) Close() error {
	c.once.Do(func() {
		c.l.mu.Lock()
		delete(c.l.conns, c)
		c.l.mu.Unlock()
	})
	return c.Conn.Close()
}

// literal adapts a bytes.Reader to imap.LiteralReader.
type literal struct{ *bytes.Reader }

func newLiteral(b []byte) literal { return literal{bytes.NewReader(b)} }

func (l literal) Size() int64 { return l.Reader.Size() }

// slogPrintf adapts slog to the Printf loggers of the two servers.
type slogPrintf struct {
	log  *slog.Logger
	side string
}

func (p slogPrintf) Printf(format string, args ...any) {
	p.log.Debug("localmail: "+p.side, "msg", fmt.Sprintf(format, args...))
}

func (p slogPrintf) Println(args ...any) {
	p.log.Debug("localmail: "+p.side, "msg", fmt.Sprint(args...))
}

// smtpBackend delivers SMTP transactions into the in-memory mailboxes.
type smtpBackend struct{ s *Server }

func (b smtpBackend) NewSession(c *smtp.Conn) (smtp.Session, error) {
	loopback := false
	if ta, ok := c.Conn().RemoteAddr().(*net.TCPAddr); ok {
		loopback = ta.IP.IsLoopback()
	}
	return &smtpSession{s: b.s, conn: c.Conn(), loopback: loopback}, nil
}

type smtpSession struct {
	s        *Server
	conn     net.Conn
	loopback bool
	authed   bool
	from     string
	size     int64 // MAIL FROM's SIZE, 0 when not given
	rcpts    []*user
}

var _ smtp.AuthSession = (*smtpSession)(nil)

func (ss *smtpSession) AuthMechanisms() []string { return ss.s.mechanisms() }

func (ss *smtpSession) Auth(mech string) (sasl.Server, error) {
	if mech != sasl.Plain {
		if ss.s.opts.CheckToken == nil {
			return nil, smtp.ErrAuthUnsupported
		}
		return bearer.NewServer(mech, func(user, token string) error {
			if err := ss.s.opts.CheckToken(user, token); err != nil {
				return &smtp.SMTPError{Code: 535, EnhancedCode: smtp.EnhancedCode{5, 7, 8}, Message: "Authentication failed"}
			}
			ss.authed = true
			return nil
		})
	}
	return sasl.NewPlainServer(func(identity, username, password string) error {
		if identity != "" && identity != username {
			return errors.New("localmail: identity mismatch")
		}
		if !ss.s.checkPassword(username, password) {
			return &smtp.SMTPError{Code: 535, EnhancedCode: smtp.EnhancedCode{5, 7, 8}, Message: "Authentication failed"}
		}
		ss.authed = true
		return nil
	}), nil
}

func (ss *smtpSession) Mail(from string, opts *smtp.MailOptions) error {
	if !ss.authed && (ss.s.opts.RequireSMTPAuth || !ss.loopback) {
		return &smtp.SMTPError{Code: 530, EnhancedCode: smtp.EnhancedCode{5, 7, 0}, Message: "Authentication required"}
	}
	ss.from = from
	ss.size = 0
	if opts != nil {
		ss.size = opts.Size // go-smtp refused it beyond MaxMessageBytes
	}
	ss.rcpts = nil
	return nil
}

func (ss *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	u, err := ss.s.lookup(to)
	if err != nil {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "No such user here"}
	}
	// A full mailbox is refused now rather than after the DATA.
	ss.s.changeMu.Lock()
	err = ss.s.roomLocked(u.acc, messageCost(ss.size))
	ss.s.changeMu.Unlock()
	if err != nil {
		return ss.quotaError(ss.size)
	}
	ss.rcpts = append(ss.rcpts, u)
	return nil
}

// quotaError is the answer to a message of size bytes that a mailbox has
// no room for: 452, to try again once mail was read and deleted, or 552
// when the message is larger than any mailbox may hold (RFC 3463 X.2.2
// and X.2.3).
func (ss *smtpSession) quotaError(size int64) error {
	if ss.s.neverFits(size) {
		return &smtp.SMTPError{Code: 552, EnhancedCode: smtp.EnhancedCode{5, 2, 3}, Message: "Message larger than the mailbox quota"}
	}
	return &smtp.SMTPError{Code: 452, EnhancedCode: smtp.EnhancedCode{4, 2, 2}, Message: "Mailbox full"}
}

func (ss *smtpSession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r) // at most MaxMessageBytes: go-smtp's reader stops there
	if err != nil {
		if ne, ok := errors.AsType[net.Error](err); ok && ne.Timeout() {
			// The DATA outlived its deadline: end the session, which
			// go-smtp would otherwise keep for another command.
			ss.s.log.Warn("localmail: smtp DATA timed out; closing the session", "remote", ss.conn.RemoteAddr().String())
			_ = ss.conn.Close()
		}
		return err
	}
	// With a journal, the message is on disk when this returns and the
	// client reads 250.
	if err := ss.s.deliver(ss.rcpts, raw, time.Now()); err != nil {
		if errors.Is(err, ErrOverQuota) {
			return ss.quotaError(int64(len(raw)))
		}
		ss.s.log.Warn("localmail: smtp delivery", "err", err)
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "Mailbox unavailable"}
	}
	return nil
}

func (ss *smtpSession) Reset() {
	ss.from = ""
	ss.size = 0
	ss.rcpts = nil
}

func (ss *smtpSession) Logout() error { return nil }
