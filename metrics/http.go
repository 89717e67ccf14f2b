package metrics

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Handler serves /metrics (the exposition format) and /healthz.
func (m *Metrics) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{
		// A read that failed (the store) leaves out its metrics, not
		// the others; why is logged, not served.
		ErrorHandling: promhttp.ContinueOnError,
		ErrorLog:      slog.NewLogLogger(m.o.Log.Handler(), slog.LevelWarn),
		// The reads are bounded by ScrapeTimeout each; this bounds the
		// page, with room for the rest of it on a loaded machine.
		Timeout: m.o.ScrapeTimeout + 5*time.Second,
	}))
	mux.HandleFunc("GET /healthz", m.healthz)
	return mux
}

// healthz answers 200 "ok" while IMAP is connected, or has been down for
// less than IMAPGrace (reconnecting), and the store answers within
// PingTimeout; else 503 and the reasons on one line. A store's error is
// logged, never served: it may name the database's host and user.
func (m *Metrics) healthz(w http.ResponseWriter, r *http.Request) {
	var reasons []string
	if down := m.imapDown(); down >= m.o.IMAPGrace {
		reasons = append(reasons, fmt.Sprintf("imap: not connected for %s", down.Round(time.Second)))
	}
	if m.o.Ping != nil {
		ctx, cancel := context.WithTimeout(r.Context(), m.o.PingTimeout)
		err := m.o.Ping(ctx)
		cancel()
		switch {
		case err == nil:
		case errors.Is(err, context.DeadlineExceeded):
			reasons = append(reasons, fmt.Sprintf("store: no answer within %s", m.o.PingTimeout))
		default:
			m.o.Log.Warn("healthz: the store does not answer", "err", err)
			reasons = append(reasons, "store: not answering")
		}
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if len(reasons) > 0 {
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintln(w, strings.Join(reasons, "; "))
		return
	}
	fmt.Fprintln(w, "ok")
}

// shutdownGrace bounds how long a stop waits for the requests in flight.
const shutdownGrace = 5 * time.Second

// Serve answers Handler's paths on ln until ctx ends; then ln closes,
// the requests in flight finish (within shutdownGrace) and Serve
// returns nil. A listener that fails ends it with the error.
func (m *Metrics) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{Handler: m.Handler(), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: time.Minute, ErrorLog: slog.NewLogLogger(m.o.Log.Handler(), slog.LevelWarn)}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("metrics: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
	}
	<-done // http.ErrServerClosed
	return nil
}
