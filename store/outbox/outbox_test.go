package outbox_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/outbox"
)

// TestOutboxBatches: Attempt and Sent record every row or none.
func TestOutboxBatches(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		ctx := context.Background()
		ob := outbox.New(s)
		var rows []*store.OutboxMail
		mustTx(t, s, func(tx *store.Tx) error {
			for i := range 4 {
				r := &store.OutboxMail{MessageID: fmt.Sprintf("<b%d@x>", i), From: "lexio@x", To: []string{"a@x"}, Raw: []byte("x"), CreatedAt: t0}
				if err := outbox.Enqueue(tx, []*store.OutboxMail{r}); err != nil {
					return err
				}
				rows = append(rows, r)
			}
			return nil
		})
		a, b, c, d := rows[0].ID, rows[1].ID, rows[2].ID, rows[3].ID
		if err := ob.Failed(ctx, d, t0, "550 no", true); err != nil {
			t.Fatal(err)
		}
		later := t0.Add(time.Hour)
		// d is given up: the batch fails whole.
		err := ob.Attempt(ctx, []outbox.Try{{ID: a, Attempt: 1, Next: later}, {ID: b, Attempt: 1, Next: later}, {ID: d, Attempt: 1, Next: later}})
		if !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("Attempt with a failed row: %v", err)
		}
		if due, _ := ob.Due(ctx, t0, 10); len(due) != 3 || due[0].Attempts != 0 || due[1].Attempts != 0 {
			t.Fatalf("after the failed batch: %+v", due)
		}
		if err := ob.Attempt(ctx, []outbox.Try{{ID: a, Attempt: 1, Next: later}, {ID: b, Attempt: 2, Next: later}, {ID: c, Attempt: 1, Next: later}}); err != nil {
			t.Fatal(err)
		}
		if due, _ := ob.Due(ctx, t0, 10); len(due) != 0 {
			t.Fatalf("due before the next attempt: %+v", due)
		}
		if err := ob.Sent(ctx, []int64{a, b, d}, t0); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("Sent with a failed row: %v", err)
		}
		if m, _ := ob.Mail(ctx, a); m.SentAt != nil {
			t.Fatal("a failed Sent marked a row")
		}
		if err := ob.Sent(ctx, []int64{a, b}, t0.Add(time.Second)); err != nil {
			t.Fatal(err)
		}
		for id, attempts := range map[int64]int{a: 1, b: 2} {
			if m, _ := ob.Mail(ctx, id); m.SentAt == nil || m.Attempts != attempts {
				t.Errorf("row %d after Sent: %+v", id, m)
			}
		}
		if due, _ := ob.Due(ctx, later, 10); len(due) != 1 || due[0].ID != c || due[0].Attempts != 1 {
			t.Errorf("due at the retry time: %+v, want c alone", due)
		}
		if err := ob.Attempt(ctx, nil); err != nil {
			t.Error(err)
		}
		if err := ob.Sent(ctx, nil, t0); err != nil {
			t.Error(err)
		}
	})
}

