package table

import (
	"context"
	"time"

	"github.com/lexio-mail/lexio/mailer"
	"github.com/lexio-mail/lexio/store"
)

// Outbox lets the mailer's dispatcher send the store's outbox.
func Outbox(st *store.Store) mailer.Outbox { return outbox{st.Outbox()} }

type outbox struct{ *store.Outbox }

func (o outbox) Due(ctx context.Context, now time.Time, limit int) ([]mailer.Outgoing, error) {
	rows, err := o.Outbox.Due(ctx, now, limit)
	if err != nil {
		return nil, err
	}
	out := make([]mailer.Outgoing, len(rows))
	for i, r := range rows {
		out[i] = mailer.Outgoing{ID: r.ID, From: r.From, To: r.To, Raw: r.Raw, Attempt: r.Attempt, Created: r.Created}
	}
	return out, nil
}

func (o outbox) Attempt(ctx context.Context, tries []mailer.Try) error {
	ts := make([]store.Try, len(tries))
	for i, t := range tries {
		ts[i] = store.Try{ID: t.ID, Attempt: t.Attempt, Next: t.Next}
	}
	return o.Outbox.Attempt(ctx, ts)
}
