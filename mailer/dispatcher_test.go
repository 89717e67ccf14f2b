package mailer_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/mail"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
	"github.com/lexio-mail/lexio/mailer"
	"github.com/lexio-mail/lexio/mailer/localmail"
)

// events is an ordered log shared by the fake outbox and the SMTP sink, to
// check that attempts are recorded before the server sees the message.
type events struct {
	mu  sync.Mutex
	log []string
}

func (e *events) add(format string, args ...any) {
	e.mu.Lock()
	e.log = append(e.log, fmt.Sprintf(format, args...))
	e.mu.Unlock()
}

func (e *events) String() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return strings.Join(e.log, " ")
}

// sink is a go-smtp server that records what it receives and answers with
// the errors its reply function chooses.
type sink struct {
	t      testing.TB
	ev     *events
	addr   string
	mu     sync.Mutex
	srv    *smtp.Server
	ln     net.Listener
	done   chan struct{}
	got    []received
	mailFn func(from string) error // nil accepts
	rcptFn func(to string) error   // nil accepts
	dataFn func(n int) error       // nil accepts; n counts DATA commands from 1
	datas  int
	conns  int // connections accepted
}

type received struct {
	from string
	to   []string
	raw  []byte
}

func newSink(t testing.TB, ev *events) *sink {
	s := &sink{t: t, ev: ev, addr: "127.0.0.1:0"}
	s.start()
	t.Cleanup(s.stop)
	return s
}

func (s *sink) start() {
	ln, err := net.Listen("tcp", s.addr)
	if err != nil {
		s.t.Fatal(err)
	}
	s.addr = ln.Addr().String()
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) {
		s.mu.Lock()
		s.conns++
		s.mu.Unlock()
		return &sinkSession{s: s}, nil
	}))
	srv.Domain = "sink.test"
	srv.AllowInsecureAuth = true
	done := make(chan struct{})
	go func() { defer close(done); _ = srv.Serve(ln) }()
	s.mu.Lock()
	s.srv, s.done, s.ln = srv, done, ln
	s.mu.Unlock()
}

func (s *sink) stop() {
	s.mu.Lock()
	srv, done, ln := s.srv, s.done, s.ln
	s.srv = nil
	s.mu.Unlock()
	if srv != nil {
		_ = srv.Close()
		_ = ln.Close() // Close may run before Serve registered it
		<-done
	}
}

func (s *sink) received() []received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]received(nil), s.got...)
}

type sinkSession struct {
	s    *sink
	from string
	to   []string
}

func (ss *sinkSession) Mail(from string, _ *smtp.MailOptions) error {
	ss.s.mu.Lock()
	fn := ss.s.mailFn
	ss.s.mu.Unlock()
	if fn != nil {
		if err := fn(from); err != nil {
			return err
		}
	}
	ss.from = from
	return nil
}
func (ss *sinkSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	ss.s.mu.Lock()
	fn := ss.s.rcptFn
	ss.s.mu.Unlock()
	if fn != nil {
		if err := fn(to); err != nil {
			return err
		}
	}
	ss.to = append(ss.to, to)
	return nil
}
func (ss *sinkSession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	ss.s.mu.Lock()
	ss.s.datas++
	n, fn := ss.s.datas, ss.s.dataFn
	ss.s.mu.Unlock()
	if fn != nil {
		if err := fn(n); err != nil {
			ss.s.ev.add("smtp-refused:%s", header(raw, "Message-ID"))
			return err
		}
	}
	ss.s.mu.Lock()
	ss.s.got = append(ss.s.got, received{ss.from, ss.to, raw})
	ss.s.mu.Unlock()
	ss.s.ev.add("smtp-data:%s", header(raw, "Message-ID"))
	return nil
}
func (ss *sinkSession) Reset()        { ss.from, ss.to = "", nil }
func (ss *sinkSession) Logout() error { return nil }

// memOutbox is an Outbox in memory.
type memOutbox struct {
	mu   sync.Mutex
	ev   *events
	rows map[int64]*memRow
	dues int // calls of Due
}

type memRow struct {
	out       mailer.Outgoing
	next      time.Time
	sent      time.Time
	failed    bool
	reasons   []string
	attemptAt []time.Time
}

func newOutbox(ev *events, rows ...mailer.Outgoing) *memOutbox {
	o := &memOutbox{ev: ev, rows: map[int64]*memRow{}}
	for _, r := range rows {
		o.add(r)
	}
	return o
}