func TestOutboxLifecycle(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		ctx := context.Background()
		ob := outbox.New(s)
		raw := bytes.Repeat([]byte{0, 0xff, '\r', '\n', 0xc3, 0xa9}, 100) // 8-bit and NUL survive
		rows := []*store.OutboxMail{
			{MessageID: "<late@x>", From: "lexio@x", To: []string{"a@x"}, Raw: []byte("late"), CreatedAt: t0, NextAttempt: t0.Add(10 * time.Minute)},
			{MessageID: "<first@x>", From: "lexio@x", To: []string{"a@x", "b@x"}, Raw: raw, CreatedAt: t0.Add(-time.Minute)},
			{MessageID: "<second@x>", From: "lexio@x", To: []string{"c@x"}, Raw: []byte("second"), CreatedAt: t0},
			{MessageID: "<third@x>", From: "lexio@x", To: []string{"d@x"}, Raw: []byte("third"), CreatedAt: t0.Add(500 * time.Millisecond)},
		}
		mustTx(t, s, func(tx *store.Tx) error {
			for _, r := range rows {
				if err := outbox.Enqueue(tx, []*store.OutboxMail{r}); err != nil {
					return err
				}
			}
			return nil
		})
		err := s.Tx(ctx, func(tx *store.Tx) error {
			return outbox.Enqueue(tx, []*store.OutboxMail{{From: "lexio@x", Raw: []byte("x")}})
		})
		if err == nil || !strings.Contains(err.Error(), "no recipients") {
			t.Errorf("EnqueueMail without recipients: %v", err)
		}

		ids := func(ms []store.OutboxMail) string {
			var s []string
			for _, m := range ms {
				s = append(s, string(m.Raw[:min(len(m.Raw), 6)]))
			}
			return strings.Join(s, ",")
		}
		due, err := ob.Due(ctx, t0.Add(time.Second), 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(due) != 3 || due[0].ID != rows[1].ID || due[1].ID != rows[2].ID || due[2].ID != rows[3].ID {
			t.Fatalf("Due = %s, want first, second, third (oldest first; late not yet)", ids(due))
		}
		if !bytes.Equal(due[0].Raw, raw) || strings.Join(due[0].To, " ") != "a@x b@x" || due[0].From != "lexio@x" || due[0].Attempts != 0 ||
			!due[0].CreatedAt.Equal(t0.Add(-time.Minute)) {
			t.Errorf("Due[0] = %+v", due[0])
		}
		if due, _ := ob.Due(ctx, t0.Add(time.Second), 1); len(due) != 1 || due[0].ID != rows[1].ID {
			t.Errorf("Due limit 1 = %s", ids(due))
		}

		first, second, third := rows[1].ID, rows[2].ID, rows[3].ID
		attempt := func(id int64, n int, next time.Time) error {
			return ob.Attempt(ctx, []outbox.Try{{ID: id, Attempt: n, Next: next}})
		}
		steps := []struct {
			name string
			do   func() error
			want error
		}{
			// first: attempt, temporary failure, attempt again, sent.
			{"attempt 1 first", func() error { return attempt(first, 1, t0.Add(5*time.Minute)) }, nil},
			{"first fails for now", func() error { return ob.Failed(ctx, first, t0.Add(2*time.Second), "451 try later", false) }, nil},
			// second: sent at once.
			{"attempt 1 second", func() error { return attempt(second, 1, t0.Add(5*time.Minute)) }, nil},
			{"second sent", func() error { return ob.Sent(ctx, []int64{second}, t0.Add(3*time.Second)) }, nil},
			{"second sent twice", func() error { return ob.Sent(ctx, []int64{second}, t0.Add(4*time.Second)) }, store.ErrNotFound},
			// third: permanent failure.
			{"attempt 1 third", func() error { return attempt(third, 1, t0.Add(5*time.Minute)) }, nil},
			{"third fails for good", func() error { return ob.Failed(ctx, third, t0.Add(3*time.Second), "550 no such user", true) }, nil},
			{"third attempt after failure", func() error { return attempt(third, 2, t0) }, store.ErrNotFound},
			{"unknown row", func() error { return ob.Sent(ctx, []int64{999999}, t0) }, store.ErrNotFound},
		}
		for _, st := range steps {
			if err := st.do(); !errors.Is(err, st.want) || (st.want == nil) != (err == nil) {
				t.Errorf("%s: %v, want %v", st.name, err, st.want)
			}
		}
		if due, _ := ob.Due(ctx, t0.Add(4*time.Minute), 10); len(due) != 0 {
			t.Errorf("Due before the retry time = %s, want none", ids(due))
		}
		due, err = ob.Due(ctx, t0.Add(10*time.Minute), 10)
		if err != nil {
			t.Fatal(err)
		}
		// In the order written, whatever the retry times: late was
		// written before first.
		if len(due) != 2 || due[0].ID != rows[0].ID || due[1].ID != first || due[1].Attempts != 1 {
			t.Fatalf("Due after retry time = %s (%+v), want late then first (attempt 1)", ids(due), due)
		}
		if err := ob.Attempt(ctx, []outbox.Try{{ID: first, Attempt: 2, Next: t0.Add(time.Hour)}}); err != nil {
			t.Fatal(err)
		}
		if err := ob.Sent(ctx, []int64{first}, t0.Add(10*time.Minute)); err != nil {
			t.Fatal(err)
		}
		m, err := ob.Mail(ctx, first)
		if err != nil {
			t.Fatal(err)
		}
		if m.Attempts != 2 || m.SentAt == nil || !m.SentAt.Equal(t0.Add(10*time.Minute)) || m.LastError != "" || m.FailedAt != nil {
			t.Errorf("first after sending: %+v", m)
		}
		m, err = ob.Mail(ctx, third)
		if err != nil {
			t.Fatal(err)
		}
		if m.FailedAt == nil || m.LastError != "550 no such user" || m.SentAt != nil {
			t.Errorf("third after failing: %+v", m)
		}
	})
}

