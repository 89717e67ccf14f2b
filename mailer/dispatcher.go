package mailer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/textproto"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	gomail "github.com/wneessen/go-mail"
	gosmtp "github.com/wneessen/go-mail/smtp"
)

// Outbox is the table of outgoing mail, written by the table service in
// the same transaction as the game change (EMAIL §4.5).
type Outbox interface {
	// Due returns up to limit unsent, not permanently failed rows whose
	// next attempt time is not after now, oldest first.
	Due(ctx context.Context, now time.Time, limit int) ([]Outgoing, error)
	// Attempt records, for each try, that its number starts now and that
	// its row is due again at Next if this try does not end in Sent or a
	// permanent Failed: all of them or none. It is called BEFORE sending,
	// so that a crash mid-send retries later rather than never.
	Attempt(ctx context.Context, tries []Try) error
	// Sent marks the rows delivered to the SMTP server: all or none.
	Sent(ctx context.Context, ids []int64, at time.Time) error
	// Failed records a failed try. With permanent the row is given up (a
	// 5xx reply, or too many attempts); without it, reason is only
	// informative and the row stays due at the time given to Attempt.
	Failed(ctx context.Context, id int64, at time.Time, reason string, permanent bool) error
}

// Try is one row's attempt to send.
type Try struct {
	ID      int64
	Attempt int
	Next    time.Time
}

// Outgoing is one row of the outbox.
type Outgoing struct {
	ID int64
	// From is the envelope sender (MAIL FROM), a bare address.
	From string
	// To are the envelope recipients (RCPT TO), bare addresses.
	To []string
	// Raw is the complete message (see Compose), sent byte for byte.
	Raw []byte
	// Attempt counts the tries made so far.
	Attempt int
	// Created is when the row was written; zero disables the age limit.
	Created time.Time
}

// The defaults of the sending side that an admin may change in [smtp]:
// defined here alone; the configuration leaves a key its file does not set
// at zero, which NewDispatcher reads as the default.
//
// A correspondence game can wait for its mail, and an SMTP outage must
// delay it, not lose it: a row is tried 30 s after the first try, then
// twice as long each time up to an hour apart, for five days (150 tries
// outlast them, so the age is what gives a row up); a row written more than
// five days ago is given up without a try, so that a daemon back from a
// long stop does not send stale notices.
const (
	DefaultMaxAttempts = 150
	DefaultMaxAge      = 5 * 24 * time.Hour
	DefaultBackoffBase = 30 * time.Second
	DefaultBackoffMax  = time.Hour
	// DefaultConnections: a server that syncs each message to disk takes
	// a few milliseconds per message; four connections hide most of it.
	DefaultConnections = 4
)

// DispatcherConfig configures a Dispatcher. Zero values take the defaults
// given per field.
type DispatcherConfig struct {
	// Addr is the SMTP server, host:port.
	Addr string
	// TLS is TLSNone (tests and loopback only), TLSStartTLSOpportunistic,
	// TLSStartTLS (default) or TLSImplicit.
	TLS TLSMode
	// CAFile, when set, is the PEM bundle used to verify the server.
	CAFile string
	// Username and Password enable SMTP AUTH when Username is set (PLAIN
	// without TLS, which go-mail allows only to localhost; the strongest
	// offered mechanism with TLS).
	Username, Password string
	// Tokens, when set, logs in as Username with an OAuth2 bearer token
	// by Mechanism (bearer.XOAUTH2, the default, or bearer.OAuthBearer)
	// instead of Password.
	Tokens    OAuthTokens
	Mechanism string
	// HELO is the name given in EHLO (default "localhost").
	HELO string
	// Timeout bounds connecting and each message (default 30 s).
	Timeout time.Duration
	// Interval is how often Run looks for due rows without a Poke
	// (default 30 s).
	Interval time.Duration
	// KeepAlive is how long the connection of a batch stays open for the
	// next one (default 20 s; negative: a connection per batch). A kept
	// connection is checked with NOOP before use; one the server closed
	// is replaced.
	KeepAlive time.Duration
	// BatchSize is how many rows one RunOnce takes (default 50).
	BatchSize int
	// Connections is how many SMTP connections a batch uses at once
	// (default DefaultConnections). A server that syncs each message to disk before its
	// reply takes a few milliseconds per message; connections in parallel
	// hide that wait. The mails of one recipient share a connection, in
	// the order written, so that a player never gets a later notice first.
	Connections int
	// Backoff spaces the tries of a row (default DefaultBackoffBase
	// doubling to DefaultBackoffMax).
	Backoff Backoff
	// MaxAttempts gives a row up after this many tries (default
	// DefaultMaxAttempts); MaxAge gives up rows created longer ago
	// (default DefaultMaxAge).
	MaxAttempts int
	MaxAge      time.Duration
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Ran, when set, hears each RunOnce's Result, one that failed too.
	Ran func(Result)
	// Logger; nil discards.
	Logger *slog.Logger
}

