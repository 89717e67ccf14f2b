package table

import (
	"context"
	"strconv"
	"time"

	"github.com/lexio-mail/lexio/clock"
	"github.com/lexio-mail/lexio/notice"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/templates"
)

// schedule sets the table's status and the deadline of the turn in
// progress: the player's limit (turn_time plus what is left of their time
// bank, or the away grace when they are away: RULES §9, EMAIL §5.1,
// LEAGUES §3.1) counted on their clock from the turn's start, which their
// vacations stop (LEAGUES §3.2); and the next reminder after now, counted
// on the same clock (§3.3).
func (s *Service) schedule(t *Table, now time.Time) {
	g := t.Game
	if g.Over() {
		t.Row.Status = store.StatusOver
		t.Row.TurnStarted, t.Row.Deadline, t.Row.NextReminder = nil, nil, nil
		return
	}
	t.Row.Status = store.StatusPlaying
	if t.botToMove() {
		// The computer plays bot_delay after its turn begins; it has no
		// clock to run out and no reminder.
		start := g.TurnStart()
		at := start.Add(s.cfg.BotDelay)
		t.Row.TurnStarted, t.Row.Deadline, t.Row.NextReminder = &start, &at, nil
		return
	}
	start, limit, stops := t.turnClock()
	deadline := clock.Deadline(start, limit, stops)
	t.Row.TurnStarted, t.Row.Deadline = &start, &deadline
	t.Row.NextReminder = t.nextReminder(now)
}

// turnClock is the current turn's start, the limit of the player to move
// (with the time given them on this turn: GIVE) and the stops of their clock.
func (t *Table) turnClock() (time.Time, time.Duration, []clock.Interval) {
	g := t.Game
	p := g.Turn()
	given, _ := store.GiftsOnTurn(t.Seats, t.TurnNumber(), p)
	limit := clock.Limit(t.Row.TurnTime, t.banks()[p], t.Row.AwayGrace, g.Away(p)) + given
	return g.TurnStart(), limit, t.stops(p)
}

// TurnNumber is the number of the turn in progress, 1 the first: the
// turns the log ended, plus one (a resignation ends none).
func (t *Table) TurnNumber() int {
	n := 1
	for _, a := range t.Game.Actions() {
		if IsTurn(a.Kind) {
			n++
		}
	}
	return n
}

// nextReminder is the earliest reminder of the turn due after now, or
// nil: a reminder r comes when the player has r left on their clock.
func (t *Table) nextReminder(now time.Time) *time.Time {
	start, limit, stops := t.turnClock()
	var next *time.Time
	for _, r := range t.Row.Reminders {
		if r >= limit {
			continue
		}
		at := clock.Deadline(start, limit-r, stops)
		if at.After(now) && (next == nil || at.Before(*next)) {
			next = &at
		}
	}
	return next
}

// Enforce passes for every player whose turn ran out by until, in order,
// at the time it ran out (RULES §9.1, EMAIL §5.2): deadlines missed while
// the daemon was down are enforced one after the other. It stops at the
// computer's turn, which never runs out (step plays it). The mails are of
// now.
func (s *Service) Enforce(tx *store.Tx, t *Table, until, now time.Time, out *notice.Batch) error {
	for t.Game != nil && !t.Game.Over() && t.Row.Deadline != nil && !t.Row.Deadline.After(until) && !t.botToMove() {
		deadline := *t.Row.Deadline
		p := t.Game.Turn()
		// LEAGUES §2.3: the expiry that reaches forfeit_after is a forfeit,
		// at the deadline, also when caught up after downtime.
		forfeit := forfeits(t, p)
		var err error
		if forfeit {
			err = t.Game.Resign(p, deadline, true)
		} else {
			err = t.Game.Expire(p, deadline)
		}
		if err != nil {
			return store.Permanent(err)
		}
		if err := s.Save(tx, t, deadline); err != nil {
			return err
		}
		if forfeit {
			s.log.Info("turn expired: forfeit", "table", t.Row.Name, "player", p, "deadline", deadline)
			if err := s.departed(tx, t, p, now, out, ""); err != nil {
				return err
			}
			continue
		}
		s.log.Info("turn expired", "table", t.Row.Name, "player", p, "deadline", deadline)
		if !t.Game.Over() {
			msg := templates.ExpiredMsg{Head: s.notices.Head(t.Row.Name, t.Recipient(p), now), Deadline: deadline,
				Grace: t.Row.AwayGrace, Next: Names(t.Seats)[t.Game.Turn()]}
			cal := templates.Expired
			if !t.wantsNotice(p) {
				cal = templates.TurnNotice // it carries the notice's calendar entry
			}
			s.queueCal(t, cal, p, msg, now, out)
		}
		if err := s.Announce(tx, t, now, out, -1, nil); err != nil {
			return err
		}
	}
	return nil
}

// queue renders m, a message about table t for seat p, with its calendar
// entry if it has one.
func (s *Service) queue(t *Table, p int, m templates.Mail, now time.Time, out *notice.Batch) {
	s.queueCal(t, templates.KindOf(m), p, m, now, out)
}

// queueCal is queue with the calendar entry of a mail of kind cal: that
// of the notice a mail stands in for (NOTIFY turn).
func (s *Service) queueCal(t *Table, cal templates.Kind, p int, m templates.Mail, now time.Time, out *notice.Batch) {
	e := notice.Envelope{Table: t.Row.Name, Seq: t.Row.Seq, To: t.Recipient(p), TableID: &t.Row.ID,
		Cal: s.CalendarEvent(t, cal, p, false, now)}
	if templates.KindOf(m) == templates.Reminder {
		e.Extra = strconv.FormatInt(t.Row.NextReminder.Unix(), 36)
	}
	out.Add(e, m)
}

