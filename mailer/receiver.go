package mailer

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"runtime/debug"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// Handler consumes inbound mail. It is implemented by the table service.
//
// HandleMessage returns nil once the message is applied, or recognised as a
// duplicate, or deliberately ignored (malformed, oversized, a loop…) — in
// every case after its transaction committed. Only then does the Receiver
// flag and move the message. Any error means "temporary, try again later":
// the message stays in the inbox and is handed over again after a backoff,
// and the messages after it wait (order is kept). A message that can never
// be applied should be answered with nil, never with an error.
//
// No message is tried forever: after ReceiverConfig.MaxAttempts errors in
// a row, or at once when HandleMessage panics (the panic is recovered),
// the Receiver gives the message up: it hands it to the Handler's Failed
// when the Handler is a FailureRecorder, and moves it to the processed
// folder once Failed returned nil. The ctx HandleMessage gets ends after
// ReceiverConfig.HandleTimeout. A handling that never returned (the
// daemon was killed during it, say out of memory) leaves a keyword on the
// message ($LexioTry1, $LexioTry2 …, set before the message is handed
// over and removed once HandleMessage returned): a message with
// MaxAttempts of them is given up without being handed over again, so
// that a message that kills the daemon does not kill it at every start.
//
// The ctx HandleMessage gets is not cancelled when Run's is: a stop lets
// the message in hand commit (within ReceiverConfig.ShutdownGrace) and
// hands over no new one.
//
// A message can be handed over more than once (a crash or a lost connection
// between the commit and the move): the Handler dedupes by Message-ID or by
// UIDValidity+UID.
type Handler interface {
	HandleMessage(ctx context.Context, m Inbound) error
}

// FailureRecorder is implemented by a Handler that records the messages
// the Receiver gives up on. Failed returns nil once the message and err
// are recorded (or were already); an error leaves the message in the
// inbox, handed over again after a backoff. Failed must not read the
// message's body: its reading may be what failed.
type FailureRecorder interface {
	Failed(ctx context.Context, m Inbound, err error) error
}

// HandlerFunc adapts a function to Handler.
type HandlerFunc func(ctx context.Context, m Inbound) error

// HandleMessage calls f.
func (f HandlerFunc) HandleMessage(ctx context.Context, m Inbound) error { return f(ctx, m) }

// Inbound is one message of the inbox.
type Inbound struct {
	// UIDValidity and UID name the message in Mailbox.
	UIDValidity, UID uint32
	// Raw is the whole RFC 822 message, exactly as stored on the server —
	// unless Truncated, when it holds only the header section.
	Raw     []byte
	Mailbox string
	// Size is the server's RFC822.SIZE of the whole message.
	Size int64
	// Truncated is set when Size exceeds ReceiverConfig.MaxMessageBytes: the
	// body was not fetched (memory stays bounded) and Raw is the header
	// only, enough to tell the sender that the message was too large
	// (EMAIL §2.5).
	Truncated bool
}