// Dispatcher sends the outbox through SMTP with go-mail.
type Dispatcher struct {
	cfg    DispatcherConfig
	outbox Outbox
	client *gomail.Client // configured, never connected itself
	poke   chan struct{}
	log    *slog.Logger
	// idle are the connections kept from the last batch, the most
	// recently used last; the lanes of a batch take and return them.
	mu   sync.Mutex
	idle []idleConn
	// dialMu holds the client's login to one dial at a time when each
	// dial presents a token of its own.
	dialMu sync.Mutex
}

// idleConn is a connection kept between batches, and since when.
type idleConn struct {
	c  *gosmtp.Client
	at time.Time
}

// Result counts what one RunOnce did.
type Result struct {
	Sent, Retry, Failed int
}

// NewDispatcher checks cfg, fills in its defaults and returns a Dispatcher.
func NewDispatcher(cfg DispatcherConfig, outbox Outbox) (*Dispatcher, error) {
	if outbox == nil {
		return nil, fmt.Errorf("%w: dispatcher needs an outbox", ErrConfig)
	}
	host, portStr, err := net.SplitHostPort(cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("%w: smtp address %q: %w", ErrConfig, cfg.Addr, err)
	}
	port, err := strconv.Atoi(portStr)
	if err != nil {
		return nil, fmt.Errorf("%w: smtp port %q", ErrConfig, portStr)
	}
	if cfg.TLS == "" {
		cfg.TLS = TLSStartTLS
	}
	if cfg.HELO == "" {
		cfg.HELO = "localhost"
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	if cfg.Interval <= 0 {
		cfg.Interval = 30 * time.Second
	}
	if cfg.KeepAlive == 0 {
		cfg.KeepAlive = 20 * time.Second
	}
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = 50
	}
	if cfg.Connections <= 0 {
		cfg.Connections = DefaultConnections
	}
	if cfg.Backoff.Base <= 0 {
		cfg.Backoff.Base = DefaultBackoffBase
	}
	if cfg.Backoff.Max <= 0 {
		cfg.Backoff.Max = DefaultBackoffMax
	}
	if cfg.MaxAttempts <= 0 {
		cfg.MaxAttempts = DefaultMaxAttempts
	}
	if cfg.MaxAge <= 0 {
		cfg.MaxAge = DefaultMaxAge
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	opts := []gomail.Option{
		gomail.WithPort(port),
		gomail.WithTimeout(cfg.Timeout),
		gomail.WithHELO(cfg.HELO),
	}
	switch cfg.TLS {
	case TLSNone:
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
	case TLSStartTLSOpportunistic:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	case TLSStartTLS:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	case TLSImplicit:
		opts = append(opts, gomail.WithSSL())
	default:
		return nil, fmt.Errorf("%w: smtp tls mode %q (want none, opportunistic, starttls or tls)", ErrConfig, cfg.TLS)
	}
	if cfg.TLS != TLSNone {
		tc, err := tlsConfig(host, cfg.CAFile)
		if err != nil {
			return nil, err
		}
		opts = append(opts, gomail.WithTLSConfig(tc))
	}
	if cfg.Tokens != nil {
		// dial sets the login of each connection.
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthCustom))
	} else if cfg.Username != "" {
		auth := gomail.SMTPAuthAutoDiscover
		if cfg.TLS == TLSNone {
			auth = gomail.SMTPAuthPlain
		}
		opts = append(opts, gomail.WithSMTPAuth(auth),
			gomail.WithUsername(cfg.Username), gomail.WithPassword(cfg.Password))
	}
	client, err := gomail.NewClient(host, opts...)
	if err != nil {
		return nil, fmt.Errorf("%w: smtp client: %w", ErrConfig, err)
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Dispatcher{cfg: cfg, outbox: outbox, client: client, poke: make(chan struct{}, 1), log: log}, nil
}

