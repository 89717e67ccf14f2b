// Package scheduler runs the daemon's clock-driven work with cron: it is
// the one place jobs are registered. Every tick runs the jobs in the
// order they were given (each a small function of the package that owns
// the work: expired invitations, vacations, season ends, deadlines and
// reminders, digests, the weekly standings; EMAIL §5) and a sweep wakes
// the outbox. Work missed while the daemon was down is done at start,
// before the first tick. It knows nothing of what the jobs do.
package scheduler

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/robfig/cron/v3"
)

// Job is one kind of timed work.
type Job struct {
	// Name says what the job does, in the log.
	Name string
	// Run does what is due at now and returns how many items it
	// handled. An error it returns is one that may mend (the database,
	// the context): the tick ends there, and the next one tries again.
	Run func(ctx context.Context, now time.Time) (int, error)
}

// Options configure a Scheduler.
type Options struct {
	// Jobs run on every tick, in this order: a job may count on what the
	// jobs before it did at the same instant.
	Jobs []Job
	// Sweep wakes the outbox dispatcher (optional).
	Sweep func()
	// Every is the period of the deadline tick (default 30 s); SweepEvery
	// that of the outbox sweep (default 1 min).
	Every, SweepEvery time.Duration
	// Now is the clock handed to the jobs (default time.Now).
	Now func() time.Time
	// ShutdownGrace is how long a tick in flight when Run's ctx ends may
	// go on before its own context is cancelled (default 10 s).
	ShutdownGrace time.Duration
	// Ticked, when set, is told how long each tick of Run took.
	Ticked func(time.Duration)
	Logger *slog.Logger
}

// Scheduler runs the jobs.
type Scheduler struct {
	o   Options
	log *slog.Logger
}

// New checks the options and fills in the defaults.
func New(o Options) (*Scheduler, error) {
	if len(o.Jobs) == 0 {
		return nil, fmt.Errorf("scheduler: no jobs")
	}
	for _, j := range o.Jobs {
		if j.Name == "" || j.Run == nil {
			return nil, fmt.Errorf("scheduler: a job without a name or a function")
		}
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

// Tick runs every job at now, in order, and returns how many items they
// handled together; it ends at the first job that fails.
func (s *Scheduler) Tick(ctx context.Context, now time.Time) (int, error) {
	total := 0
	for _, j := range s.o.Jobs {
		n, err := j.Run(ctx, now)
		total += n
		if err != nil {
			return total, fmt.Errorf("%s: %w", j.Name, err)
		}
		if n > 0 {
			s.log.Info("tick", "job", j.Name, "handled", n)
		}
	}
	return total, nil
}

func (s *Scheduler) tick(ctx context.Context) {
	if s.o.Ticked != nil {
		start := time.Now()
		defer func() { s.o.Ticked(time.Since(start)) }()
	}
	if _, err := s.Tick(ctx, s.o.Now()); err != nil && ctx.Err() == nil {
		s.log.Error("tick", "err", err)
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