// ReceiverConfig configures a Receiver. Zero durations take the defaults
// given per field.
type ReceiverConfig struct {
	// Addr is the IMAP server, host:port.
	Addr string
	// TLS is TLSNone, TLSStartTLS or TLSImplicit (default TLSImplicit).
	TLS TLSMode
	// CAFile, when set, is the PEM bundle used to verify the server instead
	// of the system roots.
	CAFile             string
	Username, Password string
	// Tokens, when set, logs in as Username with an OAuth2 bearer token
	// by Mechanism (bearer.XOAUTH2, the default, or bearer.OAuthBearer)
	// instead of Password.
	Tokens    OAuthTokens
	Mechanism string
	// Mailbox is read (default "INBOX"); handled messages are moved to
	// Processed (default "Processed"), which is created when missing.
	Mailbox, Processed string
	// PollInterval is the wait between checks without IDLE, and the longest
	// IDLE before a re-check (default 1 min).
	PollInterval time.Duration
	// DisableIdle polls even when the server has IDLE.
	DisableIdle bool
	// MaxMessageBytes: larger messages are handed over Truncated (default
	// 1 MiB).
	MaxMessageBytes int64
	// Reconnect spaces reconnection attempts (default 1 s doubling to 5 min).
	Reconnect Backoff
	// Retry spaces retries after a Handler error (default 5 s doubling to
	// 5 min).
	Retry Backoff
	// MaxAttempts is how many times in a row a message may fail before it
	// is given up (default 5: about a minute and a quarter with the
	// default Retry). See Handler.
	MaxAttempts int
	// HandleTimeout bounds each handling of a message: its ctx ends then
	// (default 2 min).
	HandleTimeout time.Duration
	// DialTimeout bounds connecting and logging in (default 30 s).
	DialTimeout time.Duration
	// ShutdownGrace is how long a cancelled Run lets the message in hand
	// finish (handler, flag, move) before it cancels the handler's context
	// and closes the connection (default 10 s). The handler's context is
	// not cancelled with Run's: a stop takes no new message but lets the
	// one in hand commit.
	ShutdownGrace time.Duration
	// Connected, when set, hears true after each login and select, and
	// false when that connection ends (lost, or at a stop).
	Connected func(bool)
	// Logger; nil discards.
	Logger *slog.Logger
}

// Receiver reads a mailbox and hands every message to a Handler. See
// Handler for the delivery contract.
type Receiver struct {
	cfg     ReceiverConfig
	tls     *tls.Config
	handler Handler
	log     *slog.Logger
	// failed counts the failed attempts in a row of the messages that
	// failed and are still in the mailbox. Only Run's goroutine uses it,
	// as noKeywords: the server refused a tryPrefix keyword once.
	failed     map[messageKey]int
	noKeywords bool
}

// messageKey names a message of the mailbox across sessions.
type messageKey struct{ uidValidity, uid uint32 }

// NewReceiver checks cfg, fills in its defaults and returns a Receiver.
func NewReceiver(cfg ReceiverConfig, h Handler) (*Receiver, error) {
	if cfg.Addr == "" || h == nil {
		return nil, fmt.Errorf("%w: receiver needs an address and a handler", ErrConfig)
	}
	host, _, err := net.SplitHostPort(cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("%w: imap address %q: %w", ErrConfig, cfg.Addr, err)
	}
	if cfg.TLS == "" {
		cfg.TLS = TLSImplicit
	}
	r := &Receiver{handler: h, failed: make(map[messageKey]int)}
	switch cfg.TLS {
	case TLSNone:
	case TLSStartTLS, TLSImplicit:
		if r.tls, err = tlsConfig(host, cfg.CAFile); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("%w: imap tls mode %q (want none, starttls or tls)", ErrConfig, cfg.TLS)
	}
	if cfg.Mailbox == "" {
		cfg.Mailbox = "INBOX"
	}
	if cfg.Processed == "" {
		cfg.Processed = "Processed"
	}
	if cfg.Processed == cfg.Mailbox {
		return nil, fmt.Errorf("%w: processed folder must differ from the mailbox", ErrConfig)
	}
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = time.Minute
	}
	if cfg.MaxMessageBytes <= 0 {
		cfg.MaxMessageBytes = 1 << 20
	}
	if cfg.Reconnect.Base <= 0 {
		cfg.Reconnect.Base = time.Second
	}
	if cfg.Reconnect.Max <= 0 {
		cfg.Reconnect.Max = 5 * time.Minute
	}
	if cfg.Retry.Base <= 0 {
		cfg.Retry.Base = 5 * time.Second
	}
	if cfg.Retry.Max <= 0 {
		cfg.Retry.Max = 5 * time.Minute
	}
	if cfg.MaxAttempts <= 0 {
		cfg.MaxAttempts = 5
	}
	if cfg.HandleTimeout <= 0 {
		cfg.HandleTimeout = 2 * time.Minute
	}
	if cfg.DialTimeout <= 0 {
		cfg.DialTimeout = 30 * time.Second
	}
	if cfg.ShutdownGrace <= 0 {
		cfg.ShutdownGrace = 10 * time.Second
	}
	r.log = cfg.Logger
	if r.log == nil {
		r.log = slog.New(slog.DiscardHandler)
	}
	r.cfg = cfg
	return r, nil
}

