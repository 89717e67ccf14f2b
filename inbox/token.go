package inbox

import (
	"errors"
	"strings"

	"github.com/lexio-mail/lexio/mailer/replytoken"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/invites"
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/templates"
)

// BadToken answers a token that does not match its sender. Only a player
// or an invitee of the table the token names is told (a forged From must not make us
// write to a stranger); everything is logged.
func (s *Service) BadToken(h *table.Request) error {
	// The token names its table before its last '-' (replytoken.Tokens),
	// after the prefix of an unsubscribe address.
	name := ""
	if i := strings.LastIndexByte(h.Msg.Token, '-'); i > 0 {
		name = strings.TrimPrefix(strings.ToLower(h.Msg.Token[:i]), replytoken.UnsubscribePrefix)
	}
	h.Log.Warn("forged or damaged reply token", "token_table", name)
	h.Outcome(table.OutcomeRejected, string(templates.ReasonBadToken))
	t, err := h.Load(name)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if t.SeatOf(h.Msg.From) < 0 {
		// An invitee was written to as well (LEAGUES §6): they are told,
		// from no table (they have no seat there).
		if _, err := invites.Of(h.Tx, t.Row.ID, h.Msg.From); err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return nil
			}
			return err
		}
		t = nil
	}
	return h.Refuse(t, h.Msg.Command.String(), []templates.Reason{{Kind: templates.ReasonBadToken}}, true)
}
