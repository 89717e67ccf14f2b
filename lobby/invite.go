package lobby

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/lexio-mail/lexio/internal/botseat"
	"github.com/lexio-mail/lexio/notice"
	"github.com/lexio-mail/lexio/parser"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/invites"
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/templates"
)

// Invitations (LEAGUES §6). NEW with addresses opens a table that seats
// only its invitees; each gets a mail whose reply address is bound to
// them. JOIN through it seats them, DECLINE refuses; invitations lapse
// after invite_ttl. Once no invitation is pending the game starts if two
// or more are seated; with the opener alone the table is deleted (it could
// never start: nobody else may join it). START with two seated withdraws
// the pending invitations.

// maxWaiting bounds the invitations one opener may have waiting for an
// answer at once, across their tables: each is a mail to an address that
// never wrote to us, so NEW must not make the service write to anyone
// without end.
const maxWaiting = 12

// inviteReasons checks NEW's addresses for a table of at most max
// players: every problem is a reason, none when they are fine. The parser
// has read each as one bare address, lowercase, named once; what it
// cannot know is the table's size (lexico seats two), the sender and the
// service's own address, and which spellings are one person
// (store.PersonKey): the sender's own under another, or one invitee
// named twice, each would be a second seat, or invitation, of one mailbox.
func (s *Service) inviteReasons(h *table.Request, addrs []string, max int) []templates.Reason {
	var rs []templates.Reason
	sender := store.PersonKey(h.Msg.From)
	named := make(map[string]bool, len(addrs))
	for _, a := range addrs {
		key := store.PersonKey(a)
		switch {
		case s.ownAddress(a):
			rs = append(rs, templates.Reason{Kind: templates.ReasonBadAddress, Detail: a})
		case key == sender:
			rs = append(rs, templates.Reason{Kind: templates.ReasonSelfInvite})
		case named[key] && !botseat.Is(a):
			rs = append(rs, templates.Reason{Kind: templates.ReasonBadAddress, Detail: a}) // named twice
		}
		named[key] = true
	}
	if len(addrs) > max-1 {
		rs = append(rs, templates.Reason{Kind: templates.ReasonTooManyInvites, Need: max - 1, Have: len(addrs)})
	}
	return rs
}

// waitingReason is the reason to refuse n more invitations from the
// sender, if they would be more than maxWaiting waiting at once.
func (s *Service) waitingReason(h *table.Request, n int) (*templates.Reason, error) {
	have, err := invites.PendingBy(h.Tx, h.Msg.From)
	if err != nil || have+n <= maxWaiting {
		return nil, err
	}
	return &templates.Reason{Kind: templates.ReasonInvitesWaiting, Have: have, Need: maxWaiting}, nil
}

// ownAddress reports whether addr is the service's, with or without a
// token: mail to it would come back to us.
func (s *Service) ownAddress(addr string) bool {
	local, domain, _ := strings.Cut(addr, "@")
	base, _, _ := strings.Cut(local, "+")
	return strings.EqualFold(base, s.local) && strings.EqualFold(domain, s.domain)
}

// invite records the invitations of a table just opened by seat 0 and
// queues each invitee's mail. An invitee new to the service becomes a
// player in the opener's language; one already known is written to in
// their own.
//
// Each invitation is logged for the bounds on invitations (openReasons
// checked them), and its mail counts against the day's mail to
// outsiders. The mail's subject names the table only; its body names the
// opener by their address, checked plain (LEAGUES §6), and the table a
// rematch plays again (rematchOf, "" for NEW).
func (s *Service) invite(h *table.Request, t *table.Table, addrs []string, rematchOf string) (time.Time, error) {
	expires := h.Now.Add(s.Cfg.InviteTTL)
	opener := t.Seats[0].Player.Address
	msg := templates.InvitationMsg{Opener: opener, Variant: t.Row.Variant, Expires: expires, RematchOf: rematchOf}
	// Named with the seated players, so that none reads like another.
	msg.Invited = notice.Names(append(table.SeatAddrs(t.Seats), addrs...))[len(t.Seats):]
	if err := invites.PruneLog(h.Tx, h.Now.Add(-logKept)); err != nil {
		return time.Time{}, err
	}
	for _, a := range addrs {
		pl, err := h.Tx.EnsurePlayer(a, t.Langs[0])
		if err != nil {
			return time.Time{}, err
		}
		inv := &store.Invitation{TableID: t.Row.ID, Address: a, Expires: expires, CreatedAt: h.Now}
		if err := invites.Add(h.Tx, inv); err != nil {
			return time.Time{}, err
		}
		if err := invites.Log(h.Tx, store.LogSent, opener, a, h.Now); err != nil {
			return time.Time{}, err
		}
		to := notice.Recipient{Addr: a, Lang: pl.Lang, TZ: s.Tables.ZoneOf(pl.TimeZone), Pos: -1}
		m := msg
		m.Head = s.Notices.Head(t.Row.Name, to, h.Now)
		if err := s.mailInvitee(h.Tx, s.inviteEnvelope(t, to, a), m, h.Now, h.Out); err != nil {
			return time.Time{}, err
		}
	}
	h.Log.Info("invitations sent", "table", t.Row.Name, "invitees", len(addrs), "expires", expires)
	return expires, nil
}

