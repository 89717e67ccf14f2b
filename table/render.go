package table

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/mail"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/lexio-mail/lexio/analysis"
	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/internal/botseat"
	"github.com/lexio-mail/lexio/mailer"
	"github.com/lexio-mail/lexio/parser"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/templates"
	"golang.org/x/text/unicode/norm"
)

// This file turns the engine's per-player views into the templates' data
// and the templates' output into outbox rows. Only engine.View is read for
// a player, so a message can hold no other player's rack before the end.

// maxName bounds a player's name, and the domain that qualifies it, in
// characters.
const maxName = 32

// reservedNames are the names no human player may show: the computer's
// ("Bot (medium)") and the service's (mail.name's default, the game's
// own name).
var reservedNames = []string{"bot", "lexio"}

// displayName is how a player is named where no other seat is in view (a
// greeting, an invitation): tableNames of the one address.
func displayName(addr string) string { return tableNames([]string{addr})[0] }

// tableNames names players seen together — a table's seats, the rows of
// standings — in order, each one line of printable text (parser.OneLine)
// and distinct from the others whatever their case or width (nameKey). A player is named by
// the local part of their address, capitalised; where two would show the
// same name, each shows its domain too ("Alice (evil.test)"); if still
// the same, the address as written; if even that, the address and the
// position in the list ("#2"). A human whose name would read as the
// computer's or the service's ("Bot (medium)", "Lexio"), or as a name
// qualified so or as an address, is named by the address as written. The computer is
// "Bot (<level>)".
func tableNames(addrs []string) []string {
	level := make([]int, len(addrs))
	for i, a := range addrs {
		if !botseat.Is(a) && reservedName(nameAt(a, 0, i)) {
			level[i] = 2
		}
	}
	out := make([]string, len(addrs))
	for {
		for i, a := range addrs {
			out[i] = nameAt(a, level[i], i)
		}
		same := make(map[string][]int, len(out))
		for i, n := range out {
			k := nameKey(n)
			same[k] = append(same[k], i)
		}
		raised := false
		for _, is := range same {
			if len(is) < 2 {
				continue
			}
			for _, i := range is {
				if !botseat.Is(addrs[i]) && level[i] < 3 {
					level[i]++
					raised = true
				}
			}
		}
		if !raised {
			return out
		}
	}
}

// nameAt is the name of addr, at position i of a list, at a level of
// tableNames: 0 the local part capitalised, 1 with the domain, 2 the
// address, 3 the address and the position.
func nameAt(addr string, level, i int) string {
	if _, lv, ok := botseat.Parse(addr); ok && botseat.Is(addr) {
		return "Bot (" + lv + ")"
	}
	local, domain := addr, ""
	if at := strings.LastIndexByte(addr, '@'); at >= 0 {
		local, domain = addr[:at], addr[at+1:]
	}
	local, domain = parser.OneLine(local, maxName), parser.OneLine(domain, maxName)
	if local == "" {
		local, domain = parser.OneLine(addr, maxName), ""
	}
	if domain == "" && level == 1 {
		level = 2 // nothing to qualify the name with
	}
	switch level {
	case 0:
		return capitalise(local)
	case 1:
		return capitalise(local) + " (" + domain + ")"
	}
	name := local
	if domain != "" {
		name += "@" + domain
	}
	if level >= 3 {
		name += " #" + strconv.Itoa(i+1)
	}
	return name
}

