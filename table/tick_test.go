package table_test

import (
	"time"

	"github.com/lexio-mail/lexio/scheduler"
)

// tickJobs are the daemon's scheduler jobs (cmd/lexio/jobs.go), in its
// order.
func tickJobs(h *harness) []scheduler.Job {
	return []scheduler.Job{
		{Name: "invitation expiry", Run: h.lobby.ExpireInvitations},
		{Name: "vacations", Run: h.players.TellVacations},
		{Name: "season ends", Run: h.seasons.CloseSeasons},
		{Name: "deadlines", Run: h.svc.EnforceDeadlines},
		{Name: "digests", Run: h.players.SendDigests},
		{Name: "weekly standings", Run: h.seasons.SendWeekly},
	}
}

// runTick runs one scheduler tick at now, as the daemon's would.
func (h *harness) runTick(now time.Time) (int, error) {
	h.t.Helper()
	s, err := scheduler.New(scheduler.Options{Jobs: tickJobs(h)})
	if err != nil {
		h.t.Fatal(err)
	}
	return s.Tick(h.ctx, now)
}
