package season

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/lexio-mail/lexio/config"
	"github.com/lexio-mail/lexio/notice"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/leagues"
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/templates"
)

// divisionStandings is the standings of one division of a season
// (LEAGUES §9.1).
func (s *Service) divisionStandings(tx *store.Tx, l *config.League, number, div int) (*notice.Division, error) {
	d, err := s.readSeason(tx, l, number, div, false)
	if err != nil {
		return nil, err
	}
	if d == nil || div >= len(d.view.Divisions) {
		return nil, fmt.Errorf("season: league %q has no season %d division %d", l.Name, number, div)
	}
	rows, err := d.standingsWithRatings(tx, l, div)
	if err != nil {
		return nil, err
	}
	out := &notice.Division{Standings: templates.Standings{League: l.Name, Season: d.view.Number, Division: d.view.Divisions[div].Name,
		Ends: d.view.Ends, Closed: d.view.Closed, Rated: *l.Rated}}
	for _, t := range d.view.Tables {
		if t.Division == out.Standings.Division && t.Status != store.StatusOver {
			out.Standings.Playing++
		}
	}
	for _, r := range rows {
		out.Standings.Lines = append(out.Standings.Lines, templates.StandingsLine{Rank: r.Rank, Name: r.Name,
			Played: r.Played, Won: r.Won, Tied: r.Tied, Lost: r.Lost, Points: r.Points, Spread: r.Spread, PointsFor: r.PointsFor,
			Rating: r.Rating, RD: r.RD})
		out.Addrs = append(out.Addrs, r.Player)
	}
	return out, nil
}

// EndStandings is, for the game-over mail of a season table (LEAGUES
// §9.2), its division's standings with this game counted (the table
// records its end first); nil for a table of no season.
func (s *Service) EndStandings(tx *store.Tx, t *table.Table, now time.Time) (*notice.Division, error) {
	lt, err := seasonTable(tx, t)
	if lt == nil {
		return nil, err
	}
	l := s.Cfg.League(t.Row.League)
	if l == nil {
		return nil, nil
	}
	row, err := leagues.ByID(tx, lt.SeasonID)
	if err != nil {
		return nil, err
	}
	return s.divisionStandings(tx, l, row.Number, lt.DivisionOrder)
}

// AnswerStandings answers STANDINGS (LEAGUES §9.4): the sender's division in
// the league named, else in their one running league, from the table the
// message came through or the sender's one table (ReplyTable).
func (s *Service) AnswerStandings(h *table.Request, t *table.Table, name string) error {
	from, err := h.ReplyTable(t)
	if err != nil {
		return err
	}
	refuse := func(k templates.ReasonKind, detail string) error {
		return h.Refuse(from, h.Msg.Command.String(), []templates.Reason{{Kind: k, Detail: detail}}, false)
	}
	if !s.hasSeasons() {
		return refuse(templates.ReasonNoLeague, "")
	}
	var l *config.League
	if name != "" {
		if l = s.leagueNamed(name); l == nil {
			return refuse(templates.ReasonNoSuchLeague, name)
		}
	}
	p, err := h.Tx.PlayerByAddress(h.Msg.From)
	if errors.Is(err, store.ErrNotFound) {
		return refuse(templates.ReasonNotInLeague, name)
	} else if err != nil {
		return err
	}
	var m *store.SeasonMember
	if l != nil {
		m, err = leagues.LastMembership(h.Tx, l.Name, p.ID)
		if errors.Is(err, store.ErrNotFound) {
			return refuse(templates.ReasonNotInLeague, l.Name)
		} else if err != nil {
			return err
		}
	} else {
		open, err := leagues.PlayerSeasons(h.Tx, p.ID)
		if err != nil {
			return err
		}
		switch len(open) {
		case 0:
			return refuse(templates.ReasonNotInLeague, "")
		case 1:
			m = &open[0]
		default:
			var names []string
			for _, o := range open {
				names = append(names, o.Season.League)
			}
			return refuse(templates.ReasonWhichLeague, strings.Join(names, ", "))
		}
		if l = s.Cfg.League(m.Season.League); l == nil {
			return refuse(templates.ReasonNoSuchLeague, m.Season.League)
		}
	}
	div, err := s.divisionStandings(h.Tx, l, m.Season.Number, m.DivisionOrder)
	if err != nil {
		return err
	}
	st := div.For(h.Msg.From)
	h.Outcome(table.OutcomeApplied, "STANDINGS "+l.Name)
	to := h.Sender(from)
	return h.Reply(from, templates.StandingsMsg{Head: s.Notices.Head(table.TableName(from), to, h.Now), Standings: *st})
}