func (o *memOutbox) add(r mailer.Outgoing) {
	o.mu.Lock()
	o.rows[r.ID] = &memRow{out: r}
	o.mu.Unlock()
}

func (o *memOutbox) Due(_ context.Context, now time.Time, limit int) ([]mailer.Outgoing, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.dues++
	var out []mailer.Outgoing
	for _, r := range o.rows {
		if r.sent.IsZero() && !r.failed && !r.next.After(now) {
			out = append(out, r.out)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

func (o *memOutbox) Attempt(_ context.Context, tries []mailer.Try) error {
	for _, t := range tries {
		o.mu.Lock()
		r := o.rows[t.ID]
		r.out.Attempt, r.next = t.Attempt, t.Next
		r.attemptAt = append(r.attemptAt, t.Next)
		o.mu.Unlock()
		o.ev.add("attempt:%d#%d", t.ID, t.Attempt)
	}
	return nil
}

func (o *memOutbox) Sent(_ context.Context, ids []int64, at time.Time) error {
	for _, id := range ids {
		o.mu.Lock()
		o.rows[id].sent = at
		o.mu.Unlock()
		o.ev.add("sent:%d", id)
	}
	return nil
}

func (o *memOutbox) Failed(_ context.Context, id int64, _ time.Time, reason string, permanent bool) error {
	o.mu.Lock()
	r := o.rows[id]
	r.reasons = append(r.reasons, reason)
	r.failed = r.failed || permanent
	o.mu.Unlock()
	o.ev.add("failed:%d:%v", id, permanent)
	return nil
}

func (o *memOutbox) row(id int64) memRow {
	o.mu.Lock()
	defer o.mu.Unlock()
	return *o.rows[id]
}

// clock is an injected, manually advanced time.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// composed builds a real message with the threading headers that must
// survive byte for byte.
func composed(t testing.TB, id int64, to string) mailer.Outgoing {
	t.Helper()
	raw, err := mailer.Compose(mailer.Envelope{
		From:          mail.Address{Name: "Lexio", Address: "lexio@example.org"},
		To:            []mail.Address{{Address: to}},
		ReplyTo:       "lexio+t1-aaaaaaaaaaaaaaaa@example.org",
		Subject:       "[Lexio t1] Turn 12 — à vous",
		Date:          time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC),
		MessageID:     fmt.Sprintf("t1.turn12.%d@example.org", id),
		InReplyTo:     "t1.turn11@example.org",
		References:    []string{"t1.start@example.org", "t1.turn11@example.org"},
		AutoSubmitted: "auto-replied",
		Text:          "Board\n.\n..leading dots survive dot-stuffing\nFrom the board\n",
		HTML:          "<p>Board</p>\n",
	})
	if err != nil {
		t.Fatal(err)
	}
	return mailer.Outgoing{ID: id, From: "lexio@example.org", To: []string{to}, Raw: raw,
		Created: time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)}
}

func newTestDispatcher(t testing.TB, addr string, o mailer.Outbox, clk *clock) *mailer.Dispatcher {
	t.Helper()
	d, err := mailer.NewDispatcher(mailer.DispatcherConfig{
		Addr:     addr,
		TLS:      mailer.TLSNone,
		Timeout:  5 * time.Second,
		Interval: time.Hour,
		Backoff:  mailer.Backoff{Base: 30 * time.Second, Max: time.Hour, Rand: func() float64 { return 0.5 }},
		// One connection: the rows of a batch go out one after the other,
		// in the order the tests read the events.
		Connections: 1,
		Now:         clk.Now,
	}, o)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func start2026() *clock { return &clock{t: time.Date(2026, 3, 14, 10, 0, 0, 0, time.UTC)} }

func TestDispatcherSendsOnceAttemptFirstBytesPreserved(t *testing.T) {
	ev := &events{}
	sk := newSink(t, ev)
	r1, r2 := composed(t, 1, "alice@example.org"), composed(t, 2, "bob@example.org")
	o := newOutbox(ev, r1, r2)
	clk := start2026()
	d := newTestDispatcher(t, sk.addr, o, clk)

	res, err := d.RunOnce(context.Background())
	if err != nil || res != (mailer.Result{Sent: 2}) {
		t.Fatalf("RunOnce = %+v, %v", res, err)
	}
	// Every attempt of the batch is recorded before the first byte goes
	// out; the sends are confirmed together after.
	want := "attempt:1#1 attempt:2#1 smtp-data:<t1.turn12.1@example.org> smtp-data:<t1.turn12.2@example.org> sent:1 sent:2"
	if got := ev.String(); got != want {
		t.Errorf("events:\n got %s\nwant %s", got, want)
	}
	got := sk.received()
	if len(got) != 2 {
		t.Fatalf("server received %d messages", len(got))
	}
	for i, row := range []mailer.Outgoing{r1, r2} {
		if !bytes.Equal(got[i].raw, row.Raw) {
			t.Errorf("message %d changed in transit:\n got %q\nwant %q", row.ID, got[i].raw, row.Raw)
		}
		if got[i].from != "lexio@example.org" || len(got[i].to) != 1 || got[i].to[0] != row.To[0] {
			t.Errorf("envelope %d: from %q to %v", row.ID, got[i].from, got[i].to)
		}
		for _, h := range []string{"Message-ID", "In-Reply-To", "References", "Auto-Submitted"} {
			if header(got[i].raw, h) == "" || header(got[i].raw, h) != header(row.Raw, h) {
				t.Errorf("%s: got %q want %q", h, header(got[i].raw, h), header(row.Raw, h))
			}
		}
	}
	// Nothing is due any more, even much later: each row went once.
	clk.Add(48 * time.Hour)
	if res, err := d.RunOnce(context.Background()); err != nil || res != (mailer.Result{}) {
		t.Errorf("second RunOnce = %+v, %v", res, err)
	}
	if n := len(sk.received()); n != 2 {
		t.Errorf("server received %d messages, want 2", n)
	}
}

func TestDispatcherTemporaryFailureRetriesWithBackoff(t *testing.T) {
	ev := &events{}
	sk := newSink(t, ev)
	sk.dataFn = func(n int) error {
		if n <= 2 {
			return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try later"}
		}
		return nil
	}
	o := newOutbox(ev, composed(t, 7, "alice@example.org"))
	clk := start2026()
	t0 := clk.Now()
	d := newTestDispatcher(t, sk.addr, o, clk)
	ctx := context.Background()

	// Backoff with Rand = 0.5: try n waits 30s·2^(n-1)·0.75.
	wantNext := []time.Duration{22500 * time.Millisecond, 45 * time.Second, 90 * time.Second}
	for try := 1; try <= 2; try++ {
		res, err := d.RunOnce(ctx)
		if err != nil || res != (mailer.Result{Retry: 1}) {
			t.Fatalf("try %d: %+v, %v", try, res, err)
		}
		r := o.row(7)
		if r.out.Attempt != try || !r.next.Equal(clk.Now().Add(wantNext[try-1])) || r.failed {
			t.Fatalf("try %d: attempt %d next %v failed %v", try, r.out.Attempt, r.next.Sub(clk.Now()), r.failed)
		}
		if !strings.Contains(r.reasons[len(r.reasons)-1], "451") {
			t.Errorf("reason %q lacks the reply", r.reasons[len(r.reasons)-1])
		}
		// Not due before its time.
		clk.Add(wantNext[try-1] - time.Second)
		if res, _ := d.RunOnce(ctx); res != (mailer.Result{}) {
			t.Fatalf("retried before its time: %+v", res)
		}
		clk.Add(time.Second)
	}
	res, err := d.RunOnce(ctx)
	if err != nil || res != (mailer.Result{Sent: 1}) {
		t.Fatalf("third try: %+v, %v", res, err)
	}
	if got := sk.received(); len(got) != 1 || header(got[0].raw, "Message-ID") != "<t1.turn12.7@example.org>" {
		t.Errorf("received %d messages", len(got))
	}
	if r := o.row(7); r.out.Attempt != 3 || r.sent.IsZero() || clk.Now().Sub(t0) != 22500*time.Millisecond+45*time.Second {
		t.Errorf("row %+v at +%v", r.out.Attempt, clk.Now().Sub(t0))
	}
}

func TestDispatcherServerDownIsTemporary(t *testing.T) {
	ev := &events{}
	sk := newSink(t, ev)
	sk.stop() // down
	o := newOutbox(ev, composed(t, 1, "a@example.org"), composed(t, 2, "b@example.org"))
	clk := start2026()
	d := newTestDispatcher(t, sk.addr, o, clk)
	res, err := d.RunOnce(context.Background())
	if err != nil || res != (mailer.Result{Retry: 2}) {
		t.Fatalf("RunOnce with the server down = %+v, %v", res, err)
	}
	if got := ev.String(); got != "attempt:1#1 attempt:2#1 failed:1:false failed:2:false" {
		t.Errorf("events %s", got)
	}
	sk.start() // back, same address
	clk.Add(time.Minute)
	res, err = d.RunOnce(context.Background())
	if err != nil || res != (mailer.Result{Sent: 2}) {
		t.Fatalf("RunOnce after recovery = %+v, %v", res, err)
	}
	if n := len(sk.received()); n != 2 {
		t.Errorf("received %d", n)
	}
}

func TestDispatcherPermanentFailures(t *testing.T) {
	ev := &events{}
	sk := newSink(t, ev)
	sk.rcptFn = func(to string) error {
		if strings.HasPrefix(to, "nobody@") {
			return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such user"}
		}
		return nil
	}
	tooOld := composed(t, 3, "c@example.org")
	tooOld.Created = start2026().Now().Add(-mailer.DefaultMaxAge - time.Second)
	tooMany := composed(t, 4, "d@example.org")
	tooMany.Attempt = mailer.DefaultMaxAttempts
	badAddr := composed(t, 5, "e@example.org")
	badAddr.To = []string{"not an address"}
	// Within both default limits, just: tried.
	lastTry := composed(t, 6, "f@example.org")
	lastTry.Attempt = mailer.DefaultMaxAttempts - 1
	lastTry.Created = start2026().Now().Add(-mailer.DefaultMaxAge + time.Second)
	o := newOutbox(ev, composed(t, 1, "nobody@example.org"), composed(t, 2, "alice@example.org"), tooOld, tooMany, badAddr, lastTry)
	clk := start2026()
	d := newTestDispatcher(t, sk.addr, o, clk)
	res, err := d.RunOnce(context.Background())
	if err != nil || res != (mailer.Result{Sent: 2, Failed: 4}) {
		t.Fatalf("RunOnce = %+v, %v", res, err)
	}
	for _, id := range []int64{1, 3, 4, 5} {
		if r := o.row(id); !r.failed || !r.sent.IsZero() {
			t.Errorf("row %d: failed %v sent %v", id, r.failed, r.sent)
		}
	}
	if r := o.row(1); !strings.Contains(r.reasons[0], "550") {
		t.Errorf("reason %q", r.reasons[0])
	}
	// Rows given up for age or attempts were not even tried.
	if r := o.row(3); r.out.Attempt != 0 {
		t.Errorf("too old row was tried")
	}
	if r := o.row(4); r.out.Attempt != mailer.DefaultMaxAttempts {
		t.Errorf("row over the attempt limit was tried")
	}
	// The refused recipient did not spoil the session for the next row.
	if got := sk.received(); len(got) != 2 || got[0].to[0] != "alice@example.org" || got[1].to[0] != "f@example.org" {
		t.Errorf("received %+v", got)
	}
	clk.Add(48 * time.Hour)
	if res, _ := d.RunOnce(context.Background()); res != (mailer.Result{}) {
		t.Errorf("failed rows retried: %+v", res)
	}
}

func TestDispatcherRunWakesOnPokeAndStops(t *testing.T) {
	ev := &events{}
	sk := newSink(t, ev)
	o := newOutbox(ev)
	clk := start2026()
	d := newTestDispatcher(t, sk.addr, o, clk) // Interval: 1 h
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	// The first, immediate run finds nothing; after it only the poke can
	// send (the interval is an hour).
	eventually(t, "the first run", func() bool {
		o.mu.Lock()
		defer o.mu.Unlock()
		return o.dues > 0
	})
	o.add(composed(t, 1, "alice@example.org"))
	d.Poke()
	eventually(t, "poked send", func() bool { return len(sk.received()) == 1 })
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(waitFor):
		t.Fatal("Run did not stop")
	}
}

// End to end on loopback: Compose → outbox → Dispatcher (with AUTH) →
// localmail SMTP → IMAP → Receiver → Handler, bytes unchanged.
func TestDispatcherToReceiverThroughLocalmail(t *testing.T) {
	srv := startLocal(t, localmail.Options{RequireSMTPAuth: true})
	ev := &events{}
	row := composed(t, 1, "lexio+t1-aaaaaaaaaaaaaaaa@localhost")
	o := newOutbox(ev, row)
	clk := start2026()
	d, err := mailer.NewDispatcher(mailer.DispatcherConfig{
		Addr: srv.SMTPAddr(), TLS: mailer.TLSNone, Username: "lexio", Password: "secret", Now: clk.Now,
	}, o)
	if err != nil {
		t.Fatal(err)
	}
	if res, err := d.RunOnce(context.Background()); err != nil || res != (mailer.Result{Sent: 1}) {
		t.Fatalf("RunOnce = %+v, %v (%v)", res, err, o.row(1).reasons)
	}
	h := newRecorder()
	r, err := mailer.NewReceiver(receiverConfig(srv), h)
	if err != nil {
		t.Fatal(err)
	}
	stop := runReceiver(t, r)
	eventually(t, "received", func() bool { return count(t, srv, "Processed") == 1 })
	stop()
	h.mu.Lock()
	defer h.mu.Unlock()
	if !bytes.Equal(h.seen[0].Raw, row.Raw) {
		t.Errorf("raw changed between Compose and the Handler:\n got %q\nwant %q", h.seen[0].Raw, row.Raw)
	}
}

func TestNewDispatcherRejectsBadConfig(t *testing.T) {
	o := newOutbox(&events{})
	for _, cfg := range []mailer.DispatcherConfig{
		{},
		{Addr: "localhost"},
		{Addr: "localhost:smtp"},
		{Addr: "localhost:25", TLS: "sometimes"},
		{Addr: "localhost:25", CAFile: "/nonexistent/ca.pem"},
	} {
		if _, err := mailer.NewDispatcher(cfg, o); err == nil {
			t.Errorf("accepted %+v", cfg)
		}
	}
	if _, err := mailer.NewDispatcher(mailer.DispatcherConfig{Addr: "localhost:25"}, nil); err == nil {
		t.Error("accepted a nil outbox")
	}
}

// TestDispatcherStoppedMidBatch: a batch cut short by shutdown confirms
// what went out; the rest stays attempted but unsent, for the restart.
func TestDispatcherStoppedMidBatch(t *testing.T) {
	ev := &events{}
	sk := newSink(t, ev)
	ctx, cancel := context.WithCancel(context.Background())
	sk.dataFn = func(n int) error {
		if n == 2 {
			cancel() // the daemon is told to stop while the second goes out
		}
		return nil
	}
	o := newOutbox(ev, composed(t, 1, "a@example.org"), composed(t, 2, "b@example.org"), composed(t, 3, "c@example.org"))
	d := newTestDispatcher(t, sk.addr, o, start2026())
	res, err := d.RunOnce(ctx)
	if !errors.Is(err, context.Canceled) || res.Sent != 2 {
		t.Fatalf("RunOnce = %+v, %v; want 2 sent and the cancellation", res, err)
	}
	for id, sent := range map[int64]bool{1: true, 2: true, 3: false} {
		r := o.row(id)
		if !r.sent.IsZero() != sent || r.out.Attempt != 1 {
			t.Errorf("row %d: sent %v, attempt %d", id, !r.sent.IsZero(), r.out.Attempt)
		}
	}
}

// TestDispatcherKeepsConnection: batches a few seconds apart share one
// connection; one the server dropped in between is replaced without
// failing a row; with KeepAlive < 0 each batch dials.
func TestDispatcherKeepsConnection(t *testing.T) {
	ev := &events{}
	sk := newSink(t, ev)
	o := newOutbox(ev)
	clk := start2026()
	d := newTestDispatcher(t, sk.addr, o, clk)
	defer d.Close()
	conns := func() int { sk.mu.Lock(); defer sk.mu.Unlock(); return sk.conns }
	for i := int64(1); i <= 3; i++ {
		o.add(composed(t, i, "a@example.org"))
		if res, err := d.RunOnce(context.Background()); err != nil || res.Sent != 1 {
			t.Fatalf("batch %d: %+v %v", i, res, err)
		}
	}
	if n := conns(); n != 1 {
		t.Errorf("%d connections for three batches, want 1", n)
	}
	sk.stop()
	sk.start() // the server restarted: the kept connection is dead
	o.add(composed(t, 4, "a@example.org"))
	if res, err := d.RunOnce(context.Background()); err != nil || res != (mailer.Result{Sent: 1}) {
		t.Fatalf("after the server restarted: %+v %v", res, err)
	}
	if n := conns(); n != 2 {
		t.Errorf("%d connections, want 2", n)
	}

	cfg := mailer.DispatcherConfig{Addr: sk.addr, TLS: mailer.TLSNone, KeepAlive: -1, Now: clk.Now}
	d2, err := mailer.NewDispatcher(cfg, o)
	if err != nil {
		t.Fatal(err)
	}
	for i := int64(5); i <= 6; i++ {
		o.add(composed(t, i, "a@example.org"))
		if res, err := d2.RunOnce(context.Background()); err != nil || res.Sent != 1 {
			t.Fatalf("batch %d: %+v %v", i, res, err)
		}
	}
	if n := conns(); n != 4 {
		t.Errorf("%d connections without keep-alive, want 4", n)
	}
}

// TestDispatcherConnectionsInParallel: with Connections = 4 a batch goes
// out over several connections at once; every row is sent once; each
// recipient gets its mails in the order written (one connection each); a
// recipient the server refuses fails alone; the connections are kept for
// the next batch.
func TestDispatcherConnectionsInParallel(t *testing.T) {
	ev := &events{}
	sk := newSink(t, ev)
	var mu sync.Mutex
	inData, most := 0, 0
	two := make(chan struct{}) // closed once two DATA overlap
	var twoOnce sync.Once
	sk.dataFn = func(int) error {
		mu.Lock()
		inData++
		if most = max(most, inData); inData >= 2 {
			twoOnce.Do(func() { close(two) })
		}
		mu.Unlock()
		// A server syncing to disk; the first DATA waits (up to 2 s) for
		// another connection's, which only parallel lanes send.
		select {
		case <-two:
		case <-time.After(2 * time.Second):
		}
		time.Sleep(5 * time.Millisecond)
		mu.Lock()
		inData--
		mu.Unlock()
		return nil
	}
	sk.rcptFn = func(to string) error {
		if strings.HasPrefix(to, "nobody@") {
			return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such user"}
		}
		return nil
	}
	to := []string{"alice@example.org", "Bob@example.org", "carol@example.org", "dave@example.org", "nobody@example.org"}
	o := newOutbox(ev)
	for i := range int64(40) {
		rcpt := to[i%5]
		if i == 11 {
			rcpt = "BOB@example.org" // the same recipient, written otherwise
		}
		o.add(composed(t, i+1, rcpt))
	}
	clk := start2026()
	d, err := mailer.NewDispatcher(mailer.DispatcherConfig{Addr: sk.addr, TLS: mailer.TLSNone, Timeout: 5 * time.Second,
		Connections: 4, Now: clk.Now}, o)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	res, err := d.RunOnce(context.Background())
	if err != nil || res != (mailer.Result{Sent: 32, Failed: 8}) {
		t.Fatalf("RunOnce = %+v, %v", res, err)
	}
	if most < 2 {
		t.Errorf("at most %d DATA at once, want several connections in parallel", most)
	}
	got := sk.received()
	if len(got) != 32 {
		t.Fatalf("received %d, want 32", len(got))
	}
	last := map[string]int{}
	for _, r := range got {
		rcpt := strings.ToLower(r.to[0])
		id := header(r.raw, "Message-ID")
		var n int
		if _, err := fmt.Sscanf(id, "<t1.turn12.%d@example.org>", &n); err != nil {
			t.Fatalf("Message-ID %q", id)
		}
		if n <= last[rcpt] {
			t.Errorf("%s got mail %d after mail %d", rcpt, n, last[rcpt])
		}
		last[rcpt] = n
	}
	for i := range int64(40) {
		r := o.row(i + 1)
		if refused := i%5 == 4; r.failed != refused || r.sent.IsZero() == !refused {
			t.Errorf("row %d: failed %v, sent %v", i+1, r.failed, !r.sent.IsZero())
		}
	}
	conns := func() int { sk.mu.Lock(); defer sk.mu.Unlock(); return sk.conns }
	before := conns()
	if before < 2 || before > 4 {
		t.Errorf("%d connections, want 2 to 4", before)
	}
	for i := int64(41); i <= 48; i++ {
		o.add(composed(t, i, to[i%4]))
	}
	if res, err := d.RunOnce(context.Background()); err != nil || res.Sent != 8 {
		t.Fatalf("second batch: %+v %v", res, err)
	}
	if n := conns(); n > 4 {
		t.Errorf("%d connections after the second batch: the first batch's were not kept", n)
	}
}

// TestDispatcherRefusalsPerRow: each refusal — of MAIL, of a RCPT
// (temporary or permanent), of the message at the end of DATA — fails its
// row alone, with the reply in the reason, and the connection goes on
// with the next row; the rows sent arrive byte for byte, their leading
// dots intact.
func TestDispatcherRefusalsPerRow(t *testing.T) {
	ev := &events{}
	sk := newSink(t, ev)
	sk.mailFn = func(from string) error {
		if strings.HasPrefix(from, "bounce@") {
			return &smtp.SMTPError{Code: 553, EnhancedCode: smtp.EnhancedCode{5, 1, 8}, Message: "sender refused"}
		}
		return nil
	}
	sk.rcptFn = func(to string) error {
		switch {
		case strings.HasPrefix(to, "busy@"):
			return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try later"}
		case strings.HasPrefix(to, "nobody@"):
			return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such user"}
		}
		return nil
	}
	sk.dataFn = func(n int) error {
		if n == 2 { // the second message that reaches DATA: row 6
			return &smtp.SMTPError{Code: 554, EnhancedCode: smtp.EnhancedCode{5, 6, 0}, Message: "content refused"}
		}
		return nil
	}
	badFrom := composed(t, 2, "bob@example.org")
	badFrom.From = "bounce@example.org"
	twoRcpts := composed(t, 5, "dave@example.org")
	twoRcpts.To = append(twoRcpts.To, "nobody@example.org")
	o := newOutbox(ev, composed(t, 1, "alice@example.org"), badFrom, composed(t, 3, "busy@example.org"),
		composed(t, 4, "nobody@example.org"), twoRcpts, composed(t, 6, "erin@example.org"), composed(t, 7, "carol@example.org"))
	clk := start2026()
	d := newTestDispatcher(t, sk.addr, o, clk)
	defer d.Close()
	res, err := d.RunOnce(context.Background())
	if err != nil || res != (mailer.Result{Sent: 2, Retry: 1, Failed: 4}) {
		t.Fatalf("RunOnce = %+v, %v", res, err)
	}
	got := sk.received()
	if len(got) != 2 || got[0].to[0] != "alice@example.org" || got[1].to[0] != "carol@example.org" {
		t.Fatalf("received %+v", got)
	}
	for i, id := range []int64{1, 7} {
		if !bytes.Equal(got[i].raw, o.row(id).out.Raw) {
			t.Errorf("row %d's bytes changed on the way:\n got %q\nwant %q", id, got[i].raw, o.row(id).out.Raw)
		}
	}
	for id, want := range map[int64]string{2: "553", 3: "451", 4: "550", 5: "550", 6: "554"} {
		r := o.row(id)
		if len(r.reasons) == 0 || !strings.Contains(r.reasons[0], want) {
			t.Errorf("row %d: reasons %q, want %s", id, r.reasons, want)
		}
		if r.failed != (want[0] == '5') {
			t.Errorf("row %d (%s): given up %v", id, want, r.failed)
		}
	}
	if n := func() int { sk.mu.Lock(); defer sk.mu.Unlock(); return sk.conns }(); n != 1 {
		t.Errorf("%d connections, want the one throughout", n)
	}
}

// TestDispatcherTellsRan: Ran hears each RunOnce's Result, an empty one's
// too.
func TestDispatcherTellsRan(t *testing.T) {
	ev := &events{}
	sk := newSink(t, ev)
	sk.dataFn = func(n int) error {
		if n == 1 {
			return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try later"}
		}
		return nil
	}
	o := newOutbox(ev, composed(t, 1, "alice@example.org"), composed(t, 2, "bob@example.org"))
	clk := start2026()
	var ran []mailer.Result
	d, err := mailer.NewDispatcher(mailer.DispatcherConfig{Addr: sk.addr, TLS: mailer.TLSNone, Timeout: 5 * time.Second,
		Interval: time.Hour, Connections: 1, Now: clk.Now, Ran: func(r mailer.Result) { ran = append(ran, r) }}, o)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := d.RunOnce(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if want := []mailer.Result{{Sent: 1, Retry: 1}, {}}; !slices.Equal(ran, want) {
		t.Errorf("Ran heard %+v, want %+v", ran, want)
	}
}
