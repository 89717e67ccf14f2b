// Package service is the one wiring of the game's parts: the services that
// own each concern, connected, and the scheduler's jobs in their order.
// cmd/lexio builds the running daemon around it (mail, web, metrics) and
// the tests' harness builds the same parts around memory mail and a
// clock of its own, so that the two cannot drift apart.
package service

import (
	"log/slog"

	"github.com/lexio-mail/lexio/inbox"
	"github.com/lexio-mail/lexio/lobby"
	"github.com/lexio-mail/lexio/player"
	"github.com/lexio-mail/lexio/scheduler"
	"github.com/lexio-mail/lexio/season"
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/table/tableview"
)

// Parts are the services that own each concern of the game by mail,
// connected: the inbox routes each message's command to the part that
// owns it; the tables tell seasons of their seasons' tables, and players
// of a move that ends a vacation; the season's tables open in the lobby.
type Parts struct {
	Tables  *table.Service
	Players *player.Service
	Seasons *season.Service
	Lobby   *lobby.Service
	Inbox   *inbox.Service
	// Views read the tables for the operator and the web.
	Views *tableview.Service
}

// New builds the parts on o's store and configuration.
func New(o table.Options, log *slog.Logger) (*Parts, error) {
	tables, err := table.New(o)
	if err != nil {
		return nil, err
	}
	p := &Parts{Tables: tables, Players: player.New(tables, log.With("part", "player")),
		Lobby: lobby.New(tables, log.With("part", "lobby")), Views: tableview.New(tables, log.With("part", "tableview"))}
	p.Seasons = season.New(tables, p.Lobby, log.With("part", "season"))
	tables.SetSeasons(p.Seasons)
	tables.SetVacations(p.Players)
	p.Inbox = inbox.New(tables, p.Players, p.Seasons, p.Lobby, log.With("part", "inbox"))
	return p, nil
}

// Scheduler is the daemon's scheduler: o with the parts' jobs, ticking at
// the tables' next deadline or reminder (the computer's move among them)
// when that comes before its period, and asking again after each message
// the inbox handled, which may have made something due sooner. A Handled
// hook already set on the inbox is still called first.
func (p *Parts) Scheduler(o scheduler.Options) (*scheduler.Scheduler, error) {
	o.Jobs, o.Next = p.Jobs(), p.Tables.NextDue
	s, err := scheduler.New(o)
	if err != nil {
		return nil, err
	}
	handled := p.Inbox.Handled
	p.Inbox.Handled = func(outcome string) {
		if handled != nil {
			handled(outcome)
		}
		s.Wake()
	}
	return s, nil
}

// Jobs are the scheduler's, in the order every tick runs them.
func (p *Parts) Jobs() []scheduler.Job {
	return []scheduler.Job{
		// Invitations that lapsed first (LEAGUES §6): a table they start
		// has its first deadline from now.
		{Name: "invitation expiry", Run: p.Lobby.ExpireInvitations},
		// The vacations that began or ended are told next (LEAGUES §3.2);
		// the deadlines they moved are already in the tables' rows.
		{Name: "vacations", Run: p.Players.TellVacations},
		// Seasons whose end has come are closed at their end (LEAGUES
		// §7.3), each table's turns that ran out before it enforced first.
		{Name: "season ends", Run: p.Seasons.CloseSeasons},
		// Expired turns, reminders and the away grace (EMAIL §5).
		{Name: "deadlines", Run: p.Tables.EnforceDeadlines},
		{Name: "digests", Run: p.Players.SendDigests},
		{Name: "weekly standings", Run: p.Seasons.SendWeekly},
		// The rate counters whose window closed (EMAIL §2.6), last: they
		// count nothing any more.
		{Name: "rate counters", Run: p.Inbox.PruneRates},
	}
}
