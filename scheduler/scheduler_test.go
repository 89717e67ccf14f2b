package scheduler

import (
	"context"
	"errors"
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
		// catch-up (0–95 s), then ticks that start at 120 s, 240 s: the
		// ones at 30, 60, 90, 150, 180, 210, 270 s find a tick running.
		if n := tk.count(); n > 4 {
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
		// Ticks start at 0 s (the catch-up), 33 s and 63 s (30 s after
		// cron started, at the catch-up's end), each 3 s long.
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