// Run reads the mailbox until ctx is done, reconnecting with backoff after
// any connection failure. It returns nil after a cancellation.
func (r *Receiver) Run(ctx context.Context) error {
	failures := 0
	for {
		progressed, err := r.session(ctx)
		if progressed && r.cfg.Connected != nil {
			r.cfg.Connected(false)
		}
		if ctx.Err() != nil {
			return nil
		}
		if progressed {
			failures = 0
		}
		failures++
		d := r.cfg.Reconnect.Delay(failures)
		r.log.Warn("mailer: imap connection lost", "err", err, "retry_in", d, "failures", failures)
		if !sleep(ctx, d) {
			return nil
		}
	}
}

// session runs one connection: log in, then handle and wait until an error
// or ctx. progressed reports that the login succeeded.
func (r *Receiver) session(ctx context.Context) (progressed bool, err error) {
	events := make(chan struct{}, 1)
	c, err := r.dial(ctx, events)
	if err != nil {
		return false, err
	}
	// Two phases: ctx ending stops the taking of new messages, while the
	// handler in flight runs under work, which ends only when the session
	// returns or the grace period is over. Then the watcher also closes
	// the connection (a hung server or handler).
	work, cancelWork := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	defer func() {
		close(done)
		cancelWork()
		_ = c.Close()
	}()
	go func() {
		select {
		case <-done:
			return
		case <-ctx.Done():
		}
		t := time.NewTimer(r.cfg.ShutdownGrace)
		defer t.Stop()
		select {
		case <-done:
		case <-t.C:
			cancelWork()
			_ = c.Close()
		}
	}()

	uidValidity, err := r.prepare(c)
	if err != nil {
		return false, err
	}
	r.log.Info("mailer: imap connected", "addr", r.cfg.Addr, "mailbox", r.cfg.Mailbox,
		"idle", r.canIdle(c), "move", c.Caps().Has(imap.CapMove))
	if r.cfg.Connected != nil {
		r.cfg.Connected(true)
	}
	for {
		if err := r.drain(ctx, work, c, uidValidity, events); err != nil {
			return true, err
		}
		if ctx.Err() != nil {
			_ = c.Logout().Wait()
			return true, nil
		}
		if err := r.wait(ctx, c, events); err != nil {
			return true, err
		}
		if ctx.Err() != nil {
			_ = c.Logout().Wait()
			return true, nil
		}
	}
}

// dial connects and logs in.
func (r *Receiver) dial(ctx context.Context, events chan struct{}) (*imapclient.Client, error) {
	dctx, cancel := context.WithTimeout(ctx, r.cfg.DialTimeout)
	defer cancel()
	c, conn, err := r.connect(dctx, events)
	if err != nil {
		return nil, err
	}
	if err := imapLogin(ctx, c, r.cfg.Username, r.cfg.Password, r.cfg.Tokens, r.cfg.Mechanism); err != nil {
		_ = c.Close()
		return nil, err
	}
	_ = conn.SetDeadline(time.Time{})
	return c, nil
}