// inviteEnvelope is a mail about t's invitations; about names the
// invitation, so that two mails of one kind to one recipient have two
// Message-IDs.
func (s *Service) inviteEnvelope(t *table.Table, to notice.Recipient, about string) notice.Envelope {
	return notice.Envelope{Table: t.Row.Name, To: to, TableID: &t.Row.ID, Extra: notice.ShortHash(about)}
}

// invitee is the recipient of a mail to an invited address.
func (s *Service) invitee(tx *store.Tx, addr string) (notice.Recipient, error) {
	pl, err := tx.PlayerByAddress(addr)
	if err != nil {
		return notice.Recipient{}, err
	}
	return notice.Recipient{Addr: pl.Address, Lang: pl.Lang, TZ: s.Tables.ZoneOf(pl.TimeZone), Pos: -1}, nil
}

// lockLoad takes the table's row (invites.LockTable) and reads it again:
// seats and invitations read after it are the last committed.
func (s *Service) lockLoad(tx *store.Tx, id int64) (*table.Table, error) {
	if err := invites.LockTable(tx, id); err != nil {
		return nil, err
	}
	row, err := tx.TableByID(id)
	if err != nil {
		return nil, err
	}
	return s.Tables.LoadRow(tx, row)
}

// inviteNames names a table's seated players and its invitees together
// (notice.Names), so that no two of them read alike in one mail: the seats'
// names in order, and each invitation's, by address.
func inviteNames(seats []store.Seat, invs []store.Invitation) (seated []string, invited map[string]string) {
	addrs := table.SeatAddrs(seats)
	at := make(map[string]int, len(addrs)+len(invs)) // each address once: an invitee who joined has a seat
	for i, a := range addrs {
		at[a] = i
	}
	for _, inv := range invs {
		if _, ok := at[inv.Address]; !ok {
			at[inv.Address] = len(addrs)
			addrs = append(addrs, inv.Address)
		}
	}
	all := notice.Names(addrs)
	invited = make(map[string]string, len(invs))
	for _, inv := range invs {
		invited[inv.Address] = all[at[inv.Address]]
	}
	return all[:len(seats)], invited
}

// pendingNames are the names of the table's invitees still to answer,
// named with the seated players (inviteNames).
func pendingNames(seats []store.Seat, invs []store.Invitation) []string {
	_, named := inviteNames(seats, invs)
	var out []string
	for _, inv := range invs {
		if inv.State == store.InvitePending {
			out = append(out, named[inv.Address])
		}
	}
	return out
}

// Invited handles a message from an invitee who is not seated, sent
// through their invitation's reply address: JOIN (bare, or naming this
// table) accepts, DECLINE refuses; the rest waits for the answer. What is
// about no table (HELP, GAMES, LANG, TZ, NEW) is not handled here
// (handled false): the caller answers it as for anyone, with no table.
func (s *Service) Invited(h *table.Request, t *table.Table, inv *store.Invitation) (handled bool, err error) {
	m := h.Msg
	c := m.Command
	if c == nil {
		if s.BareJoin(h, t.Row.Name) {
			return true, s.answer(h, t, true)
		}
		if answered, err := h.NoCommandOnce(); err != nil || !answered {
			return true, err
		}
		return true, h.Refuse(nil, "", notice.Reasons(m.Err), true)
	}
	switch c.Kind {
	case parser.KindJoin:
		if c.Table == "" || c.Table == t.Row.Name {
			return true, s.answer(h, t, true)
		}
		return true, s.Join(h, c.Table)
	case parser.KindDecline:
		return true, s.answer(h, t, false)
	case parser.KindNoInvite:
		return true, s.NoInvite(h, t, false)
	case parser.KindHelp, parser.KindGames, parser.KindLang, parser.KindZone, parser.KindNew:
		return false, nil
	}
	return true, h.Refuse(nil, c.String(), []templates.Reason{stateReason(inv.State, t.Row.Name)}, false)
}

