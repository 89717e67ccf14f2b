package lexiotest

import (
	"time"

	"github.com/lexio-mail/lexio/scheduler"
)

// Jobs are the daemon's scheduler jobs (cmd/lexio/wire.go), in its
// order; a test of cmd/lexio holds the names of both lists equal.
func (h *Harness) Jobs() []scheduler.Job {
	return []scheduler.Job{
		{Name: "invitation expiry", Run: h.Lobby.ExpireInvitations},
		{Name: "vacations", Run: h.Players.TellVacations},
		{Name: "season ends", Run: h.Seasons.CloseSeasons},
		{Name: "deadlines", Run: h.Tables.EnforceDeadlines},
		{Name: "digests", Run: h.Players.SendDigests},
		{Name: "weekly standings", Run: h.Seasons.SendWeekly},
	}
}

// RunTick runs one scheduler tick at now, as the daemon's would.
func (h *Harness) RunTick(now time.Time) (int, error) {
	h.T.Helper()
	s, err := scheduler.New(scheduler.Options{Jobs: h.Jobs()})
	if err != nil {
		h.T.Fatal(err)
	}
	return s.Tick(h.Ctx, now)
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
