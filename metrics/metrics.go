// Package metrics gives a host the daemon's numbers and health on a
// listener of its own ([metrics] listen): /metrics for Prometheus and
// /healthz for a monitor. It keeps its own registry (no global state,
// so two daemons can run in one process) and takes what it counts
// through small methods (Handled, Sent, IMAP ...), which service/watch
// calls from the hooks of the packages doing the work, and what it reads
// at a scrape through funcs (Options). It knows nothing of the store, mail or
// games; no other package of lexio imports Prometheus.
package metrics

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// namespace starts every metric's name.
const namespace = "lexio"

// Defaults of Options.
const (
	DefaultScrapeTimeout = 5 * time.Second
	DefaultPingTimeout   = 2 * time.Second
	DefaultIMAPGrace     = time.Minute
)

// Options says what is read at a scrape and how /healthz judges.
type Options struct {
	// Now is the clock of the outbox's age and of /healthz (default
	// time.Now).
	Now func() time.Time
	// Outcomes are the outcomes of a handled message, shown at 0
	// before the first of each; Handled counts others too.
	Outcomes []string
	// Statuses are the statuses of a table, shown at 0 when Tables has
	// none of them.
	Statuses []string
	// Outbox reads, at each scrape, how many mails wait to be sent and
	// when the oldest of them was written (zero when none waits).
	Outbox func(ctx context.Context) (depth int, oldest time.Time, err error)
	// Tables counts the tables by status at each scrape.
	Tables func(ctx context.Context) (map[string]int, error)
	// Ping says whether the store answers, for /healthz; nil: not
	// checked.
	Ping func(ctx context.Context) error
	// ScrapeTimeout bounds Outbox and Tables at each scrape, PingTimeout
	// the Ping of each /healthz.
	ScrapeTimeout, PingTimeout time.Duration
	// IMAPGrace is how long IMAP may be down, reconnecting, while
	// /healthz still answers 200.
	IMAPGrace time.Duration
	// Log receives what a response cannot say (a store's error); default
	// discards.
	Log *slog.Logger
}

// Metrics is one daemon's metrics and health. Its methods are safe for
// concurrent use.
type Metrics struct {
	o   Options
	reg *prometheus.Registry

	handled        *prometheus.CounterVec
	sent, deferred prometheus.Counter
	imapConnected  prometheus.Gauge
	reconnects     prometheus.Counter
	tokenRefreshes prometheus.Counter
	tokenFailures  prometheus.Counter
	tick           prometheus.Histogram

	mu sync.Mutex
	// imapUp says whether IMAP is connected; downSince, since when it is
	// not (the start, before a first connection); connected, whether it
	// ever was.
	imapUp, connected bool
	downSince         time.Time
}

