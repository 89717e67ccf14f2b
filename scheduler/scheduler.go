// Package scheduler runs the daemon's clock-driven work with cron: every
// tick it asks the table service to enforce what is due (expired turns,
// reminders, away grace; EMAIL §5) and wakes the outbox. Deadlines missed
// while the daemon was down are enforced at start, before the first tick.
package scheduler

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/robfig/cron/v3"
)

// Tables is what the scheduler needs of the table service.
type Tables interface {
	// Tick handles what is due at now and returns how many tables it
	// handled.
	Tick(ctx context.Context, now time.Time) (int, error)
}

// Options configure a Scheduler.
type Options struct {
	Tables Tables
	// Sweep wakes the outbox dispatcher (optional).
	Sweep func()
	// Every is the period of the deadline tick (default 30 s); SweepEvery
	// that of the outbox sweep (default 1 min).
	Every, SweepEvery time.Duration
	// Now is the clock handed to Tick (default time.Now).
	Now func() time.Time
	// ShutdownGrace is how long a tick in flight when Run's ctx ends may
	// go on before its own context is cancelled (default 10 s).
	ShutdownGrace time.Duration
	Logger        *slog.Logger
}

// Scheduler runs the jobs.
type Scheduler struct {
	o   Options
	log *slog.Logger
}

// New checks the options and fills in the defaults.
func New(o Options) (*Scheduler, error) {
	if o.Tables == nil {
		return nil, fmt.Errorf("scheduler: no table service")
	}
	if o.Every <= 0 {
		o.Every = 30 * time.Second
	}
	if o.SweepEvery <= 0 {
		o.SweepEvery = time.Minute
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.ShutdownGrace <= 0 {
		o.ShutdownGrace = 10 * time.Second
	}
	if o.Sweep == nil {
		o.Sweep = func() {}
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Scheduler{o: o, log: log}, nil
}

// tick runs one deadline pass.
func (s *Scheduler) tick(ctx context.Context) {
	n, err := s.o.Tables.Tick(ctx, s.o.Now())
	switch {
	case err != nil && ctx.Err() == nil:
		s.log.Error("deadline tick", "err", err)
	case n > 0:
		s.log.Info("deadline tick", "tables", n)
	}
}

// Run enforces what is already due, then runs the jobs until ctx is done.
// Two phases: ctx ending starts no new tick, while a tick in progress runs
// under a context of its own, cancelled only ShutdownGrace later, and is
// waited for; its transaction commits.
func (s *Scheduler) Run(ctx context.Context) error {
	work, cancel := context.WithCancel(context.WithoutCancel(ctx))
	returned := make(chan struct{})
	defer func() {
		close(returned)
		cancel()
	}()
	go func() {
		select {
		case <-returned:
			return
		case <-ctx.Done():
		}
		t := time.NewTimer(s.o.ShutdownGrace)
		defer t.Stop()
		select {
		case <-returned:
		case <-t.C:
			cancel() // a tick that hangs
		}
	}()
	if ctx.Err() != nil {
		return nil
	}
	s.tick(work) // catch up with what fell due while the daemon was down
	c := cron.New(cron.WithChain(cron.SkipIfStillRunning(cron.DiscardLogger)))
	if _, err := c.AddFunc(fmt.Sprintf("@every %s", s.o.Every), func() {
		if ctx.Err() == nil {
			s.tick(work)
		}
	}); err != nil {
		return fmt.Errorf("scheduler: %w", err)
	}
	if _, err := c.AddFunc(fmt.Sprintf("@every %s", s.o.SweepEvery), s.o.Sweep); err != nil {
		return fmt.Errorf("scheduler: %w", err)
	}
	c.Start()
	<-ctx.Done() // also when the catch-up tick outlasted ctx
	<-c.Stop().Done()
	return nil
}