// Poke wakes Run now (the table service pokes after each commit). It never
// blocks.
func (d *Dispatcher) Poke() {
	select {
	case d.poke <- struct{}{}:
	default:
	}
}

// Run sends due rows every Interval and after every Poke until ctx is
// done. Outbox errors are logged and retried at the next wake-up. It
// returns nil after a cancellation.
func (d *Dispatcher) Run(ctx context.Context) error {
	t := time.NewTimer(0)
	defer t.Stop()
	defer d.Close()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		case <-d.poke:
		}
		for {
			res, err := d.RunOnce(ctx)
			if err != nil && ctx.Err() == nil {
				d.log.Error("mailer: outbox run failed", "err", err)
			}
			// A full batch that made progress may leave more due rows.
			if err != nil || ctx.Err() != nil || res.Sent+res.Retry+res.Failed < d.cfg.BatchSize {
				break
			}
		}
		if !t.Stop() {
			select {
			case <-t.C:
			default:
			}
		}
		t.Reset(d.cfg.Interval)
	}
}

// RunOnce takes one batch of due rows and tries each once, over up to
// Connections SMTP connections. The loop's step, exported so that tests
// drive it with an injected clock instead of sleeping.
func (d *Dispatcher) RunOnce(ctx context.Context) (res Result, err error) {
	if d.cfg.Ran != nil {
		defer func() { d.cfg.Ran(res) }()
	}
	now := d.cfg.Now()
	rows, err := d.outbox.Due(ctx, now, d.cfg.BatchSize)
	if err != nil {
		return res, fmt.Errorf("mailer: outbox due: %w", err)
	}
	if len(rows) == 0 {
		return res, nil
	}
	// Rows past their last attempt are given up; the others' attempts
	// are recorded together, before the first is sent.
	var tries []Try
	var send []Outgoing
	for _, row := range rows {
		attempt := row.Attempt + 1
		if attempt > d.cfg.MaxAttempts || (!row.Created.IsZero() && now.Sub(row.Created) > d.cfg.MaxAge) {
			reason := fmt.Sprintf("given up after %d attempts over %s", row.Attempt, now.Sub(row.Created).Round(time.Second))
			if row.Created.IsZero() {
				reason = fmt.Sprintf("given up after %d attempts", row.Attempt)
			}
			if err := d.outbox.Failed(ctx, row.ID, now, reason, true); err != nil {
				return res, fmt.Errorf("mailer: outbox failed: %w", err)
			}
			d.log.Warn("mailer: outgoing mail given up", "outbox_id", row.ID, "message_id", messageID(row.Raw), "reason", reason)
			res.Failed++
			continue
		}
		tries = append(tries, Try{ID: row.ID, Attempt: attempt, Next: now.Add(d.cfg.Backoff.Delay(attempt))})
		send = append(send, row)
	}
	if err := d.outbox.Attempt(ctx, tries); err != nil {
		return res, fmt.Errorf("mailer: outbox attempt: %w", err)
	}
	// The batch goes out over up to Connections connections at once, a
	// recipient's rows in order on one of them. Rows sent are confirmed
	// together when all lanes are done, before the failures are recorded:
	// a crash in between sends them again (at least once; the Message-ID
	// tells the copies apart). What went out is recorded even when ctx
	// ended meanwhile.
	lanes := lanesOf(send, d.cfg.Connections)
	errs := make([]error, len(send)) // each row's outcome, written by its lane
	tried := make([]bool, len(send))
	var wg sync.WaitGroup
	for _, lane := range lanes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d.sendLane(ctx, send, lane, errs, tried)
		}()
	}
	wg.Wait()
	var sent []int64
	done := 0
	for i, row := range send {
		if !tried[i] {
			continue
		}
		done++
		if errs[i] == nil {
			d.log.Debug("mailer: mail sent", "outbox_id", row.ID, "message_id", messageID(row.Raw), "attempt", tries[i].Attempt)
			sent = append(sent, row.ID)
		}
	}
	if len(sent) > 0 {
		if err := d.outbox.Sent(context.WithoutCancel(ctx), sent, d.cfg.Now()); err != nil {
			return res, fmt.Errorf("mailer: outbox sent: %w", err)
		}
		res.Sent = len(sent)
	}
	for i, row := range send {
		if !tried[i] || errs[i] == nil {
			continue
		}
		log := d.log.With("outbox_id", row.ID, "message_id", messageID(row.Raw))
		var se *SendError
		permanent := errors.As(errs[i], &se) && se.Kind == SendPermanent
		if err := d.outbox.Failed(ctx, row.ID, d.cfg.Now(), errs[i].Error(), permanent); err != nil {
			return res, fmt.Errorf("mailer: outbox failed: %w", err)
		}
		if permanent {
			log.Warn("mailer: mail refused", "err", errs[i], "attempt", tries[i].Attempt)
			res.Failed++
		} else {
			log.Info("mailer: mail deferred", "err", errs[i], "attempt", tries[i].Attempt, "next", tries[i].Next)
			res.Retry++
		}
	}
	if err := ctx.Err(); err != nil && done < len(send) {
		return res, err
	}
	return res, nil
}