// connect dials the server with the configured TLS and reads its
// greeting. The connection's deadline, DialTimeout from now, also bounds
// the login that follows; the caller clears it.
func (r *Receiver) connect(dctx context.Context, events chan struct{}) (*imapclient.Client, net.Conn, error) {
	var d net.Dialer
	conn, err := d.DialContext(dctx, "tcp", r.cfg.Addr)
	if err != nil {
		return nil, nil, fmt.Errorf("mailer: imap dial: %w", err)
	}
	opts := &imapclient.Options{
		TLSConfig: r.tls,
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{
			// Runs on the client's reader goroutine: only signal.
			Mailbox: func(data *imapclient.UnilateralDataMailbox) {
				if data.NumMessages != nil {
					select {
					case events <- struct{}{}:
					default:
					}
				}
			},
		},
	}
	// Bound the greeting, TLS and login by the dial timeout.
	_ = conn.SetDeadline(time.Now().Add(r.cfg.DialTimeout))
	var c *imapclient.Client
	switch r.cfg.TLS {
	case TLSImplicit:
		tc := tls.Client(conn, r.tls)
		if err := tc.HandshakeContext(dctx); err != nil {
			_ = conn.Close()
			return nil, nil, fmt.Errorf("mailer: imap tls: %w", err)
		}
		c = imapclient.New(tc, opts)
	case TLSStartTLS:
		if c, err = imapclient.NewStartTLS(conn, opts); err != nil {
			return nil, nil, fmt.Errorf("mailer: imap starttls: %w", err)
		}
	default:
		c = imapclient.New(conn, opts)
	}
	if err := c.WaitGreeting(); err != nil {
		_ = c.Close()
		return nil, nil, fmt.Errorf("mailer: imap greeting: %w", err)
	}
	return c, conn, nil
}

// prepare creates the processed folder when missing and selects the
// mailbox.
func (r *Receiver) prepare(c *imapclient.Client) (uidValidity uint32, err error) {
	list, err := c.List("", r.cfg.Processed, nil).Collect()
	if err != nil {
		return 0, fmt.Errorf("mailer: imap list %q: %w", r.cfg.Processed, err)
	}
	if len(list) == 0 {
		if err := c.Create(r.cfg.Processed, nil).Wait(); err != nil {
			return 0, fmt.Errorf("mailer: imap create %q: %w", r.cfg.Processed, err)
		}
		r.log.Info("mailer: created processed folder", "mailbox", r.cfg.Processed)
	}
	sel, err := c.Select(r.cfg.Mailbox, nil).Wait()
	if err != nil {
		return 0, fmt.Errorf("mailer: imap select %q: %w", r.cfg.Mailbox, err)
	}
	return sel.UIDValidity, nil
}

func (r *Receiver) canIdle(c *imapclient.Client) bool {
	return !r.cfg.DisableIdle && c.Caps().Has(imap.CapIdle)
}

