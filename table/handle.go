package table

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/mailer"
	"github.com/lexio-mail/lexio/notice"
	"github.com/lexio-mail/lexio/parser"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/templates"
)

// Request is one inbound message inside its transaction: what the code
// that answers a command reads (the message, the time, the transaction)
// and writes (the message's record, the mail it causes).
type Request struct {
	s    *Service
	Tx   *store.Tx
	Msg  *parser.Message
	Rec  *store.Message
	Now  time.Time
	Log  *slog.Logger
	size int64
	Out  *notice.Batch
	// moved: the sender was away and wrote, which moved their deadline
	// if the turn is theirs (RULES §9.2): their answers carry it.
	moved bool
	// Proven: the sender showed that they read the From address's mail
	// (EMAIL §1.7): a reply token of theirs, require_auth's verdict, or
	// an answered confirmation. Without it nothing changes state, and
	// answers are bounded by the day.
	Proven bool
}

// Table is a table loaded in a transaction.
type Table struct {
	Row     *store.Table
	Seats   []store.Seat
	Game    *engine.Game // nil until the game starts
	prevSeq int64
	Langs   []string
	Zones   []*time.Location // each seat's time zone
	// vacs are each seat's vacations (LEAGUES §3.2), by start; none
	// where the table's league ignores vacations.
	vacs [][]store.Vacation
	// ended says that the game's end is recorded (Service.ended), or was
	// when the table was read.
	ended bool
}

// recipient is seat p as a mail recipient.
func (t *Table) Recipient(p int) notice.Recipient {
	return notice.Recipient{Addr: t.Seats[p].Player.Address, Lang: t.Langs[p], TZ: t.Zones[p], Pos: p,
		ID: t.Seats[p].PlayerID, League: t.Row.League}
}

// seatOf returns the seat of addr, or -1.
func (t *Table) SeatOf(addr string) int {
	for i, st := range t.Seats {
		if st.Player.Address == addr {
			return i
		}
	}
	return -1
}

func (h *Request) Outcome(o store.Outcome, reason string) {
	h.Rec.Outcome, h.Rec.Reason = o, reason
}