// Announce sends every player the state after a turn-ending action
// (EMAIL §4.2), or the end of the game (EMAIL §4.3). The mail to author,
// the seat whose move it was (-1 for none: an expiry), opens with acc,
// what their move did (§4.1). A player who chose NOTIFY turn or digest
// gets no notice of a turn that is not theirs (LEAGUES §5.1); if they are
// the author, what their move did still comes, alone. The data is read
// from the game one player at a time; the mails render in parallel.
func (s *Service) Announce(tx *store.Tx, t *Table, now time.Time, out *notice.Batch, author int, acc *templates.Acceptance) error {
	var standings *notice.Division
	var missed []templates.MissedLine // worked out once for every player
	if t.Game.Over() {
		var err error
		if err := s.ended(tx, t, now); err != nil {
			return err
		}
		if standings, err = s.seasons.EndStandings(tx, t, now); err != nil {
			return err
		}
		missed = s.Missed(t, Names(t.Seats))
	}
	for p := range t.Seats {
		if !t.Game.Over() && t.Game.Left(p) {
			continue // LEAGUES §2.2: out of the game until its end
		}
		var a *templates.Acceptance
		if p == author && !s.cfg.Mail.SeparateAcceptance {
			a = acc
		}
		if t.Game.Over() {
			msg, err := s.GameOverData(t, p, now)
			if err != nil {
				return err
			}
			msg.Accepted = a
			msg.Standings = standings.For(t.Seats[p].Player.Address)
			msg.Missed = missed
			s.queue(t, p, msg, now, out)
			continue
		}
		if !t.wantsNotice(p) {
			// Without a notice the author still hears what their move did,
			// in one mail (separate acceptance or not) that ends their
			// turn's calendar entry as the notice would have.
			if p == author && acc != nil {
				v, err := t.Game.View(p, now)
				if err != nil {
					return store.Permanent(err)
				}
				s.queueCal(t, templates.TurnNotice, p, templates.AcceptedMsg{
					Head: s.notices.Head(t.Row.Name, t.Recipient(p), now), Move: acc.Move, Total: acc.Total, Rack: notice.RackData(v.Rack)}, now, out)
			}
			continue
		}
		msg, err := s.NoticeData(t, p, now)
		if err != nil {
			return err
		}
		msg.Accepted = a
		s.queue(t, p, msg, now, out)
	}
	return nil
}

// EnforceDeadlines is the scheduler's job for turns (EMAIL §5): the
// turns that expired, in deadline order across tables, the reminders due
// and the away grace, each table in a transaction of its own (notice.Writer.EachDue).
// It returns how many tables it handled.
func (s *Service) EnforceDeadlines(ctx context.Context, now time.Time) (int, error) {
	n, err := s.notices.EachDue(ctx, s.store, now, "deadline handling",
		func(tx *store.Tx, limit int) ([]int64, error) {
			due, err := tx.DueTables(now, limit)
			ids := make([]int64, len(due))
			for i, t := range due {
				ids[i] = t.ID
			}
			return ids, err
		},
		func(tx *store.Tx, id int64, out *notice.Batch) error { return s.tickTable(tx, id, now, out) })
	return n, err
}

// NextDue is when EnforceDeadlines has work next after after: the
// earliest deadline (the computer's move among them) or reminder of a
// playing table; false when there is none. The scheduler runs its tick
// then rather than at its next period.
func (s *Service) NextDue(ctx context.Context, after time.Time) (time.Time, bool, error) {
	var at time.Time
	var ok bool
	err := s.store.View(ctx, func(tx *store.Tx) error {
		var err error
		at, ok, err = tx.NextDue(after)
		return err
	})
	return at, ok, err
}

// tickTable handles what is due at one table.
func (s *Service) tickTable(tx *store.Tx, id int64, now time.Time, out *notice.Batch) error {
	row, err := tx.TableByID(id)
	if err != nil {
		return err
	}
	t, err := s.LoadRow(tx, row)
	if err != nil {
		return err
	}
	if s.tickHook != nil {
		s.tickHook(id)
	}
	if t.Game == nil || t.Game.Over() {
		// Nothing can be due: clear the times so that the table is not
		// found again.
		t.Row.Deadline, t.Row.NextReminder = nil, nil
		return tx.SaveTable(t.Row, t.prevSeq)
	}
	if t.Row.Deadline != nil && !t.Row.Deadline.After(now) {
		// One deadline a transaction (an expiry, or the computer's
		// move): EachDue then takes the earliest due again, so that the
		// turns missed while the daemon was down are enforced in time
		// order across tables, and tables end (and are rated) in the
		// order they would have.
		_, err := s.Step(tx, t, now, now, out)
		return err
	}
	if t.Row.NextReminder != nil && !t.Row.NextReminder.After(now) {
		p := t.Game.Turn()
		msg, err := s.NoticeData(t, p, now)
		if err != nil {
			return err
		}
		s.queue(t, p, templates.ReminderMsg(msg), now, out)
		t.Row.NextReminder = t.nextReminder(now)
	}
	return tx.SaveTable(t.Row, t.prevSeq)
}
