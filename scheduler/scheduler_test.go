package scheduler

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

type ticks struct {
	mu    sync.Mutex
	times []time.Time
	busy  time.Duration
}

func (t *ticks) Tick(ctx context.Context, now time.Time) (int, error) {
	t.mu.Lock()
	t.times = append(t.times, now)
	t.mu.Unlock()
	time.Sleep(t.busy)
	return 1, nil
}

func (t *ticks) count() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.times)
}

// The jobs fire as a real clock would: a catch-up tick at start, then one
// every period; sweeps every minute. synctest's bubble makes the ten
// minutes instant.
func TestRunFiresOnSchedule(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tk := &ticks{}
		sweeps := 0
		var mu sync.Mutex
		s, err := New(Options{Jobs: []Job{{"ticks", tk.Tick}}, Every: 30 * time.Second, Sweep: func() { mu.Lock(); sweeps++; mu.Unlock() }})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { s.Run(ctx); close(done) }()
		synctest.Wait()
		if n := tk.count(); n != 1 {
			t.Fatalf("%d ticks at start, want the catch-up tick", n)
		}
		time.Sleep(10*time.Minute + time.Second)
		synctest.Wait()
		if n := tk.count(); n != 21 {
			t.Errorf("%d ticks after 10 min, want 1 + 20", n)
		}
		mu.Lock()
		if sweeps != 10 {
			t.Errorf("%d sweeps after 10 min, want 10", sweeps)
		}
		mu.Unlock()
		cancel()
		<-done
	})
}

// A tick that outlasts the period is not run twice at once.
func TestSlowTickIsNotDoubled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tk := &ticks{busy: 95 * time.Second}
		s, _ := New(Options{Jobs: []Job{{"ticks", tk.Tick}}, Every: 30 * time.Second})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { s.Run(ctx); close(done) }()
		time.Sleep(5 * time.Minute)
		synctest.Wait()
		// catch-up (0–95 s), then ticks that start 30 s after the last
		// ended: 125 s, 250 s.
		if n := tk.count(); n > 3 {
			t.Errorf("%d ticks in 5 min with 95 s each: overlapping", n)
		}
		cancel()
		<-done
	})
}

func TestNewNeedsJobs(t *testing.T) {
	if _, err := New(Options{}); err == nil {
		t.Fatal("New without jobs succeeded")
	}
	if _, err := New(Options{Jobs: []Job{{Name: "nothing"}}}); err == nil {
		t.Fatal("New with a job without a function succeeded")
	}
}

// The jobs run in the order given, each at the tick's instant; a job
// that fails ends the tick, and the count is the jobs' sum.
func TestTickRunsJobsInOrder(t *testing.T) {
	at := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	var ran []string
	job := func(name string, n int, err error) Job {
		return Job{name, func(ctx context.Context, now time.Time) (int, error) {
			if !now.Equal(at) {
				t.Errorf("%s ran at %v, want %v", name, now, at)
			}
			ran = append(ran, name)
			return n, err
		}}
	}
	s, err := New(Options{Jobs: []Job{job("invitations", 1, nil), job("deadlines", 2, nil), job("digests", 0, nil)}})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := s.Tick(context.Background(), at); err != nil || n != 3 {
		t.Errorf("Tick = %d, %v; want 3, nil", n, err)
	}
	if got := strings.Join(ran, " "); got != "invitations deadlines digests" {
		t.Errorf("ran %q", got)
	}
	ran = nil
	down := errors.New("database unreachable")
	s, _ = New(Options{Jobs: []Job{job("invitations", 1, nil), job("deadlines", 0, down), job("digests", 0, nil)}})
	if n, err := s.Tick(context.Background(), at); !errors.Is(err, down) || n != 1 {
		t.Errorf("Tick = %d, %v; want 1 and the deadlines' error", n, err)
	}
	if got := strings.Join(ran, " "); got != "invitations deadlines" {
		t.Errorf("ran %q after a failure", got)
	}
}

// blockingTick holds its tick until released, then reports whether its
// context was still alive: a transaction under it would have committed.
type blockingTick struct {
	started chan struct{}
	release chan struct{}
	result  chan error
}

func (b *blockingTick) Tick(ctx context.Context, now time.Time) (int, error) {
	b.started <- struct{}{}
	<-b.release
	b.result <- ctx.Err()
	return 1, ctx.Err()
}

// Two-phase stop: a tick in flight when ctx ends finishes under a live
// context and Run waits for it; no tick starts after the stop.
func TestStopLetsTheTickInFlightFinish(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := &blockingTick{started: make(chan struct{}, 10), release: make(chan struct{}), result: make(chan error, 10)}
		s, _ := New(Options{Jobs: []Job{{"blocking", b.Tick}}, Every: 30 * time.Second})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { s.Run(ctx); close(done) }()
		<-b.started // the catch-up tick
		b.release <- struct{}{}
		<-b.result
		time.Sleep(31 * time.Second)
		<-b.started // the first cron tick, in flight
		cancel()
		synctest.Wait()
		select {
		case <-done:
			t.Fatal("Run returned before the tick in flight finished")
		default:
		}
		b.release <- struct{}{}
		if err := <-b.result; err != nil {
			t.Errorf("the tick in flight ran under a cancelled context: %v", err)
		}
		<-done
		if len(b.started) != 0 {
			t.Errorf("%d ticks started after the stop", len(b.started))
		}
	})
}

