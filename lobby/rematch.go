package lobby

import (
	"errors"
	"slices"
	"time"

	"github.com/lexio-mail/lexio/internal/botseat"
	"github.com/lexio-mail/lexio/notice"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/invites"
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/templates"
)

// Rematches (LEAGUES §6.2). REMATCH t42, from a player of the ended game
// at t42, opens a new table under t42's rules with the sender seated and
// the computer's seats taken at once; the other players are invited as
// by NEW (their own reply address, the bounds of §6.1), except those who
// refuse invitations, whom the opener is told of. The new table records
// what it plays again (store.Table.RematchOf, unique): a second REMATCH
// of t42, by anyone, is answered with its name. A league table's rematch
// is a friendly game: it belongs to no season. When the game begins, the
// seats take t42's order moved on by one (t42's second seat first, its
// first last), so that someone else opens.

// Rematch answers REMATCH name, which came through table via (nil: the
// plain address, confirmed); without a name, via's game (#34), and at
// the plain address none.
func (s *Service) Rematch(h *table.Request, via *table.Table, name string) error {
	from, err := h.ReplyTable(via)
	if err != nil {
		return err
	}
	if !s.Cfg.Open.Allow {
		return h.Refuse(from, "REMATCH"+withName(name), []templates.Reason{{Kind: templates.ReasonNoOpening}}, true)
	}
	if name == "" {
		if via == nil {
			return h.RefuseWhichTable("REMATCH")
		}
		name = via.Row.Name
	}
	cmd := "REMATCH " + name
	old, err := h.Load(name)
	if errors.Is(err, store.ErrNotFound) {
		// As for NOTIFY: whether a table exists is no stranger's business.
		return h.RefuseAlike(from, cmd, templates.ReasonNotAtTable, name, templates.ReasonNoSuchTable)
	}
	if err != nil {
		return err
	}
	if old.SeatOf(h.Msg.From) < 0 {
		return h.RefuseAlike(from, cmd, templates.ReasonNotAtTable, name, templates.ReasonNotAPlayer)
	}
	h.Rec.TableID = &old.Row.ID // until the new table is opened
	if old.Row.Status != store.StatusOver {
		return h.Refuse(old, cmd, []templates.Reason{{Kind: templates.ReasonStillRunning, Detail: name}}, false)
	}
	if again, err := invites.RematchOf(h.Tx, old.Row.ID); err == nil {
		return h.Refuse(from, cmd, []templates.Reason{{Kind: templates.ReasonRematchExists, Detail: again.Name}}, false)
	} else if !errors.Is(err, store.ErrNotFound) {
		return err
	}

	// The others, in t42's order: the computer sits down at once, the
	// rest are invited unless they refuse invitations.
	names := table.Names(old.Seats)
	var bots, invite, left []string
	var refused []templates.Reason
	for i, st := range old.Seats {
		a := st.Player.Address
		switch {
		case a == h.Msg.From:
		case botseat.Is(a):
			bots = append(bots, a)
		default:
			refuses, err := invites.Refuses(h.Tx, a)
			if err != nil {
				return err
			}
			if !refuses {
				invite = append(invite, a)
				continue
			}
			left = append(left, names[i])
			refused = append(refused, templates.Reason{Kind: templates.ReasonRefusesInvite, Detail: names[i]})
		}
	}
	if len(bots) > 0 && !s.Tables.CanPlay() {
		return store.Permanent(errors.New("lobby: REMATCH with the computer: this service has no GADDAG of its dictionary"))
	}
	if len(bots)+len(invite) == 0 {
		// Nobody left to play with.
		return h.Refuse(from, cmd, refused, false)
	}
	rs, err := s.openReasons(h, append(slices.Clone(bots), invite...), invite, table.MaxPlayers(old.Row.Variant))
	if err != nil {
		return err
	}
	if len(rs) > 0 {
		return h.Refuse(from, cmd, rs, false)
	}

	// Named as NEW's tables are.
	newName, err := shortName(h.Tx, h.Rec.MessageID)
	if err != nil {
		return err
	}
	row := rematchRow(newName, old.Row)
	if err := h.Tx.CreateTable(row); err != nil {
		if !errors.Is(err, store.ErrDuplicate) {
			return err
		}
		// Another REMATCH of the same table came first.
		again, err2 := invites.RematchOf(h.Tx, old.Row.ID)
		if err2 != nil {
			return err
		}
		return h.Refuse(from, cmd, []templates.Reason{{Kind: templates.ReasonRematchExists, Detail: again.Name}}, false)
	}
	for i, a := range append([]string{h.Msg.From}, bots...) {
		pl, err := h.Tx.EnsurePlayer(a, h.SenderLang(old))
		if err != nil {
			return err
		}
		if err := h.Tx.AddSeat(&store.Seat{TableID: row.ID, Position: i, PlayerID: pl.ID, CreatedAt: h.Now}); err != nil {
			return err
		}
	}
	t, err := s.Tables.LoadRow(h.Tx, row)
	if err != nil {
		return err
	}
	h.Rec.TableID = &row.ID
	h.Outcome(table.OutcomeApplied, cmd+" "+newName)
	h.Log.Info("rematch opened", "table", newName, "of", name, "invited", len(invite), "bots", len(bots), "not_invited", len(left))
	msg := templates.OpenedMsg{Head: s.Notices.Head(newName, t.Recipient(0), h.Now), Variant: row.Variant, MinPlayers: 2,
		MaxPlayers: table.MaxPlayers(row.Variant), RematchOf: name, NotInvited: left}
	if len(invite) == 0 {
		// Only the computer to wait for: the game begins, its first
		// notice the answer; the opener still hears who was left out.
		if len(left) > 0 {
			if err := h.Reply(t, msg); err != nil {
				return err
			}
		}
		return s.startGame(h.Tx, t, h.Now, h.Out)
	}
	if msg.Expires, err = s.invite(h, t, invite, name); err != nil {
		return err
	}
	msg.Invited = notice.Names(append(table.SeatAddrs(t.Seats), invite...))[len(t.Seats):]
	return h.Reply(t, msg)
}

