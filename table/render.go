package table

import (
	"fmt"
	"slices"
	"time"

	"github.com/lexio-mail/lexio/analysis"
	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/notice"
	"github.com/lexio-mail/lexio/notice/ics"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/templates"
)

// This file turns the engine's per-player views into the templates' data
// and the templates' output into outbox rows. Only engine.View is read for
// a player, so a message can hold no other player's rack before the end.

// CalendarEvent is the calendar entry a mail of kind to seat p about t
// carries, written at now (its DTSTAMP: when the mail is queued), or nil.
// Each turn of each player is one event, whose UID names the table, the
// turn's number and the seat:
//   - the player whose turn it is gets a REQUEST with the deadline in
//     their turn's notice, its reminders, their BOARD replies, and every
//     answer once their deadline moved (moved: they were away and wrote,
//     RULES §9.2);
//   - the player whose turn just ended gets a CANCEL in the notice of
//     the next turn, or in the end of the game.
//
// SEQUENCE counts the table's actions since the turn began: it stays the
// same while nothing happens, grows when the deadline moves (a presence,
// a vacation, a gift each count), and is higher in the CANCEL, which the
// turn's last action comes before, than in any REQUEST of the turn.
func (s *Service) CalendarEvent(t *Table, kind templates.Kind, p int, moved bool, now time.Time) *ics.Event {
	if t.Game == nil || p < 0 || p >= len(t.Seats) {
		return nil
	}
	acts := t.Game.Actions()
	var ends []int // the actions that ended a turn
	for i, a := range acts {
		if IsTurn(a.Kind) {
			ends = append(ends, i)
		}
	}
	// turnStart is the number of actions before turn n (1 the first).
	turnStart := func(n int) int {
		if n <= 1 {
			return 0
		}
		return ends[n-2] + 1
	}
	e := ics.Event{Table: t.Row.Name, Stamp: now, Organizer: s.cfg.Mail.Address,
		OrganizerName: s.cfg.Mail.Name, Attendee: t.Seats[p].Player.Address, TZ: t.Zones[p]}
	// seq is turn n's SEQUENCE: its actions, and each change to the
	// player's vacations since it began and each gift to them on it
	// (GIVE), which may have moved its deadline.
	seq := func(n int) int {
		began := t.Game.Config().Start
		if n > 1 {
			began = acts[ends[n-2]].At
		}
		_, given := store.GiftsOnTurn(t.Seats, n, p)
		return len(acts) - turnStart(n) + t.vacationEdits(p, began) + given
	}
	// A resignation ends the turn in progress without a move (LEAGUES
	// §2): the mail that tells its holder that the game ended, or that
	// they are out, cancels it.
	if n := len(acts); n > 0 && acts[n-1].Kind == engine.ActResign && (kind == templates.GameOver || kind == templates.Resigned) {
		if holder, err := turnBeforeLast(t.Game); err == nil && holder == p {
			n := len(ends) + 1
			e.UID, e.Sequence, e.Cancel = s.notices.TurnUID(t.Row.Name, n, p), seq(n), true
			return &e
		}
	}
	if n := len(ends); n > 0 && acts[ends[n-1]].Player == p && (kind == templates.TurnNotice || kind == templates.GameOver) {
		e.UID, e.Sequence, e.Cancel = s.notices.TurnUID(t.Row.Name, n, p), seq(n), true
		return &e
	}
	if t.Game.Over() || t.Game.Turn() != p || t.Row.Deadline == nil {
		return nil
	}
	if kind != templates.TurnNotice && kind != templates.Reminder && kind != templates.BoardReply && kind != templates.SeatTaken && !moved {
		return nil
	}
	n := len(ends) + 1
	e.UID, e.Sequence, e.Deadline = s.notices.TurnUID(t.Row.Name, n, p), seq(n), *t.Row.Deadline
	return &e
}

// Names lists the players of a table, in seat order, named together
// (notice.Names).
func Names(seats []store.Seat) []string {
	return notice.Names(SeatAddrs(seats))
}

// SeatAddrs lists the addresses of seats, in order.
func SeatAddrs(seats []store.Seat) []string {
	out := make([]string, len(seats))
	for i, st := range seats {
		out[i] = st.Player.Address
	}
	return out
}

