package main

import (
	"slices"
	"testing"

	"github.com/lexio-mail/lexio/internal/lexiotest"
	"github.com/lexio-mail/lexio/scheduler"
)

// TestFixtureJobs: the tests' fixture runs the daemon's scheduler jobs
// from a copy of its own; the copy names the same jobs in the same order.
func TestFixtureJobs(t *testing.T) {
	h := lexiotest.New(t, lexiotest.Options{})
	s := &services{tables: h.Tables, players: h.Players, seasons: h.Seasons, lobby: h.Lobby, inbox: h.Front, views: h.Views}
	names := func(jobs []scheduler.Job) []string {
		var out []string
		for _, j := range jobs {
			out = append(out, j.Name)
		}
		return out
	}
	if got, want := names(h.Jobs()), names(s.jobs()); !slices.Equal(got, want) {
		t.Errorf("the fixture's jobs are %q, the daemon's %q", got, want)
	}
}