// drain hands over every message of the mailbox, oldest UID first, until
// none is left. A Handler error waits the Retry backoff and starts again
// from the oldest message, unless the message is given up (see Handler).
// It returns on a connection error or ctx, after moving what was handled;
// the Handler runs under work, which outlives ctx so that the message in
// hand commits.
func (r *Receiver) drain(ctx, work context.Context, c *imapclient.Client, uidValidity uint32, events chan struct{}) error {
	failures := 0
	for ctx.Err() == nil {
		// Anything signalled so far is covered by the search below.
		select {
		case <-events:
		default:
		}
		data, err := c.UIDSearch(&imap.SearchCriteria{NotFlag: []imap.Flag{imap.FlagDeleted}}, nil).Wait()
		if err != nil {
			return fmt.Errorf("mailer: imap search: %w", err)
		}
		uids := data.AllUIDs()
		r.forget(uidValidity, uids)
		if len(uids) == 0 {
			return nil
		}
		sizes, err := r.sizes(c, uids)
		if err != nil {
			return err
		}
		// In batches: one FETCH for the bodies of several messages, one
		// STORE and one MOVE for those handled.
		for len(uids) > 0 {
			if ctx.Err() != nil {
				return nil
			}
			batch := r.batch(uids, sizes)
			uids = uids[len(batch):]
			msgs, tries, err := r.fetch(c, batch, sizes, uidValidity)
			if err != nil {
				return err
			}
			var handled []imap.UID
			failed := false
			for _, uid := range batch {
				in, ok := msgs[uid]
				if !ok || ctx.Err() != nil {
					continue // expunged meanwhile by someone else; or stopping
				}
				log := r.log.With("mailbox", r.cfg.Mailbox, "uid", uid, "uidvalidity", uidValidity)
				key := messageKey{uidValidity, uint32(uid)}
				var err error
				if n := tries[uid]; n >= r.cfg.MaxAttempts {
					err = r.giveUp(work, in, fmt.Errorf("mailer: %d handlings never returned (the daemon stopped during each)", n), n, log)
				} else {
					// Marked before, unmarked once it returned: a mark left
					// is a handling that never returned.
					try := tryKeyword(n + 1)
					if err := r.keyword(c, uid, try, imap.StoreFlagsAdd, log); err != nil {
						return err
					}
					err = r.handle(work, in)
					if work.Err() == nil {
						if err := r.keyword(c, uid, try, imap.StoreFlagsDel, log); err != nil {
							return err
						}
					}
					if err != nil && work.Err() == nil { // a stop is no failure of the message's
						r.failed[key]++
						if r.failed[key] >= r.cfg.MaxAttempts || errors.As(err, new(*panicError)) {
							err = r.giveUp(work, in, err, r.failed[key], log)
						}
					}
				}
				if err != nil {
					failures++
					d := r.cfg.Retry.Delay(failures)
					log.Warn("mailer: handler failed; message left in place", "err", err, "retry_in", d,
						"failures", failures, "attempts", r.failed[key])
					failed = true
					if err := r.finish(c, handled); err != nil {
						return err
					}
					if !sleep(ctx, d) {
						return nil
					}
					break
				}
				delete(r.failed, key)
				failures = 0
				handled = append(handled, uid)
			}
			if failed {
				break // search again
			}
			// Committed: now, and only now, flag and move them. A failure
			// here means a redelivery, which the handler dedupes.
			if err := r.finish(c, handled); err != nil {
				return err
			}
			if len(handled) > 0 {
				r.log.Debug("mailer: messages handled and moved", "count", len(handled), "to", r.cfg.Processed)
			}
		}
	}
	return nil
}

// tryPrefix starts the keywords that mark a handling in progress.
const tryPrefix = "$LexioTry"

func tryKeyword(n int) imap.Flag { return imap.Flag(fmt.Sprintf("%s%d", tryPrefix, n)) }

// keyword adds or removes a keyword of uid. A server that refuses
// keywords (a NO or BAD) only loses the count of handlings that never
// returned; any other error is the connection's, returned.
func (r *Receiver) keyword(c *imapclient.Client, uid imap.UID, k imap.Flag, op imap.StoreFlagsOp, log *slog.Logger) error {
	if r.noKeywords {
		return nil
	}
	err := c.Store(imap.UIDSetNum(uid), &imap.StoreFlags{Op: op, Silent: true, Flags: []imap.Flag{k}}, nil).Close()
	var refused *imap.Error
	if errors.As(err, &refused) {
		log.Warn("mailer: the server refused a keyword: handlings that never return are not counted", "keyword", k, "err", err)
		r.noKeywords = true
		return nil
	}
	if err != nil {
		return fmt.Errorf("mailer: imap keyword %s on uid %d: %w", k, uid, err)
	}
	return nil
}

// forget drops the failure counts of the messages no longer in the
// mailbox (moved or expunged by someone else, or of another UIDVALIDITY).
func (r *Receiver) forget(uidValidity uint32, uids []imap.UID) {
	if len(r.failed) == 0 {
		return
	}
	here := make(map[messageKey]bool, len(uids))
	for _, uid := range uids {
		here[messageKey{uidValidity, uint32(uid)}] = true
	}
	for key := range r.failed {
		if !here[key] {
			delete(r.failed, key)
		}
	}
}