// NoticeData is the state of a game for one player.
func (s *Service) NoticeData(t *Table, p int, now time.Time) (templates.NoticeMsg, error) {
	v, err := t.Game.View(p, now)
	if err != nil {
		return templates.NoticeMsg{}, store.Permanent(err)
	}
	ns := Names(t.Seats)
	b := v.Board
	msg := templates.NoticeMsg{
		Head:   s.notices.Head(t.Row.Name, t.Recipient(p), now),
		Board:  notice.BoardData(&b, v.Rules, v.LastPlay),
		Rack:   notice.RackData(v.Rack),
		State:  templates.Table{Variant: t.Row.Variant, Bag: v.Bag, HasBank: t.bank().On()},
		Unseen: notice.UnseenData(v),
		Words:  notice.BoardWords(&b),
		Note:   t.Seats[p].Note, // p's own, never another's
	}
	lines := notice.LogLines(v.Log, ns, &b)
	msg.Log, msg.Last, msg.News = notice.Recent(lines, 8)
	if !v.Over {
		msg.State.Turn = ns[v.Turn]
		if t.Row.Deadline != nil {
			msg.State.Deadline = *t.Row.Deadline
		}
	}
	banks := t.banks() // the log replayed once for every player's line
	for i, st := range t.Seats {
		msg.State.Players = append(msg.State.Players, templates.PlayerLine{
			Name: ns[i], Address: st.Player.Address, Score: v.Scores[i], Tiles: v.TileCounts[i],
			Away: v.Away[i], ToMove: !v.Over && v.Turn == i, You: i == p, Bank: t.bankLeft(banks, i, now),
			Vacation: t.onVacation(i, now), Left: v.Left != nil && v.Left[i],
		})
	}
	return msg, nil
}

// GameOverData is the end of a game, the same for everyone but the "You".
func (s *Service) GameOverData(t *Table, p int, now time.Time) (templates.GameOverMsg, error) {
	v, err := t.Game.View(p, now)
	if err != nil || v.Result == nil {
		return templates.GameOverMsg{}, store.Permanent(fmt.Errorf("table: game over view: %v", err))
	}
	ns := Names(t.Seats)
	b := v.Board
	msg := templates.GameOverMsg{
		Head:  s.notices.Head(t.Row.Name, t.Recipient(p), now),
		Board: notice.BoardData(&b, v.Rules, v.LastPlay),
		// The whole log but the recipient's refused plays, told once
		// in the answer to each (EMAIL §4.1).
		Log: notice.WithoutRefusals(notice.LogLines(v.Log, ns, &b)),
		End: templates.EndStalled,
		// Open tables by mail allowed: a rematch is (LEAGUES §6.2).
		Rematch: s.cfg.Open.Allow,
	}
	adjust := make([]int, len(ns))
	for _, e := range v.Log {
		if e.Kind == engine.LogAdjust {
			adjust[e.Player] += e.Score
		}
		if e.Kind == engine.LogPlace && v.Result.Reason == engine.EndOut {
			msg.Finisher = ns[e.Player] // the last placement's author went out
		}
	}
	msg.End = notice.EndReason(v.Result.Reason)
	for _, d := range v.Result.Left {
		msg.Left = append(msg.Left, templates.Leaver{Name: ns[d.Player], Forfeit: d.Forfeit})
		msg.Resigner = ns[d.Player] // the last to leave ended it (LEAGUES §2.1)
	}
	for i := range ns {
		msg.Final = append(msg.Final, templates.FinalLine{
			Name: ns[i], Before: v.Result.Scores[i] - adjust[i], Adjust: adjust[i], Score: v.Result.Scores[i],
			Winner: slices.Contains(v.Result.Winners, i), You: i == p,
		})
		msg.Revealed = append(msg.Revealed, templates.RevealedRack{Player: ns[i], Tiles: notice.RackOf(v.Result.Racks[i])})
	}
	return msg, nil
}

// Missed is what each player left on the table in t's game, in seat
// order (package analysis), or nil when the service has no GADDAG. An
// analysis that fails leaves the section out, logged: the end of the game
// goes out all the same.
func (s *Service) Missed(t *Table, names []string) []templates.MissedLine {
	if s.gaddag == nil {
		return nil
	}
	turns, err := analysis.FromGame(t.Game.Config(), t.Game.Actions())
	var rep analysis.Report
	if err == nil {
		rep, err = analysis.Analyze(turns, len(names), t.Game.Rules(), s.gaddag)
	}
	if err != nil {
		if s.log != nil {
			s.log.Warn("table: no analysis of the game", "table", t.Row.Name, "err", err)
		}
		return nil
	}
	kinds := map[analysis.Kind]templates.LogKind{analysis.Place: templates.LogPlace, analysis.Exchange: templates.LogExchange,
		analysis.Pass: templates.LogPass, analysis.Expire: templates.LogExpire}
	out := make([]templates.MissedLine, len(names))
	for i, p := range rep.Players {
		out[i] = templates.MissedLine{Name: names[i], Points: p.Left}
		for _, m := range p.Misses {
			out[i].Misses = append(out[i].Misses, templates.MissedMove{Turn: m.Turn, Kind: kinds[m.Kind], Word: m.Word,
				Score: m.Score, Best: m.Best, BestScore: m.BestScore})
		}
	}
	return out
}