// run decides what the message does and fills h.Out.
func (h *Request) run() error {
	m := h.Msg
	switch {
	case m.Ignored != "":
		// EMAIL §2.3: never answered, to prevent mail loops.
		h.Outcome(store.OutcomeIgnored, m.Ignored)
		return nil
	case errors.Is(m.Err, parser.ErrAmbiguousFrom):
		// Two From fields, a list or a group: the sender may be forged
		// or hide behind another address. Neither played nor answered.
		h.Log.Warn("ambiguous From: not played, not answered", "error", m.Err)
		var pe *parser.Error
		errors.As(m.Err, &pe)
		h.Outcome(store.OutcomeRejected, "ambiguous-from: "+pe.Detail)
		return nil
	case m.From == "":
		h.Outcome(store.OutcomeIgnored, "no sender to answer: "+errText(m.Err))
		return nil
	}
	if h.s.cfg.Mail.RequireAuth && !authenticated(m.AuthResults, h.s.cfg.Mail.AuthServID, m.From) {
		// EMAIL §1.3: the From may be forged; answering it could reach a
		// victim, so the message is only logged.
		h.Log.Warn("sender not authenticated", "auth_results", strings.Join(m.AuthResults, " | "))
		h.Outcome(store.OutcomeRejected, string(templates.ReasonNotAuth))
		return nil
	}
	h.Proven = h.s.cfg.Mail.RequireAuth

	if mailer.IsConfirm(m.Token) {
		if done, err := h.confirmed(); done || err != nil {
			return err
		}
		m = h.Msg
	}
	if mailer.IsUnsubscribe(m.Token) {
		// LEAGUES §5.2: written to with any body, or none.
		if mailer.IsNoInvite(m.Token) {
			// An invitation's: no more invitations (LEAGUES §6).
			return h.noInviteAddress()
		}
		return h.s.prefs.Unsubscribe(h)
	}
	var t *Table
	if m.Token != "" {
		name, ok := h.s.tokens.Verify(m.Token, m.From)
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
			inv, err := h.Tx.InvitationOf(t.Row.ID, m.From)
			if err == nil {
				return h.invited(t, inv)
			}
			if !errors.Is(err, store.ErrNotFound) {
				return err
			}
			h.Log.Warn("valid token from a player without a seat")
			h.Outcome(store.OutcomeRejected, string(templates.ReasonNotAPlayer))
			return nil
		}
		// A season that ended before the tick came is closed first: a
		// move after it is too late (LEAGUES §7.3).
		if ended, err := h.s.seasons.EndDue(h.Tx, t, h.Now, h.Out); err != nil {
			return err
		} else if ended {
			if t, err = h.Load(name); err != nil {
				return err
			}
		}
		// Deadlines that passed are enforced before the message is read:
		// a move that comes after its turn expired is too late (RULES §9.1).
		if err := h.s.enforce(h.Tx, t, h.Now, h.Now, h.Out); err != nil {
			return err
		}
	}

	if m.Err != nil {
		if t != nil && h.bareJoin(t.Row.Name) {
			// JOIN alone through a table's address means that table.
			return h.join(t.Row.Name)
		}
		if answered, err := h.noCommandOnce(); err != nil || !answered {
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
	c := m.Command
	if !h.Proven && changesState(c.Kind) {
		return h.askConfirmation(c)
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
		return h.noInvite(t, false)
	case parser.KindHelp:
		return h.help(t, c.Topic)
	case parser.KindGames:
		return h.games(t)
	case parser.KindLang:
		return h.s.prefs.Lang(h, t, c.Lang)
	case parser.KindZone:
		return h.s.prefs.Zone(h, t, c.Zone)
	case parser.KindVacation:
		return h.s.prefs.Vacation(h, t, c.Vacation)
	case parser.KindNew:
		return h.newTable(c)
	case parser.KindDecline:
		return h.decline(t, c.Table)
	case parser.KindJoin:
		return h.join(c.Table)
	case parser.KindStart:
		return h.start(t)
	case parser.KindResign:
		return h.resign(t, c.Table)
	case parser.KindNotify:
		return h.s.prefs.Notify(h, t, c.Notify, c.Table)
	case parser.KindSay:
		return h.say(t, c.Text)
	case parser.KindStandings:
		return h.s.seasons.AnswerStandings(h, t, c.League)
	case parser.KindSignup, parser.KindWithdraw:
		return h.s.seasons.Signup(h, t, c.League, c.Kind == parser.KindWithdraw)
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
	return h.tableCommand(t, c)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// badToken answers a token that does not match its sender. Only a player
// or an invitee of the table the token names is told (a forged From must not make us
// write to a stranger); everything is logged.
func (h *Request) BadToken() error {
	// The token names its table before its last '-' (mailer.Tokens),
	// after the prefix of an unsubscribe address.
	name := ""
	if i := strings.LastIndexByte(h.Msg.Token, '-'); i > 0 {
		name = strings.TrimPrefix(strings.ToLower(h.Msg.Token[:i]), mailer.UnsubscribePrefix)
	}
	h.Log.Warn("forged or damaged reply token", "token_table", name)
	h.Outcome(store.OutcomeRejected, string(templates.ReasonBadToken))
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
		if _, err := h.Tx.InvitationOf(t.Row.ID, h.Msg.From); err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return nil
			}
			return err
		}
		t = nil
	}
	return h.Refuse(t, h.Msg.Command.String(), []templates.Reason{{Kind: templates.ReasonBadToken}}, true)
}

// senderLang is the language to answer the sender in.
func (h *Request) SenderLang(t *Table) string {
	if t != nil {
		if p := t.SeatOf(h.Msg.From); p >= 0 {
			return t.Langs[p]
		}
	}
	if p, err := h.Tx.PlayerByAddress(h.Msg.From); err == nil {
		return p.Lang
	}
	if h.Msg.Lang != "" {
		return h.Msg.Lang
	}
	return h.s.cfg.Language
}

// senderZone is the time zone of the times in an answer to the sender.
func (h *Request) senderZone(t *Table) *time.Location {
	if t != nil {
		if p := t.SeatOf(h.Msg.From); p >= 0 {
			return t.Zones[p]
		}
	}
	if p, err := h.Tx.PlayerByAddress(h.Msg.From); err == nil {
		return h.s.ZoneOf(p.TimeZone)
	}
	return h.s.zone
}

