package notice

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/lexio-mail/lexio/internal/botseat"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/outbox"
	"github.com/lexio-mail/lexio/templates"
)

// Batch collects the mails of one transaction. Each is rendered in a
// goroutine of its own from the moment it is added — its data is read
// from the game before, so rendering touches nothing shared — while the
// transaction goes on with the database; Mails gathers them in the order
// they were added.
type Batch struct {
	w       *Writer
	now     time.Time
	pending []*pendingMail
}

type pendingMail struct {
	done chan struct{}
	mail *store.OutboxMail
	err  error
}

// NewBatch starts an empty batch of mails written at now.
func (w *Writer) NewBatch(now time.Time) *Batch { return &Batch{w: w, now: now} }

// Add starts rendering one mail, m. The computer's seat reads no mail: a
// mail to it is dropped here.
func (b *Batch) Add(e Envelope, m templates.Mail) {
	if botseat.Is(e.To.Addr) {
		return
	}
	p := &pendingMail{done: make(chan struct{})}
	b.pending = append(b.pending, p)
	go func() {
		defer close(p.done)
		// A panic here would end the daemon, out of reach of the
		// receiver's recovery: it fails the transaction instead.
		defer func() {
			if r := recover(); r != nil {
				p.mail, p.err = nil, store.Permanent(fmt.Errorf("notice: rendering %T panicked: %v", m, r))
			}
		}()
		p.mail, p.err = b.w.Render(e, m, b.now)
	}()
}

// Mails returns every mail once rendered, or the first error.
func (b *Batch) Mails() ([]*store.OutboxMail, error) {
	mails := make([]*store.OutboxMail, 0, len(b.pending))
	var first error
	for _, p := range b.pending {
		<-p.done
		if p.err != nil && first == nil {
			first = p.err
		}
		mails = append(mails, p.mail)
	}
	if first != nil {
		return nil, first
	}
	return mails, nil
}

// Enqueue waits for the batch's mails and writes them to tx's outbox; it
// returns how many.
func (b *Batch) Enqueue(tx *store.Tx) (int, error) {
	mails, err := b.Mails()
	if err != nil {
		return 0, err
	}
	return len(mails), outbox.Enqueue(tx, mails)
}

// Commit runs fn in one store transaction with a batch written at now,
// enqueues the batch's mail in the same transaction, and commits: the
// mail goes out if and only if the change it tells of is stored. After a
// commit that queued mail it wakes the dispatcher. It returns how many
// mails it queued.
func (w *Writer) Commit(ctx context.Context, st *store.Store, now time.Time, fn func(tx *store.Tx, out *Batch) error) (int, error) {
	var sent int
	err := st.Tx(ctx, func(tx *store.Tx) error {
		out := w.NewBatch(now)
		if err := fn(tx, out); err != nil {
			return err
		}
		var err error
		sent, err = out.Enqueue(tx)
		return err
	})
	if err != nil {
		return 0, err
	}
	if sent > 0 {
		w.poke()
	}
	return sent, nil
}

// Poke wakes the dispatcher: mail was queued.
func (w *Writer) Poke() { w.poke() }

// EachDue handles, one at a time and each in a transaction of its own,
// what due finds due at now (given how many it must return at least: those
// skipped so far and one more), earliest first, with the mail it queues.
// An item whose transaction meets a conflict (a message changed it
// meanwhile) is handled again on the fresh state, up to store.MaxAttempts
// times, then left for the next tick; an item that fails for good is
// logged and left for the next tick; a temporary error (the database, the
// context) ends the loop. It returns how many items it handled.
func (w *Writer) EachDue(ctx context.Context, st *store.Store, now time.Time, what string, due func(tx *store.Tx, limit int) ([]int64, error),
	handle func(tx *store.Tx, id int64, out *Batch) error) (int, error) {
	handled := 0
	skip := map[int64]bool{}
	conflicts := map[int64]int{}
	for range 10000 {
		var ids []int64
		err := st.View(ctx, func(tx *store.Tx) error {
			var err error
			ids, err = due(tx, len(skip)+1)
			return err
		})
		if err != nil {
			return handled, err
		}
		ids = slices.DeleteFunc(ids, func(id int64) bool { return skip[id] })
		if len(ids) == 0 {
			return handled, nil
		}
		id := ids[0]
		_, err = w.Commit(ctx, st, now, func(tx *store.Tx, out *Batch) error { return handle(tx, id, out) })
		if err != nil {
			switch {
			case ctx.Err() != nil:
				return handled, err
			case errors.Is(err, store.ErrConflict):
				// due finds the item again if it is still due.
				conflicts[id]++
				if conflicts[id] < store.MaxAttempts {
					w.log.Info(what+": a concurrent writer came first (conflict): handling it again", "id", id, "attempt", conflicts[id], "err", err)
					continue
				}
				w.log.Warn(what+" kept meeting conflicts; left for the next tick", "id", id, "err", err)
				skip[id] = true
				continue
			case store.Temporary(err):
				return handled, err
			}
			w.log.Error(what+" failed", "id", id, "err", err)
			skip[id] = true
			continue
		}
		handled++
	}
	return handled, nil
}
