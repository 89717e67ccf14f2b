// Package outboxmail lets the mailer's dispatcher send the store's outbox:
// it reads store/outbox's Outbox as a mailer.Outbox, row for row. It is
// the one package that imports both, so that store knows nothing of SMTP and
// mailer nothing of the database, and the imports go down: cmd/lexio
// wires it, and the tests that run a dispatcher over a real store use it
// too, so that they send through the code the daemon runs. It lives beside
// the store because it reads the store's rows; it knows nothing of games.
package outboxmail

import (
	"context"
	"time"

	"github.com/lexio-mail/lexio/mailer"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/outbox"
)

// Outbox is a store's outbox as the dispatcher reads it.
type Outbox struct {
	o *outbox.Outbox
}

var _ mailer.Outbox = (*Outbox)(nil)

// New returns st's outbox for a mailer.Dispatcher.
func New(st *store.Store) *Outbox { return &Outbox{o: outbox.New(st)} }

// Due returns the rows due at now, oldest first, with their messages.
func (b *Outbox) Due(ctx context.Context, now time.Time, limit int) ([]mailer.Outgoing, error) {
	rows, err := b.o.Due(ctx, now, limit)
	if err != nil {
		return nil, err
	}
	out := make([]mailer.Outgoing, len(rows))
	for i, r := range rows {
		out[i] = mailer.Outgoing{ID: r.ID, From: r.From, To: r.To, Raw: r.Raw, Attempt: r.Attempts, Created: r.CreatedAt}
	}
	return out, nil
}

// Attempt records the tries before they are made.
func (b *Outbox) Attempt(ctx context.Context, tries []mailer.Try) error {
	ts := make([]outbox.Try, len(tries))
	for i, t := range tries {
		ts[i] = outbox.Try{ID: t.ID, Attempt: t.Attempt, Next: t.Next}
	}
	return b.o.Attempt(ctx, ts)
}

// Sent marks rows sent.
func (b *Outbox) Sent(ctx context.Context, ids []int64, at time.Time) error {
	return b.o.Sent(ctx, ids, at)
}

// Failed records a failed try.
func (b *Outbox) Failed(ctx context.Context, id int64, at time.Time, reason string, permanent bool) error {
	return b.o.Failed(ctx, id, at, reason, permanent)
}
