package main

import (
	"github.com/lexio-mail/lexio/player"
	"github.com/lexio-mail/lexio/scheduler"
	"github.com/lexio-mail/lexio/table"
)

// jobs are the scheduler's, in the order every tick runs them.
func jobs(svc *table.Service, players *player.Service) []scheduler.Job {
	return []scheduler.Job{
		// Invitations that lapsed first (LEAGUES §6): a table they start
		// has its first deadline from now.
		{Name: "invitation expiry", Run: svc.ExpireInvitations},
		// The vacations that began or ended are told next (LEAGUES §3.2);
		// the deadlines they moved are already in the tables' rows.
		{Name: "vacations", Run: svc.TellVacations},
		// Seasons whose end has come are closed at their end (LEAGUES
		// §7.3), each table's turns that ran out before it enforced first.
		{Name: "season ends", Run: svc.CloseSeasons},
		// Expired turns, reminders and the away grace (EMAIL §5).
		{Name: "deadlines", Run: svc.EnforceDeadlines},
		{Name: "digests", Run: players.SendDigests},
		{Name: "weekly standings", Run: svc.SendWeekly},
	}
}