// sendLane sends the rows send[i] for i in lane, in that order, over one
// connection, until ctx ends; it marks each row it tried in tried[i] and
// its error, nil once sent, in errs[i].
func (d *Dispatcher) sendLane(ctx context.Context, send []Outgoing, lane []int, errs []error, tried []bool) {
	s := &smtpSession{d: d}
	defer d.keep(s)
	for _, i := range lane {
		if ctx.Err() != nil {
			return
		}
		errs[i], tried[i] = s.send(ctx, send[i]), true
	}
}

// lanesOf splits the rows into at most n lanes of row indexes: all rows of
// one recipient list in the same lane, in their order, and each new
// recipient in the lane with the fewest bytes so far.
func lanesOf(rows []Outgoing, n int) [][]int {
	n = max(1, min(n, len(rows)))
	lanes := make([][]int, n)
	load := make([]int, n)
	laneOf := map[string]int{}
	for i, row := range rows {
		key := strings.ToLower(strings.Join(row.To, ","))
		l, ok := laneOf[key]
		if !ok {
			l = 0
			for k := range load {
				if load[k] < load[l] {
					l = k
				}
			}
			laneOf[key] = l
		}
		lanes[l] = append(lanes[l], i)
		load[l] += len(row.Raw)
	}
	return slices.DeleteFunc(lanes, func(l []int) bool { return len(l) == 0 })
}

// smtpSession is the connection of one lane of a batch, dialled on first
// use. After a dial failure the rest of the lane fails with the same error
// without redialling.
type smtpSession struct {
	d       *Dispatcher
	c       *gosmtp.Client
	dialErr error
}

// reuse returns a connection kept from the last batch if it is recent
// and answers NOOP; it closes the stale ones it finds, and returns nil when
// none is left.
func (d *Dispatcher) reuse() *gosmtp.Client {
	for {
		d.mu.Lock()
		if len(d.idle) == 0 {
			d.mu.Unlock()
			return nil
		}
		k := d.idle[len(d.idle)-1]
		d.idle = d.idle[:len(d.idle)-1]
		d.mu.Unlock()
		if time.Since(k.at) < d.cfg.KeepAlive && k.c.UpdateDeadline(d.cfg.Timeout) == nil && k.c.Noop() == nil {
			return k.c
		}
		_ = d.client.CloseWithSMTPClient(k.c)
	}
}

// keep holds a lane's connection for the next batch, or closes it.
func (d *Dispatcher) keep(s *smtpSession) {
	if s.c == nil {
		return
	}
	if d.cfg.KeepAlive < 0 {
		s.close()
		return
	}
	d.mu.Lock()
	d.idle = append(d.idle, idleConn{s.c, time.Now()})
	d.mu.Unlock()
	s.c = nil
}