// capitalise writes the first character of s in capitals: a character,
// never a byte of one.
func capitalise(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// nameKey is what two names that read alike have in common: their
// compatibility form (NFKC: "Ａｌｉｃｅ" is "Alice"), in lower case.
func nameKey(name string) string { return strings.ToLower(norm.NFKC.String(name)) }

// reservedName reports whether a human's name would read as one of
// reservedNames — the same word, whatever its case, alone or followed by
// anything but a letter ("Bot (strong)", "lexio-team"; not "Bottom") —
// or as a name tableNames qualified ("Alice (evil.test)") or an address:
// it holds a parenthesis or an at sign.
func reservedName(name string) bool {
	k := nameKey(name)
	if strings.ContainsAny(k, "()@") { // "（", "﹫" … are these in NFKC
		return true
	}
	for _, w := range reservedNames {
		if rest, ok := strings.CutPrefix(k, w); ok {
			if r, _ := utf8.DecodeRuneInString(rest); rest == "" || !unicode.IsLetter(r) {
				return true
			}
		}
	}
	return false
}

var bonusKinds = map[engine.Bonus]templates.CellKind{
	engine.NoBonus: templates.Plain, engine.Wall: templates.Wall, engine.FountainCell: templates.Fountain,
	engine.TW: templates.TW, engine.DW: templates.DW, engine.TL: templates.TL, engine.DL: templates.DL,
	engine.Cross: templates.Cross,
}

func pos(c engine.Cell) templates.Pos { return templates.Pos{Row: c.Row, Col: c.Col} }

func boardData(b *engine.Board, r engine.Rules, last []engine.Cell) templates.Board {
	var out templates.Board
	for row := range engine.Size {
		for col := range engine.Size {
			c := engine.Cell{Col: col, Row: row}
			sq := b.At(c)
			out.Cells[row][col] = templates.Cell{Kind: bonusKinds[r.Bonus(c)], Letter: sq.Letter, Blank: sq.Blank, Value: sq.Value()}
		}
	}
	for _, c := range last {
		out.Cells[c.Row][c.Col].Last = true
	}
	return out
}

func rackData(rack []engine.RackTile) templates.Rack {
	out := make(templates.Rack, len(rack))
	for i, t := range rack {
		rt := templates.RackTile{Slot: t.Slot, Value: t.Value}
		if t.Letter == "?" {
			rt.Blank = true
		} else if t.Letter != "" {
			rt.Letter = t.Letter[0]
		}
		out[i] = rt
	}
	return out
}

// rackOf turns a revealed rack string ('?' a blank) into rack tiles.
func rackOf(s string) templates.Rack {
	out := make(templates.Rack, len(s))
	for i := 0; i < len(s); i++ {
		out[i] = templates.RackTile{Slot: i + 1, Value: engine.TileValue(s[i])}
		if s[i] == engine.BlankTile {
			out[i].Blank = true
		} else {
			out[i].Letter = s[i]
		}
	}
	return out
}

// wordText writes a word with its blanks in lowercase, read off the board.
func wordText(b *engine.Board, w engine.Word) string {
	out := []byte(w.Text)
	for i, c := range w.Cells {
		if i < len(out) && b.At(c).Blank {
			out[i] += 'a' - 'A'
		}
	}
	return string(out)
}

func playWords(b *engine.Board, p *engine.Play) []templates.Word {
	ws := make([]templates.Word, len(p.Words))
	for i, w := range p.Words {
		ws[i] = templates.Word{Word: wordText(b, w), Points: w.Score}
	}
	return ws
}

// logLines writes engine log entries as the templates' neutral lines.
func logLines(entries []engine.LogEntry, names []string, b *engine.Board) []templates.LogLine {
	var out []templates.LogLine
	var adjust []templates.Adjustment
	turn := 0
	name := func(p int) string {
		if p >= 0 && p < len(names) {
			return names[p]
		}
		return ""
	}
	for _, e := range entries {
		l := templates.LogLine{At: e.At, Player: name(e.Player)}
		switch e.Kind {
		case engine.LogPlace:
			turn++
			l.Kind, l.Turn = templates.LogPlace, turn
			if e.Play != nil {
				l.Words = playWords(b, e.Play)
				l.Score, l.Bonus = e.Play.Score, e.Play.AllTiles
				l.Down = e.Play.Dir == engine.Down
				if len(e.Play.Words) > 0 {
					l.Pos = pos(e.Play.Words[0].Start)
				}
			}
		case engine.LogExchange:
			turn++
			l.Kind, l.Turn, l.Count = templates.LogExchange, turn, e.Count
		case engine.LogPass:
			turn++
			l.Kind, l.Turn = templates.LogPass, turn
		case engine.LogExpire:
			turn++
			l.Kind, l.Turn = templates.LogExpire, turn
		case engine.LogRejected:
			l.Kind = templates.LogRejected
			if e.Start != nil {
				l.Pos = pos(*e.Start)
			} else {
				l.NoPos = true // logged before probes recorded where
			}
			for _, w := range e.Words {
				l.Words = append(l.Words, templates.Word{Word: w})
			}
		case engine.LogAdjust:
			// The finisher's empty rack costs nothing: only their gain
			// is worth a line.
			if e.Score != 0 || e.Rack != "" {
				adjust = append(adjust, templates.Adjustment{Player: name(e.Player), Points: e.Score})
			}
			continue
		case engine.LogEnd:
			l.Kind, l.Player, l.Adjustments = templates.LogEnd, "", adjust
			l.End = endReason(e.Reason)
		case engine.LogResign:
			l.Kind, l.Forfeit, l.Count = templates.LogResign, e.Forfeit, e.Count
		case engine.LogSubst:
			// The names were written when the seat passed, maybe by
			// an older displayName: one line of printable text here.
			l.Kind, l.From, l.To = templates.LogSubstitute, parser.OneLine(e.From, 2*maxName+8), parser.OneLine(e.To, 2*maxName+8)
		default:
			continue
		}
		out = append(out, l)
	}
	return out
}

// endReason is how the templates name an end of the game.
func endReason(r engine.EndReason) templates.EndReason {
	switch r {
	case engine.EndOut:
		return templates.EndOut
	case engine.EndResign:
		return templates.EndResign
	case engine.EndForfeit:
		return templates.EndForfeit
	case engine.EndAdjudicated:
		return templates.EndAdjudicated
	}
	return templates.EndStalled
}

// latest keeps the last n lines.
func latest(ls []templates.LogLine, n int) []templates.LogLine {
	if len(ls) > n {
		return ls[len(ls)-n:]
	}
	return ls
}

// reasons turns a refusal from the engine or the parser into the
// templates' reasons.
func reasons(err error) []templates.Reason {
	var me *engine.MoveError
	var pe *parser.Error
	switch {
	case errors.As(err, &me):
		r := templates.Reason{Kind: templates.ReasonKind(me.Kind), Letters: me.Letters, Words: me.Words,
			Slots: me.Slots, Need: me.Need, Have: me.Have}
		for _, c := range me.Cells {
			r.Cells = append(r.Cells, pos(c))
		}
		return []templates.Reason{r}
	case errors.As(err, &pe):
		r := templates.Reason{Kind: parserReasons[pe.Kind], Detail: pe.Detail}
		if pe.Kind == parser.TextTooLong {
			r.Detail, r.Need = "", parser.MaxSay
		}
		return []templates.Reason{r}
	}
	return []templates.Reason{{Kind: templates.ReasonUnreadable}}
}

var parserReasons = map[parser.ErrorKind]templates.ReasonKind{
	parser.Internal: templates.ReasonUnreadable, parser.TooLarge: templates.ReasonTooLarge,
	parser.HeaderTooLarge: templates.ReasonUnreadable, parser.TooDeep: templates.ReasonUnreadable,
	parser.Malformed: templates.ReasonUnreadable, parser.BadCharset: templates.ReasonBadCharset,
	parser.BinaryJunk: templates.ReasonBinary, parser.NoCommand: templates.ReasonNoCommand,
	parser.BadCell: templates.ReasonBadCell, parser.BadDirection: templates.ReasonBadDirection,
	parser.BadWord: templates.ReasonBadWord, parser.WordTooLong: templates.ReasonWordTooLong,
	parser.BadExchange: templates.ReasonBadExchange, parser.BadLang: templates.ReasonBadLang,
	parser.BadVariant: templates.ReasonBadVariant, parser.BadTable: templates.ReasonBadTable,
	parser.BadZone: templates.ReasonBadZone, parser.BadVacation: templates.ReasonBadVacation,
	parser.BadNotify: templates.ReasonBadNotify, parser.BadAddress: templates.ReasonBadAddress,
	parser.TextTooLong:     templates.ReasonSayTooLong,
	parser.MissingArgument: templates.ReasonMissingArg, parser.ExtraArgument: templates.ReasonExtraArg,
}

// recipient is one player a message goes to.
type recipient struct {
	addr, lang string
	tz         *time.Location // the zone of the times in their mail
	pos        int            // seat, -1 for none
	// id is the seat's player (their web links name it) and league the
	// table's; 0 and "" for a recipient without a seat.
	id     int64
	league string
}

// envelope is what a mail needs besides its template data.
type envelope struct {
	table   string // "" for a message about no table
	seq     int64  // the table's last action when the mail was written
	kind    templates.Kind
	to      recipient
	reply   string           // the inbound Message-ID this answers, if any
	cal     *templates.Event // the calendar entry attached, if any
	tableID *int64
	// extra tells apart messages of one kind to one player in one turn
	// (the reminders).
	extra string
	// token, when set, is the reply token of a mail about no table (a
	// confirmation's, EMAIL §1.7): its Reply-To carries it.
	token string
}

// messageID names the table, the turn (the action count) and the message,
// so that a reply to it can be recognised as stale (EMAIL §1.5). A reply
// to a command also names that command, so that two BOARDs sent in one
// turn get two answers.
func (s *Service) messageID(e envelope) string {
	t := e.table
	if t == "" {
		t = "-"
	}
	id := fmt.Sprintf("lexio.%s.%d.%s.%d", t, e.seq, e.kind, e.to.pos)
	if e.reply != "" {
		id += "." + shortHash(e.reply)
	}
	if e.extra != "" {
		id += "." + e.extra
	}
	return "<" + id + "@" + s.domain + ">"
}

// rootID is the thread every message of a table refers to (EMAIL §4.4).
func (s *Service) rootID(table string) string { return "<lexio." + table + "@" + s.domain + ">" }

// noticeSeq reads the turn out of one of our Message-IDs for table; ok is
// false for anything else.
func (s *Service) noticeSeq(id, table string) (int64, bool) {
	id = strings.Trim(strings.TrimSpace(id), "<>")
	rest, ok := strings.CutPrefix(id, "lexio."+table+".")
	if !ok || !strings.HasSuffix(id, "@"+s.domain) {
		return 0, false
	}
	var seq int64
	if _, err := fmt.Sscanf(rest, "%d.", &seq); err != nil {
		return 0, false
	}
	return seq, true
}

// render writes one message through the templates and composes it into
// an outbox row.
func (s *Service) render(e envelope, data any, now time.Time) (*store.OutboxMail, error) {
	r, err := s.tmpl.Render(e.to.lang, e.kind, data)
	if err != nil {
		return nil, permanent(fmt.Errorf("table: render %s: %w", e.kind, err))
	}
	env := mailer.Envelope{
		From:          mail.Address{Name: s.cfg.Mail.Name, Address: s.cfg.Mail.Address},
		To:            []mail.Address{{Address: e.to.addr}},
		ReplyTo:       s.cfg.Mail.Address,
		Subject:       r.Subject,
		Date:          now,
		MessageID:     s.messageID(e),
		AutoSubmitted: "auto-generated",
		Text:          r.Text,
		HTML:          r.HTML,
	}
	env.ListUnsubscribe = s.unsubscribeURI(e)
	if env.ListUnsubscribe != "" && e.table != "" && e.to.id != 0 && s.links != nil {
		// RFC 8058: the one-click URL does what the address does.
		env.UnsubscribeURL = s.links.Unsubscribe(e.table, e.to.id)
	}
	env.FeedbackID = s.feedbackID(e)
	if e.table != "" {
		root := s.rootID(e.table)
		env.InReplyTo, env.References = root, []string{root}
		if !s.cfg.Mail.TokenInSubject {
			env.ReplyTo = mailer.ReplyAddress(s.local, s.domain, s.tokens.Token(e.table, e.to.addr))
		}
	}
	if e.token != "" && !s.cfg.Mail.TokenInSubject {
		env.ReplyTo = mailer.ReplyAddress(s.local, s.domain, e.token)
	}
	if e.reply != "" {
		env.InReplyTo = "<" + strings.Trim(e.reply, "<>") + ">"
		env.References = append(env.References, env.InReplyTo)
		env.AutoSubmitted = "auto-replied"
	}
	if e.cal != nil {
		ics, err := s.tmpl.Calendar(e.to.lang, *e.cal)
		if err != nil {
			return nil, permanent(fmt.Errorf("table: calendar of %s: %w", e.kind, err))
		}
		name := "deadline.ics"
		if e.cal.Cancel {
			name = "cancel.ics"
		}
		env.Attachments = []mailer.Attachment{{
			Filename:    name,
			ContentType: "text/calendar; charset=utf-8; method=" + e.cal.Method(),
			Data:        ics,
		}}
	}
	raw, err := mailer.Compose(env)
	if err != nil {
		return nil, permanent(fmt.Errorf("table: compose %s: %w", e.kind, err))
	}
	return &store.OutboxMail{
		TableID: e.tableID, MessageID: env.MessageID, From: s.cfg.Mail.Address,
		To: []string{e.to.addr}, Raw: raw, CreatedAt: now,
	}, nil
}

// feedbackID is the Feedback-ID header of a mail (the form Gmail's
// feedback loop reads, "<campaign>:<customer>:<mail type>:<sender>"):
// the mail's kind, its table ("-" for none), "lexio" and the service's
// domain, so that complaint reports can be counted per kind of mail and
// per table. It names no player.
func (s *Service) feedbackID(e envelope) string {
	table := e.table
	if table == "" {
		table = "-"
	}
	return e.kind.String() + ":" + table + ":lexio:" + s.domain
}

// calendarEvent is the calendar entry a mail of kind to seat p about t
// carries, written at now (its DTSTAMP: when the mail is queued), or nil.
// Each turn of each player is one event, whose UID names the table, the
// turn's number and the seat:
//   - the player whose turn it is gets a REQUEST with the deadline in
//     their turn's notice, its reminders, their BOARD replies, and every
//     answer once their deadline moved (moved: they were away and wrote,
//     RULES §9.2);
//   - the player whose turn just ended gets a CANCEL in the notice of
//     the next turn, or in the end of the game.
//
// SEQUENCE counts the table's actions since the turn began: it stays the
// same while nothing happens, grows when the deadline moves (a presence
// is an action), and is higher in the CANCEL, which the turn's last
// action comes before, than in any REQUEST of the turn.
func (s *Service) calendarEvent(t *tableCtx, kind templates.Kind, p int, moved bool, now time.Time) *templates.Event {
	if t.game == nil || p < 0 || p >= len(t.seats) {
		return nil
	}
	acts := t.game.Actions()
	var ends []int // the actions that ended a turn
	for i, a := range acts {
		if isTurn(a.Kind) {
			ends = append(ends, i)
		}
	}
	// turnStart is the number of actions before turn n (1 the first).
	turnStart := func(n int) int {
		if n <= 1 {
			return 0
		}
		return ends[n-2] + 1
	}
	e := templates.Event{Table: t.row.Name, Stamp: now, Organizer: s.cfg.Mail.Address,
		OrganizerName: s.cfg.Mail.Name, Attendee: t.seats[p].Player.Address, TZ: t.zones[p]}
	// turnBegan is when turn n began; a change to the player's
	// vacations since then may have moved its deadline, and counts in
	// the SEQUENCE as an action does.
	turnBegan := func(n int) time.Time {
		if n <= 1 {
			return t.game.Config().Start
		}
		return acts[ends[n-2]].At
	}
	// A resignation ends the turn in progress without a move (LEAGUES
	// §2): the mail that tells its holder that the game ended, or that
	// they are out, cancels it.
	if n := len(acts); n > 0 && acts[n-1].Kind == engine.ActResign && (kind == templates.GameOver || kind == templates.Resigned) {
		if holder, err := turnBeforeLast(t.game); err == nil && holder == p {
			n := len(ends) + 1
			e.UID, e.Sequence, e.Cancel = s.turnUID(t.row.Name, n, p), len(acts)-turnStart(n)+t.vacationEdits(p, turnBegan(n)), true
			return &e
		}
	}
	if n := len(ends); n > 0 && acts[ends[n-1]].Player == p && (kind == templates.TurnNotice || kind == templates.GameOver) {
		e.UID, e.Sequence, e.Cancel = s.turnUID(t.row.Name, n, p), len(acts)-turnStart(n)+t.vacationEdits(p, turnBegan(n)), true
		return &e
	}
	if t.game.Over() || t.game.Turn() != p || t.row.Deadline == nil {
		return nil
	}
	if kind != templates.TurnNotice && kind != templates.Reminder && kind != templates.BoardReply && kind != templates.SeatTaken && !moved {
		return nil
	}
	n := len(ends) + 1
	e.UID, e.Sequence, e.Deadline = s.turnUID(t.row.Name, n, p), len(acts)-turnStart(n)+t.vacationEdits(p, turnBegan(n)), *t.row.Deadline
	return &e
}

// turnUID names turn n of seat p at a table in every calendar.
func (s *Service) turnUID(table string, n, p int) string {
	return fmt.Sprintf("lexio.%s.turn%d.%d@%s", table, n, p, s.domain)
}

// head fills what every message says about its recipient and table.
func (s *Service) head(table string, to recipient, now time.Time) templates.Head {
	h := templates.Head{To: displayName(to.addr), Table: table, Now: now, TZ: to.tz}
	if table != "" && s.cfg.Mail.TokenInSubject {
		h.Tag = "[Lexio " + table + " " + s.tokens.Token(table, to.addr) + "]"
	}
	if table != "" && to.id != 0 && s.links != nil {
		// EMAIL §7.1: the player's own page, and the table's spectator
		// link where the league allows spectators.
		h.View = s.links.Player(table, to.id)
		if l := s.cfg.League(to.league); l != nil && l.Spectators {
			h.Watch = s.links.Spectator(table)
		}
	}
	return h
}

// names lists the players of a table, in seat order, named together
// (tableNames).
func names(seats []store.Seat) []string {
	return tableNames(seatAddrs(seats))
}

// seatAddrs lists the addresses of seats, in order.
func seatAddrs(seats []store.Seat) []string {
	out := make([]string, len(seats))
	for i, st := range seats {
		out[i] = st.Player.Address
	}
	return out
}

// noticeData is the state of a game for one player.
func (s *Service) noticeData(t *tableCtx, p int, now time.Time) (templates.NoticeMsg, error) {
	v, err := t.game.View(p, now)
	if err != nil {
		return templates.NoticeMsg{}, permanent(err)
	}
	ns := names(t.seats)
	b := v.Board
	msg := templates.NoticeMsg{
		Head:  s.head(t.row.Name, t.recipient(p), now),
		Board: boardData(&b, v.Rules, v.LastPlay),
		Rack:  rackData(v.Rack),
		Log:   latest(logLines(v.Log, ns, &b), 8),
		State: templates.Table{Variant: t.row.Variant, Bag: v.Bag, HasBank: t.bank().On()},
	}
	if !v.Over {
		msg.State.Turn = ns[v.Turn]
		if t.row.Deadline != nil {
			msg.State.Deadline = *t.row.Deadline
		}
	}
	banks := t.banks() // the log replayed once for every player's line
	for i, st := range t.seats {
		msg.State.Players = append(msg.State.Players, templates.PlayerLine{
			Name: ns[i], Address: st.Player.Address, Score: v.Scores[i], Tiles: v.TileCounts[i],
			Away: v.Away[i], ToMove: !v.Over && v.Turn == i, You: i == p, Bank: t.bankLeft(banks, i, now),
			Vacation: t.onVacation(i, now), Left: v.Left != nil && v.Left[i],
		})
	}
	return msg, nil
}

// gameOverData is the end of a game, the same for everyone but the "You".
func (s *Service) gameOverData(t *tableCtx, p int, now time.Time) (templates.GameOverMsg, error) {
	v, err := t.game.View(p, now)
	if err != nil || v.Result == nil {
		return templates.GameOverMsg{}, permanent(fmt.Errorf("table: game over view: %v", err))
	}
	ns := names(t.seats)
	b := v.Board
	msg := templates.GameOverMsg{
		Head:  s.head(t.row.Name, t.recipient(p), now),
		Board: boardData(&b, v.Rules, v.LastPlay),
		Log:   logLines(v.Log, ns, &b),
		End:   templates.EndStalled,
	}
	adjust := make([]int, len(ns))
	for _, e := range v.Log {
		if e.Kind == engine.LogAdjust {
			adjust[e.Player] += e.Score
		}
		if e.Kind == engine.LogPlace && v.Result.Reason == engine.EndOut {
			msg.Finisher = ns[e.Player] // the last placement's author went out
		}
	}
	msg.End = endReason(v.Result.Reason)
	for _, d := range v.Result.Left {
		msg.Left = append(msg.Left, templates.Leaver{Name: ns[d.Player], Forfeit: d.Forfeit})
		msg.Resigner = ns[d.Player] // the last to leave ended it (LEAGUES §2.1)
	}
	for i := range ns {
		msg.Final = append(msg.Final, templates.FinalLine{
			Name: ns[i], Before: v.Result.Scores[i] - adjust[i], Adjust: adjust[i], Score: v.Result.Scores[i],
			Winner: slices.Contains(v.Result.Winners, i), You: i == p,
		})
		msg.Revealed = append(msg.Revealed, templates.RevealedRack{Player: ns[i], Tiles: rackOf(v.Result.Racks[i])})
	}
	return msg, nil
}

// missed is what each player left on the table in t's game, in seat
// order (package analysis), or nil when the service has no GADDAG. An
// analysis that fails leaves the section out, logged: the end of the game
// goes out all the same.
func (s *Service) missed(t *tableCtx, names []string) []templates.MissedLine {
	if s.gaddag == nil {
		return nil
	}
	turns, err := analysis.FromGame(t.game.Config(), t.game.Actions())
	var rep analysis.Report
	if err == nil {
		rep, err = analysis.Analyze(turns, len(names), t.game.Rules(), s.gaddag)
	}
	if err != nil {
		if s.log != nil {
			s.log.Warn("table: no analysis of the game", "table", t.row.Name, "err", err)
		}
		return nil
	}
	kinds := map[analysis.Kind]templates.LogKind{analysis.Place: templates.LogPlace, analysis.Exchange: templates.LogExchange,
		analysis.Pass: templates.LogPass, analysis.Expire: templates.LogExpire}
	out := make([]templates.MissedLine, len(names))
	for i, p := range rep.Players {
		out[i] = templates.MissedLine{Name: names[i], Points: p.Left}
		for _, m := range p.Misses {
			out[i].Misses = append(out[i].Misses, templates.MissedMove{Turn: m.Turn, Kind: kinds[m.Kind], Word: m.Word,
				Score: m.Score, Best: m.Best, BestScore: m.BestScore})
		}
	}
	return out
}

// shortHash names a message in another's Message-ID.
func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:6])
}