// rematchRow is a new open table that plays old again: old's league,
// variant and time rules, as old was made with them (the configuration
// may have changed since).
func rematchRow(name string, old *store.Table) *store.Table {
	return &store.Table{
		Name: name, League: old.League, Variant: old.Variant, Multipliers: old.Multipliers,
		TurnTime: old.TurnTime, Reminders: slices.Clone(old.Reminders), AwayGrace: old.AwayGrace,
		ReserveSize: old.ReserveSize, ReserveRefill: old.ReserveRefill, ForfeitAfter: old.ForfeitAfter,
		TimeBank: old.TimeBank, BankPerMove: old.BankPerMove, IgnoreVacations: old.IgnoreVacations,
		Status: store.StatusOpen, RematchOf: &old.ID,
	}
}

// startGame begins the game of the open table t. A rematch's seats first
// take the order of the table it plays again moved on by one, those who
// did not come left out; seats of players who were not there (none
// should be) keep their order, after them.
func (s *Service) startGame(tx *store.Tx, t *table.Table, now time.Time, out *notice.Batch) error {
	t, err := s.rotateSeats(tx, t)
	if err != nil {
		return err
	}
	return s.Tables.StartGame(tx, t, 0, now, out)
}

// rotateSeats puts a rematch's seats in their order (startGame) and
// returns t as read again; any other table as it is.
func (s *Service) rotateSeats(tx *store.Tx, t *table.Table) (*table.Table, error) {
	if t.Row.RematchOf == nil {
		return t, nil
	}
	old, err := tx.Seats(*t.Row.RematchOf)
	if err != nil {
		return nil, err
	}
	rank := make(map[int64]int, len(old))
	for i, st := range old {
		rank[st.PlayerID] = (i + len(old) - 1) % len(old)
	}
	ids := make([]int64, len(t.Seats))
	for i, st := range t.Seats {
		ids[i] = st.PlayerID
	}
	order := slices.Clone(ids)
	slices.SortStableFunc(order, func(a, b int64) int {
		ra, oka := rank[a]
		rb, okb := rank[b]
		switch {
		case oka && okb:
			return ra - rb
		case oka:
			return -1
		case okb:
			return 1
		}
		return 0
	})
	if slices.Equal(order, ids) {
		return t, nil
	}
	if err := invites.ReorderSeats(tx, t.Row.ID, order); err != nil {
		return nil, err
	}
	return s.Tables.LoadRow(tx, t.Row)
}

// withName is " t42" for table t42, "" for none.
func withName(name string) string {
	if name == "" {
		return ""
	}
	return " " + name
}