// handle hands in over under a context that ends after HandleTimeout; a
// panic of the Handler is returned as a *panicError.
func (r *Receiver) handle(work context.Context, in Inbound) (err error) {
	ctx, cancel := context.WithTimeout(work, r.cfg.HandleTimeout)
	defer cancel()
	defer func() {
		if v := recover(); v != nil {
			err = &panicError{value: v, stack: debug.Stack()}
		}
	}()
	return r.handler.HandleMessage(ctx, in)
}

// panicError is a recovered panic of the Handler.
type panicError struct {
	value any
	stack []byte
}

func (e *panicError) Error() string { return fmt.Sprintf("mailer: the handler panicked: %v", e.value) }

// giveUp hands a message that failed attempts times (the last with err)
// to the Handler's Failed, if it has one. A nil result lets the message
// be moved; an error keeps it in the inbox for another try.
func (r *Receiver) giveUp(work context.Context, in Inbound, err error, attempts int, log *slog.Logger) (gerr error) {
	var pe *panicError
	if errors.As(err, &pe) {
		log.Error("mailer: the handler panicked", "panic", pe.value, "stack", string(pe.stack))
	}
	fr, ok := r.handler.(FailureRecorder)
	if !ok {
		log.Error("mailer: message given up: moved unrecorded", "err", err, "attempts", attempts)
		return nil
	}
	defer func() {
		if v := recover(); v != nil {
			gerr = fmt.Errorf("mailer: recording a failed message panicked: %v", v)
		}
	}()
	ctx, cancel := context.WithTimeout(work, r.cfg.HandleTimeout)
	defer cancel()
	if ferr := fr.Failed(ctx, in, err); ferr != nil {
		return fmt.Errorf("mailer: recording a failed message: %w (after %w)", ferr, err)
	}
	log.Error("mailer: message given up: recorded as failed", "err", err, "attempts", attempts)
	return nil
}

// Batches are bounded in messages and in bytes held at once.
const (
	batchMessages = 32
	batchBytes    = 16 << 20
)

// batch is the head of uids to fetch together: at most batchMessages, and
// no more than batchBytes of bodies unless a single message is larger.
func (r *Receiver) batch(uids []imap.UID, sizes map[imap.UID]int64) []imap.UID {
	var total int64
	for i, uid := range uids {
		size := min(sizes[uid], r.cfg.MaxMessageBytes)
		if i == batchMessages || i > 0 && total+size > batchBytes {
			return uids[:i]
		}
		total += size
	}
	return uids
}

// sizes fetches RFC822.SIZE for uids.
func (r *Receiver) sizes(c *imapclient.Client, uids []imap.UID) (map[imap.UID]int64, error) {
	msgs, err := c.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{UID: true, RFC822Size: true}).Collect()
	if err != nil {
		return nil, fmt.Errorf("mailer: imap fetch sizes: %w", err)
	}
	out := make(map[imap.UID]int64, len(msgs))
	for _, m := range msgs {
		out[m.UID] = m.RFC822Size
	}
	return out, nil
}