// noCommandOnce lets one message without a command be answered per
// sender and hour; it reports whether this one may be. An auto-responder
// that answers our mail with prose (or our own text, which holds no
// command) gets one "no command found" and then nothing, so the exchange
// stops; a person who wrote no command is told once, and HELP always
// answers.
func (h *Request) noCommandOnce() (bool, error) {
	var pe *parser.Error
	if !errors.As(h.Msg.Err, &pe) || pe.Kind != parser.NoCommand {
		return true, nil
	}
	ok, err := h.Tx.TakeRate("no-command:"+h.Msg.From, 1, time.Hour, h.Now)
	if err != nil || ok {
		return ok, err
	}
	h.Outcome(store.OutcomeRejected, string(templates.ReasonNoCommand))
	h.Log.Info("no command, not answered: one message without a command was answered this hour")
	return false, nil
}

// replyTable is the table a reply about no particular table (GAMES,
// LANG, HELP) is sent from, so that it carries the sender's reply address
// for it and a move written in answer is played: the table the message
// came through, else the one table the sender sits at that is not over;
// nil when there are several (a move must never go to a guessed table).
func (h *Request) ReplyTable(t *Table) (*Table, error) {
	if t != nil {
		return t, nil
	}
	rows, err := h.Tx.TablesOfPlayer(h.Msg.From)
	if err != nil {
		return nil, err
	}
	var only *store.Table
	for i := range rows {
		if rows[i].Status == store.StatusOver {
			continue
		}
		if only != nil {
			return nil, nil
		}
		only = &rows[i]
	}
	if only == nil {
		return nil, nil
	}
	return h.s.LoadRow(h.Tx, only)
}

// sender is the author of the message as a recipient.
func (h *Request) Sender(t *Table) notice.Recipient {
	r := notice.Recipient{Addr: h.Msg.From, Lang: h.SenderLang(t), TZ: h.senderZone(t), Pos: -1}
	if t != nil {
		r.Pos = t.SeatOf(h.Msg.From)
		if r.Pos >= 0 {
			r.ID, r.League = t.Seats[r.Pos].PlayerID, t.Row.League
		}
	}
	return r
}

// reply queues an answer to the message's author, within the bound on
// answers per sender and hour (EMAIL §2.6).
func (h *Request) Reply(t *Table, kind templates.Kind, data any) error {
	return h.ReplyAs(t, h.Sender(t), kind, data)
}

// replyAs is reply to the author as the recipient to.
func (h *Request) ReplyAs(t *Table, to notice.Recipient, kind templates.Kind, data any) error {
	ok, err := h.withinBound(t, to)
	if err != nil || !ok {
		return err
	}
	h.queue(t, to, kind, data)
	return nil
}

// queue queues a mail to the author without counting it against the
// bound: the mails of a turn (the separate acceptance).
func (h *Request) queue(t *Table, to notice.Recipient, kind templates.Kind, data any) {
	e := notice.Envelope{Kind: kind, To: to, Reply: h.Rec.MessageID}
	if t != nil {
		e.Table, e.Seq, e.TableID = t.Row.Name, int64(len(t.Actions())), &t.Row.ID
		e.Cal = h.s.calendarEvent(t, kind, to.Pos, h.moved, h.Now)
	}
	h.Out.Add(e, data)
}

// withinBound counts one answer to the author against
// mail.replies_per_hour (and, to an address that never played here,
// against mail.outsider_mails_per_day; to unproven mail, against the
// day's bounds of withinUnprovenBound) and reports whether it may go. The first answer
// over the bound is replaced by one short notice saying until when
// replies are paused; after it nothing goes until the hour's window
// closes. Commands are still applied meanwhile.
func (h *Request) withinBound(t *Table, to notice.Recipient) (bool, error) {
	if !h.Proven {
		if ok, err := h.withinUnprovenBound(to.Addr); err != nil || !ok {
			return false, err
		}
	}
	if ok, err := h.s.mayMailOutsider(h.Tx, to.Addr, h.Now); err != nil || !ok {
		if err == nil {
			h.Log.Info("the day's mail to outsiders is spent: not answered")
		}
		return false, err
	}
	key, limit := "answers:"+h.Msg.From, h.s.cfg.Mail.Replies
	ok, err := h.Tx.TakeRate(key, limit+1, time.Hour, h.Now)
	if err != nil {
		return false, err
	}
	if !ok {
		h.Log.Info("reply bound reached: not answered")
		return false, nil
	}
	start, hits, err := h.Tx.RateWindow(key, time.Hour, h.Now)
	if err != nil || hits <= limit {
		return err == nil, err
	}
	until := start.Add(time.Hour)
	h.Log.Info("reply bound reached: replies paused", "until", until)
	h.queue(t, to, templates.RepliesPaused, templates.PausedMsg{Head: h.s.notices.Head(TableName(t), to, h.Now), Limit: limit, Until: until})
	return false, nil
}

