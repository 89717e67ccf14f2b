package outboxmail_test

import (
	"context"
	"fmt"
	"net"
	"net/mail"
	"path/filepath"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/mailer"
	"github.com/lexio-mail/lexio/mailer/localmail"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/outbox"
	"github.com/lexio-mail/lexio/store/outboxmail"
)

var t0 = time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)

// TestDispatcherSendsTheStore runs a real dispatcher over a real store and
// SMTP server: a row written longer ago than the dispatcher's age limit is
// given up (the row's creation time reaches the dispatcher); a try that
// fails is recorded with its next time and made again at it; a row sent
// leaves the queue.
func TestDispatcherSendsTheStore(t *testing.T) {
	ctx := t.Context()
	st, err := store.Open(ctx, store.Options{SQLitePath: filepath.Join(t.TempDir(), "lexio.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	srv, err := localmail.Start(ctx, localmail.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	if err := srv.AddUser("alice", "secret"); err != nil {
		t.Fatal(err)
	}

	fresh := &store.OutboxMail{MessageID: "<fresh@localhost>", From: "lexio@localhost", To: []string{"alice@localhost"},
		Raw: message(t, "fresh"), CreatedAt: t0}
	stale := &store.OutboxMail{MessageID: "<stale@localhost>", From: "lexio@localhost", To: []string{"alice@localhost"},
		Raw: message(t, "stale"), CreatedAt: t0.Add(-mailer.DefaultMaxAge - time.Hour), NextAttempt: t0}
	if err := st.Tx(ctx, func(tx *store.Tx) error { return outbox.Enqueue(tx, []*store.OutboxMail{fresh, stale}) }); err != nil {
		t.Fatal(err)
	}
	ob := outboxmail.New(st)

	// Nobody listens at closed: fresh's try is temporary; stale is given up
	// without a try.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().String()
	_ = l.Close()
	down := dispatcher(t, closed, ob, t0)
	if res, err := down.RunOnce(ctx); err != nil || res != (mailer.Result{Retry: 1, Failed: 1}) {
		t.Fatalf("RunOnce with the server down = %+v, %v; want one retry, one given up", res, err)
	}
	m := row(t, st, fresh.ID)
	if m.Attempts != 1 || !m.NextAttempt.After(t0) || m.LastError == "" || m.SentAt != nil || m.FailedAt != nil {
		t.Fatalf("after a temporary failure: attempts %d, next %v, error %q, sent %v, failed %v",
			m.Attempts, m.NextAttempt, m.LastError, m.SentAt, m.FailedAt)
	}
	if n, err := srv.Count("alice", "INBOX"); err != nil || n != 0 {
		t.Fatalf("alice's inbox: %d, %v", n, err)
	}

	if m := row(t, st, stale.ID); m.FailedAt == nil || m.SentAt != nil {
		t.Errorf("stale: failed %v, sent %v; want given up", m.FailedAt, m.SentAt)
	}

	// At the next attempt time the server is up: fresh is sent.
	at := m.NextAttempt
	up := dispatcher(t, srv.SMTPAddr(), ob, at)
	if res, err := up.RunOnce(ctx); err != nil || res != (mailer.Result{Sent: 1}) {
		t.Fatalf("RunOnce with the server up = %+v, %v; want one sent", res, err)
	}
	if m := row(t, st, fresh.ID); m.Attempts != 2 || m.SentAt == nil || !m.SentAt.Equal(at) {
		t.Errorf("fresh: attempts %d, sent %v; want 2, %v", m.Attempts, m.SentAt, at)
	}
	if n, err := srv.Count("alice", "INBOX"); err != nil || n != 1 {
		t.Errorf("alice's inbox: %d, %v; want the fresh mail alone", n, err)
	}
	if res, err := up.RunOnce(ctx); err != nil || res != (mailer.Result{}) {
		t.Errorf("RunOnce with nothing due = %+v, %v", res, err)
	}
}

func dispatcher(t *testing.T, addr string, ob mailer.Outbox, now time.Time) *mailer.Dispatcher {
	t.Helper()
	d, err := mailer.NewDispatcher(mailer.DispatcherConfig{Addr: addr, TLS: mailer.TLSNone, Timeout: 5 * time.Second,
		KeepAlive: -1, Now: func() time.Time { return now }}, ob)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Close)
	return d
}

func row(t *testing.T, st *store.Store, id int64) *store.OutboxMail {
	t.Helper()
	m, err := outbox.New(st).Mail(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func message(t *testing.T, name string) []byte {
	t.Helper()
	raw, err := mailer.Compose(mailer.Envelope{
		From:      mail.Address{Name: "Lexio", Address: "lexio@localhost"},
		To:        []mail.Address{{Address: "alice@localhost"}},
		Subject:   "[Lexio t1] " + name,
		Date:      t0,
		MessageID: fmt.Sprintf("%s@localhost", name),
		Text:      name + "\n",
	})
	if err != nil {
		t.Fatal(err)
	}
	return raw
}