// hasSeasons reports whether a league of the configuration organises
// seasons; without one, STANDINGS, SIGNUP and WITHDRAW are told there is
// no league season here.
func (s *Service) hasSeasons() bool {
	for i := range s.Cfg.Leagues {
		if s.Cfg.Leagues[i].Seasons() {
			return true
		}
	}
	return false
}

// leagueNamed is the league with seasons of that name, compared without
// case, or nil.
func (s *Service) leagueNamed(name string) *config.League {
	for i := range s.Cfg.Leagues {
		if l := &s.Cfg.Leagues[i]; strings.EqualFold(l.Name, name) && l.Seasons() {
			return l
		}
	}
	return nil
}

// Signup answers SIGNUP and WITHDRAW (LEAGUES §7.4): recorded now, used
// when the league's next season starts (the latest of a player's counts).
// SIGNUP needs a league with signup = true, and a player not in it
// already; WITHDRAW a player who is in it or signed up.
func (s *Service) Signup(h *table.Request, t *table.Table, name string, withdraw bool) error {
	from, err := h.ReplyTable(t)
	if err != nil {
		return err
	}
	refuse := func(k templates.ReasonKind, detail string) error {
		return h.Refuse(from, h.Msg.Command.String(), []templates.Reason{{Kind: k, Detail: detail}}, false)
	}
	if !s.hasSeasons() {
		return refuse(templates.ReasonNoLeague, "")
	}
	l := s.leagueNamed(name)
	if l == nil {
		return refuse(templates.ReasonNoSuchLeague, name)
	}
	if !withdraw && !l.Signup {
		return refuse(templates.ReasonNoSignup, l.Name)
	}
	p, err := h.Tx.EnsurePlayer(h.Msg.From, h.SenderLang(from))
	if err != nil {
		return err
	}
	in, running, err := s.leagueState(h, l, p.ID)
	if err != nil {
		return err
	}
	switch {
	case !withdraw && in:
		return refuse(templates.ReasonAlreadySignedUp, l.Name)
	case withdraw && !in:
		return refuse(templates.ReasonNotInLeague, l.Name)
	}
	kind, verb := store.SignupJoin, "SIGNUP "
	if withdraw {
		kind, verb = store.SignupWithdraw, "WITHDRAW "
	}
	if err := leagues.AddSignup(h.Tx, &store.Signup{League: l.Name, PlayerID: p.ID, Kind: kind, At: h.Now}); err != nil {
		return err
	}
	if withdraw && running > 0 {
		// Only a player of the season under way leaves "after it"; one
		// who had only signed up is simply not in the next.
		if m, err := leagues.LastMembership(h.Tx, l.Name, p.ID); errors.Is(err, store.ErrNotFound) || err == nil && m.Season.Number != running {
			running = 0
		} else if err != nil {
			return err
		}
	}
	h.Outcome(table.OutcomeApplied, verb+l.Name)
	to := h.Sender(from)
	return h.Reply(from, templates.SignupMsg{Head: s.Notices.Head(table.TableName(from), to, h.Now),
		League: l.Name, Withdraw: withdraw, Running: running})
}