// New makes the metrics of one daemon, registered in a registry of
// their own with the Go runtime's and the process's.
func New(o Options) *Metrics {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.ScrapeTimeout <= 0 {
		o.ScrapeTimeout = DefaultScrapeTimeout
	}
	if o.PingTimeout <= 0 {
		o.PingTimeout = DefaultPingTimeout
	}
	if o.IMAPGrace <= 0 {
		o.IMAPGrace = DefaultIMAPGrace
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	m := &Metrics{o: o, reg: prometheus.NewRegistry(), downSince: o.Now()}
	m.handled = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "messages_handled_total",
		Help: "Inbound messages handled, by outcome."}, []string{"outcome"})
	for _, outcome := range o.Outcomes {
		m.handled.WithLabelValues(outcome)
	}
	m.sent = prometheus.NewCounter(prometheus.CounterOpts{Namespace: namespace, Name: "mail_sent_total",
		Help: "Mails the SMTP server accepted."})
	m.deferred = prometheus.NewCounter(prometheus.CounterOpts{Namespace: namespace, Name: "mail_deferred_total",
		Help: "Sending attempts that failed for now and will be tried again."})
	m.imapConnected = prometheus.NewGauge(prometheus.GaugeOpts{Namespace: namespace, Name: "imap_connected",
		Help: "1 while the IMAP session is connected, else 0."})
	m.reconnects = prometheus.NewCounter(prometheus.CounterOpts{Namespace: namespace, Name: "imap_reconnects_total",
		Help: "IMAP connections made after the first."})
	m.tokenRefreshes = prometheus.NewCounter(prometheus.CounterOpts{Namespace: namespace, Name: "oauth2_token_refreshes_total",
		Help: "OAuth2 access tokens asked of the token endpoint."})
	m.tokenFailures = prometheus.NewCounter(prometheus.CounterOpts{Namespace: namespace, Name: "oauth2_token_failures_total",
		Help: "OAuth2 token requests that failed."})
	m.tick = prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: namespace, Name: "tick_duration_seconds",
		Help:    "How long each scheduler tick took, its jobs in order.",
		Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60}})
	m.reg.MustRegister(m.handled, m.sent, m.deferred, m.imapConnected, m.reconnects, m.tokenRefreshes, m.tokenFailures, m.tick,
		&scraped{m: m}, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Registry is where the metrics are registered, for a caller that adds
// its own.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handled counts one inbound message handled, by its outcome.
func (m *Metrics) Handled(outcome string) { m.handled.WithLabelValues(outcome).Inc() }

// Sent counts n mails the SMTP server accepted.
func (m *Metrics) Sent(n int) { m.sent.Add(float64(max(n, 0))) }

// Deferred counts n sending attempts that failed for now, to be tried
// again.
func (m *Metrics) Deferred(n int) { m.deferred.Add(float64(max(n, 0))) }

// IMAP is told each time an IMAP connection is made (true) or lost
// (false); every connection after the first counts as a reconnect.
func (m *Metrics) IMAP(connected bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if connected {
		if m.connected {
			m.reconnects.Inc()
		}
		m.connected, m.imapUp = true, true
		m.imapConnected.Set(1)
		return
	}
	if m.imapUp {
		m.imapUp, m.downSince = false, m.o.Now()
	}
	m.imapConnected.Set(0)
}

// TokenRefreshed counts one request for an OAuth2 token, failed when err
// is not nil. The error itself is not kept.
func (m *Metrics) TokenRefreshed(err error) {
	m.tokenRefreshes.Inc()
	if err != nil {
		m.tokenFailures.Inc()
	}
}

// Tick records how long one scheduler tick took.
func (m *Metrics) Tick(d time.Duration) { m.tick.Observe(d.Seconds()) }

// imapDown returns for how long IMAP has been down, 0 while it is up.
func (m *Metrics) imapDown() time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.imapUp {
		return 0
	}
	return max(m.o.Now().Sub(m.downSince), 0)
}

// scraped collects the gauges read when Prometheus asks: the outbox and
// the tables by status.
type scraped struct{ m *Metrics }

var (
	outboxDepth = prometheus.NewDesc(namespace+"_outbox_depth", "Mails waiting in the outbox to be sent.", nil, nil)
	outboxAge   = prometheus.NewDesc(namespace+"_outbox_oldest_age_seconds",
		"How long the oldest mail of the outbox has waited; 0 when none waits.", nil, nil)
	tables = prometheus.NewDesc(namespace+"_tables", "Tables, by status.", []string{"status"}, nil)
)

func (s *scraped) Describe(ch chan<- *prometheus.Desc) {
	ch <- outboxDepth
	ch <- outboxAge
	ch <- tables
}

// Collect reads the outbox and the tables, each within ScrapeTimeout; a
// read that fails fails the scrape of its metrics alone.
func (s *scraped) Collect(ch chan<- prometheus.Metric) {
	o := s.m.o
	if o.Outbox != nil {
		ctx, cancel := context.WithTimeout(context.Background(), o.ScrapeTimeout)
		depth, oldest, err := o.Outbox(ctx)
		cancel()
		if err != nil {
			ch <- prometheus.NewInvalidMetric(outboxDepth, err)
		} else {
			age := time.Duration(0)
			if depth > 0 && !oldest.IsZero() {
				age = max(o.Now().Sub(oldest), 0)
			}
			ch <- prometheus.MustNewConstMetric(outboxDepth, prometheus.GaugeValue, float64(depth))
			ch <- prometheus.MustNewConstMetric(outboxAge, prometheus.GaugeValue, age.Seconds())
		}
	}
	if o.Tables != nil {
		ctx, cancel := context.WithTimeout(context.Background(), o.ScrapeTimeout)
		counts, err := o.Tables(ctx)
		cancel()
		if err != nil {
			ch <- prometheus.NewInvalidMetric(tables, err)
			return
		}
		for _, status := range o.Statuses {
			if _, ok := counts[status]; !ok {
				ch <- prometheus.MustNewConstMetric(tables, prometheus.GaugeValue, 0, status)
			}
		}
		for status, n := range counts {
			ch <- prometheus.MustNewConstMetric(tables, prometheus.GaugeValue, float64(n), status)
		}
	}
}
