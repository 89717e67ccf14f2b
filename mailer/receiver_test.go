package mailer_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/mail"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-smtp"
	"github.com/lexio-mail/lexio/mailer"
	"github.com/lexio-mail/lexio/mailer/localmail"
	"github.com/lexio-mail/lexio/store"
)

// waitFor is generous: these tests check behaviour, not speed.
const waitFor = 15 * time.Second

func startLocal(t *testing.T, opts localmail.Options) *localmail.Server {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := localmail.Start(ctx, opts)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		if err := srv.Close(); err != nil {
			t.Error(err)
		}
	})
	if err := srv.AddUser("lexio", "secret"); err != nil {
		t.Fatal(err)
	}
	return srv
}

func testMessage(subject, msgID, body string) []byte {
	return []byte("From: Alice <alice@example.org>\r\n" +
		"To: lexio+t1-abc@localhost\r\n" +
		"Subject: " + subject + "\r\n" +
		"Message-ID: <" + msgID + ">\r\n" +
		"Date: Mon, 02 Jan 2006 15:04:05 +0000\r\n" +
		"\r\n" + body + "\r\n")
}

func smtpSend(t *testing.T, srv *localmail.Server, to string, raw []byte) {
	t.Helper()
	c, err := smtp.Dial(srv.SMTPAddr())
	if err != nil {
		t.Fatalf("smtp dial: %v", err)
	}
	defer c.Close()
	if err := c.SendMail("alice@example.org", []string{to}, bytes.NewReader(raw)); err != nil {
		t.Fatalf("smtp send: %v", err)
	}
	if err := c.Quit(); err != nil {
		t.Fatalf("smtp quit: %v", err)
	}
}

func receiverConfig(srv *localmail.Server) mailer.ReceiverConfig {
	return mailer.ReceiverConfig{
		Addr:         srv.IMAPAddr(),
		TLS:          mailer.TLSNone,
		Username:     "lexio",
		Password:     "secret",
		PollInterval: time.Hour, // only IDLE can explain a prompt delivery
		Reconnect:    mailer.Backoff{Base: 20 * time.Millisecond, Max: 200 * time.Millisecond},
		Retry:        mailer.Backoff{Base: 20 * time.Millisecond, Max: 100 * time.Millisecond},
	}
}

// runReceiver runs r until the returned stop is called; stop checks that
// Run returned in time after the cancellation.
func runReceiver(t *testing.T, r *mailer.Receiver) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("Run: %v", err)
				}
			case <-time.After(waitFor):
				t.Error("Run did not stop after cancel")
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

// recorder is a Handler that remembers what it saw.
type recorder struct {
	mu   sync.Mutex
	seen []mailer.Inbound
	// fn, when set, decides the result of each delivery.
	fn     func(n int, m mailer.Inbound) error
	notify chan struct{}
}

func newRecorder() *recorder { return &recorder{notify: make(chan struct{}, 100)} }

func (h *recorder) HandleMessage(_ context.Context, m mailer.Inbound) error {
	h.mu.Lock()
	h.seen = append(h.seen, m)
	n := len(h.seen)
	fn := h.fn
	h.mu.Unlock()
	defer func() { h.notify <- struct{}{} }()
	if fn != nil {
		return fn(n, m)
	}
	return nil
}

func (h *recorder) subjects() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, m := range h.seen {
		out = append(out, header(m.Raw, "Subject"))
	}
	return out
}

func header(raw []byte, name string) string {
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return "!" + err.Error()
	}
	return msg.Header.Get(name)
}

// watchIdle is a proxy in front of the IMAP server at target: the
// receiver connects to addr, and every IDLE command it sends is signalled
// on idles once forwarded.
func watchIdle(t *testing.T, target string) (addr string, idles <-chan struct{}) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	ch := make(chan struct{}, 100)
	go func() {
		for {
			client, err := ln.Accept()
			if err != nil {
				return
			}
			server, err := net.Dial("tcp", target)
			if err != nil {
				client.Close()
				continue
			}
			go func() {
				io.Copy(client, server)
				client.Close()
			}()
			go func() {
				defer server.Close()
				lines := bufio.NewReader(client)
				for {
					line, err := lines.ReadBytes('\n')
					if _, werr := server.Write(line); werr != nil || err != nil {
						return
					}
					if bytes.HasSuffix(bytes.ToUpper(line), []byte(" IDLE\r\n")) {
						select {
						case ch <- struct{}{}:
						default: // more IDLEs than any test waits for
						}
					}
				}
			}()
		}
	}()
	return ln.Addr().String(), ch
}

