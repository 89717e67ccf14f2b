package player

import (
	"errors"
	"strconv"

	"github.com/lexio-mail/lexio/parser"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/templates"
)

// Note answers NOTE: the sender's private note on the table c names, or
// on t, whose reply address it came through, when it names none (#34);
// the note replaces their last one there (c.Text), or removes it (c.Off).
// Only a player holding a seat there may write one, whether its game
// runs, waits or is over; anyone else gets the answer a table they do not
// play at gets, whether it exists or not (table.Request.RefuseAlike). The
// note is the seat's (store.Tx.SetNote): the notices and page of that seat
// show it, and no one else's. The author is answered from that table; the
// message's record says how long the note is, never what it says.
func (s *Service) Note(r *table.Request, t *table.Table, c *parser.Command) error {
	c, err := reading(r, t, c)
	if err != nil {
		return err
	}
	cmd, name, text, off := c.String(), c.Table, c.Text, c.Off
	if name == "" {
		if t == nil {
			return r.RefuseWhichTable(cmd)
		}
		name = t.Row.Name
	}
	named, p, err := seatAt(r, t, name, cmd)
	if named == nil {
		return err
	}
	r.Rec.TableID = &named.Row.ID
	if off {
		text = ""
	}
	had := named.Seats[p].Note != ""
	if err := r.Tx.SetNote(named.Row.ID, named.Seats[p].PlayerID, text); err != nil {
		return err
	}
	named.Seats[p].Note = text
	reason := "NOTE " + name + " OFF"
	if !off {
		reason = "NOTE " + name + " (" + strconv.Itoa(len([]rune(text))) + " characters)"
	}
	r.Outcome(table.OutcomeApplied, reason)
	to := r.Sender(named)
	return r.ReplyAs(named, to, templates.NoteMsg{Head: s.Notices.Head(name, to, r.Now), Text: text, Had: had})
}

// reading is the reading of NOTE or GIVE to act on (parser's
// Command.Unnamed, #34): the table c names when the sender plays at a
// table of that name, else none: the table t whose reply address it came
// through, or, without one, no table at all (RefuseWhichTable). A name
// the sender plays at is never read as the start of a note.
func reading(r *table.Request, t *table.Table, c *parser.Command) (*parser.Command, error) {
	if c.Unnamed == nil || t != nil && t.Row.Name == c.Table {
		return c, nil
	}
	named, err := r.Load(c.Table)
	switch {
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		return nil, err
	case named.SeatOf(r.Msg.From) >= 0:
		return c, nil
	}
	return c.Unnamed, nil
}

// seatAt loads the table the sender names and finds their seat there. A
// table that does not exist and one where they hold no seat get the same
// answer (table.Request.RefuseAlike), written here: named is nil then.
func seatAt(r *table.Request, t *table.Table, name, cmd string) (named *table.Table, p int, err error) {
	named, err = r.Load(name)
	why := templates.ReasonNoSuchTable
	switch {
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		return nil, -1, err
	default:
		if p = named.SeatOf(r.Msg.From); p >= 0 {
			return named, p, nil
		}
		why = templates.ReasonNotAPlayer
	}
	from, err := r.ReplyTable(t)
	if err != nil {
		return nil, -1, err
	}
	return nil, -1, r.RefuseAlike(from, cmd, templates.ReasonNotAtTable, name, why)
}
