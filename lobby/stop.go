package lobby

import (
	"errors"

	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/invites"
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/templates"
)

// Refusing invitations (LEAGUES §6): STOP, or any message to the
// List-Unsubscribe address of an invitation, records that its sender is
// never to be invited again, by anyone, under any spelling of their
// address (store.PersonKey); their pending invitations, to every
// spelling, are declined, each opener told as for DECLINE. One answer
// confirms it.

// NoInvite answers STOP, through the invitation to t (nil: through no
// invitation) or, unsubscribed, through an invitation's List-Unsubscribe
// address. The inbox routes it whatever address it came to; to the
// plain address it waits for a confirmation as every command that changes
// state (EMAIL §1.7).
func (s *Service) NoInvite(h *table.Request, t *table.Table, unsubscribed bool) error {
	if _, err := invites.Refuse(h.Tx, h.Msg.From, h.Now); err != nil {
		return err
	}
	pending, err := invites.PendingOf(h.Tx, h.Msg.From)
	if err != nil {
		return err
	}
	var declined []string
	for _, inv := range pending {
		name, err := s.declineForGood(h, inv.TableID, inv.Address)
		if err != nil {
			return err
		}
		if name != "" {
			declined = append(declined, name)
		}
	}
	reason := "STOP"
	if unsubscribed {
		reason += " (List-Unsubscribe)"
	}
	h.Outcome(table.OutcomeApplied, reason)
	h.Log.Info("invitations refused", "declined", len(declined), "list_unsubscribe", unsubscribed)
	to := h.Sender(nil)
	return h.ReplyAs(nil, to, templates.NoInviteMsg{
		Head: s.Notices.Head("", to, h.Now), Unsubscribed: unsubscribed, Declined: declined})
}

// declineForGood declines the invitation of addr (a spelling of the
// sender's) to the table id, if it is still pending once the lapsed ones
// are expired, and returns the table's name ("" when nothing was
// declined).
func (s *Service) declineForGood(h *table.Request, id int64, addr string) (string, error) {
	t, err := s.lockLoad(h.Tx, id)
	if err != nil {
		return "", err
	}
	if _, err := s.expireInvitations(h.Tx, t, h.Now, h.Out); err != nil {
		return "", err
	}
	inv, err := invites.Of(h.Tx, id, addr)
	if errors.Is(err, store.ErrNotFound) {
		return "", nil // the table closed as its invitations lapsed
	}
	if err != nil || inv.State != store.InvitePending {
		return "", err
	}
	pending, err := s.recordDecline(h, t, inv)
	if err != nil {
		return "", err
	}
	return t.Row.Name, s.invitationsDone(h.Tx, t, pending, h.Now, h.Out)
}

// NoInviteAddress handles a message to an invitation's List-Unsubscribe
// address: whatever it says, STOP; from another sender than the one the
// address was made for, nothing.
func (s *Service) NoInviteAddress(h *table.Request) error {
	if !s.Tokens.VerifyNoInvite(h.Msg.Token, h.Msg.From) {
		return h.BadToken()
	}
	h.Proven = true
	return s.NoInvite(h, nil, true)
}
