package mailer

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/textproto"
	"strconv"
	"strings"
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
	// Backoff spaces the tries of a row (default 30 s doubling to 1 h).
	Backoff Backoff
	// MaxAttempts gives a row up after this many tries (default 12);
	// MaxAge gives up rows created longer ago (default 72 h).
	MaxAttempts int
	MaxAge      time.Duration
	// Now is the clock (default time.Now).
	Now func() time.Time
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
	// idle is the connection kept from the last batch, since idleAt; only
	// the goroutine that calls RunOnce touches it.
	idle   *gosmtp.Client
	idleAt time.Time
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
	if cfg.Backoff.Base <= 0 {
		cfg.Backoff.Base = 30 * time.Second
	}
	if cfg.Backoff.Max <= 0 {
		cfg.Backoff.Max = time.Hour
	}
	if cfg.MaxAttempts <= 0 {
		cfg.MaxAttempts = 12
	}
	if cfg.MaxAge <= 0 {
		cfg.MaxAge = 72 * time.Hour
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
	if cfg.Username != "" {
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

// RunOnce takes one batch of due rows and tries each once, over one SMTP
// connection. The loop's step, exported so that tests drive it with an
// injected clock instead of sleeping.
func (d *Dispatcher) RunOnce(ctx context.Context) (Result, error) {
	var res Result
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
	// Rows sent are confirmed together at the end of the batch, or before
	// a failure is recorded: a crash in between sends them again (at
	// least once; the Message-ID tells the copies apart).
	// What went out is recorded even when ctx ended meanwhile.
	var sent []int64
	confirm := func() error {
		if err := d.outbox.Sent(context.WithoutCancel(ctx), sent, d.cfg.Now()); err != nil {
			return fmt.Errorf("mailer: outbox sent: %w", err)
		}
		res.Sent += len(sent)
		sent = sent[:0]
		return nil
	}
	s := &smtpSession{d: d}
	defer d.keep(s)
	for i, row := range send {
		if ctx.Err() != nil {
			if err := confirm(); err != nil {
				return res, err
			}
			return res, ctx.Err()
		}
		log := d.log.With("outbox_id", row.ID, "message_id", messageID(row.Raw))
		sendErr := s.send(ctx, row)
		if sendErr == nil {
			log.Debug("mailer: mail sent", "attempt", tries[i].Attempt)
			sent = append(sent, row.ID)
			continue
		}
		if err := confirm(); err != nil {
			return res, err
		}
		var se *SendError
		permanent := errors.As(sendErr, &se) && se.Kind == SendPermanent
		if err := d.outbox.Failed(ctx, row.ID, d.cfg.Now(), sendErr.Error(), permanent); err != nil {
			return res, fmt.Errorf("mailer: outbox failed: %w", err)
		}
		if permanent {
			log.Warn("mailer: mail refused", "err", sendErr, "attempt", tries[i].Attempt)
			res.Failed++
		} else {
			log.Info("mailer: mail deferred", "err", sendErr, "attempt", tries[i].Attempt, "next", tries[i].Next)
			res.Retry++
		}
	}
	if err := confirm(); err != nil {
		return res, err
	}
	return res, nil
}

// smtpSession is the connection of one batch, dialled on first use. After
// a dial failure the rest of the batch fails with the same error without
// redialling.
type smtpSession struct {
	d       *Dispatcher
	c       *gosmtp.Client
	dialErr error
}

// reuse returns the connection kept from the last batch if it is recent
// and answers NOOP; else it closes it and returns nil.
func (d *Dispatcher) reuse() *gosmtp.Client {
	c := d.idle
	d.idle = nil
	if c == nil {
		return nil
	}
	if time.Since(d.idleAt) < d.cfg.KeepAlive && c.UpdateDeadline(d.cfg.Timeout) == nil && c.Noop() == nil {
		return c
	}
	_ = d.client.CloseWithSMTPClient(c)
	return nil
}

// keep holds the batch's connection for the next one, or closes it.
func (d *Dispatcher) keep(s *smtpSession) {
	if s.c == nil {
		return
	}
	if d.cfg.KeepAlive < 0 {
		s.close()
		return
	}
	d.idle, d.idleAt = s.c, time.Now()
	s.c = nil
}

// Close closes the connection kept between batches, if any. Run does it
// when it returns; call it after driving RunOnce yourself.
func (d *Dispatcher) Close() {
	if d.idle != nil {
		_ = d.client.CloseWithSMTPClient(d.idle)
		d.idle = nil
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
		c, err := s.d.client.DialToSMTPClientWithContext(ctx)
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

// transaction runs MAIL, RCPT and DATA with the stored bytes as they are.
func (s *smtpSession) transaction(row Outgoing) error {
	if err := s.c.UpdateDeadline(s.d.cfg.Timeout); err != nil {
		return err
	}
	from, err := envelopeAddr(row.From)
	if err != nil {
		return err
	}
	if err := s.c.Mail(from); err != nil {
		return fmt.Errorf("MAIL FROM %s: %w", from, err)
	}
	if len(row.To) == 0 {
		return &textproto.Error{Code: 554, Msg: "no recipients in outbox row"}
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
	if err := writeData(s.c.Text.W, w, row.Raw); err != nil {
		_ = w.Close()
		return fmt.Errorf("DATA: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("end of DATA: %w", err)
	}
	return nil
}

// writeData writes a message for DATA. A message in CRLF lines (all that
// Compose writes) goes straight to the connection's buffer, dot-stuffed
// here, a run of lines at a time: textproto's dot writer, which dot is
// left to end it, handles one byte per call, and a move's notices are
// 150 KB. Anything else goes through dot (which also mends bare LFs).
func writeData(conn *bufio.Writer, dot io.Writer, raw []byte) (err error) {
	crlf := bytes.HasSuffix(raw, []byte("\r\n")) && bytes.Count(raw, []byte("\n")) == bytes.Count(raw, []byte("\r\n"))
	if !crlf {
		_, err := dot.Write(raw)
		return err
	}
	// The last CRLF goes through dot, which then stands at the start of
	// a line: its Close writes the final ".\r\n" alone.
	defer func() {
		if err == nil {
			_, err = dot.Write([]byte("\r\n"))
		}
	}()
	rest := raw[:len(raw)-2]
	if len(rest) > 0 && rest[0] == '.' {
		if err = conn.WriteByte('.'); err != nil {
			return err
		}
	}
	for {
		i := bytes.Index(rest, []byte("\n."))
		if i < 0 {
			_, err = conn.Write(rest)
			return err
		}
		if _, err = conn.Write(rest[:i+2]); err != nil { // up to and with the dot
			return err
		}
		if err = conn.WriteByte('.'); err != nil {
			return err
		}
		rest = rest[i+2:]
	}
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
