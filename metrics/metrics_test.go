package metrics

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// clock is a time the test moves, read by the server's goroutines.
type clock struct{ ns atomic.Int64 }

func newClock() *clock {
	c := &clock{}
	c.ns.Store(time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC).UnixNano())
	return c
}

func (c *clock) Now() time.Time                { return time.Unix(0, c.ns.Load()).UTC() }
func (c *clock) Advance(d time.Duration)       { c.ns.Add(int64(d)) }
func (c *clock) Ago(d time.Duration) time.Time { return c.Now().Add(-d) }

// serve runs m on a real 127.0.0.1 listener until the test ends and
// returns its base URL.
func serve(t *testing.T, m *Metrics) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- m.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return "http://" + ln.Addr().String()
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

// scrape reads /metrics as Prometheus would, by family name.
func scrape(t *testing.T, base string) (map[string]*dto.MetricFamily, string) {
	t.Helper()
	code, body := get(t, base+"/metrics")
	if code != http.StatusOK {
		t.Fatalf("/metrics: %d %s", code, body)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		t.Fatalf("/metrics is not the exposition format: %v\n%s", err, body)
	}
	return fams, body
}

// value is the value of the family's metric whose labels are pairs
// (name, value, ...), or fails the test.
func value(t *testing.T, fams map[string]*dto.MetricFamily, name string, labels ...string) float64 {
	t.Helper()
	f, ok := fams[name]
	if !ok {
		t.Fatalf("no metric %s", name)
	}
next:
	for _, m := range f.GetMetric() {
		for i := 0; i+1 < len(labels); i += 2 {
			found := false
			for _, l := range m.GetLabel() {
				if l.GetName() == labels[i] && l.GetValue() == labels[i+1] {
					found = true
				}
			}
			if !found {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue()
		case m.Gauge != nil:
			return m.Gauge.GetValue()
		}
		t.Fatalf("%s%v is neither a counter nor a gauge", name, labels)
	}
	t.Fatalf("no metric %s%v", name, labels)
	return 0
}

func TestScrape(t *testing.T) {
	c := newClock()
	written := c.Ago(90 * time.Second) // the oldest mail waiting
	m := New(Options{
		Now:      c.Now,
		Outcomes: []string{"applied", "ignored", "rejected", "error", "pending"},
		Statuses: []string{"open", "playing", "over"},
		Outbox: func(context.Context) (int, time.Time, error) {
			return 3, written, nil
		},
		Tables: func(context.Context) (map[string]int, error) {
			return map[string]int{"playing": 2, "over": 5}, nil
		},
	})
	base := serve(t, m)

	m.Handled("applied")
	m.Handled("applied")
	m.Handled("rejected")
	m.Sent(4)
	m.Sent(0)
	m.Deferred(1)
	m.IMAP(true)
	m.IMAP(false)
	m.IMAP(true)
	m.TokenRefreshed(nil)
	m.TokenRefreshed(errors.New("invalid_client"))
	m.Tick(1500 * time.Millisecond)
	m.Tick(20 * time.Millisecond)

	fams, body := scrape(t, base)
	for _, w := range []struct {
		name   string
		labels []string
		want   float64
	}{
		{"lexio_messages_handled_total", []string{"outcome", "applied"}, 2},
		{"lexio_messages_handled_total", []string{"outcome", "rejected"}, 1},
		{"lexio_messages_handled_total", []string{"outcome", "pending"}, 0},
		{"lexio_mail_sent_total", nil, 4},
		{"lexio_mail_deferred_total", nil, 1},
		{"lexio_imap_connected", nil, 1},
		{"lexio_imap_reconnects_total", nil, 1},
		{"lexio_oauth2_token_refreshes_total", nil, 2},
		{"lexio_oauth2_token_failures_total", nil, 1},
		{"lexio_outbox_depth", nil, 3},
		{"lexio_outbox_oldest_age_seconds", nil, 90},
		{"lexio_tables", []string{"status", "playing"}, 2},
		{"lexio_tables", []string{"status", "over"}, 5},
		{"lexio_tables", []string{"status", "open"}, 0},
	} {
		if got := value(t, fams, w.name, w.labels...); got != w.want {
			t.Errorf("%s%v = %v, want %v", w.name, w.labels, got, w.want)
		}
	}
	h := fams["lexio_tick_duration_seconds"].GetMetric()[0].GetHistogram()
	if h.GetSampleCount() != 2 || h.GetSampleSum() != 1.52 {
		t.Errorf("tick histogram: %d samples, sum %v; want 2, 1.52", h.GetSampleCount(), h.GetSampleSum())
	}
	for _, b := range h.GetBucket() {
		if b.GetUpperBound() == 1 && b.GetCumulativeCount() != 1 {
			t.Errorf("tick histogram: %d ticks under 1 s, want 1", b.GetCumulativeCount())
		}
	}
	if _, ok := fams["go_goroutines"]; !ok {
		t.Errorf("no Go runtime metrics:\n%s", body)
	}

	// The clock moves the outbox's age; a disconnection shows at once.
	c.Advance(time.Minute)
	m.IMAP(false)
	fams, _ = scrape(t, base)
	if got := value(t, fams, "lexio_outbox_oldest_age_seconds"); got != 150 {
		t.Errorf("outbox age a minute later = %v, want 150", got)
	}
	if got := value(t, fams, "lexio_imap_connected"); got != 0 {
		t.Errorf("imap_connected after a loss = %v", got)
	}
}

// TestScrapeReadFails: a read that fails at a scrape leaves its metrics
// out, not the others, and its error reaches the log, not the page.
func TestScrapeReadFails(t *testing.T) {
	var log bytes.Buffer
	var mu sync.Mutex
	m := New(Options{
		Outbox: func(context.Context) (int, time.Time, error) {
			return 0, time.Time{}, errors.New("dial postgres://lexio@db: refused")
		},
		Tables: func(ctx context.Context) (map[string]int, error) {
			<-ctx.Done() // a store that never answers
			return nil, ctx.Err()
		},
		ScrapeTimeout: 50 * time.Millisecond,
		Log:           slog.New(slog.NewTextHandler(lockedWriter{&mu, &log}, nil)),
	})
	m.Sent(2)
	fams, body := scrape(t, serve(t, m))
	if got := value(t, fams, "lexio_mail_sent_total"); got != 2 {
		t.Errorf("mail_sent_total = %v, want 2", got)
	}
	for _, name := range []string{"lexio_outbox_depth", "lexio_outbox_oldest_age_seconds", "lexio_tables"} {
		if _, ok := fams[name]; ok {
			t.Errorf("%s shown though its read failed", name)
		}
	}
	if strings.Contains(body, "postgres") {
		t.Errorf("the store's error is on the page:\n%s", body)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(log.String(), "refused") {
		t.Errorf("the failed read is not logged: %q", log.String())
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func TestHealthz(t *testing.T) {
	c := newClock()
	var ping atomic.Value // func(context.Context) error
	ok := func(context.Context) error { return nil }
	ping.Store(ok)
	m := New(Options{
		Now:         c.Now,
		Ping:        func(ctx context.Context) error { return ping.Load().(func(context.Context) error)(ctx) },
		PingTimeout: 50 * time.Millisecond,
	})
	base := serve(t, m)
	check := func(step string, wantCode int, wantBody string) {
		t.Helper()
		code, body := get(t, base+"/healthz")
		if code != wantCode || body != wantBody+"\n" {
			t.Errorf("%s: /healthz = %d %q, want %d %q", step, code, body, wantCode, wantBody)
		}
	}

	check("at start, not connected yet", 200, "ok")
	c.Advance(61 * time.Second)
	check("a minute without IMAP since the start", 503, "imap: not connected for 1m1s")
	m.IMAP(true)
	check("connected", 200, "ok")
	c.Advance(time.Hour)
	m.IMAP(false)
	c.Advance(59 * time.Second)
	check("reconnecting for 59s", 200, "ok")
	m.IMAP(false) // told again: still down since the first loss
	c.Advance(time.Second)
	check("reconnecting for a minute", 503, "imap: not connected for 1m0s")
	m.IMAP(true)
	check("reconnected", 200, "ok")

	ping.Store(func(context.Context) error { return errors.New("dial tcp db:5432: user=lexio refused") })
	check("the store fails", 503, "store: not answering")
	ping.Store(func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() })
	check("the store hangs", 503, "store: no answer within 50ms")
	m.IMAP(false)
	c.Advance(2 * time.Minute)
	check("both", 503, "imap: not connected for 2m0s; store: no answer within 50ms")
	m.IMAP(true)
	ping.Store(ok)
	check("all well again", 200, "ok")

	resp, err := http.Post(base+"/healthz", "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST /healthz: %d", resp.StatusCode)
	}
	if code, _ := get(t, base+"/"); code != http.StatusNotFound {
		t.Errorf("GET /: %d, want 404", code)
	}
}

// TestOwnRegistry: two daemons in one process each have their metrics.
func TestOwnRegistry(t *testing.T) {
	a, b := New(Options{}), New(Options{})
	a.Sent(1)
	fa, _ := scrape(t, serve(t, a))
	fb, _ := scrape(t, serve(t, b))
	if value(t, fa, "lexio_mail_sent_total") != 1 || value(t, fb, "lexio_mail_sent_total") != 0 {
		t.Error("the two Metrics share their counters")
	}
	if a.Registry() == b.Registry() {
		t.Error("the two Metrics share a registry")
	}
}

// TestServeStops: Serve returns nil once its context ends, and the
// listener no longer answers.
func TestServeStops(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- New(Options{}).Serve(ctx, ln) }()
	if code, _ := get(t, "http://"+ln.Addr().String()+"/healthz"); code != 200 {
		t.Fatalf("/healthz: %d", code)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return")
	}
	if _, err := net.DialTimeout("tcp", ln.Addr().String(), time.Second); err == nil {
		t.Error("the listener still accepts after the stop")
	}
}
