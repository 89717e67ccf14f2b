package player

import (
	"slices"
	"strconv"
	"time"

	"github.com/lexio-mail/lexio/clock"
	"github.com/lexio-mail/lexio/parser"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/templates"
)

// vacationZone is the zone a player's vacation days are counted in:
// theirs, else the configuration's.
func (s *Service) vacationZone(pl *store.Player) (string, *time.Location) {
	name := pl.TimeZone
	if name == "" {
		name = s.Cfg.TimeZone
	}
	return name, s.Tables.ZoneOf(name)
}

// daysLeft is what is left of the yearly allowance in year after the
// vacations vs (LEAGUES §3.2): each vacation's days in the zone it was
// counted in.
func (s *Service) daysLeft(vs []store.Vacation, year int) int {
	used := 0
	for _, v := range vs {
		used += clock.DaysIn(v.DaysFrom, v.Days, s.Tables.ZoneOf(v.Zone), year)
	}
	return *s.Cfg.VacationDays - used
}

// Vacation answers VACATION <days>, VACATION <from> <to> and VACATION
// OFF (LEAGUES §3.2), from the table it came through or the sender's one
// table (ReplyTable), as TZ.
func (s *Service) Vacation(h *table.Request, t *table.Table, v *parser.Vacation) error {
	now := h.Now
	cmd := h.Msg.Command.String()
	pl, err := h.Tx.EnsurePlayer(h.Msg.From, h.SenderLang(t))
	if err != nil {
		return err
	}
	// One change to a player's vacations at a time.
	if err := h.Tx.LockPlayer(pl.ID); err != nil {
		return err
	}
	from, err := h.ReplyTable(t)
	if err != nil {
		return err
	}
	vs, err := h.Tx.Vacations(pl.ID)
	if err != nil {
		return err
	}
	zoneName, loc := s.vacationZone(pl)
	// The tables are read before the change: their rows agree with the
	// vacations as they were.
	tables, err := s.playerTables(h.Tx, pl.Address)
	if err != nil {
		return err
	}

	msg := templates.VacationMsg{Off: v.Off, Year: now.In(loc).Year()}
	if v.Off {
		changed := false
		for i := range vs {
			if vs[i].To.After(now) {
				endVacation(&vs[i], now, s.Tables.ZoneOf(vs[i].Zone))
				if err := h.Tx.SaveVacation(&vs[i]); err != nil {
					return err
				}
				changed = true
			}
		}
		if !changed {
			return h.Refuse(from, cmd, []templates.Reason{{Kind: templates.ReasonNoVacation}}, false)
		}
		msg.Ends = now
	} else {
		nv, reason := s.newVacation(vs, v, pl, zoneName, loc, now)
		if reason != nil {
			return h.Refuse(from, cmd, []templates.Reason{*reason}, false)
		}
		if err := h.Tx.AddVacation(nv); err != nil {
			return err
		}
		vs = append(vs, *nv)
		slices.SortStableFunc(vs, func(a, b store.Vacation) int { return a.From.Compare(b.From) })
		msg.Begins, msg.Ends = nv.From, nv.To
		msg.Year = nv.DaysFrom.In(loc).Year()
	}
	h.Outcome(table.OutcomeApplied, cmd)
	if err := s.reclock(h.Tx, tables, pl.ID, vs, now, h.Out); err != nil {
		return err
	}
	for _, t := range tables {
		if t.Row.IgnoreVacations {
			msg.Running = append(msg.Running, t.Row.Name)
		} else {
			msg.Stopped = append(msg.Stopped, t.Row.Name)
		}
	}
	msg.Left = s.daysLeft(vs, msg.Year)
	to := h.Sender(from)
	msg.Head = s.Notices.Head(table.TableName(from), to, now)
	return h.ReplyAs(from, to, msg)
}

// newVacation checks a new vacation against the player's others and their
// allowance, and returns it, or the reason it is refused.
func (s *Service) newVacation(vs []store.Vacation, v *parser.Vacation, pl *store.Player, zoneName string, loc *time.Location, now time.Time) (*store.Vacation, *templates.Reason) {
	nv := &store.Vacation{PlayerID: pl.ID, Zone: zoneName, CreatedAt: now}
	if v.Days > 0 {
		// From now, for that many whole days.
		nv.From, nv.DaysFrom, nv.Days = now, now, v.Days
	} else {
		first, err1 := time.ParseInLocation(time.DateOnly, v.From, loc)
		last, err2 := time.ParseInLocation(time.DateOnly, v.To, loc)
		if err1 != nil || err2 != nil || last.Before(first) {
			return nil, &templates.Reason{Kind: templates.ReasonBadVacation, Detail: v.From + " " + v.To}
		}
		today := now.In(loc)
		midnight := time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, loc)
		if first.Before(midnight) {
			return nil, &templates.Reason{Kind: templates.ReasonVacationPast, Detail: v.From}
		}
		// Within a year of today: with the parser's 366 days at most,
		// every vacation ends within two years (and far from the store's
		// MaxTime, whatever the date asked).
		if first.After(midnight.AddDate(1, 0, 0)) {
			return nil, &templates.Reason{Kind: templates.ReasonVacationFar, Detail: v.From}
		}
		// From the start of the first day to the end of the last; the
		// clocks stop from now at the earliest (never backwards).
		nv.DaysFrom = first
		for clock.Day(first, nv.Days, loc).Before(last.AddDate(0, 0, 1)) {
			nv.Days++
		}
		nv.From = first
		if nv.From.Before(now) {
			nv.From = now
		}
	}
	nv.To = clock.Day(nv.DaysFrom, nv.Days, loc)
	for _, o := range vs {
		if o.To.After(o.From) && o.From.Before(nv.To) && nv.From.Before(o.To) {
			oz := s.Tables.ZoneOf(o.Zone)
			last := o.To.In(oz).Add(-time.Nanosecond)
			return nil, &templates.Reason{Kind: templates.ReasonVacationOverlap,
				Detail: o.From.In(oz).Format(time.DateOnly) + " – " + last.Format(time.DateOnly)}
		}
	}
	for _, y := range clock.Years(nv.DaysFrom, nv.Days, loc) {
		need, left := clock.DaysIn(nv.DaysFrom, nv.Days, loc, y), s.daysLeft(vs, y)
		if need > left {
			return nil, &templates.Reason{Kind: templates.ReasonVacationDays, Need: need, Have: max(left, 0), Detail: strconv.Itoa(y)}
		}
	}
	nv.Told, nv.DueAt = store.VacationUntold, &nv.From
	return nv, nil
}
