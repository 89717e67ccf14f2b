package table

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/engine/board"
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
	// front is the mail front door the message came through.
	front Front
	// withAnswer are bounds that the next answer to go counts against
	// too (CountWithAnswer).
	withAnswer []store.Rate
	// Proven: the sender showed that they read the From address's mail
	// (EMAIL §1.7): a reply token of theirs, require_auth's verdict, or
	// an answered confirmation. Without it nothing changes state, and
	// answers are bounded by the day.
	Proven bool
}

// Front is what a Request needs of the mail front door (package inbox),
// which gives it: the bounds on the answers to a message (EMAIL §2.6) and
// the answer to a reply token that does not match its sender.
type Front interface {
	// WithinBound counts one answer to h's author, as to, about t (nil
	// for none), against the answers' bounds and also, and reports
	// whether it may go: it counts against all of them or, when one
	// refuses, none. Past the bound it may queue one notice saying so
	// (Request.Queue).
	WithinBound(h *Request, t *Table, to notice.Recipient, also ...store.Rate) (bool, error)
	// NoCommandOnce reports whether h may be answered, if it holds no
	// command (once per sender and hour).
	NoCommandOnce(h *Request) (bool, error)
	// BadToken answers h, whose token does not match its sender.
	BadToken(h *Request) error
}

