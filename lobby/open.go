package lobby

import (
	"errors"

	"github.com/lexio-mail/lexio/engine/board"
	"github.com/lexio-mail/lexio/internal/botseat"
	"github.com/lexio-mail/lexio/notice"
	"github.com/lexio-mail/lexio/parser"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/invites"
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/templates"
)

// Open opens a table by mail (NEW), where the configuration allows;
// with addresses, a table for its invitees only (LEAGUES §6).
func (s *Service) Open(h *table.Request, c *parser.Command) error {
	if !s.Cfg.Open.Allow {
		return h.Refuse(nil, c.String(), []templates.Reason{{Kind: templates.ReasonNoOpening}}, true)
	}
	league := s.Cfg.League(s.Cfg.Open.League)
	variant := c.Variant
	if variant == "" {
		variant = league.Variant
	}
	if variant == string(board.Lexio) && !*league.Multipliers {
		variant = string(board.Lexico) // a plain league's tables are plain lexico
	}
	bots, invite := splitBots(c.Invite)
	if len(bots) > 0 && !s.Tables.CanPlay() {
		return store.Permanent(errors.New("lobby: NEW with the computer: this service has no GADDAG of its dictionary"))
	}
	rs, err := s.openReasons(h, c.Invite, invite, table.MaxPlayers(variant))
	if err != nil {
		return err
	}
	if len(rs) > 0 {
		return h.Refuse(nil, c.String(), rs, false)
	}
	name, err := shortName(h.Tx, h.Rec.MessageID)
	if err != nil {
		return err
	}
	row := table.NewRow(name, league, variant)
	if err := h.Tx.CreateTable(row); err != nil {
		return err
	}
	pl, err := h.Tx.EnsurePlayer(h.Msg.From, h.SenderLang(nil))
	if err != nil {
		return err
	}
	if err := h.Tx.AddSeat(&store.Seat{TableID: row.ID, Position: 0, PlayerID: pl.ID, CreatedAt: h.Now}); err != nil {
		return err
	}
	// The computer's seats are taken at once, after the opener's.
	for i, b := range bots {
		bp, err := h.Tx.EnsurePlayer(b, h.SenderLang(nil))
		if err != nil {
			return err
		}
		if err := h.Tx.AddSeat(&store.Seat{TableID: row.ID, Position: 1 + i, PlayerID: bp.ID, CreatedAt: h.Now}); err != nil {
			return err
		}
	}
	t, err := s.Tables.LoadRow(h.Tx, row)
	if err != nil {
		return err
	}
	h.Rec.TableID = &row.ID
	h.Outcome(table.OutcomeApplied, "NEW "+name)
	if len(bots) > 0 && len(invite) == 0 {
		// Nobody to wait for: the game begins, its first notice the answer.
		h.Log.Info("table opened against the computer", "table", name, "bots", len(bots))
		return s.startGame(h.Tx, t, h.Now, h.Out)
	}
	c = &parser.Command{Kind: c.Kind, Variant: c.Variant, Invite: invite}
	msg := templates.OpenedMsg{Head: s.Notices.Head(name, t.Recipient(0), h.Now), Variant: variant, MinPlayers: 2, MaxPlayers: table.MaxPlayers(variant)}
	if len(c.Invite) > 0 {
		if msg.Expires, err = s.invite(h, t, c.Invite, ""); err != nil {
			return err
		}
		// Named beside the seated: notice.Names tells them apart.
		msg.Invited = notice.Names(append(table.SeatAddrs(t.Seats), c.Invite...))[len(t.Seats):]
	}
	return h.Reply(t, msg)
}

// splitBots parts NEW's seats into the computer's and the addresses to
// invite.
func splitBots(seats []string) (bots, invite []string) {
	for _, a := range seats {
		if botseat.Is(a) {
			bots = append(bots, a)
		} else {
			invite = append(invite, a)
		}
	}
	return bots, invite
}

