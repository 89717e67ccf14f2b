package outbox_test

import (
	"context"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/outbox"
)

// TestOutboxWaiting: the rows neither sent nor failed, and when the
// oldest of them was written, whatever their order of ids.
func TestOutboxWaiting(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		s := open(t)
		ob := outbox.New(s)
		if n, oldest, err := ob.Waiting(ctx); err != nil || n != 0 || !oldest.IsZero() {
			t.Fatalf("empty outbox: %d, %v, %v", n, oldest, err)
		}
		rows := []*store.OutboxMail{
			{From: "lexio@x", To: []string{"a@x"}, Raw: []byte("late"), CreatedAt: t0.Add(2 * time.Hour)},
			{From: "lexio@x", To: []string{"b@x"}, Raw: []byte("sent"), CreatedAt: t0},
			{From: "lexio@x", To: []string{"c@x"}, Raw: []byte("refused"), CreatedAt: t0.Add(time.Minute)},
			{From: "lexio@x", To: []string{"d@x"}, Raw: []byte("deferred"), CreatedAt: t0.Add(time.Hour)},
		}
		if err := s.Tx(ctx, func(tx *store.Tx) error { return outbox.Enqueue(tx, rows) }); err != nil {
			t.Fatal(err)
		}
		if err := ob.Sent(ctx, []int64{rows[1].ID}, t0); err != nil {
			t.Fatal(err)
		}
		if err := ob.Failed(ctx, rows[2].ID, t0, "550 no", true); err != nil {
			t.Fatal(err)
		}
		if err := ob.Failed(ctx, rows[3].ID, t0, "451 later", false); err != nil {
			t.Fatal(err)
		}
		n, oldest, err := ob.Waiting(ctx)
		if err != nil || n != 2 || !oldest.Equal(t0.Add(time.Hour)) {
			t.Errorf("Waiting: %d, %v, %v; want 2 since %v", n, oldest, err, t0.Add(time.Hour))
		}
	})
}
