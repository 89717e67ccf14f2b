package table_test

import (
	"time"

	"github.com/lexio-mail/lexio/player"
	"github.com/lexio-mail/lexio/scheduler"
	"github.com/lexio-mail/lexio/table"
)

// tickJobs are the daemon's scheduler jobs (cmd/lexio/jobs.go), in its
// order.
func tickJobs(svc *table.Service, players *player.Service) []scheduler.Job {
	return []scheduler.Job{
		{Name: "invitation expiry", Run: svc.ExpireInvitations},
		{Name: "vacations", Run: svc.TellVacations},
		{Name: "season ends", Run: svc.CloseSeasons},
		{Name: "deadlines", Run: svc.EnforceDeadlines},
		{Name: "digests", Run: players.SendDigests},
		{Name: "weekly standings", Run: svc.SendWeekly},
	}
}

// tick runs one scheduler tick at now, as the daemon's would.
func (h *harness) tick(now time.Time) (int, error) {
	h.t.Helper()
	s, err := scheduler.New(scheduler.Options{Jobs: tickJobs(h.svc, h.players)})
	if err != nil {
		h.t.Fatal(err)
	}
	return s.Tick(h.ctx, now)
}
