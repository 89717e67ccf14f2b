package lobby

import (
	"context"
	"time"

	"github.com/lexio-mail/lexio/internal/botseat"
	"github.com/lexio-mail/lexio/notice"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/invites"
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/templates"
)

// The bounds on what NEW makes the service send (LEAGUES §6). An
// invitation is a mail to an address that may never have written here,
// so each is counted: per recipient over 7 days, from anyone
// (open_tables.invitations_per_recipient_week); per opener over 24 hours,
// whatever became of the invitations since
// (open_tables.invitations_per_opener_day), so that opening and closing
// tables resets nothing; and in all, with the rest of the mail to
// outsiders (mail.outsider_mails_per_day), of which the invitations to one
// domain spend at most its share (notice.OutsiderRates, the same counters
// as the answers to outsiders). An address that declined an
// opener's invitation is not invited by them again for declinedFor; one
// that refused invitations (STOP) never. A NEW over any bound is refused
// whole, each invitee that would pass a bound named with the reason.

// declinedFor is how long an opener may not invite again an address that
// declined one of their invitations.
const declinedFor = 30 * 24 * time.Hour

// recipientWindow and openerWindow are the windows of the bounds per
// recipient and per opener; logKept is how long the invitation log keeps
// a row, the longest any bound looks back.
const (
	recipientWindow = 7 * 24 * time.Hour
	openerWindow    = 24 * time.Hour
	logKept         = declinedFor
)

// shown is an address as a refusal quotes it back to its sender: cut
// short, so that a huge one does not fill the answer.
func shown(addr string) string {
	const most = 80
	if len(addr) <= most {
		return addr
	}
	r := []rune(addr)
	if len(r) > most {
		r = r[:most]
	}
	return string(r) + "…"
}

// openReasons are the reasons to refuse NEW with seats (addresses and the
// computer's seats, as the parser read them), of which invite are the
// addresses, for a table of at most max players; none when it may open.
func (s *Service) openReasons(h *table.Request, seats, invite []string, max int) ([]templates.Reason, error) {
	var rs []templates.Reason
	if len(invite) > 0 || len(seats) == 0 {
		// The table will wait to start: it counts against the opener's
		// open tables.
		have, err := invites.OpenTablesBy(h.Tx, h.Msg.From)
		if err != nil {
			return nil, err
		}
		if most := s.Cfg.Open.Tables; have >= most {
			rs = append(rs, templates.Reason{Kind: templates.ReasonOpenTables, Have: have, Need: most})
		}
	}
	if len(seats) == 0 {
		return rs, nil
	}
	rs = append(rs, s.inviteReasons(h, seats, max)...)
	r, err := s.waitingReason(h, len(invite))
	if err != nil {
		return nil, err
	}
	if r != nil {
		rs = append(rs, *r)
	}
	if len(invite) == 0 {
		return rs, nil
	}
	bs, err := s.boundReasons(h, invite)
	return append(rs, bs...), err
}

// boundReasons are the reasons not to invite the addresses now: the
// opener's address or an invitee's is not plain, or a bound would be
// passed. Nothing is counted: the invitations are, once sent.
func (s *Service) boundReasons(h *table.Request, invite []string) ([]templates.Reason, error) {
	var rs []templates.Reason
	opener := h.Msg.From
	if !s.Notices.PlainAddress(opener) {
		// The invitations would name it to their recipients.
		rs = append(rs, templates.Reason{Kind: templates.ReasonUnfitAddress, Detail: shown(opener)})
	}
	sent, err := invites.SentBy(h.Tx, opener, h.Now.Add(-openerWindow))
	if err != nil {
		return nil, err
	}
	if most := s.Cfg.Open.PerOpener; sent+len(invite) > most {
		rs = append(rs, templates.Reason{Kind: templates.ReasonInvitesToday, Have: sent, Need: most})
	}
	room, err := s.Notices.OutsiderRoom(h.Tx, h.Now)
	if err != nil {
		return nil, err
	}
	for _, a := range invite {
		r, err := s.addressReason(h, a, room)
		if err != nil {
			return nil, err
		}
		if r != nil {
			rs = append(rs, *r)
		}
	}
	return rs, nil
}