// stateReason says why an invitation in state cannot be answered now;
// a pending one: its invitee must answer first.
func stateReason(state store.InvitationState, table string) templates.Reason {
	kind := templates.ReasonNotYetSeated
	switch state {
	case store.InviteJoined:
		kind = templates.ReasonAlreadySeated
	case store.InviteDeclined:
		kind = templates.ReasonInviteDeclined
	case store.InviteExpired:
		kind = templates.ReasonInviteExpired
	case store.InviteWithdrawn:
		kind = templates.ReasonInviteWithdrawn
	}
	return templates.Reason{Kind: kind, Detail: table}
}

// BareJoin reports whether the message holds no command but a line that
// is JOIN (in any of its languages) without a table: through an
// invitation's address it names the invitation's table.
func (s *Service) BareJoin(h *table.Request, table string) bool {
	if !errors.Is(h.Msg.Err, parser.ErrNoCommand) {
		return false
	}
	for _, line := range strings.Split(h.Msg.Body, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		if _, err := parser.ParseCommand(line); !errors.Is(err, parser.ErrMissingArgument) {
			continue
		}
		if c, err := parser.ParseCommand(line + " " + table); err == nil && c.Kind == parser.KindJoin && c.Table == table {
			return true
		}
	}
	return false
}

// answer applies an invitee's JOIN (accept) or DECLINE to their
// invitation at t. Invitations that lapsed are expired first: an answer
// after the time is too late, as a move after its deadline (RULES §9.1).
func (s *Service) answer(h *table.Request, t *table.Table, accept bool) error {
	cmd := "DECLINE " + t.Row.Name
	if accept {
		cmd = "JOIN " + t.Row.Name
	}
	name, id := t.Row.Name, t.Row.ID
	h.Rec.TableID = &id
	t, err := s.lockLoad(h.Tx, id)
	if err != nil {
		return err
	}
	if _, err := s.expireInvitations(h.Tx, t, h.Now, h.Out); err != nil {
		return err
	}
	inv, err := invites.Of(h.Tx, id, h.Msg.From)
	if errors.Is(err, store.ErrNotFound) {
		// The table closed: every invitation lapsed, this one with them.
		return h.Refuse(nil, cmd, []templates.Reason{{Kind: templates.ReasonInviteExpired, Detail: name}}, false)
	}
	if err != nil {
		return err
	}
	if inv.State != store.InvitePending {
		r := stateReason(inv.State, name)
		if !accept && inv.State == store.InviteJoined {
			r = templates.Reason{Kind: templates.ReasonNoInvitation, Detail: name}
		}
		return h.Refuse(nil, cmd, []templates.Reason{r}, false)
	}
	if accept {
		return s.acceptInvitation(h, t, inv, cmd)
	}
	return s.declineInvitation(h, t, inv, cmd)
}

func (s *Service) acceptInvitation(h *table.Request, t *table.Table, inv *store.Invitation, cmd string) error {
	pl, err := h.Tx.EnsurePlayer(h.Msg.From, h.SenderLang(nil))
	if err != nil {
		return err
	}
	if err := h.Tx.AddSeat(&store.Seat{TableID: t.Row.ID, Position: len(t.Seats), PlayerID: pl.ID, CreatedAt: h.Now}); err != nil {
		return err
	}
	if err := invites.Answer(h.Tx, inv.ID, store.InviteJoined, h.Now); err != nil {
		return err
	}
	t, err = s.Tables.LoadRow(h.Tx, t.Row)
	if err != nil {
		return err
	}
	invs, err := invites.OfTable(h.Tx, t.Row.ID)
	if err != nil {
		return err
	}
	h.Outcome(table.OutcomeApplied, cmd)
	waiting := pendingNames(t.Seats, invs)
	starts := len(waiting) == 0
	if starts {
		// The seats in the order the game is played (a rematch's turn).
		if t, err = s.rotateSeats(h.Tx, t); err != nil {
			return err
		}
	}
	s.announceJoin(h, t, waiting, starts)
	if !starts {
		return nil
	}
	h.Log.Info("every invitation answered: the game begins", "table", t.Row.Name, "players", len(t.Seats))
	return s.startGame(h.Tx, t, h.Now, h.Out)
}