// logFunc is a slog.Handler that hands every record to the function
// (attributes added by With are dropped).
type logFunc func(slog.Record)

func (f logFunc) Enabled(context.Context, slog.Level) bool { return true }

func (f logFunc) Handle(_ context.Context, rec slog.Record) error { f(rec); return nil }

func (f logFunc) WithAttrs([]slog.Attr) slog.Handler { return f }

func (f logFunc) WithGroup(string) slog.Handler { return f }

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitFor)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func count(t *testing.T, srv *localmail.Server, mailbox string) int {
	t.Helper()
	n, err := srv.Count("lexio", mailbox)
	if err != nil {
		return -1 // e.g. Processed not created yet
	}
	return n
}

func TestReceiverDeliversInOrderAndMovesAfterHandling(t *testing.T) {
	srv := startLocal(t, localmail.Options{})
	for i := 1; i <= 3; i++ {
		smtpSend(t, srv, "lexio+t1-abc@localhost", testMessage(fmt.Sprintf("m%d", i), fmt.Sprintf("m%d@example.org", i), "PASS"))
	}
	h := newRecorder()
	h.fn = func(n int, m mailer.Inbound) error {
		// While the handler runs, its message is still in the inbox: the
		// three arrived together and are moved together, once all are
		// handled.
		if got := count(t, srv, "INBOX"); got != 3 {
			return fmt.Errorf("INBOX holds %d during handling of #%d", got, n)
		}
		if got := count(t, srv, "Processed"); got > 0 {
			return fmt.Errorf("Processed holds %d during handling of #%d", got, n)
		}
		if m.Mailbox != "INBOX" || m.UID == 0 || m.UIDValidity == 0 || m.Truncated || m.Size != int64(len(m.Raw)) {
			return fmt.Errorf("bad inbound %+v", m)
		}
		return nil
	}
	r, err := mailer.NewReceiver(receiverConfig(srv), h)
	if err != nil {
		t.Fatal(err)
	}
	stop := runReceiver(t, r)
	eventually(t, "three messages moved", func() bool { return count(t, srv, "Processed") == 3 })
	stop()
	if got, want := strings.Join(h.subjects(), ","), "m1,m2,m3"; got != want {
		t.Errorf("handled %s, want %s (each once, UID order)", got, want)
	}
	if n := count(t, srv, "INBOX"); n != 0 {
		t.Errorf("INBOX still holds %d", n)
	}
	// The handler's own checks ran on every delivery.
	if len(h.subjects()) != 3 {
		t.Errorf("deliveries = %d, want 3", len(h.subjects()))
	}
}

func TestReceiverHandlerErrorLeavesMessageAndRetries(t *testing.T) {
	srv := startLocal(t, localmail.Options{})
	smtpSend(t, srv, "lexio@localhost", testMessage("first", "a@example.org", "PASS"))
	smtpSend(t, srv, "lexio@localhost", testMessage("second", "b@example.org", "PASS"))

	var mu sync.Mutex
	healthy := false
	h := newRecorder()
	h.fn = func(n int, m mailer.Inbound) error {
		mu.Lock()
		defer mu.Unlock()
		if !healthy {
			return errors.New("database is down")
		}
		return nil
	}
	cfg := receiverConfig(srv)
	cfg.MaxAttempts = 1000 // an outage: no message is given up here
	r, err := mailer.NewReceiver(cfg, h)
	if err != nil {
		t.Fatal(err)
	}
	stop := runReceiver(t, r)
	eventually(t, "three failed attempts", func() bool { return len(h.subjects()) >= 3 })

	// Failed attempts left both messages in place, unread.
	if n := count(t, srv, "INBOX"); n != 2 {
		t.Errorf("INBOX holds %d after failures, want 2", n)
	}
	for _, s := range h.subjects() {
		if s != "first" {
			t.Fatalf("a later message was handed over while the first kept failing: %v", h.subjects())
		}
	}
	if flags := inboxFlags(t, srv); len(flags) != 2 || flags[0][imap.FlagSeen] || flags[1][imap.FlagSeen] {
		t.Errorf("messages flagged after a failed handling: %v", flags)
	}

	mu.Lock()
	healthy = true
	mu.Unlock()
	eventually(t, "both moved", func() bool { return count(t, srv, "Processed") == 2 })
	stop()
	subj := h.subjects()
	if got := strings.Join(subj[len(subj)-2:], ","); got != "first,second" {
		t.Errorf("after recovery handled %s, want first,second", got)
	}
}

