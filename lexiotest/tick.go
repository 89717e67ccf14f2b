package lexiotest

import (
	"context"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/scheduler"
)

// RunTick runs one scheduler tick at now, as the daemon's would.
func (h *Harness) RunTick(now time.Time) (int, error) {
	h.T.Helper()
	s, err := scheduler.New(scheduler.Options{Jobs: h.Parts.Jobs()})
	if err != nil {
		h.T.Fatal(err)
	}
	return s.Tick(h.Ctx, now)
}

// Scheduler is the daemon's scheduler as RunScheduler runs it.
type Scheduler struct {
	t       *testing.T
	planned chan time.Time
}

// RunScheduler runs the daemon's scheduler (Run) on the harness's clock
// until the test ends, with its jobs and wired as cmd/lexio wires it:
// ticking at the tables' next due time when that comes before the
// period, asking again after each message handled.
func (h *Harness) RunScheduler() *Scheduler {
	h.T.Helper()
	ctx, cancel := context.WithCancel(h.Ctx)
	r := &Scheduler{t: h.T, planned: make(chan time.Time, 16)}
	s, err := h.Parts.Scheduler(scheduler.Options{Now: h.Clock.Now,
		Timer: func(at time.Time) <-chan time.Time {
			c := h.Clock.Timer(at)
			select {
			case r.planned <- at:
			case <-ctx.Done():
			}
			return c
		}})
	if err != nil {
		h.T.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); s.Run(ctx) }()
	h.T.Cleanup(func() { cancel(); <-done }) // before the store closes
	return r
}

// Planned waits until the scheduler sets the timer of its next tick,
// after a tick or a message, and returns its time: a test moves the
// clock there once it is set. The 20 s only bound a broken test.
func (r *Scheduler) Planned() time.Time {
	r.t.Helper()
	select {
	case at := <-r.planned:
		return at
	case <-time.After(20 * time.Second):
		r.t.Fatal("the scheduler set no timer")
		return time.Time{}
	}
}

// At moves the clock to t.
func (h *Harness) At(t time.Time) { h.Clock.Add(t.Sub(h.Clock.Now())) }

// TickAt sets the clock and runs one Tick.
func (h *Harness) TickAt(at time.Time) int {
	h.T.Helper()
	h.Clock.Add(at.Sub(h.Clock.Now()))
	return h.Tick(at)
}

// Deadline is the table's turn's deadline.
func (h *Harness) Deadline(table string) time.Time {
	h.T.Helper()
	sum, err := h.Views.Show(h.Ctx, table)
	if err != nil {
		h.T.Fatal(err)
	}
	if sum.Deadline == nil {
		h.T.Fatalf("table %s has no deadline", table)
	}
	return *sum.Deadline
}

// Count is how many mails of kind k name holds, once the outbox is
// empty.
func (h *Harness) Count(name, k string) int {
	h.T.Helper()
	h.OutboxEmpty()
	return len(OfKind(h.Inbox(name), k))
}