// TestRunTellsTicked: Ticked hears how long each tick of Run took.
func TestRunTellsTicked(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tk := &ticks{busy: 3 * time.Second}
		var mu sync.Mutex
		var took []time.Duration
		s, err := New(Options{Jobs: []Job{{"ticks", tk.Tick}}, Every: 30 * time.Second,
			Ticked: func(d time.Duration) { mu.Lock(); took = append(took, d); mu.Unlock() }})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { s.Run(ctx); close(done) }()
		// Ticks start at 0 s (the catch-up), 33 s and 66 s (30 s after
		// the last ended), each 3 s long.
		time.Sleep(70 * time.Second)
		synctest.Wait()
		cancel()
		<-done
		mu.Lock()
		defer mu.Unlock()
		if len(took) != 3 {
			t.Fatalf("Ticked heard %v, want the catch-up tick and two more", took)
		}
		for _, d := range took {
			if d != 3*time.Second {
				t.Errorf("Ticked heard %v, want 3s each", took)
				break
			}
		}
	})
}

// offsets are the times of the ticks, from start.
func (t *ticks) offsets(start time.Time) []time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	var ds []time.Duration
	for _, at := range t.times {
		ds = append(ds, at.Sub(start))
	}
	return ds
}

// dues is what Next knows: times work is due, as a store's rows.
type dues struct {
	mu    sync.Mutex
	times []time.Time
}

func (d *dues) add(at time.Time) {
	d.mu.Lock()
	d.times = append(d.times, at)
	d.mu.Unlock()
}

// Next is the earliest due after after.
func (d *dues) Next(ctx context.Context, after time.Time) (time.Time, bool, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	var next time.Time
	for _, at := range d.times {
		if at.After(after) && (next.IsZero() || at.Before(next)) {
			next = at
		}
	}
	return next, !next.IsZero(), nil
}

// runFor runs s for d from now in synctest's bubble, then stops it.
func runFor(s *Scheduler, d time.Duration, during func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Run(ctx); close(done) }()
	synctest.Wait()
	if during != nil {
		during()
	}
	time.Sleep(d)
	synctest.Wait()
	cancel()
	<-done
}

// A tick comes at the time Next gives when that is sooner than the
// period (issue 34: the computer plays bot_delay after its turn began,
// not at the tick after), and Every after it the period goes on.
func TestRunTicksWhenDue(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		tk, d := &ticks{}, &dues{}
		d.add(start.Add(70 * time.Second))
		s, err := New(Options{Jobs: []Job{{"ticks", tk.Tick}}, Every: 30 * time.Second, Next: d.Next})
		if err != nil {
			t.Fatal(err)
		}
		runFor(s, 101*time.Second, nil)
		if got, want := fmt.Sprint(tk.offsets(start)), "[0s 30s 1m0s 1m10s 1m40s]"; got != want {
			t.Errorf("ticks at %s, want %s", got, want)
		}
	})
}

// Wake asks Next again: work a message made due sooner than the period
// is done at its time.
func TestWakeAsksNextAgain(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		tk, d := &ticks{}, &dues{}
		s, _ := New(Options{Jobs: []Job{{"ticks", tk.Tick}}, Every: 30 * time.Second, Next: d.Next})
		runFor(s, 50*time.Second, func() {
			time.Sleep(10 * time.Second)
			d.add(start.Add(15 * time.Second))
			s.Wake()
			s.Wake() // heard as one
		})
		if got, want := fmt.Sprint(tk.offsets(start)), "[0s 15s 45s]"; got != want {
			t.Errorf("ticks at %s, want %s", got, want)
		}
	})
}

// Work due at a tick and still due after it (a conflict, a failure)
// waits for the period: the jobs do not run again and again for it.
func TestWorkLeftWaitsForThePeriod(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		tk := &ticks{}
		asked := 0
		stuck := func(ctx context.Context, after time.Time) (time.Time, bool, error) {
			asked++         // Run's goroutine alone asks
			if asked > 20 { // a Run that asks on and on ends, failing below
				return time.Time{}, false, nil
			}
			return start, true, nil
		}
		s, _ := New(Options{Jobs: []Job{{"ticks", tk.Tick}}, Every: 30 * time.Second, Next: stuck})
		runFor(s, 61*time.Second, func() { s.Wake() })
		if got, want := fmt.Sprint(tk.offsets(start)), "[0s 30s 1m0s]"; got != want {
			t.Errorf("ticks at %s, want %s", got, want)
		}
	})
}