// fetch reads the messages uids with BODY.PEEK (no \Seen), or only the
// header of those over the size limit, and counts their tryPrefix
// keywords. A message missing from the result has vanished (or was not in
// sizes).
func (r *Receiver) fetch(c *imapclient.Client, uids []imap.UID, sizes map[imap.UID]int64, uidValidity uint32) (map[imap.UID]Inbound, map[imap.UID]int, error) {
	var whole, headers []imap.UID
	for _, uid := range uids {
		size, ok := sizes[uid]
		switch {
		case !ok:
		case size > r.cfg.MaxMessageBytes:
			headers = append(headers, uid)
		default:
			whole = append(whole, uid)
		}
	}
	out := make(map[imap.UID]Inbound, len(uids))
	tries := make(map[imap.UID]int)
	for _, part := range []struct {
		uids      []imap.UID
		section   *imap.FetchItemBodySection
		truncated bool
	}{
		{whole, &imap.FetchItemBodySection{Peek: true}, false},
		{headers, &imap.FetchItemBodySection{Peek: true, Specifier: imap.PartSpecifierHeader}, true},
	} {
		if len(part.uids) == 0 {
			continue
		}
		msgs, err := c.Fetch(imap.UIDSetNum(part.uids...), &imap.FetchOptions{
			UID:         true,
			Flags:       true,
			BodySection: []*imap.FetchItemBodySection{part.section},
		}).Collect()
		if err != nil {
			return nil, nil, fmt.Errorf("mailer: imap fetch uids %v: %w", part.uids, err)
		}
		for _, m := range msgs {
			for _, f := range m.Flags {
				if len(f) > len(tryPrefix) && strings.EqualFold(string(f[:len(tryPrefix)]), tryPrefix) {
					tries[m.UID]++
				}
			}
			out[m.UID] = Inbound{
				UIDValidity: uidValidity,
				UID:         uint32(m.UID),
				Raw:         m.FindBodySection(part.section),
				Mailbox:     r.cfg.Mailbox,
				Size:        sizes[m.UID],
				Truncated:   part.truncated,
			}
		}
	}
	return out, tries, nil
}

// finish flags uids \Seen and moves them to the processed folder: MOVE
// where the server has it, else UID COPY, \Deleted and (UID) EXPUNGE,
// which imapclient's Move does by itself.
func (r *Receiver) finish(c *imapclient.Client, uids []imap.UID) error {
	if len(uids) == 0 {
		return nil
	}
	set := imap.UIDSetNum(uids...)
	if err := c.Store(set, &imap.StoreFlags{
		Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagSeen},
	}, nil).Close(); err != nil {
		return fmt.Errorf("mailer: imap flag uids %v seen: %w", uids, err)
	}
	if _, err := c.Move(set, r.cfg.Processed).Wait(); err != nil {
		return fmt.Errorf("mailer: imap move uids %v to %q: %w", uids, r.cfg.Processed, err)
	}
	return nil
}

// wait blocks until new mail may have arrived: with IDLE until the server
// reports a new message count, else for PollInterval. Either way it gives
// up at PollInterval, on ctx or on a dropped connection.
func (r *Receiver) wait(ctx context.Context, c *imapclient.Client, events chan struct{}) error {
	select {
	case <-events:
		return nil
	default:
	}
	t := time.NewTimer(r.cfg.PollInterval)
	defer t.Stop()
	if !r.canIdle(c) {
		select {
		case <-ctx.Done():
		case <-t.C:
		case <-c.Closed():
			return errors.New("mailer: imap connection closed")
		}
		return nil
	}
	// Some servers (go-imap's in-memory one among them) report in IDLE
	// only what happens after it began: a NOOP first flushes anything
	// queued since the last command.
	if err := c.Noop().Wait(); err != nil {
		return fmt.Errorf("mailer: imap noop: %w", err)
	}
	select {
	case <-events:
		return nil
	default:
	}
	idle, err := c.Idle()
	if err != nil {
		return fmt.Errorf("mailer: imap idle: %w", err)
	}
	closed := false
	select {
	case <-ctx.Done():
	case <-t.C:
	case <-events:
	case <-c.Closed():
		closed = true
	}
	// No command may be sent while IDLE runs: stop it and wait for the
	// server's OK before going on.
	if err := idle.Close(); err != nil {
		return fmt.Errorf("mailer: imap stop idle: %w", err)
	}
	if err := idle.Wait(); err != nil {
		return fmt.Errorf("mailer: imap idle: %w", err)
	}
	if closed {
		return errors.New("mailer: imap connection closed")
	}
	return nil
}

// sleep waits d or until ctx is done; it reports whether d elapsed.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
