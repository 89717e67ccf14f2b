package player

import (
	"slices"

	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/templates"
)

// Games lists the sender's tables: those waiting for their move first,
// soonest deadline first; then the others by name, as the store gives
// them. The reply comes from the table the request came through, else
// from the sender's one table not over; with several and no token, from
// the plain address (ReplyTable).
func (s *Service) Games(h *table.Request, from *table.Table) error {
	h.Outcome(table.OutcomeApplied, "GAMES")
	rows, err := h.Tx.TablesOfPlayer(h.Msg.From)
	if err != nil {
		return err
	}
	from, err = h.ReplyTable(from)
	if err != nil {
		return err
	}
	msg := templates.GamesMsg{Head: s.Notices.Head(table.TableName(from), h.Sender(from), h.Now)}
	for i := range rows {
		t, err := s.Tables.LoadRow(h.Tx, &rows[i])
		if err != nil {
			return err
		}
		p := t.SeatOf(h.Msg.From)
		line := templates.GameLine{Table: t.Row.Name, Variant: t.Row.Variant, Players: table.Names(t.Seats), Status: templates.StatusWaiting}
		if t.Game != nil {
			line.Status, line.Score = templates.StatusPlaying, t.Game.Score(p)
			switch {
			case t.Game.Over():
				line.Status = templates.StatusOver
			case t.Game.Left(p):
				line.Status = templates.StatusLeft
			default:
				line.Turn, line.YourTurn = table.Names(t.Seats)[t.Game.Turn()], t.Game.Turn() == p
				if t.Row.Deadline != nil {
					line.Deadline = *t.Row.Deadline
				}
			}
		}
		msg.Games = append(msg.Games, line)
	}
	slices.SortStableFunc(msg.Games, byUrgency)
	return h.Reply(from, msg)
}

// byUrgency orders the tables waiting for the player's move before the
// others, those by deadline (one without a deadline last); it leaves the
// others as they were, for a stable sort.
func byUrgency(a, b templates.GameLine) int {
	switch {
	case a.YourTurn != b.YourTurn:
		if a.YourTurn {
			return -1
		}
		return 1
	case !a.YourTurn:
		return 0
	case a.Deadline.IsZero() != b.Deadline.IsZero():
		if a.Deadline.IsZero() {
			return 1
		}
		return -1
	}
	return a.Deadline.Compare(b.Deadline)
}

// ResignTables answers RESIGN without a table's name, which resigns
// nothing (LEAGUES §1): the line that would resign each of the sender's
// running tables, by name as the store gives them. Through a table's reply address it is answered
// there; it needs no confirmation, since it changes nothing.
func (s *Service) ResignTables(h *table.Request, from *table.Table) error {
	h.Outcome(table.OutcomeApplied, "RESIGN")
	rows, err := h.Tx.TablesOfPlayer(h.Msg.From)
	if err != nil {
		return err
	}
	from, err = h.ReplyTable(from)
	if err != nil {
		return err
	}
	msg := templates.ResignTablesMsg{Head: s.Notices.Head(table.TableName(from), h.Sender(from), h.Now)}
	for i := range rows {
		if rows[i].Status != store.StatusPlaying {
			continue
		}
		t, err := s.Tables.LoadRow(h.Tx, &rows[i])
		if err != nil {
			return err
		}
		if p := t.SeatOf(h.Msg.From); p >= 0 && t.Game != nil && !t.Game.Over() && !t.Game.Left(p) {
			msg.Tables = append(msg.Tables, t.Row.Name)
		}
	}
	return h.Reply(from, msg)
}