// inboxFlags reads the flags of the INBOX messages with a second client.
func inboxFlags(t *testing.T, srv *localmail.Server) []map[imap.Flag]bool {
	t.Helper()
	c, err := imapclient.DialInsecure(srv.IMAPAddr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login("lexio", "secret").Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait(); err != nil {
		t.Fatal(err)
	}
	msgs, err := c.Fetch(imap.SeqSetNum(1, 2), &imap.FetchOptions{Flags: true}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var out []map[imap.Flag]bool
	for _, m := range msgs {
		f := map[imap.Flag]bool{}
		for _, fl := range m.Flags {
			f[fl] = true
		}
		out = append(out, f)
	}
	return out
}

// dedupe is a Handler as the table service writes it: it applies a
// Message-ID once and recognises a redelivered copy.
type dedupe struct {
	mu         sync.Mutex
	applied    map[string]int
	deliveries int
	// afterCommit runs after the first commit of each message.
	afterCommit func()
}

func (d *dedupe) HandleMessage(_ context.Context, m mailer.Inbound) error {
	id := header(m.Raw, "Message-ID")
	d.mu.Lock()
	d.deliveries++
	if d.applied[id] > 0 {
		d.mu.Unlock()
		return nil // duplicate: already applied, just let it be moved
	}
	d.applied[id]++ // the "transaction" commits here
	after := d.afterCommit
	d.mu.Unlock()
	if after != nil {
		after()
	}
	return nil
}

func TestReceiverCrashBetweenCommitAndMoveRedeliversOnce(t *testing.T) {
	srv := startLocal(t, localmail.Options{})
	smtpSend(t, srv, "lexio@localhost", testMessage("PLACE H7 ACROSS CHAT", "move1@example.org", "PLACE H7 ACROSS CHAT"))

	d := &dedupe{applied: map[string]int{}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The "crash": right after the commit the daemon dies, before it can
	// flag or move the message.
	d.afterCommit = func() {
		cancel()
		srv.DropIMAPConnections()
	}
	r1, err := mailer.NewReceiver(receiverConfig(srv), d)
	if err != nil {
		t.Fatal(err)
	}
	if err := r1.Run(ctx); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if n := count(t, srv, "INBOX"); n != 1 {
		t.Fatalf("INBOX holds %d after the crash, want the message still there", n)
	}

	// Restart: the message is handed over again and recognised.
	d.mu.Lock()
	d.afterCommit = nil
	d.mu.Unlock()
	r2, err := mailer.NewReceiver(receiverConfig(srv), d)
	if err != nil {
		t.Fatal(err)
	}
	stop := runReceiver(t, r2)
	eventually(t, "message moved after restart", func() bool { return count(t, srv, "Processed") == 1 })
	stop()
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.deliveries != 2 {
		t.Errorf("deliveries = %d, want 2 (before and after the crash)", d.deliveries)
	}
	if got := d.applied["<move1@example.org>"]; got != 1 {
		t.Errorf("applied %d times, want once", got)
	}
}

func TestReceiverIdleSeesNewMail(t *testing.T) {
	srv := startLocal(t, localmail.Options{})
	h := newRecorder()
	addr, idles := watchIdle(t, srv.IMAPAddr())
	cfg := receiverConfig(srv) // PollInterval: 1 h
	cfg.Addr = addr
	r, err := mailer.NewReceiver(cfg, h)
	if err != nil {
		t.Fatal(err)
	}
	runReceiver(t, r)
	for i := 1; i <= 2; i++ {
		// Deliver only once the receiver has sent IDLE: nothing but the
		// IDLE's EXISTS can then explain a delivery before PollInterval.
		select {
		case <-idles:
		case <-time.After(waitFor):
			t.Fatalf("the receiver did not go idle (%d)", i)
		}
		smtpSend(t, srv, "lexio+t9-zz@localhost", testMessage(fmt.Sprintf("idle%d", i), fmt.Sprintf("i%d@example.org", i), "BOARD"))
		eventually(t, "delivery while idling", func() bool { return len(h.subjects()) == i })
	}
	eventually(t, "moved", func() bool { return count(t, srv, "Processed") == 2 })
}

func TestReceiverPollsWithoutIdle(t *testing.T) {
	srv := startLocal(t, localmail.Options{})
	h := newRecorder()
	cfg := receiverConfig(srv)
	cfg.DisableIdle = true
	cfg.PollInterval = 50 * time.Millisecond
	r, err := mailer.NewReceiver(cfg, h)
	if err != nil {
		t.Fatal(err)
	}
	runReceiver(t, r)
	eventually(t, "processed folder created", func() bool { return count(t, srv, "Processed") == 0 })
	smtpSend(t, srv, "lexio@localhost", testMessage("polled", "p@example.org", "HELP"))
	eventually(t, "polled delivery", func() bool { return count(t, srv, "Processed") == 1 })
	if got := h.subjects(); len(got) != 1 || got[0] != "polled" {
		t.Errorf("handled %v", got)
	}
}

func TestReceiverReconnectsAndCatchesUp(t *testing.T) {
	srv := startLocal(t, localmail.Options{})
	h := newRecorder()
	cfg := receiverConfig(srv)
	// Each lost connection and failed attempt is logged with the count of
	// failures since the last login.
	failures := make(chan int64, 100)
	cfg.Logger = slog.New(logFunc(func(rec slog.Record) {
		if rec.Message != "mailer: imap connection lost" {
			return
		}
		rec.Attrs(func(a slog.Attr) bool {
			if a.Key == "failures" {
				select {
				case failures <- a.Value.Int64():
				default:
				}
			}
			return true
		})
	}))
	r, err := mailer.NewReceiver(cfg, h)
	if err != nil {
		t.Fatal(err)
	}
	runReceiver(t, r)
	smtpSend(t, srv, "lexio@localhost", testMessage("before", "1@example.org", "PASS"))
	eventually(t, "first", func() bool { return count(t, srv, "Processed") == 1 })

	// A dropped connection.
	srv.DropIMAPConnections()
	smtpSend(t, srv, "lexio@localhost", testMessage("after drop", "2@example.org", "PASS"))
	eventually(t, "after drop", func() bool { return count(t, srv, "Processed") == 2 })

	// A server restart with mail arriving while it is down: several
	// reconnection attempts fail, then it catches up.
	srv.StopIMAP()
	smtpSend(t, srv, "lexio@localhost", testMessage("while down", "3@example.org", "PASS"))
	// The lost session counts 1, each refused reconnection one more.
	for n := int64(0); n < 3; {
		select {
		case n = <-failures:
		case <-time.After(waitFor):
			t.Fatal("no failed reconnection while the server is down")
		}
	}
	if err := srv.StartIMAP(context.Background()); err != nil {
		t.Fatal(err)
	}
	eventually(t, "after restart", func() bool { return count(t, srv, "Processed") == 3 })
	if got, want := strings.Join(h.subjects(), ","), "before,after drop,while down"; got != want {
		t.Errorf("handled %s, want %s", got, want)
	}
}

func TestReceiverMoveFallbackWithoutMOVE(t *testing.T) {
	srv := startLocal(t, localmail.Options{NoMove: true})
	for i := 1; i <= 3; i++ {
		smtpSend(t, srv, "lexio@localhost", testMessage(fmt.Sprintf("f%d", i), fmt.Sprintf("f%d@example.org", i), "PASS"))
	}
	h := newRecorder()
	r, err := mailer.NewReceiver(receiverConfig(srv), h)
	if err != nil {
		t.Fatal(err)
	}
	stop := runReceiver(t, r)
	eventually(t, "copied and expunged", func() bool {
		return count(t, srv, "Processed") == 3 && count(t, srv, "INBOX") == 0
	})
	stop()
	if got := strings.Join(h.subjects(), ","); got != "f1,f2,f3" {
		t.Errorf("handled %s", got)
	}
}

func TestReceiverOversizeHandsOverHeaderOnly(t *testing.T) {
	srv := startLocal(t, localmail.Options{})
	big := strings.Repeat("0123456789abcdef\r\n", 1000) // 18 kB
	smtpSend(t, srv, "lexio@localhost", testMessage("huge", "big@example.org", big))
	smtpSend(t, srv, "lexio@localhost", testMessage("small", "small@example.org", "PASS"))
	h := newRecorder()
	cfg := receiverConfig(srv)
	cfg.MaxMessageBytes = 4096
	r, err := mailer.NewReceiver(cfg, h)
	if err != nil {
		t.Fatal(err)
	}
	stop := runReceiver(t, r)
	eventually(t, "both moved", func() bool { return count(t, srv, "Processed") == 2 })
	stop()
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.seen) != 2 {
		t.Fatalf("deliveries = %d", len(h.seen))
	}
	huge, small := h.seen[0], h.seen[1]
	if !huge.Truncated || huge.Size <= 18000 || len(huge.Raw) > 1024 || bytes.Contains(huge.Raw, []byte("0123456789")) {
		t.Errorf("oversize: truncated=%v size=%d raw=%d bytes", huge.Truncated, huge.Size, len(huge.Raw))
	}
	if header(huge.Raw, "Message-ID") != "<big@example.org>" {
		t.Errorf("oversize header not readable: %q", huge.Raw)
	}
	if small.Truncated || !bytes.HasSuffix(small.Raw, []byte("PASS\r\n")) {
		t.Errorf("small: truncated=%v raw=%q", small.Truncated, small.Raw)
	}
}

func TestNewReceiverRejectsBadConfig(t *testing.T) {
	h := newRecorder()
	tests := []struct {
		name string
		cfg  mailer.ReceiverConfig
	}{
		{"no address", mailer.ReceiverConfig{}},
		{"no port", mailer.ReceiverConfig{Addr: "localhost"}},
		{"bad tls mode", mailer.ReceiverConfig{Addr: "localhost:143", TLS: "maybe"}},
		{"processed is mailbox", mailer.ReceiverConfig{Addr: "localhost:143", TLS: mailer.TLSNone, Processed: "INBOX"}},
		{"missing CA file", mailer.ReceiverConfig{Addr: "localhost:993", CAFile: "/nonexistent/ca.pem"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := mailer.NewReceiver(tt.cfg, h); err == nil {
				t.Error("accepted")
			}
		})
	}
}

// TestReceiverFailureMidBatchMovesWhatWasHandled: messages fetched
// together are moved once handled; a failure moves the ones before it
// at once, leaves the failing one in place and retries from it.
func TestReceiverFailureMidBatchMovesWhatWasHandled(t *testing.T) {
	srv := startLocal(t, localmail.Options{})
	for _, s := range []string{"first", "second", "third"} {
		smtpSend(t, srv, "lexio@localhost", testMessage(s, s+"@example.org", "PASS"))
	}
	var mu sync.Mutex
	failedOnce := false
	h := newRecorder()
	h.fn = func(n int, m mailer.Inbound) error {
		mu.Lock()
		defer mu.Unlock()
		if n == 2 && !failedOnce {
			failedOnce = true
			return errors.New("database is busy")
		}
		if n == 3 {
			// The retry of the second: the first was moved before it.
			if got := count(t, srv, "Processed"); got != 1 {
				return fmt.Errorf("Processed holds %d at the retry, want 1", got)
			}
		}
		return nil
	}
	r, err := mailer.NewReceiver(receiverConfig(srv), h)
	if err != nil {
		t.Fatal(err)
	}
	stop := runReceiver(t, r)
	eventually(t, "three messages moved", func() bool { return count(t, srv, "Processed") == 3 })
	stop()
	if got, want := strings.Join(h.subjects(), ","), "first,second,second,third"; got != want {
		t.Errorf("handled %s, want %s", got, want)
	}
}

// TestReceiverStopLetsTheMessageInHandCommit: a stop that comes while the
// handler is inside its transaction (on a real SQLite file) takes no new
// message, but the one in hand commits and is moved to Processed; the
// next one stays in the inbox for the next start.
func TestReceiverStopLetsTheMessageInHandCommit(t *testing.T) {
	srv := startLocal(t, localmail.Options{})
	st, err := store.Open(context.Background(), store.Options{SQLitePath: filepath.Join(t.TempDir(), "lexio.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	smtpSend(t, srv, "lexio@localhost", testMessage("first", "first@example.org", "PASS"))
	smtpSend(t, srv, "lexio@localhost", testMessage("second", "second@example.org", "PASS"))

	inTx, release := make(chan struct{}), make(chan struct{})
	handled := make(chan error, 2)
	h := mailer.HandlerFunc(func(ctx context.Context, m mailer.Inbound) error {
		err := st.Tx(ctx, func(tx *store.Tx) error {
			rec := &store.Message{MessageID: header(m.Raw, "Message-ID"), Outcome: "applied", At: time.Now()}
			if err := tx.RecordMessage(rec); err != nil {
				return err
			}
			close(inTx) // a second message would panic here: none may come
			<-release
			return nil
		})
		handled <- err
		return err
	})
	r, err := mailer.NewReceiver(receiverConfig(srv), h)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	select {
	case <-inTx:
	case <-time.After(waitFor):
		t.Fatal("the handler was not called")
	}
	cancel() // the stop signal, mid-transaction
	close(release)
	if err := <-handled; err != nil {
		t.Fatalf("the transaction in flight at the stop failed: %v", err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(waitFor):
		t.Fatal("Run did not stop")
	}
	var seen bool
	if err := st.View(context.Background(), func(tx *store.Tx) error {
		var err error
		seen, err = tx.MessageSeen("<first@example.org>")
		return err
	}); err != nil || !seen {
		t.Errorf("the first message was not committed: seen %v, %v", seen, err)
	}
	if got := count(t, srv, "Processed"); got != 1 {
		t.Errorf("Processed holds %d, want the committed message", got)
	}
	if got := count(t, srv, "INBOX"); got != 1 {
		t.Errorf("INBOX holds %d, want the second message, untouched", got)
	}
}

// failureRecorder is a recorder that is also a mailer.FailureRecorder.
type failureRecorder struct {
	*recorder
	mu sync.Mutex
	// failed holds the subjects and errors given to Failed.
	failed []string
	errs   []error
	// failFailed, when set, is Failed's result.
	failFailed error
}

func (h *failureRecorder) Failed(_ context.Context, m mailer.Inbound, err error) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.failFailed != nil {
		return h.failFailed
	}
	h.failed = append(h.failed, header(m.Raw, "Subject"))
	h.errs = append(h.errs, err)
	return nil
}

func (h *failureRecorder) given() ([]string, []error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.failed), slices.Clone(h.errs)
}

// TestReceiverGivesUpAfterMaxAttempts: a message whose handling always
// fails is tried MaxAttempts times, then recorded through Failed and
// moved to Processed; the message after it is handled: no message holds
// the inbox for ever.
func TestReceiverGivesUpAfterMaxAttempts(t *testing.T) {
	srv := startLocal(t, localmail.Options{})
	smtpSend(t, srv, "lexio@localhost", testMessage("poison", "poison@example.org", "PASS"))
	smtpSend(t, srv, "lexio@localhost", testMessage("move", "move@example.org", "PASS"))
	h := &failureRecorder{recorder: newRecorder()}
	h.fn = func(n int, m mailer.Inbound) error {
		if header(m.Raw, "Subject") == "poison" {
			return errors.New("database is busy")
		}
		return nil
	}
	cfg := receiverConfig(srv)
	cfg.MaxAttempts = 3
	r, err := mailer.NewReceiver(cfg, h)
	if err != nil {
		t.Fatal(err)
	}
	stop := runReceiver(t, r)
	eventually(t, "both moved", func() bool { return count(t, srv, "Processed") == 2 })
	stop()
	if got, want := strings.Join(h.subjects(), ","), "poison,poison,poison,move"; got != want {
		t.Errorf("handled %s, want %s", got, want)
	}
	failed, errs := h.given()
	if len(failed) != 1 || failed[0] != "poison" || errs[0] == nil || !strings.Contains(errs[0].Error(), "database is busy") {
		t.Errorf("Failed got %v, %v; want poison and its last error", failed, errs)
	}
	if n := count(t, srv, "INBOX"); n != 0 {
		t.Errorf("INBOX still holds %d", n)
	}
}

// TestReceiverGiveUpWaitsForTheRecord: while Failed itself fails (the
// database is down), the message given up stays in the inbox; once the
// database is back a handling that succeeds wins, and without a
// FailureRecorder a message given up is moved all the same.
func TestReceiverGiveUpWaitsForTheRecord(t *testing.T) {
	srv := startLocal(t, localmail.Options{})
	smtpSend(t, srv, "lexio@localhost", testMessage("first", "first@example.org", "PASS"))
	var mu sync.Mutex
	down := true
	h := &failureRecorder{recorder: newRecorder(), failFailed: errors.New("database is down")}
	h.fn = func(n int, m mailer.Inbound) error {
		mu.Lock()
		defer mu.Unlock()
		if down {
			return errors.New("database is down")
		}
		return nil
	}
	cfg := receiverConfig(srv)
	cfg.MaxAttempts = 2
	r, err := mailer.NewReceiver(cfg, h)
	if err != nil {
		t.Fatal(err)
	}
	stop := runReceiver(t, r)
	eventually(t, "attempts past MaxAttempts", func() bool { return len(h.subjects()) >= 4 })
	if n := count(t, srv, "INBOX"); n != 1 {
		t.Errorf("INBOX holds %d while Failed fails, want 1", n)
	}
	mu.Lock()
	down = false
	mu.Unlock()
	eventually(t, "moved", func() bool { return count(t, srv, "Processed") == 1 })
	stop()
	if failed, _ := h.given(); len(failed) != 0 {
		t.Errorf("recorded as failed: %v; the handling succeeded", failed)
	}

	// A plain Handler: the message is moved after MaxAttempts.
	smtpSend(t, srv, "lexio@localhost", testMessage("second", "second@example.org", "PASS"))
	plain := newRecorder()
	plain.fn = func(int, mailer.Inbound) error { return errors.New("always") }
	r, err = mailer.NewReceiver(cfg, plain)
	if err != nil {
		t.Fatal(err)
	}
	stop = runReceiver(t, r)
	eventually(t, "moved unrecorded", func() bool { return count(t, srv, "Processed") == 2 })
	stop()
	if got := len(plain.subjects()); got != cfg.MaxAttempts {
		t.Errorf("%d attempts, want %d", got, cfg.MaxAttempts)
	}
}

// TestReceiverRecoversPanic: a handler that panics on a message does not
// kill the daemon: the panic is recorded through Failed at once, the
// message moved, and the next one handled.
func TestReceiverRecoversPanic(t *testing.T) {
	srv := startLocal(t, localmail.Options{})
	smtpSend(t, srv, "lexio@localhost", testMessage("poison", "poison@example.org", "PASS"))
	smtpSend(t, srv, "lexio@localhost", testMessage("move", "move@example.org", "PASS"))
	h := &failureRecorder{recorder: newRecorder()}
	h.fn = func(n int, m mailer.Inbound) error {
		if header(m.Raw, "Subject") == "poison" {
			panic("a bug of the handler's")
		}
		return nil
	}
	r, err := mailer.NewReceiver(receiverConfig(srv), h)
	if err != nil {
		t.Fatal(err)
	}
	stop := runReceiver(t, r)
	eventually(t, "both moved", func() bool { return count(t, srv, "Processed") == 2 })
	stop()
	if got, want := strings.Join(h.subjects(), ","), "poison,move"; got != want {
		t.Errorf("handled %s, want %s (a panic is not retried)", got, want)
	}
	failed, errs := h.given()
	if len(failed) != 1 || failed[0] != "poison" || !strings.Contains(fmt.Sprint(errs), "panicked") {
		t.Errorf("Failed got %v, %v; want poison and the panic", failed, errs)
	}
}

// TestReceiverHandleTimeout: the handler's context ends after
// HandleTimeout, and a message that keeps timing out is given up.
func TestReceiverHandleTimeout(t *testing.T) {
	srv := startLocal(t, localmail.Options{})
	smtpSend(t, srv, "lexio@localhost", testMessage("slow", "slow@example.org", "PASS"))
	h := &failureRecorder{recorder: newRecorder()}
	var deadlines []bool
	var mu sync.Mutex
	blocking := mailer.HandlerFunc(func(ctx context.Context, m mailer.Inbound) error {
		_, ok := ctx.Deadline()
		mu.Lock()
		deadlines = append(deadlines, ok)
		mu.Unlock()
		<-ctx.Done() // a transaction that waits on a lock held elsewhere
		return ctx.Err()
	})
	cfg := receiverConfig(srv)
	cfg.MaxAttempts = 2
	cfg.HandleTimeout = 50 * time.Millisecond
	r, err := mailer.NewReceiver(cfg, timeoutHandler{h, blocking})
	if err != nil {
		t.Fatal(err)
	}
	stop := runReceiver(t, r)
	eventually(t, "moved", func() bool { return count(t, srv, "Processed") == 1 })
	stop()
	failed, errs := h.given()
	if len(failed) != 1 || !errors.Is(errs[0], context.DeadlineExceeded) {
		t.Errorf("Failed got %v, %v; want the deadline", failed, errs)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(deadlines) != 2 || !deadlines[0] || !deadlines[1] {
		t.Errorf("handler contexts with deadlines: %v, want 2 with", deadlines)
	}
}

// timeoutHandler hands messages to handle, and failures to rec.
type timeoutHandler struct {
	rec    *failureRecorder
	handle mailer.HandlerFunc
}

func (h timeoutHandler) HandleMessage(ctx context.Context, m mailer.Inbound) error {
	return h.handle(ctx, m)
}

func (h timeoutHandler) Failed(ctx context.Context, m mailer.Inbound, err error) error {
	return h.rec.Failed(ctx, m, err)
}

// TestReceiverGivesUpAfterHandlingsThatNeverReturned: a message during
// whose handling the daemon stops (here: a stop whose grace ends; in
// life, the kernel killing it out of memory) keeps a keyword per
// such handling; at MaxAttempts of them the next daemon gives it up
// through Failed without handing it over again, and handles the next.
func TestReceiverGivesUpAfterHandlingsThatNeverReturned(t *testing.T) {
	srv := startLocal(t, localmail.Options{})
	smtpSend(t, srv, "lexio@localhost", testMessage("poison", "poison@example.org", "PASS"))
	smtpSend(t, srv, "lexio@localhost", testMessage("move", "move@example.org", "PASS"))
	cfg := receiverConfig(srv)
	cfg.MaxAttempts = 2
	cfg.ShutdownGrace = 20 * time.Millisecond
	var poisoned int
	for round := 1; round <= cfg.MaxAttempts; round++ {
		inHand := make(chan struct{})
		r, err := mailer.NewReceiver(cfg, mailer.HandlerFunc(func(ctx context.Context, m mailer.Inbound) error {
			if header(m.Raw, "Subject") != "poison" {
				return fmt.Errorf("round %d: %q handed over before poison was given up", round, header(m.Raw, "Subject"))
			}
			poisoned++
			close(inHand)
			<-ctx.Done() // never returns of its own
			return ctx.Err()
		}))
		if err != nil {
			t.Fatal(err)
		}
		stop := runReceiver(t, r)
		select {
		case <-inHand:
		case <-time.After(waitFor):
			t.Fatalf("round %d: poison not handed over", round)
		}
		stop()
	}
	if poisoned != cfg.MaxAttempts {
		t.Fatalf("poison handed over %d times, want %d", poisoned, cfg.MaxAttempts)
	}
	if n := count(t, srv, "INBOX"); n != 2 {
		t.Fatalf("INBOX holds %d after the stops, want 2", n)
	}

	h := &failureRecorder{recorder: newRecorder()}
	r, err := mailer.NewReceiver(cfg, h)
	if err != nil {
		t.Fatal(err)
	}
	stop := runReceiver(t, r)
	eventually(t, "both moved", func() bool { return count(t, srv, "Processed") == 2 })
	stop()
	if got := strings.Join(h.subjects(), ","); got != "move" {
		t.Errorf("handed over %s, want move alone", got)
	}
	failed, errs := h.given()
	if len(failed) != 1 || failed[0] != "poison" || !strings.Contains(fmt.Sprint(errs), "never returned") {
		t.Errorf("Failed got %v, %v; want poison, never returned", failed, errs)
	}
}

// TestReceiverTellsConnected: Connected hears true after each login and
// select, false when such a connection ends, lost or at the stop; a
// failed reconnection tells nothing.
func TestReceiverTellsConnected(t *testing.T) {
	srv := startLocal(t, localmail.Options{})
	told := make(chan bool, 16)
	cfg := receiverConfig(srv)
	cfg.Connected = func(up bool) { told <- up }
	r, err := mailer.NewReceiver(cfg, newRecorder())
	if err != nil {
		t.Fatal(err)
	}
	stop := runReceiver(t, r)
	next := func(want bool) {
		t.Helper()
		select {
		case got := <-told:
			if got != want {
				t.Fatalf("Connected(%v), want Connected(%v)", got, want)
			}
		case <-time.After(waitFor):
			t.Fatalf("no Connected(%v)", want)
		}
	}
	next(true)
	srv.StopIMAP()
	next(false)
	if err := srv.StartIMAP(context.Background()); err != nil {
		t.Fatal(err)
	}
	next(true)
	stop()
	next(false)
	select {
	case up := <-told:
		t.Errorf("Connected(%v) after the stop", up)
	default:
	}
}