// Close closes the connections kept between batches, if any. Run does it
// when it returns; call it after driving RunOnce yourself.
func (d *Dispatcher) Close() {
	d.mu.Lock()
	idle := d.idle
	d.idle = nil
	d.mu.Unlock()
	for _, k := range idle {
		_ = d.client.CloseWithSMTPClient(k.c)
	}
}

func (s *smtpSession) close() {
	if s.c != nil {
		_ = s.d.client.CloseWithSMTPClient(s.c)
		s.c = nil
	}
}

func (s *smtpSession) send(ctx context.Context, row Outgoing) error {
	if s.dialErr != nil {
		return s.dialErr
	}
	if s.c == nil {
		s.c = s.d.reuse()
	}
	if s.c == nil {
		c, err := s.d.dial(ctx)
		if err != nil {
			s.dialErr = &SendError{Kind: SendTemporary, Code: replyCode(err), Err: fmt.Errorf("connect %s: %w", s.d.cfg.Addr, err)}
			return s.dialErr
		}
		s.c = c
	}
	err := s.transaction(row)
	if err == nil {
		return nil
	}
	code := replyCode(err)
	if code == 0 {
		// Not a reply: the connection is broken; redial for the next row.
		_ = s.c.Close()
		s.c = nil
		return &SendError{Kind: SendTemporary, Err: err}
	}
	if s.c.Reset() != nil {
		_ = s.c.Close()
		s.c = nil
	}
	kind := SendTemporary
	if code >= 500 {
		kind = SendPermanent
	}
	return &SendError{Kind: kind, Code: code, Err: err}
}

// transaction runs MAIL, RCPT and DATA with go-mail's client, whose DATA
// writer dot-stuffs the stored bytes and ends them with the final dot; its
// Close returns the server's reply to the message.
func (s *smtpSession) transaction(row Outgoing) error {
	if err := s.c.UpdateDeadline(s.d.cfg.Timeout); err != nil {
		return err
	}
	if len(row.To) == 0 {
		return &textproto.Error{Code: 554, Msg: "no recipients in outbox row"}
	}
	from, err := envelopeAddr(row.From)
	if err != nil {
		return err
	}
	if err := s.c.Mail(from); err != nil {
		return fmt.Errorf("MAIL FROM %s: %w", from, err)
	}
	for _, to := range row.To {
		rcpt, err := envelopeAddr(to)
		if err != nil {
			return err
		}
		if err := s.c.Rcpt(rcpt); err != nil {
			return fmt.Errorf("RCPT TO %s: %w", rcpt, err)
		}
	}
	w, err := s.c.Data()
	if err != nil {
		return fmt.Errorf("DATA: %w", err)
	}
	if _, err := w.Write(row.Raw); err != nil {
		return fmt.Errorf("DATA: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("end of DATA: %w", err)
	}
	return nil
}

// envelopeAddr turns a bare address into <address>; a malformed one is a
// permanent failure (554).
func envelopeAddr(a string) (string, error) {
	a = strings.TrimSpace(a)
	if a == "" || strings.ContainsAny(a, "<>\r\n \t") || !strings.Contains(a, "@") {
		return "", &textproto.Error{Code: 554, Msg: fmt.Sprintf("bad envelope address %q", a)}
	}
	return "<" + a + ">", nil
}

func replyCode(err error) int {
	var te *textproto.Error
	if errors.As(err, &te) {
		return te.Code
	}
	return 0
}

// messageID reads the Message-ID header of raw for logging, cheaply.
func messageID(raw []byte) string {
	end := len(raw)
	if i := strings.Index(string(raw[:min(end, 64<<10)]), "\r\n\r\n"); i >= 0 {
		end = i
	}
	for _, line := range strings.Split(string(raw[:min(end, 64<<10)]), "\r\n") {
		if len(line) > 11 && strings.EqualFold(line[:11], "message-id:") {
			return strings.TrimSpace(line[11:])
		}
	}
	return ""
}