// refuse answers a command with every reason it was refused. limited
// replies (about unreadable input or identity) are also bounded by
// mail.error_replies_per_hour; every refusal, like every answer, counts
// against mail.replies_per_hour (EMAIL §2.6).
func (h *Request) Refuse(t *Table, command string, rs []templates.Reason, limited bool) error {
	kinds := make([]string, len(rs))
	for i, r := range rs {
		kinds[i] = string(r.Kind)
	}
	h.Outcome(store.OutcomeRejected, strings.Join(kinds, ","))
	if limited {
		ok, err := h.Tx.TakeRate("reply:"+h.Msg.From, h.s.cfg.Mail.ErrorReplies, time.Hour, h.Now)
		if err != nil {
			return err
		}
		if !ok {
			h.Log.Info("error reply rate-limited")
			return nil
		}
	}
	to := h.Sender(t)
	msg := templates.RejectedMsg{Head: h.s.notices.Head(TableName(t), to, h.Now), Command: command, Reasons: rs}
	if len(rs) == 1 && rs[0].Kind == templates.ReasonTooLarge {
		return h.Reply(t, templates.TooLarge, templates.TooLargeMsg{
			Head: msg.Head, Size: h.size, Limit: h.s.cfg.Mail.MaxMessageBytes})
	}
	if t != nil && t.Game != nil && to.Pos >= 0 {
		v, err := t.Game.View(to.Pos, h.Now)
		if err != nil {
			return notice.Permanent(err)
		}
		msg.Rack = notice.RackData(v.Rack)
		// The reserve matters to a placement (RULES §6.2), and only there.
		if c := h.Msg.Command; c != nil && c.Kind == parser.KindPlace {
			msg.Probe = &templates.Probe{Left: v.Reserve, Max: t.Row.ReserveSize, Next: v.NextAttempt}
		}
	}
	return h.Reply(t, templates.Rejected, msg)
}

func TableName(t *Table) string {
	if t == nil {
		return ""
	}
	return t.Row.Name
}

// load reads a table, its seats and its game.
func (h *Request) Load(name string) (*Table, error) {
	return h.s.Load(h.Tx, name)
}

func (s *Service) Load(tx *store.Tx, name string) (*Table, error) {
	row, err := tx.TableByName(name)
	if err != nil {
		return nil, err
	}
	return s.LoadRow(tx, row)
}

func (s *Service) LoadRow(tx *store.Tx, row *store.Table) (*Table, error) {
	seats, err := tx.Seats(row.ID)
	if err != nil {
		return nil, err
	}
	t := &Table{Row: row, Seats: seats, prevSeq: row.Seq, ended: row.Status == store.StatusOver, Langs: make([]string, len(seats)),
		Zones: make([]*time.Location, len(seats))}
	for i, st := range seats {
		t.Langs[i] = st.Player.Lang
		t.Zones[i] = s.ZoneOf(st.Player.TimeZone)
	}
	if err := t.loadVacations(tx); err != nil {
		return nil, err
	}
	if t.Game, err = s.rebuild(tx, t); err != nil {
		return nil, err
	}
	return t, nil
}

// gameConfig is the engine's configuration of a table's game: the rules,
// seed and start its row holds, a player per seat.
func gameConfig(row *store.Table, players int) engine.Config {
	cfg := engine.Config{
		Rules:   engine.Rules{Variant: engine.Variant(row.Variant), Plain: !row.Multipliers},
		Players: players, Seed: uint64(row.Seed),
		ReserveSize: row.ReserveSize, ReserveRefill: row.ReserveRefill,
	}
	if row.StartedAt != nil {
		cfg.Start = *row.StartedAt
	}
	return cfg
}