// NewRequest is message m inside transaction tx, handled at now: rec is
// its record, out the mail it causes, size its size in bytes, f the front
// door it came through.
func (s *Service) NewRequest(tx *store.Tx, m *parser.Message, rec *store.Message, now time.Time, log *slog.Logger, size int64, out *notice.Batch, f Front) *Request {
	return &Request{s: s, Tx: tx, Msg: m, Rec: rec, Now: now, Log: log, size: size, Out: out, front: f}
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

// Recipient is seat p as a mail recipient.
func (t *Table) Recipient(p int) notice.Recipient {
	return notice.Recipient{Addr: t.Seats[p].Player.Address, Lang: t.Langs[p], TZ: t.Zones[p], Pos: p,
		ID: t.Seats[p].PlayerID, League: t.Row.League}
}

// SeatOf returns the seat of addr, or -1.
func (t *Table) SeatOf(addr string) int {
	for i, st := range t.Seats {
		if st.Player.Address == addr {
			return i
		}
	}
	return -1
}

// SeatOfID returns the seat of the player whose id is id, or -1.
func (t *Table) SeatOfID(id int64) int {
	for i, st := range t.Seats {
		if st.PlayerID == id {
			return i
		}
	}
	return -1
}

func (h *Request) Outcome(o string, reason string) {
	h.Rec.Outcome, h.Rec.Reason = o, reason
}

// BadToken answers a token that does not match its sender (Front).
func (h *Request) BadToken() error { return h.front.BadToken(h) }

// NoCommandOnce reports whether a message may be answered, if it holds no
// command (Front).
func (h *Request) NoCommandOnce() (bool, error) { return h.front.NoCommandOnce(h) }

// CountWithAnswer makes the next answer that goes count against r too,
// with its own bounds (Front.WithinBound): r is spent only if it goes.
func (h *Request) CountWithAnswer(r store.Rate) { h.withAnswer = append(h.withAnswer, r) }

// SenderLang is the language to answer the sender in.
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

// ReplyTable is the table a reply about no particular table (GAMES,
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

// Sender is the author of the message as a recipient.
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

// Reply queues m, an answer to the message's author, within the bound on
// answers per sender and hour (EMAIL §2.6).
func (h *Request) Reply(t *Table, m templates.Mail) error {
	return h.ReplyAs(t, h.Sender(t), m)
}

// ReplyAs is Reply to the author as the recipient to.
func (h *Request) ReplyAs(t *Table, to notice.Recipient, m templates.Mail) error {
	return h.replyWithin(t, to, m, nil)
}

// replyWithin is ReplyAs, the answer also counted against also.
func (h *Request) replyWithin(t *Table, to notice.Recipient, m templates.Mail, also []store.Rate) error {
	ok, err := h.front.WithinBound(h, t, to, append(also, h.withAnswer...)...)
	if err != nil || !ok {
		return err
	}
	h.withAnswer = nil
	h.Queue(t, to, m)
	return nil
}

// Queue queues a mail to the author without counting it against the
// bound: the mails of a turn (the separate acceptance).
func (h *Request) Queue(t *Table, to notice.Recipient, m templates.Mail) {
	e := notice.Envelope{To: to, Reply: h.Rec.MessageID}
	if t != nil {
		e.Table, e.Seq, e.TableID = t.Row.Name, int64(len(t.Actions())), &t.Row.ID
		e.Cal = h.s.CalendarEvent(t, templates.KindOf(m), to.Pos, h.moved, h.Now)
	}
	h.Out.Add(e, m)
}

// Refuse answers a command with every reason it was refused. limited
// replies (about unreadable input or identity) are also bounded by
// mail.error_replies_per_hour; every refusal, like every answer, counts
// against mail.replies_per_hour (EMAIL §2.6).
func (h *Request) Refuse(t *Table, command string, rs []templates.Reason, limited bool) error {
	return h.refuse(t, command, rs, limited, nil)
}

// refuse is Refuse, naming yourTurn, the author's tables where it is
// their turn.
func (h *Request) refuse(t *Table, command string, rs []templates.Reason, limited bool, yourTurn []string) error {
	kinds := make([]string, len(rs))
	for i, r := range rs {
		kinds[i] = string(r.Kind)
	}
	h.Outcome(OutcomeRejected, strings.Join(kinds, ","))
	var also []store.Rate
	if limited {
		// Counted with the answer's other bounds: a refusal that does not
		// go spends none of them.
		also = []store.Rate{{Key: "reply:" + store.PersonKey(h.Msg.From), Limit: h.s.cfg.Mail.ErrorReplies, Window: time.Hour}}
	}
	to := h.Sender(t)
	msg := templates.RejectedMsg{Head: h.s.notices.Head(TableName(t), to, h.Now), Command: command, Reasons: rs, YourTurn: yourTurn}
	if len(rs) == 1 && rs[0].Kind == templates.ReasonTooLarge {
		return h.replyWithin(t, to, templates.TooLargeMsg{
			Head: msg.Head, Size: h.size, Limit: h.s.cfg.Mail.MaxMessageBytes}, also)
	}
	if t != nil && t.Game != nil && to.Pos >= 0 {
		v, err := t.Game.View(to.Pos, h.Now)
		if err != nil {
			return store.Permanent(err)
		}
		msg.Rack = notice.RackData(v.Rack)
		// The reserve matters to a placement (RULES §6.2), and only there:
		// told when this refusal spent a try, or when few are left.
		if c := h.Msg.Command; c != nil && c.Kind == parser.KindPlace && (spentTry(rs) || lowReserve(v.Reserve, t.Row.ReserveSize)) {
			msg.Probe = &templates.Probe{Left: v.Reserve, Max: t.Row.ReserveSize, Next: v.NextAttempt}
		}
	}
	return h.replyWithin(t, to, msg, also)
}

// lowTries is how many tries of the probe reserve left make it low
// (RULES §6.2, EMAIL §4.1): a refusal says what is left from there down.
const lowTries = 3

// lowReserve reports whether a probe reserve of max tries with left of
// them left is low: at most lowTries left, and not full (a host's reserve
// of lowTries or fewer is not low until a try is spent).
func lowReserve(left, max int) bool {
	return left <= lowTries && left < max
}

// spentTry reports whether a refusal for reasons rs spent a try of the
// probe reserve: a word not in the dictionary (RULES §6.1–6.2).
func spentTry(rs []templates.Reason) bool {
	for _, r := range rs {
		if r.Kind == templates.ReasonUnknownWords {
			return true
		}
	}
	return false
}

func TableName(t *Table) string {
	if t == nil {
		return ""
	}
	return t.Row.Name
}

// Load reads a table, its seats and its game.
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
		Rules:   board.Rules{Variant: board.Variant(row.Variant), Plain: !row.Multipliers},
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
		return store.Permanent(fmt.Errorf("table %s: the row and the log disagree: "+format, append([]any{row.Name}, args...)...))
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
			return nil, store.Permanent(fmt.Errorf("table %s: action %d: %w", row.Name, a.Seq, err))
		}
		if a.Seq != int64(i+1) || a.Kind != string(acts[i].Kind) {
			return nil, mismatch("action %d of the log is numbered %d, kind %s (payload %s)", i+1, a.Seq, a.Kind, acts[i].Kind)
		}
	}
	g, err := engine.Rebuild(gameConfig(row, len(t.Seats)), acts)
	if err != nil {
		return nil, store.Permanent(fmt.Errorf("table %s: %w", row.Name, err))
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

// Save appends the game's new actions to the log and writes the table
// with its next deadline (optimistic locking on the last action's seq).
func (s *Service) Save(tx *store.Tx, t *Table, now time.Time) error {
	acts := t.Actions()
	for i := t.prevSeq; i < int64(len(acts)); i++ {
		a := acts[i]
		payload, err := json.Marshal(a)
		if err != nil {
			return store.Permanent(err)
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

// Game rebuilds the game of a table, for the admin's tools; nil before the
// game starts.
func (s *Service) Game(ctx context.Context, name string) (*engine.Game, error) {
	var g *engine.Game
	err := s.store.View(ctx, func(tx *store.Tx) error {
		t, err := s.Load(tx, name)
		if err != nil {
			return err
		}
		g = t.Game
		return nil
	})
	return g, err
}

// IsTurn tells the actions that end a turn from the probes and presence
// marks that the log also holds.
func IsTurn(k engine.ActionKind) bool {
	return k == engine.ActPlace || k == engine.ActExchange || k == engine.ActPass || k == engine.ActExpire
}
