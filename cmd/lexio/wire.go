package main

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

// services are the parts that own each concern of the game by mail,
// connected: the inbox routes each message's command to the part that
// owns it; the tables tell seasons of their seasons' tables, and players
// of a move that ends a vacation; the season's tables open in the lobby.
type services struct {
	tables  *table.Service
	players *player.Service
	seasons *season.Service
	lobby   *lobby.Service
	inbox   *inbox.Service
	// views read the tables for the operator and the web.
	views *tableview.Service
}

// wire builds the services on o's store and configuration.
func wire(o table.Options, log *slog.Logger) (*services, error) {
	tables, err := table.New(o)
	if err != nil {
		return nil, err
	}
	s := &services{tables: tables, players: player.New(tables, log.With("part", "player")),
		lobby: lobby.New(tables, log.With("part", "lobby")), views: tableview.New(tables, log.With("part", "tableview"))}
	s.seasons = season.New(tables, s.lobby, log.With("part", "season"))
	tables.SetSeasons(s.seasons)
	tables.SetVacations(s.players)
	s.inbox = inbox.New(tables, s.players, s.seasons, s.lobby, log.With("part", "inbox"))
	return s, nil
}

// jobs are the scheduler's, in the order every tick runs them.
func (s *services) jobs() []scheduler.Job {
	return []scheduler.Job{
		// Invitations that lapsed first (LEAGUES §6): a table they start
		// has its first deadline from now.
		{Name: "invitation expiry", Run: s.lobby.ExpireInvitations},
		// The vacations that began or ended are told next (LEAGUES §3.2);
		// the deadlines they moved are already in the tables' rows.
		{Name: "vacations", Run: s.players.TellVacations},
		// Seasons whose end has come are closed at their end (LEAGUES
		// §7.3), each table's turns that ran out before it enforced first.
		{Name: "season ends", Run: s.seasons.CloseSeasons},
		// Expired turns, reminders and the away grace (EMAIL §5).
		{Name: "deadlines", Run: s.tables.EnforceDeadlines},
		{Name: "digests", Run: s.players.SendDigests},
		{Name: "weekly standings", Run: s.seasons.SendWeekly},
		// The rate counters whose window closed (EMAIL §2.6), last: they
		// count nothing any more.
		{Name: "rate counters", Run: s.inbox.PruneRates},
	}
}
