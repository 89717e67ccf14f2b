package web

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// Grace bounds how long a stop waits for the requests in flight.
const Grace = 5 * time.Second

// Listen opens addr and returns the function that serves the pages on it
// until ctx ends: then the listener closes first (no new request), the
// requests in flight finish (within Grace), and it returns ctx.Err(), so
// that whoever runs it may close what the pages read. log is told of the
// start (with baseURL, the links' address), the stop and the HTTP
// server's own errors.
func (s *Server) Listen(addr, baseURL string, log *slog.Logger) (func(context.Context) error, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("web: %w", err)
	}
	log.Info("web side listening", "address", ln.Addr().String(), "base_url", baseURL)
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: time.Minute, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	return func(ctx context.Context) error {
		done := make(chan error, 1)
		go func() { done <- srv.Serve(ln) }()
		select {
		case err := <-done:
			return fmt.Errorf("web: %w", err)
		case <-ctx.Done():
		}
		sctx, cancel := context.WithTimeout(context.Background(), Grace)
		defer cancel()
		if err := srv.Shutdown(sctx); err != nil {
			log.Warn("web requests cut short at the stop", "err", err)
			srv.Close()
		}
		<-done // http.ErrServerClosed
		log.Info("web side stopped")
		return ctx.Err()
	}, nil
}