// announceJoin tells every seated player that the sender sat down;
// waiting are the invitees still to answer, starts that the game begins.
func (s *Service) announceJoin(h *table.Request, t *table.Table, waiting []string, starts bool) {
	joined := t.SeatOf(h.Msg.From)
	for p := range t.Seats {
		msg := templates.JoinedMsg{Head: s.Notices.Head(t.Row.Name, t.Recipient(p), h.Now), Player: table.Names(t.Seats)[joined],
			You: p == joined, Players: table.Names(t.Seats), Max: table.MaxPlayers(t.Row.Variant), Invited: waiting, Starts: starts}
		e := notice.Envelope{Table: t.Row.Name, To: t.Recipient(p), TableID: &t.Row.ID}
		if p == joined {
			e.Reply = h.Rec.MessageID
		}
		h.Out.Add(e, msg)
	}
}

func (s *Service) declineInvitation(h *table.Request, t *table.Table, inv *store.Invitation, cmd string) error {
	pending, err := s.recordDecline(h, t, inv)
	if err != nil {
		return err
	}
	h.Outcome(table.OutcomeApplied, cmd)
	to, err := s.invitee(h.Tx, inv.Address)
	if err != nil {
		return err
	}
	if err := h.ReplyAs(t, to, templates.DeclinedMsg{
		Head: s.Notices.Head(t.Row.Name, to, h.Now), Opener: table.Names(t.Seats)[0]}); err != nil {
		return err
	}
	h.Log.Info("invitation declined", "table", t.Row.Name)
	return s.invitationsDone(h.Tx, t, pending, h.Now, h.Out)
}

// recordDecline declines inv, pending at the open table t: it is logged
// (the opener may not invite its address again for declinedFor), and the
// opener is told. It returns how many invitations are left pending; the
// caller then calls invitationsDone.
func (s *Service) recordDecline(h *table.Request, t *table.Table, inv *store.Invitation) (int, error) {
	if err := invites.Answer(h.Tx, inv.ID, store.InviteDeclined, h.Now); err != nil {
		return 0, err
	}
	if err := invites.Log(h.Tx, store.LogDeclined, t.Seats[0].Player.Address, inv.Address, h.Now); err != nil {
		return 0, err
	}
	invs, err := invites.OfTable(h.Tx, t.Row.ID)
	if err != nil {
		return 0, err
	}
	seated, named := inviteNames(t.Seats, invs)
	msg := templates.InviteAnswerMsg{Declined: named[inv.Address], Waiting: pendingNames(t.Seats, invs), Seated: seated}
	msg.Starts, msg.Closed = len(msg.Waiting) == 0 && len(t.Seats) >= 2, len(msg.Waiting) == 0 && len(t.Seats) < 2
	msg.Head = s.Notices.Head(t.Row.Name, t.Recipient(0), h.Now)
	h.Out.Add(s.inviteEnvelope(t, t.Recipient(0), inv.Address), msg)
	return len(msg.Waiting), nil
}

// invitationsDone starts the game of an open table once no invitation is
// pending, or deletes the table when the opener sits alone.
func (s *Service) invitationsDone(tx *store.Tx, t *table.Table, pending int, now time.Time, out *notice.Batch) error {
	if pending > 0 || t.Game != nil || t.Row.Status != store.StatusOpen {
		return nil
	}
	if len(t.Seats) >= 2 {
		s.Log.Info("every invitation answered: the game begins", "table", t.Row.Name, "players", len(t.Seats))
		return s.startGame(tx, t, now, out)
	}
	s.Log.Info("every invitation answered, nobody seated but the opener: the table is closed", "table", t.Row.Name)
	return invites.DeleteOpenTable(tx, t.Row.ID)
}

// expireInvitations expires the pending invitations of t that lapsed by
// now, tells the opener in one mail, and starts or closes the table if
// none is left pending. It reports whether any expired.
func (s *Service) expireInvitations(tx *store.Tx, t *table.Table, now time.Time, out *notice.Batch) (bool, error) {
	invs, err := invites.OfTable(tx, t.Row.ID)
	if err != nil {
		return false, err
	}
	var msg templates.InviteAnswerMsg
	var addrs []string
	for _, inv := range invs {
		if inv.State != store.InvitePending || inv.Expires.After(now) {
			continue
		}
		if err := invites.Answer(tx, inv.ID, store.InviteExpired, inv.Expires); err != nil {
			return false, err
		}
		msg.Expired = append(msg.Expired, inv.Address)
		addrs = append(addrs, inv.Address)
		if inv.Expires.After(msg.At) {
			msg.At = inv.Expires
		}
	}
	if len(addrs) == 0 {
		return false, nil
	}
	if invs, err = invites.OfTable(tx, t.Row.ID); err != nil {
		return false, err
	}
	seated, named := inviteNames(t.Seats, invs)
	for i, a := range msg.Expired {
		msg.Expired[i] = named[a]
	}
	msg.Waiting, msg.Seated = pendingNames(t.Seats, invs), seated
	open := t.Game == nil && t.Row.Status == store.StatusOpen
	msg.Starts = open && len(msg.Waiting) == 0 && len(t.Seats) >= 2
	msg.Closed = open && len(msg.Waiting) == 0 && len(t.Seats) < 2
	msg.Head = s.Notices.Head(t.Row.Name, t.Recipient(0), now)
	out.Add(s.inviteEnvelope(t, t.Recipient(0), "expired "+strings.Join(addrs, " ")), msg)
	s.Log.Info("invitations expired", "table", t.Row.Name, "expired", len(addrs), "at", msg.At)
	return true, s.invitationsDone(tx, t, len(msg.Waiting), now, out)
}

