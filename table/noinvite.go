package table

import (
	"errors"

	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/templates"
)

// Refusing invitations (LEAGUES §6): STOP, or any message to the
// List-Unsubscribe address of an invitation, records that its sender is
// never to be invited again, by anyone; their pending invitations are
// declined, each opener told as for DECLINE. One answer confirms it.

// noInvite answers STOP, through the invitation to t (nil: through no
// invitation) or, unsubscribed, through an invitation's List-Unsubscribe
// address. handling.run routes it whatever address it came to; to the
// plain address it waits for a confirmation as every command that changes
// state (EMAIL §1.7).
func (h *handling) noInvite(t *tableCtx, unsubscribed bool) error {
	if _, err := h.tx.RefuseInvitations(h.msg.From, h.now); err != nil {
		return err
	}
	pending, err := h.tx.PendingInvitationsOf(h.msg.From)
	if err != nil {
		return err
	}
	var declined []string
	for _, inv := range pending {
		name, err := h.declineForGood(inv.TableID)
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
	h.outcome(store.OutcomeApplied, reason)
	h.log.Info("invitations refused", "declined", len(declined), "list_unsubscribe", unsubscribed)
	to := h.sender(nil)
	return h.replyAs(nil, to, templates.InvitesRefused, templates.NoInviteMsg{
		Head: h.s.notices.Head("", to, h.now), Unsubscribed: unsubscribed, Declined: declined})
}

// declineForGood declines the sender's invitation to the table id, if it
// is still pending once the lapsed ones are expired, and returns the
// table's name ("" when nothing was declined).
func (h *handling) declineForGood(id int64) (string, error) {
	t, err := h.s.lockLoad(h.tx, id)
	if err != nil {
		return "", err
	}
	if _, err := h.s.expireInvitations(h.tx, t, h.now, h.out); err != nil {
		return "", err
	}
	inv, err := h.tx.InvitationOf(id, h.msg.From)
	if errors.Is(err, store.ErrNotFound) {
		return "", nil // the table closed as its invitations lapsed
	}
	if err != nil || inv.State != store.InvitePending {
		return "", err
	}
	pending, err := h.recordDecline(t, inv)
	if err != nil {
		return "", err
	}
	return t.row.Name, h.s.invitationsDone(h.tx, t, pending, h.now, h.out)
}

// noInviteAddress handles a message to an invitation's List-Unsubscribe
// address: whatever it says, STOP; from another sender than the one the
// address was made for, nothing.
func (h *handling) noInviteAddress() error {
	if !h.s.tokens.VerifyNoInvite(h.msg.Token, h.msg.From) {
		return h.badToken()
	}
	h.proven = true
	return h.noInvite(nil, true)
}