// Join seats the sender at the open table name (JOIN). An invitee's JOIN
// answers their invitation, even where the configuration no longer lets
// players open tables; a table with invitations seats nobody else.
func (s *Service) Join(h *table.Request, name string) error {
	cmd := "JOIN " + name
	t, err := h.Load(name)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	if t != nil {
		// The table's row is taken first: a concurrent START or JOIN
		// then sees this seat, or this one sees theirs.
		if t, err = s.lockLoad(h.Tx, t.Row.ID); err != nil {
			return err
		}
		if t.SeatOf(h.Msg.From) < 0 {
			_, err := invites.Of(h.Tx, t.Row.ID, h.Msg.From)
			if err == nil {
				return s.answer(h, t, true)
			}
			if !errors.Is(err, store.ErrNotFound) {
				return err
			}
		}
	}
	if !s.Cfg.Open.Allow {
		return h.Refuse(nil, cmd, []templates.Reason{{Kind: templates.ReasonNoOpening}}, true)
	}
	if t == nil {
		return h.RefuseAlike(nil, cmd, templates.ReasonNoTableToJoin, name, templates.ReasonNoSuchTable)
	}
	h.Rec.TableID = &t.Row.ID
	only, err := inviteOnly(h.Tx, t)
	if err != nil {
		return err
	}
	switch {
	case t.SeatOf(h.Msg.From) >= 0:
		return h.Refuse(t, cmd, []templates.Reason{{Kind: templates.ReasonAlreadySeated, Detail: name}}, false)
	// To anyone else, a table they cannot join is answered as none.
	case t.Row.Status != store.StatusOpen:
		return h.RefuseAlike(nil, cmd, templates.ReasonNoTableToJoin, name, templates.ReasonAlreadyStarted)
	case only:
		return h.RefuseAlike(nil, cmd, templates.ReasonNoTableToJoin, name, templates.ReasonNotInvited)
	case len(t.Seats) >= table.MaxPlayers(t.Row.Variant):
		return h.RefuseAlike(nil, cmd, templates.ReasonNoTableToJoin, name, templates.ReasonTableFull)
	}
	pl, err := h.Tx.EnsurePlayer(h.Msg.From, h.SenderLang(nil))
	if err != nil {
		return err
	}
	if err := h.Tx.AddSeat(&store.Seat{TableID: t.Row.ID, Position: len(t.Seats), PlayerID: pl.ID, CreatedAt: h.Now}); err != nil {
		return err
	}
	if t, err = s.Tables.LoadRow(h.Tx, t.Row); err != nil {
		return err
	}
	h.Outcome(table.OutcomeApplied, cmd)
	s.announceJoin(h, t, nil, false)
	return nil
}

// Start begins the game of an open table (START): the table named by the
// token, else the one open table the sender opened.
func (s *Service) Start(h *table.Request, t *table.Table) error {
	if t == nil {
		rows, err := h.Tx.TablesOfPlayer(h.Msg.From)
		if err != nil {
			return err
		}
		for i := range rows {
			if rows[i].Status != store.StatusOpen {
				continue
			}
			c, err := s.Tables.LoadRow(h.Tx, &rows[i])
			if err != nil {
				return err
			}
			if c.SeatOf(h.Msg.From) == 0 {
				if t != nil {
					t = nil // two candidates: the token must say which
					break
				}
				t = c
			}
		}
		if t == nil {
			return h.Refuse(nil, "START", []templates.Reason{{Kind: templates.ReasonBadToken}}, true)
		}
	}
	h.Rec.TableID = &t.Row.ID
	// The row first, then the seats and invitations as committed: a
	// concurrent JOIN is in the game or refused, never seated outside it.
	t, err := s.lockLoad(h.Tx, t.Row.ID)
	if err != nil {
		return err
	}
	switch {
	case t.Row.Status != store.StatusOpen:
		return h.Refuse(t, "START", []templates.Reason{{Kind: templates.ReasonAlreadyStarted}}, true)
	case t.SeatOf(h.Msg.From) != 0:
		return h.Refuse(t, "START", []templates.Reason{{Kind: templates.ReasonNotOwner}}, true)
	case len(t.Seats) < 2:
		return h.Refuse(t, "START", []templates.Reason{{Kind: templates.ReasonTooFewPlayers, Have: len(t.Seats), Need: 2}}, true)
	}
	h.Outcome(table.OutcomeApplied, "START")
	if err := s.withdrawInvitations(h.Tx, t, h.Now, h.Out); err != nil {
		return err
	}
	return s.startGame(h.Tx, t, h.Now, h.Out)
}
