package store

import (
	"context"
	"errors"
	"log/slog"
)

// The retry policy of transactions: a conflict runs again at once
// (Retry), and what is worth trying later is what IsTemporary says,
// unless the caller marked it Permanent (Temporary).

// MaxAttempts bounds how often a transaction that met a conflict (a
// concurrent writer changed the table first) runs again at once. Past it
// the conflict goes to the caller: the receiver tries the message again
// later, a tick leaves the item for the next.
const MaxAttempts = 5

// Retry runs attempt until it does not meet a conflict (ErrConflict), at
// most MaxAttempts times or until ctx ends, and returns its last error.
// Each run starts on the fresh state: callers read the clock and the
// store inside attempt.
func Retry(ctx context.Context, log *slog.Logger, what string, attempt func() error) error {
	for n := 1; ; n++ {
		err := attempt()
		if !errors.Is(err, ErrConflict) || n == MaxAttempts || ctx.Err() != nil {
			return err
		}
		log.Info(what+": a concurrent writer came first (conflict): trying again", "attempt", n, "err", err)
	}
}

// Permanent marks a failure of the service's own (templates, a broken
// stored game) that retrying will not mend, whatever it wraps.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return &permanentError{err}
}

type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }

// Temporary reports whether err may mend by trying again: what the store
// says is temporary (IsTemporary: a conflict, the context, a busy or
// unreachable database), unless it was marked Permanent. Everything else
// — the engine, the templates, a broken stored game, a constraint that
// does not hold — is permanent.
func Temporary(err error) bool {
	var perm *permanentError
	return !errors.As(err, &perm) && IsTemporary(err)
}