func TestEnqueue(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		ms := []*store.OutboxMail{
			{From: "lexio@x", To: []string{"a@x"}, Raw: []byte("one"), CreatedAt: t0},
			{From: "lexio@x", To: []string{"b@x"}, Raw: []byte("two")}, // created now (the store's clock: t0)
			{From: "lexio@x", To: []string{"c@x"}, Raw: []byte("three"), CreatedAt: t0, NextAttempt: t0.Add(time.Hour)},
		}
		mustTx(t, s, func(tx *store.Tx) error { return outbox.Enqueue(tx, ms) })
		if ms[0].ID == 0 || ms[1].ID == 0 || ms[2].ID == 0 || ms[0].ID == ms[1].ID || ms[1].ID == ms[2].ID {
			t.Fatalf("ids %d %d %d", ms[0].ID, ms[1].ID, ms[2].ID)
		}
		due, err := outbox.New(s).Due(context.Background(), t0, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(due) != 2 || string(due[0].Raw) != "one" || string(due[1].Raw) != "two" || !due[1].CreatedAt.Equal(t0) {
			t.Errorf("Due = %+v, want one, two", due)
		}
		mustTx(t, s, func(tx *store.Tx) error { return outbox.Enqueue(tx, nil) })
	})
}

// A row whose attempt never ended (the process died mid-send) is due again
// at once after Resume; one that failed for now keeps its backoff.
func TestOutboxResume(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		s := open(t)
		rows := []*store.OutboxMail{
			{From: "lexio@x", To: []string{"a@x"}, Raw: []byte("interrupted"), CreatedAt: t0},
			{From: "lexio@x", To: []string{"b@x"}, Raw: []byte("failed"), CreatedAt: t0},
			{From: "lexio@x", To: []string{"c@x"}, Raw: []byte("fresh"), CreatedAt: t0},
		}
		if err := s.Tx(ctx, func(tx *store.Tx) error { return outbox.Enqueue(tx, rows) }); err != nil {
			t.Fatal(err)
		}
		ob := outbox.New(s)
		later := t0.Add(30 * time.Minute)
		for _, r := range rows[:2] {
			if err := ob.Attempt(ctx, []outbox.Try{{ID: r.ID, Attempt: 1, Next: later}}); err != nil {
				t.Fatal(err)
			}
		}
		if err := ob.Failed(ctx, rows[1].ID, t0, "451 later", false); err != nil {
			t.Fatal(err)
		}
		n, err := ob.Resume(ctx, t0.Add(time.Minute))
		if err != nil || n != 1 {
			t.Fatalf("Resume: %d, %v; want 1", n, err)
		}
		due, err := ob.Due(ctx, t0.Add(time.Minute), 10)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range due {
			got = append(got, string(d.Raw))
		}
		if strings.Join(got, " ") != "interrupted fresh" {
			t.Errorf("due after Resume: %v, want interrupted and fresh (failed waits its backoff)", got)
		}
	})
}
