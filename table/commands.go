package table

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/lexio-mail/lexio/config"
	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/engine/board"
	"github.com/lexio-mail/lexio/notice"
	"github.com/lexio-mail/lexio/parser"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/templates"
)

// TableCommand applies a command that needs a table: moves and the
// information about one game. Any message makes its author present
// (RULES §9.2), so that is done here, for BOARD and LOG too.
func (h *Request) TableCommand(t *Table, c *parser.Command) error {
	p := t.SeatOf(h.Msg.From)
	if t.Game == nil {
		return h.Refuse(t, c.String(), []templates.Reason{{Kind: templates.ReasonTooFewPlayers,
			Have: len(t.Seats), Need: 2, Detail: "START"}}, false)
	}
	g := t.Game
	before := len(g.Actions())
	// RULES §9.2: any message from an away player makes them present.
	if err := g.Present(p, h.Now); err != nil {
		return store.Permanent(err)
	}
	h.moved = len(g.Actions()) > before
	h.Outcome(OutcomeApplied, c.Kind.String())
	if c.Kind.IsMove() {
		return h.move(t, p, c, before)
	}
	if err := h.saveIfChanged(t, before); err != nil {
		return err
	}

	switch c.Kind {
	case parser.KindPreview:
		return h.preview(t, p, c)
	case parser.KindBoard:
		msg, err := h.s.NoticeData(t, p, h.Now)
		if err != nil {
			return err
		}
		return h.Reply(t, templates.BoardMsg(msg))
	case parser.KindLog:
		v, err := g.View(p, h.Now)
		if err != nil {
			return store.Permanent(err)
		}
		b := v.Board
		return h.Reply(t, templates.LogMsg{
			Head: h.s.notices.Head(t.Row.Name, t.Recipient(p), h.Now), Log: notice.LogLines(v.Log, Names(t.Seats), &b)})
	}
	return store.Permanent(fmt.Errorf("table: command %s not routed", c.Kind))
}

// move is the mail side of Service.Move: a reply to an earlier turn
// refused (EMAIL §1.5), the command made an Action, the separate
// acceptance sent back to the mail, a refusal answered. before is the
// length of the log before the message made its author present.
func (h *Request) move(t *Table, p int, c *parser.Command, before int) error {
	if h.stale(t, p) {
		// EMAIL §1.5: a reply to an earlier turn's notice from a player
		// who has acted since: a resent or doubled message.
		h.Log.Info("stale move refused", "in_reply_to", h.Msg.InReplyTo)
		if err := h.saveIfChanged(t, before); err != nil {
			return err
		}
		return h.Refuse(t, c.String(), []templates.Reason{{Kind: templates.ReasonStale}}, false)
	}
	var a Action
	switch c.Kind {
	case parser.KindPlace:
		a = PlaceMove(c.Place.Move())
	case parser.KindExchange:
		a = ExchangeTiles(engine.Selection{All: c.Exchange.All, Slots: c.Exchange.Slots, Letters: c.Exchange.Letters})
	case parser.KindPass:
		a = PassTurn()
	}
	ack := func(pl Played) {
		// One of the turn's mails, before the notices: not counted
		// against the reply bound. Whether the author gets a notice is
		// asked after the move. (An author who gets none gets the
		// acceptance alone, from Announce.)
		if h.s.cfg.Mail.SeparateAcceptance && t.wantsNotice(p) {
			h.Queue(t, h.Sender(t), templates.AcceptedMsg{
				Head: h.s.notices.Head(t.Row.Name, t.Recipient(p), h.Now), Move: pl.Acceptance.Move, Total: pl.Acceptance.Total, Rack: pl.Rack})
		}
	}
	_, moveErr := h.s.Move(h.Tx, t, p, a, h.Now, h.Out, ack)
	if moveErr == nil {
		return nil
	}
	var me *board.MoveError
	if !errors.As(moveErr, &me) {
		return moveErr
	}
	// The move wrote what it spent; the author's presence is this
	// message's.
	if err := h.saveIfChanged(t, before); err != nil {
		return err
	}
	rs := notice.Reasons(moveErr)
	if me.Kind != board.KindNotYourTurn {
		return h.Refuse(t, c.String(), rs, false)
	}
	// Meant for another table, maybe: the answer names those where it is
	// the author's turn (#34).
	rs[0].Detail = Names(t.Seats)[t.Game.Turn()]
	turns, err := h.yourTurns()
	if err != nil {
		return err
	}
	return h.refuse(t, c.String(), rs, false, turns)
}

