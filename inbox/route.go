package inbox

import (
	"errors"
	"strings"

	"github.com/lexio-mail/lexio/mailer/replytoken"
	"github.com/lexio-mail/lexio/notice"
	"github.com/lexio-mail/lexio/parser"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/invites"
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/templates"
)

// route decides what the message does and fills h.Out.
func (s *Service) route(h *table.Request) error {
	m := h.Msg
	switch {
	case m.Ignored != "":
		// EMAIL §2.3: never answered, to prevent mail loops.
		h.Outcome(table.OutcomeIgnored, m.Ignored)
		return nil
	case errors.Is(m.Err, parser.ErrAmbiguousFrom):
		// Two From fields, a list or a group: the sender may be forged
		// or hide behind another address. Neither played nor answered.
		h.Log.Warn("ambiguous From: not played, not answered", "error", m.Err)
		var pe *parser.Error
		errors.As(m.Err, &pe)
		h.Outcome(table.OutcomeRejected, "ambiguous-from: "+pe.Detail)
		return nil
	case m.From == "":
		h.Outcome(table.OutcomeIgnored, "no sender to answer: "+errText(m.Err))
		return nil
	}
	if s.Cfg.Mail.RequireAuth && !authenticated(m.AuthResults, s.Cfg.Mail.AuthServID, m.From) {
		// EMAIL §1.3: the From may be forged; answering it could reach a
		// victim, so the message is only logged.
		h.Log.Warn("sender not authenticated", "auth_results", strings.Join(m.AuthResults, " | "))
		h.Outcome(table.OutcomeRejected, string(templates.ReasonNotAuth))
		return nil
	}
	h.Proven = s.Cfg.Mail.RequireAuth

	if replytoken.IsConfirm(m.Token) {
		if done, err := s.confirmed(h); done || err != nil {
			return err
		}
		m = h.Msg
	}
	if replytoken.IsUnsubscribe(m.Token) {
		// LEAGUES §5.2: written to with any body, or none.
		if replytoken.IsNoInvite(m.Token) {
			// An invitation's: no more invitations (LEAGUES §6).
			return s.lobby.NoInviteAddress(h)
		}
		return s.players.Unsubscribe(h)
	}
	var t *table.Table
	if m.Token != "" {
		name, ok := s.Tokens.Verify(m.Token, m.From)
		if !ok {
			return h.BadToken()
		}
		h.Proven = true
		var err error
		if t, err = h.Load(name); err != nil {
			if errors.Is(err, store.ErrNotFound) {
				// A table closed since (every invitation declined or
				// expired): the token is ours, so its sender may be told.
				h.Log.Warn("token of an unknown table", "table", name)
				return h.Refuse(nil, m.Command.String(), []templates.Reason{{Kind: templates.ReasonNoSuchTable, Detail: name}}, true)
			}
			return err
		}
		h.Rec.TableID = &t.Row.ID
		h.Log = h.Log.With("table", name)
		if t.SeatOf(m.From) < 0 {
			// An invitee's answer comes through the token of their
			// invitation, before they have a seat (LEAGUES §6).
			inv, err := invites.Of(h.Tx, t.Row.ID, m.From)
			if errors.Is(err, store.ErrNotFound) {
				h.Log.Warn("valid token from a player without a seat")
				h.Outcome(table.OutcomeRejected, string(templates.ReasonNotAPlayer))
				return nil
			}
			if err != nil {
				return err
			}
			if handled, err := s.lobby.Invited(h, t, inv); handled || err != nil {
				return err
			}
			// About no table: answered as for anyone.
			return s.command(h, nil, m.Command)
		}
		// A season that ended before the tick came is closed first: a
		// move after it is too late (LEAGUES §7.3).
		if ended, err := s.seasons.EndDue(h.Tx, t, h.Now, h.Out); err != nil {
			return err
		} else if ended {
			if t, err = h.Load(name); err != nil {
				return err
			}
		}
		// Deadlines that passed are enforced before the message is read:
		// a move that comes after its turn expired is too late (RULES §9.1).
		if err := s.Tables.Enforce(h.Tx, t, h.Now, h.Now, h.Out); err != nil {
			return err
		}
	}

	if m.Err != nil {
		if t != nil && s.lobby.BareJoin(h, t.Row.Name) {
			// JOIN alone through a table's address means that table.
			return s.lobby.Join(h, t.Row.Name)
		}
		if answered, err := h.NoCommandOnce(); err != nil || !answered {
			return err
		}
		// Sent from the sender's table, so that the corrected command can
		// answer it.
		from, err := h.ReplyTable(t)
		if err != nil {
			return err
		}
		return h.Refuse(from, "", notice.Reasons(m.Err), true)
	}
	return s.command(h, t, m.Command)
}

// command routes command c of the message, which came through table t
// (nil: through none), to the package that owns it.
func (s *Service) command(h *table.Request, t *table.Table, c *parser.Command) error {
	if !h.Proven && c.ChangesState() {
		return s.askConfirmation(h, c)
	}
	switch c.Kind {
	case parser.KindConfirm:
		// CONFIRM acts only through the confirmation's own address.
		from, err := h.ReplyTable(t)
		if err != nil {
			return err
		}
		return h.Refuse(from, c.String(), []templates.Reason{{Kind: templates.ReasonBadToken}}, true)
	case parser.KindNoInvite:
		// It acts on no table (LEAGUES §6), whichever address it came to.
		return s.lobby.NoInvite(h, t, false)
	case parser.KindHelp:
		return s.help(h, t, c.Topic)
	case parser.KindGames:
		return s.players.Games(h, t)
	case parser.KindLang:
		return s.players.Lang(h, t, c.Lang)
	case parser.KindZone:
		return s.players.Zone(h, t, c.Zone)
	case parser.KindVacation:
		return s.players.Vacation(h, t, c.Vacation)
	case parser.KindNew:
		return s.lobby.Open(h, c)
	case parser.KindDecline:
		return s.lobby.Decline(h, t, c.Table)
	case parser.KindJoin:
		return s.lobby.Join(h, c.Table)
	case parser.KindStart:
		return s.lobby.Start(h, t)
	case parser.KindRematch:
		return s.lobby.Rematch(h, t, c.Table)
	case parser.KindResign:
		if c.Table == "" {
			// Nothing is resigned without a name (LEAGUES §1), not even
			// the table whose reply address it came through.
			return s.players.ResignTables(h, t)
		}
		return h.Resign(t, c.Table)
	case parser.KindNotify:
		return s.players.Notify(h, t, c.Notify, c.Table)
	case parser.KindSay:
		return h.Say(t, c.Text)
	case parser.KindGive:
		return s.players.Give(h, t, c)
	case parser.KindNote:
		return s.players.Note(h, t, c)
	case parser.KindStandings:
		return s.seasons.AnswerStandings(h, t, c.League)
	case parser.KindSignup, parser.KindWithdraw:
		return s.seasons.Signup(h, t, c.League, c.Kind == parser.KindWithdraw)
	}
	if t == nil {
		// EMAIL §1.3: a command acts on a table only through a valid
		// token. The refusal comes from the sender's one table, if any, so
		// that the command can be sent again in answer to it.
		from, err := h.ReplyTable(nil)
		if err != nil {
			return err
		}
		return h.Refuse(from, c.String(), []templates.Reason{{Kind: templates.ReasonBadToken}}, true)
	}
	return h.TableCommand(t, c)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