// addressReason is the reason not to invite a, if any; room is what is
// left of the day's mail to outsiders, in all and to each domain, less
// the invitees before a.
func (s *Service) addressReason(h *table.Request, a string, room *notice.Room) (*templates.Reason, error) {
	if botseat.Is(a) || s.ownAddress(a) {
		return nil, nil // the computer's seat; our own address is inviteReasons'
	}
	if !s.Notices.PlainAddress(a) {
		return &templates.Reason{Kind: templates.ReasonUnfitAddress, Detail: shown(a)}, nil
	}
	refuses, err := invites.Refuses(h.Tx, a)
	if err != nil || refuses {
		return &templates.Reason{Kind: templates.ReasonRefusesInvite, Detail: a}, err
	}
	declined, err := invites.DeclinedBy(h.Tx, a, h.Msg.From, h.Now.Add(-declinedFor))
	if err != nil || declined {
		return &templates.Reason{Kind: templates.ReasonDeclinedYou, Detail: a, Need: int(declinedFor / (24 * time.Hour))}, err
	}
	n, err := invites.SentTo(h.Tx, a, h.Now.Add(-recipientWindow))
	if err != nil {
		return nil, err
	}
	if most := s.Cfg.Open.PerRecipient; n >= most {
		return &templates.Reason{Kind: templates.ReasonInvitedOften, Detail: a, Need: most}, nil
	}
	played, err := notice.PlayedHere(h.Tx, a)
	if err != nil || played {
		return nil, err
	}
	ok, domain, err := room.Take(a)
	switch {
	case err != nil || ok:
		return nil, err
	case domain:
		return &templates.Reason{Kind: templates.ReasonOutsiderDomain, Detail: a}, nil
	}
	return &templates.Reason{Kind: templates.ReasonOutsiderMail, Detail: a}, nil
}

// mailInvitee queues a mail to an invitee, who has no seat: it counts
// against the day's mail to outsiders and its domain's share, and is not
// sent past them.
func (s *Service) mailInvitee(tx *store.Tx, e notice.Envelope, m templates.Mail, now time.Time, out *notice.Batch) error {
	ok, err := s.Notices.MayMailOutsider(tx, e.To.Addr, now)
	if err != nil {
		return err
	}
	if !ok {
		s.Log.Warn("mail to an invitee not sent: the day's mail to outsiders, or its domain's share, is spent", "table", e.Table, "kind", templates.KindOf(m))
		return nil
	}
	out.Add(e, m)
	return nil
}

// lapseOpenTables closes, table by table in a transaction each, the open
// tables not started within invite_ttl of their opening and with no
// invitation pending (those lapse with their invitations): one sender
// cannot keep tables open for ever (LEAGUES §6).
func (s *Service) lapseOpenTables(ctx context.Context, now time.Time) (int, error) {
	before := now.Add(-s.Cfg.InviteTTL)
	return s.Notices.EachDue(ctx, s.Store, now, "open table lapse",
		func(tx *store.Tx, limit int) ([]int64, error) { return invites.LapsedOpenTables(tx, before, limit) },
		func(tx *store.Tx, id int64, out *notice.Batch) error {
			t, err := s.lockLoad(tx, id)
			if err != nil {
				return err
			}
			return s.lapse(tx, t, now, out)
		})
}

// lapse tells the players seated at the open table t that it closes, and
// deletes it.
func (s *Service) lapse(tx *store.Tx, t *table.Table, now time.Time, out *notice.Batch) error {
	msg := templates.LapsedMsg{Opened: t.Row.CreatedAt, Seated: table.Names(t.Seats)}
	for p := range t.Seats {
		m := msg
		m.Head = s.Notices.Head(t.Row.Name, t.Recipient(p), now)
		out.Add(notice.Envelope{Table: t.Row.Name, To: t.Recipient(p), TableID: &t.Row.ID}, m)
	}
	s.Log.Info("open table not started in time: closed", "table", t.Row.Name, "opened", t.Row.CreatedAt, "seated", len(t.Seats))
	return invites.DeleteOpenTable(tx, t.Row.ID)
}