// saveIfChanged saves t when the message changed its game since before
// and that is not written yet.
func (h *Request) saveIfChanged(t *Table, before int) error {
	if n := len(t.Game.Actions()); n == before || int64(n) == t.prevSeq {
		return nil
	}
	return h.s.Save(h.Tx, t, h.Now)
}

// stale reports whether the message answers the notice of an earlier turn
// while its author has moved since (EMAIL §1.5). A message that answers
// none of our notices is taken as meant for now.
func (h *Request) stale(t *Table, p int) bool {
	seq, ok := h.Answered(t)
	if !ok {
		return false
	}
	acts := t.Game.Actions()
	for _, a := range acts[min(int(seq), len(acts)):] {
		if a.Player == p && (a.Kind == engine.ActPlace || a.Kind == engine.ActExchange || a.Kind == engine.ActPass) {
			return true
		}
	}
	return false
}

// Answered is the log position (Seq) of t's notice the message answers:
// its In-Reply-To, else the latest of its references that is ours
// (clients list them oldest first; a foreign ID after ours must not hide
// it). ok is false when it answers none of t's notices.
func (h *Request) Answered(t *Table) (seq int64, ok bool) {
	for _, id := range append([]string{h.Msg.InReplyTo}, h.Msg.References...) {
		if n, found := h.s.notices.NoticeSeq(id, t.Row.Name); found {
			seq, ok = n, true
			if id == h.Msg.InReplyTo {
				break
			}
		}
	}
	return seq, ok
}

// preview says what a placement would score, without the dictionary
// (RULES §5.8).
func (h *Request) preview(t *Table, p int, c *parser.Command) error {
	msg := templates.PreviewMsg{Head: h.s.notices.Head(t.Row.Name, t.Recipient(p), h.Now), Command: c.String()}
	play, err := t.Game.Preview(p, c.Place.Move())
	var me *board.MoveError
	switch {
	case errors.As(err, &me):
		msg.Reasons = notice.Reasons(err)
	case err != nil:
		return store.Permanent(err)
	default:
		b := t.Game.Board()
		if err := b.Apply(play.Tiles); err != nil {
			return store.Permanent(err)
		}
		msg.Words, msg.Bonus, msg.Score = notice.PlayWords(&b, &play), play.AllTiles, play.Score
	}
	return h.Reply(t, msg)
}

// MaxPlayers is the size of a table of that variant (RULES §1.1, §12).
func MaxPlayers(variant string) int {
	if variant == string(board.Lexico) {
		return 2
	}
	return 4
}

// NewRow is a new table's row with its league's rules and times.
func NewRow(name string, l *config.League, variant string) *store.Table {
	return &store.Table{
		Name: name, League: l.Name, Variant: variant, Multipliers: *l.Multipliers,
		TurnTime: l.TurnTime, Reminders: slices.Clone(l.Reminders), AwayGrace: l.AwayGrace,
		ReserveSize: l.ReserveSize, ReserveRefill: l.ReserveRefill, ForfeitAfter: l.ForfeitAfter, Status: store.StatusOpen,
		TimeBank: l.TimeBank, BankPerMove: l.BankPerMove, IgnoreVacations: l.Vacation != nil && !*l.Vacation,
	}
}

// StartGame deals the tiles of an open table and tells every player.
func (s *Service) StartGame(tx *store.Tx, t *Table, seed uint64, now time.Time, out *notice.Batch) error {
	if seed == 0 {
		var b [8]byte
		if _, err := rand.Read(b[:]); err != nil {
			return err
		}
		seed = binary.LittleEndian.Uint64(b[:]) | 1
	}
	t.Row.Seed, t.Row.StartedAt = int64(seed), &now
	g, err := engine.New(gameConfig(t.Row, len(t.Seats)))
	if err != nil {
		return store.Permanent(err)
	}
	t.Game = g
	if err := s.Save(tx, t, now); err != nil {
		return err
	}
	return s.Announce(tx, t, now, out, -1, nil)
}

// yourTurns names the author's tables where it is their turn, as the
// store orders them.
func (h *Request) yourTurns() ([]string, error) {
	rows, err := h.Tx.TablesOfPlayer(h.Msg.From)
	if err != nil {
		return nil, err
	}
	var names []string
	for i := range rows {
		if rows[i].Status != store.StatusPlaying {
			continue
		}
		t, err := h.s.LoadRow(h.Tx, &rows[i])
		if err != nil {
			return nil, err
		}
		if p := t.SeatOf(h.Msg.From); t.Game != nil && !t.Game.Over() && p >= 0 && t.Game.Turn() == p {
			names = append(names, t.Row.Name)
		}
	}
	return names, nil
}