// withdrawInvitations withdraws the pending invitations of t when its
// opener starts the game, and tells each invitee; one that had lapsed
// is only marked expired.
func (s *Service) withdrawInvitations(tx *store.Tx, t *table.Table, now time.Time, out *notice.Batch) error {
	invs, err := invites.OfTable(tx, t.Row.ID)
	if err != nil {
		return err
	}
	for _, inv := range invs {
		if inv.State != store.InvitePending {
			continue
		}
		if !inv.Expires.After(now) {
			if err := invites.Answer(tx, inv.ID, store.InviteExpired, inv.Expires); err != nil {
				return err
			}
			continue
		}
		if err := invites.Answer(tx, inv.ID, store.InviteWithdrawn, now); err != nil {
			return err
		}
		to, err := s.invitee(tx, inv.Address)
		if err != nil {
			return err
		}
		msg := templates.WithdrawnMsg{Head: s.Notices.Head(t.Row.Name, to, now), Opener: table.Names(t.Seats)[0]}
		if err := s.mailInvitee(tx, s.inviteEnvelope(t, to, inv.Address), msg, now, out); err != nil {
			return err
		}
	}
	return nil
}

// Decline answers DECLINE that came through no invitation: the one
// pending invitation of the sender (or the one at the table it names) is
// declined; with none, or several, the sender is told.
func (s *Service) Decline(h *table.Request, t *table.Table, table string) error {
	if t != nil {
		// Seated at the table of the token: nothing there to decline.
		return h.Refuse(t, "DECLINE", []templates.Reason{{Kind: templates.ReasonNoInvitation, Detail: t.Row.Name}}, false)
	}
	pending, err := invites.PendingOf(h.Tx, h.Msg.From)
	if err != nil {
		return err
	}
	if table != "" {
		pending = slices.DeleteFunc(pending, func(inv store.Invitation) bool { return inv.Table.Name != table })
	}
	switch len(pending) {
	case 0:
		return h.Refuse(nil, "DECLINE", []templates.Reason{{Kind: templates.ReasonNoInvitation, Detail: table}}, false)
	case 1:
		c, err := s.Tables.LoadRow(h.Tx, pending[0].Table)
		if err != nil {
			return err
		}
		return s.answer(h, c, false)
	}
	var tables []string
	for _, inv := range pending {
		tables = append(tables, inv.Table.Name)
	}
	return h.Refuse(nil, "DECLINE", []templates.Reason{{Kind: templates.ReasonSeveralInvites, Detail: strings.Join(tables, ", ")}}, false)
}

// ExpireInvitations expires, table by table in a transaction each,
// the invitations that lapsed by now, earliest first: after downtime one
// tick catches up. A table that meets a conflict is handled again, up to
// store.MaxAttempts times, then left for the next tick, as in notice.Writer.EachDue. Then the
// open tables without invitations that were not started in time lapse
// (lapseOpenTables).
func (s *Service) ExpireInvitations(ctx context.Context, now time.Time) (int, error) {
	n, err := s.expireInvitationsOnce(ctx, now)
	if err != nil {
		return n, err
	}
	lapsed, err := s.lapseOpenTables(ctx, now)
	return n + lapsed, err
}

func (s *Service) expireInvitationsOnce(ctx context.Context, now time.Time) (int, error) {
	return s.Notices.EachDue(ctx, s.Store, now, "invitation expiry",
		func(tx *store.Tx, limit int) ([]int64, error) { return invites.DueTables(tx, now, limit) },
		func(tx *store.Tx, id int64, out *notice.Batch) error {
			t, err := s.lockLoad(tx, id)
			if err != nil {
				return err
			}
			_, err = s.expireInvitations(tx, t, now, out)
			return err
		})
}

// inviteOnly reports whether t seats only its invitees.
func inviteOnly(tx *store.Tx, t *table.Table) (bool, error) {
	invs, err := invites.OfTable(tx, t.Row.ID)
	return len(invs) > 0, err
}