// rebuild replays a table's log on a new game (nil before the start) and
// checks what the row keeps of the game against it: the last action's
// seq, open, playing or over, the turn's start and deadline. A row and a
// log that disagree are a permanent error naming the table: neither is
// believed over the other.
func (s *Service) rebuild(tx *store.Tx, t *Table) (*engine.Game, error) {
	row := t.Row
	mismatch := func(format string, args ...any) error {
		return notice.Permanent(fmt.Errorf("table %s: the row and the log disagree: "+format, append([]any{row.Name}, args...)...))
	}
	log, err := tx.Actions(row.ID)
	if err != nil {
		return nil, err
	}
	if row.StartedAt == nil {
		if row.Status != store.StatusOpen || row.Seq != 0 || len(log) != 0 {
			return nil, mismatch("status %s, seq %d, %d actions, and no start", row.Status, row.Seq, len(log))
		}
		return nil, nil
	}
	acts := make([]engine.Action, len(log))
	for i, a := range log {
		if err := json.Unmarshal([]byte(a.Payload), &acts[i]); err != nil {
			return nil, notice.Permanent(fmt.Errorf("table %s: action %d: %w", row.Name, a.Seq, err))
		}
		if a.Seq != int64(i+1) || a.Kind != string(acts[i].Kind) {
			return nil, mismatch("action %d of the log is numbered %d, kind %s (payload %s)", i+1, a.Seq, a.Kind, acts[i].Kind)
		}
	}
	g, err := engine.Rebuild(gameConfig(row, len(t.Seats)), acts)
	if err != nil {
		return nil, notice.Permanent(fmt.Errorf("table %s: %w", row.Name, err))
	}
	// What the row should hold, by the game.
	want := *row
	s.schedule(&Table{Row: &want, Seats: t.Seats, Game: g, vacs: t.vacs}, time.Time{})
	switch {
	case row.Seq != int64(len(acts)):
		return nil, mismatch("the row's last action is %d, the log's %d", row.Seq, len(acts))
	case row.Status != want.Status:
		return nil, mismatch("the row says %s, the game is %s", row.Status, want.Status)
	case !sameTime(row.TurnStarted, want.TurnStarted):
		return nil, mismatch("the row's turn began %s, the game's %s", timeText(row.TurnStarted), timeText(want.TurnStarted))
	case !sameTime(row.Deadline, want.Deadline):
		return nil, mismatch("the row's deadline is %s, the game's %s", timeText(row.Deadline), timeText(want.Deadline))
	}
	return g, nil
}

// sameTime compares two stored times to the microsecond, PostgreSQL's
// precision.
func sameTime(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Sub(*b).Abs() < time.Microsecond
}

func timeText(t *time.Time) string {
	if t == nil {
		return "none"
	}
	return t.UTC().Format(time.RFC3339Nano)
}

func (t *Table) Actions() []engine.Action {
	if t.Game == nil {
		return nil
	}
	return t.Game.Actions()
}

// settle sets what the table row derives from the game: the number of
// actions (which the mails' Message-IDs name) and the turn's deadline and
// next reminder. save does it too; a move calls it first so that its mails
// can render while save writes.
func (s *Service) settle(t *Table, now time.Time) {
	t.Row.Seq = int64(len(t.Game.Actions()))
	s.schedule(t, now)
}

// save appends the game's new actions to the log and writes the table
// with its next deadline (optimistic locking on the last action's seq).
func (s *Service) Save(tx *store.Tx, t *Table, now time.Time) error {
	acts := t.Actions()
	for i := t.prevSeq; i < int64(len(acts)); i++ {
		a := acts[i]
		payload, err := json.Marshal(a)
		if err != nil {
			return notice.Permanent(err)
		}
		if _, err := tx.AppendAction(t.Row.ID, i+1, string(a.Kind), string(payload), a.At); err != nil {
			return err
		}
	}
	if t.Game != nil {
		s.settle(t, now)
	}
	if err := tx.SaveTable(t.Row, t.prevSeq); err != nil {
		return err
	}
	t.prevSeq = t.Row.Seq
	if t.Row.Status == store.StatusOver {
		return s.ended(tx, t, now)
	}
	return nil
}

// ended records the end of t's game in its season, once, in the
// transaction of its last action (Seasons.Ended).
func (s *Service) ended(tx *store.Tx, t *Table, now time.Time) error {
	if t.ended || t.Game == nil || !t.Game.Over() {
		return nil
	}
	t.ended = true
	return s.seasons.Ended(tx, t, now)
}
