package player

import (
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/templates"
)

// Games lists the sender's tables. The reply comes from the table the
// request came through, else from the sender's one table not over; with
// several and no token, from the plain address (ReplyTable).
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
	return h.Reply(from, msg)
}
