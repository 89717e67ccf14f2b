package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"time"

	"github.com/lexio-mail/lexio/config"
	"github.com/lexio-mail/lexio/internal/sdnotify"
	"github.com/lexio-mail/lexio/mailer"
	"github.com/lexio-mail/lexio/metrics"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/outbox"
	"github.com/lexio-mail/lexio/table"
)

// watch is what serve tells the outside, across reloads: the metrics
// ([metrics] listen; nil when off) and the service manager (Type=notify:
// ready once the store is open and IMAP connected, reloading, stopping).
// Its methods are the hooks each daemon's parts are given; a nil watch
// tells nothing.
type watch struct {
	metrics *metrics.Metrics
	notify  *sdnotify.Notifier
	log     *slog.Logger

	mu sync.Mutex
	// ready: READY=1 was sent for the start; reloading: RELOADING=1 for
	// a reload that has not ended.
	ready, reloading bool
}

// newWatch makes the watch of one serve on st, and starts the metrics'
// listener when cfg has one; serve ends when served yields (nil when
// ctx ended, or the listener's error). served is nil without metrics.
func newWatch(ctx context.Context, cfg *config.Config, st *store.Store, notifySocket string, log *slog.Logger) (w *watch, served <-chan error, err error) {
	w = &watch{notify: sdnotify.New(notifySocket), log: log}
	if !cfg.Metrics.On() {
		return w, nil, nil
	}
	w.metrics = metrics.New(metrics.Options{
		Outcomes: []string{table.OutcomeApplied, table.OutcomeIgnored, table.OutcomeRejected, table.OutcomeError, table.OutcomePending},
		Statuses: []string{table.StatusOpen, table.StatusPlaying, table.StatusOver},
		Outbox:   outbox.New(st).Waiting,
		Tables: func(ctx context.Context) (counts map[string]int, err error) {
			err = st.View(ctx, func(tx *store.Tx) error {
				counts, err = tx.TableCounts()
				return err
			})
			return counts, err
		},
		Ping: st.Ping,
		Log:  log.With("part", "metrics"),
	})
	ln, err := net.Listen("tcp", cfg.Metrics.Listen)
	if err != nil {
		return nil, nil, fmt.Errorf("metrics: %w", err)
	}
	log.Info("metrics listening", "address", ln.Addr().String())
	done := make(chan error, 1)
	go func() { done <- w.metrics.Serve(ctx, ln) }()
	return w, done, nil
}

// imap hears of each IMAP connection made and lost (the receiver's
// Connected); the first one made tells the service manager that the
// daemon is ready.
func (w *watch) imap(up bool) {
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

// reloadBegan and reloadEnded frame a reload, refused or applied. A
// reload before the daemon was ready tells nothing: its first
// connection will.
func (w *watch) reloadBegan() {
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

func (w *watch) reloadEnded() {
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

// stopping tells the service manager that the daemon is stopping.
func (w *watch) stopping() {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.tell("stopping", w.notify.Stopping)
}

// tell sends one state; a failure is logged (the service manager then
// goes by its timeouts).
func (w *watch) tell(state string, send func() error) {
	if err := send(); err != nil {
		w.log.Warn("the service manager was not told", "state", state, "err", err)
	}
}

// handled, sent, ticked and tokenRequested are the metrics' hooks.
func (w *watch) handled(outcome string) {
	if w != nil && w.metrics != nil {
		w.metrics.Handled(outcome)
	}
}

func (w *watch) sent(r mailer.Result) {
	if w != nil && w.metrics != nil {
		w.metrics.Sent(r.Sent)
		w.metrics.Deferred(r.Retry)
	}
}

func (w *watch) ticked(d time.Duration) {
	if w != nil && w.metrics != nil {
		w.metrics.Tick(d)
	}
}

func (w *watch) tokenRequested(err error) {
	if w != nil && w.metrics != nil {
		w.metrics.TokenRefreshed(err)
	}
}
