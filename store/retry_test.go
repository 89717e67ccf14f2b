package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"testing"
)

// TestTemporary: the service retries what the store says is temporary,
// and nothing it marked permanent or that is not the store's to mend.
func TestTemporary(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"conflict", fmt.Errorf("store: save table 3: %w", ErrConflict), true},
		{"cancelled", fmt.Errorf("store: waiting for the writer: %w", context.Canceled), true},
		{"permanent over a cancelled context", Permanent(fmt.Errorf("table: render: %w", context.Canceled)), false},
		{"permanent over a conflict", Permanent(ErrConflict), false},
		{"duplicate", fmt.Errorf("store: insert table: %w", ErrDuplicate), false},
		{"not found", ErrNotFound, false},
		{"another package's type", &strconv.NumError{Func: "Atoi", Num: "x", Err: strconv.ErrSyntax}, false},
		{"other", errors.New("table: command not routed"), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Temporary(tc.err); got != tc.want {
				t.Errorf("Temporary(%v) = %v, want %v", tc.err, got, tc.want)
			}
		})
	}
}

// TestRetry: a conflict runs again, up to MaxAttempts times; any other
// outcome, or a context that ended, is returned at once.
func TestRetry(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	conflict := fmt.Errorf("store: save table 3: %w", ErrConflict)
	run := func(ctx context.Context, errs ...error) (int, error) {
		n := 0
		err := Retry(ctx, log, "test", func() error {
			n++
			if n <= len(errs) {
				return errs[n-1]
			}
			return nil
		})
		return n, err
	}
	if n, err := run(t.Context(), conflict, conflict); n != 3 || err != nil {
		t.Errorf("two conflicts then nil: %d runs, %v; want 3, nil", n, err)
	}
	always := make([]error, MaxAttempts+1)
	for i := range always {
		always[i] = conflict
	}
	if n, err := run(t.Context(), always...); n != MaxAttempts || !errors.Is(err, ErrConflict) {
		t.Errorf("conflicts without end: %d runs, %v; want %d and the conflict", n, err, MaxAttempts)
	}
	other := errors.New("table: command not routed")
	if n, err := run(t.Context(), conflict, other, nil); n != 2 || err != other {
		t.Errorf("a conflict then a failure: %d runs, %v; want 2 and the failure", n, err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if n, err := run(ctx, conflict, conflict); n != 1 || !errors.Is(err, ErrConflict) {
		t.Errorf("a conflict after the context ended: %d runs, %v; want 1 and the conflict", n, err)
	}
}