// leagueState says whether the player is in the league's next season as
// things stand (a member of its last season or signed up, and not
// withdrawn since), and the number of its season under way (0 if none).
func (s *Service) leagueState(h *table.Request, l *config.League, playerID int64) (in bool, running int, err error) {
	seasons, err := leagues.Seasons(h.Tx, l.Name)
	if err != nil {
		return false, 0, err
	}
	if n := len(seasons); n > 0 && seasons[n-1].ClosedAt == nil {
		running = seasons[n-1].Number
	}
	m, err := leagues.LastMembership(h.Tx, l.Name, playerID)
	switch {
	case err == nil:
		in = m.Season.Number == seasons[len(seasons)-1].Number
	case !errors.Is(err, store.ErrNotFound):
		return false, 0, err
	}
	if !in && len(seasons) == 0 {
		for _, d := range l.Divisions { // the first season's players
			for _, a := range d.Players {
				in = in || strings.EqualFold(a, h.Msg.From)
			}
		}
	}
	pending, err := leagues.PendingSignups(h.Tx, l.Name)
	if err != nil {
		return false, 0, err
	}
	for _, sg := range pending {
		if sg.PlayerID == playerID {
			in = sg.Kind == store.SignupJoin
		}
	}
	return in, running, nil
}

// SendWeekly mails each player of a running season, whose league keeps
// standings_digest = "weekly", their division's standings on Monday
// from 08:00 in their zone (LEAGUES §9.2), once a week: a week missed
// while the daemon was down is sent late in the same week, a week
// before the season's start never. It returns how many it sent.
func (s *Service) SendWeekly(ctx context.Context, now time.Time) (int, error) {
	var members []store.SeasonMember
	err := s.Store.View(ctx, func(tx *store.Tx) error {
		var err error
		members, err = leagues.OpenMembers(tx)
		return err
	})
	if err != nil {
		return 0, err
	}
	sent := 0
	for _, m := range members {
		l := s.Cfg.League(m.Season.League)
		if l == nil || l.StandingsDigest != "weekly" {
			continue
		}
		week, due := weekDue(now, s.Tables.ZoneOf(m.Player.TimeZone), m.Season.Started, m.Weekly)
		if !due {
			continue
		}
		_, err := s.Notices.Commit(ctx, s.Store, now, func(tx *store.Tx, out *notice.Batch) error {
			if err := leagues.MarkWeekly(tx, m.ID, week); err != nil {
				return err
			}
			div, err := s.divisionStandings(tx, l, m.Season.Number, m.DivisionOrder)
			if err != nil {
				return err
			}
			st := div.For(m.Player.Address)
			to := notice.Recipient{Addr: m.Player.Address, Lang: m.Player.Lang, TZ: s.Tables.ZoneOf(m.Player.TimeZone), Pos: -1}
			out.Add(notice.Envelope{To: to, Extra: week + "." + notice.ShortHash(fmt.Sprint(m.Player.Address, m.SeasonID))},
				templates.StandingsMsg{Head: s.Notices.Head("", to, now), Standings: *st, Weekly: true})
			return nil
		})
		switch {
		case err == nil:
			sent++
		case ctx.Err() != nil:
			return sent, err
		case errors.Is(err, store.ErrConflict):
			s.Log.Info("weekly standings sent elsewhere", "player", m.Player.Address, "week", week)
		case store.Temporary(err):
			return sent, err
		default:
			s.Log.Error("weekly standings failed; tried again at the next tick", "player", m.Player.Address, "err", err)
		}
	}
	return sent, nil
}

// weekDue returns the ISO week of now in zone ("2026-W49") and whether
// its standings are due: past its Monday 08:00, which came after the
// season's start, and not sent yet (last).
func weekDue(now time.Time, zone *time.Location, started time.Time, last string) (string, bool) {
	local := now.In(zone)
	year, week := local.ISOWeek()
	key := fmt.Sprintf("%d-W%02d", year, week)
	back := (int(local.Weekday()) + 6) % 7 // days since Monday
	monday := time.Date(local.Year(), local.Month(), local.Day()-back, 8, 0, 0, 0, zone)
	return key, key != last && !now.Before(monday) && monday.After(started)
}
