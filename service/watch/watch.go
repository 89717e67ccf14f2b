// Package watch is what a host sees of the running daemon, across
// reloads: the metrics on their own listener ([metrics] listen), fed by
// the parts' hooks and reading the store at each scrape, and the service
// manager's states (Type=notify): ready once the store is open and IMAP
// first connected, reloading, stopping. Its methods are the hooks
// cmd/lexio hands the parts. It knows nothing of what the parts do, nor
// of Prometheus (metrics) or the notify protocol (internal/sdnotify).
package watch

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"time"

	"github.com/lexio-mail/lexio/internal/sdnotify"
	"github.com/lexio-mail/lexio/mailer"
	"github.com/lexio-mail/lexio/metrics"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/outbox"
	"github.com/lexio-mail/lexio/table"
)

// Options say where the metrics listen and whom to tell.
type Options struct {
	// Listen is the metrics' address; "" is off.
	Listen string
	// NotifySocket is $NOTIFY_SOCKET; "" tells nobody.
	NotifySocket string
	// Store is read at each scrape: the outbox, the tables, a ping.
	Store *store.Store
	Log   *slog.Logger
}

// Watch is one serve's metrics and service manager. A nil Watch tells
// nothing; its methods are safe for concurrent use.
type Watch struct {
	metrics *metrics.Metrics // nil when off
	notify  *sdnotify.Notifier
	log     *slog.Logger
	stop    context.CancelFunc
	served  chan error

	mu sync.Mutex
	// ready: READY=1 was sent for the start; reloading: RELOADING=1 was
	// sent for a reload that has not ended.
	ready, reloading bool
}

// Start starts the metrics' listener when o has one. Close stops it.
func Start(o Options) (*Watch, error) {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	w := &Watch{notify: sdnotify.New(o.NotifySocket), log: o.Log}
	if o.Listen == "" {
		return w, nil
	}
	st := o.Store
	w.metrics = metrics.New(metrics.Options{
		Outcomes: []string{table.OutcomeApplied, table.OutcomeIgnored, table.OutcomeRejected, table.OutcomeError, table.OutcomePending},
		Statuses: []string{string(store.StatusOpen), string(store.StatusPlaying), string(store.StatusOver)},
		Outbox:   outbox.New(st).Waiting,
		Tables: func(ctx context.Context) (counts map[string]int, err error) {
			err = st.View(ctx, func(tx *store.Tx) error {
				counts, err = tx.TableCounts()
				return err
			})
			return counts, err
		},
		Ping: st.Ping,
		Log:  o.Log.With("part", "metrics"),
	})
	ln, err := net.Listen("tcp", o.Listen)
	if err != nil {
		return nil, fmt.Errorf("metrics: %w", err)
	}
	o.Log.Info("metrics listening", "address", ln.Addr().String())
	ctx, stop := context.WithCancel(context.Background())
	w.stop, w.served = stop, make(chan error, 1)
	go func() {
		if err := w.metrics.Serve(ctx, ln); err != nil {
			o.Log.Error("the metrics stopped", "err", err)
		}
		close(w.served)
	}()
	return w, nil
}

// Close stops the metrics' listener, the requests in flight answered.
func (w *Watch) Close() {
	if w != nil && w.stop != nil {
		w.stop()
		<-w.served
	}
}

// IMAP hears of each IMAP connection made and ended (the receiver's
// Connected); the first one made tells the service manager that the
// daemon is ready.
func (w *Watch) IMAP(up bool) {
	if w == nil {
		return
	}
	if w.metrics != nil {
		w.metrics.IMAP(up)
	}
	if !up {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.ready {
		w.ready = true
		w.tell("ready", w.notify.Ready)
	}
}

// ReloadBegan and ReloadEnded frame a reload, refused or applied. A
// reload before the daemon was ready tells nothing: its first
// connection will.
func (w *Watch) ReloadBegan() {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ready {
		w.reloading = true
		w.tell("reloading", w.notify.Reloading)
	}
}

func (w *Watch) ReloadEnded() {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.reloading {
		w.reloading = false
		w.tell("ready", w.notify.Ready)
	}
}

// Stopping tells the service manager that the daemon is stopping.
func (w *Watch) Stopping() {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.tell("stopping", w.notify.Stopping)
}

// tell sends one state; a failure is logged (the service manager then
// goes by its timeouts).
func (w *Watch) tell(state string, send func() error) {
	if err := send(); err != nil {
		w.log.Warn("the service manager was not told", "state", state, "err", err)
	}
}

// Handled counts a message recorded with its outcome (inbox's Handled).
func (w *Watch) Handled(outcome string) {
	if w != nil && w.metrics != nil {
		w.metrics.Handled(outcome)
	}
}

// Ran counts the mail sent and deferred by one run of the dispatcher.
func (w *Watch) Ran(r mailer.Result) {
	if w != nil && w.metrics != nil {
		w.metrics.Sent(r.Sent)
		w.metrics.Deferred(r.Retry)
	}
}

// Ticked records how long a scheduler tick took.
func (w *Watch) Ticked(d time.Duration) {
	if w != nil && w.metrics != nil {
		w.metrics.Tick(d)
	}
}

// TokenRequested counts a request to the OAuth2 token endpoint, failed
// when err is not nil.
func (w *Watch) TokenRequested(err error) {
	if w != nil && w.metrics != nil {
		w.metrics.TokenRefreshed(err)
	}
}
