// Package scheduler runs the daemon's clock-driven work: it is the one
// place jobs are registered. Every tick runs the jobs in the order they
// were given (each a small function of the package that owns the work:
// expired invitations, vacations, season ends, deadlines and reminders,
// digests, the weekly standings; EMAIL §5) and a sweep wakes the outbox.
// A tick comes at the latest a period after the last, and sooner when
// something is due sooner: the computer's move, a deadline, a reminder
// run at their time. Work missed while the daemon was down is done at
// start, before the first tick. It knows nothing of what the jobs do.
package scheduler

import (
	"context"
	"fmt"
	"log/slog"
	"time"
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
	// Every is the longest wait between two ticks (default 30 s): the
	// next begins Every after the last ended, or sooner when Next knows
	// of work due sooner. SweepEvery is the period of the outbox sweep
	// (default 1 min).
	Every, SweepEvery time.Duration
	// Next, when set, is when the jobs next have work after after, the
	// time of the last tick (false: none known). Run asks it after each
	// tick and after each Wake. Work due at the last tick and left
	// there (a conflict, a failure) waits for the period.
	Next func(ctx context.Context, after time.Time) (time.Time, bool, error)
	// Now is the clock handed to the jobs and read by Run (default
	// time.Now).
	Now func() time.Time
	// Timer returns a channel that receives once Now has reached at
	// (default: a timer of at minus Now); a test gives its own clock's.
	Timer func(at time.Time) <-chan time.Time
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
	// wake holds one Wake not yet heard by Run.
	wake chan struct{}
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
	if o.Timer == nil {
		now := o.Now
		o.Timer = func(at time.Time) <-chan time.Time { return time.After(at.Sub(now())) }
	}
	if o.ShutdownGrace <= 0 {
		o.ShutdownGrace = 10 * time.Second
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Scheduler{o: o, log: log, wake: make(chan struct{}, 1)}, nil
}

// Wake tells Run that what is due may have changed (a message changed a
// table): it asks Next again, and ticks sooner if the work is sooner. It
// never blocks; Wakes while Run is busy are heard as one.
func (s *Scheduler) Wake() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
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

// tick runs the jobs at Now, which it returns, and tells Ticked.
func (s *Scheduler) tick(ctx context.Context) time.Time {
	if s.o.Ticked != nil {
		start := time.Now()
		defer func() { s.o.Ticked(time.Since(start)) }()
	}
	now := s.o.Now()
	if _, err := s.Tick(ctx, now); err != nil && ctx.Err() == nil {
		s.log.Error("tick", "err", err)
	}
	return now
}

// next is when the tick after one at last comes: at period, or at the
// work Next knows of after last when that is sooner. Work that was due at
// the last tick and is still due was left there (a conflict, a failure):
// it waits for the period, lest the jobs run again and again for it.
func (s *Scheduler) next(ctx context.Context, last, period time.Time) time.Time {
	if s.o.Next == nil {
		return period
	}
	at, ok, err := s.o.Next(ctx, last)
	if err != nil {
		if ctx.Err() == nil {
			s.log.Error("next due", "err", err)
		}
		return period
	}
	if ok && at.After(last) && at.Before(period) {
		return at
	}
	return period // also for work due at the last tick and left there
}

// Run enforces what is already due, then runs the jobs until ctx is done:
// Every after the last tick ended, or sooner at the time Next gives.
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
	if s.o.Sweep != nil {
		swept := make(chan struct{})
		go func() { defer close(swept); s.sweep(ctx) }()
		defer func() { <-swept }()
	}
	last := s.tick(work) // catch up with what fell due while the daemon was down
	for {
		// One tick at a time: a tick that outlasts Every is not doubled.
		if !s.wait(ctx, last, s.o.Now().Add(s.o.Every)) {
			return nil
		}
		last = s.tick(work)
	}
}

// wait waits for the time of the tick after one at last: period, or the
// time Next gives when it is sooner, asked again at each Wake. It reports
// false when ctx ended first, also when the last tick outlasted it.
func (s *Scheduler) wait(ctx context.Context, last, period time.Time) bool {
	at := s.next(ctx, last, period)
	timer := s.o.Timer(at)
	for {
		select {
		case <-ctx.Done():
			return false
		case <-s.wake:
			if sooner := s.next(ctx, last, period); sooner.Before(at) {
				at, timer = sooner, s.o.Timer(sooner)
			}
		case <-timer:
			return ctx.Err() == nil // the stop may have come at the same time
		}
	}
}

// sweep wakes the outbox every SweepEvery until ctx is done.
func (s *Scheduler) sweep(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.o.Timer(s.o.Now().Add(s.o.SweepEvery)):
			s.o.Sweep()
		}
	}
}
