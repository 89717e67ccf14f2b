package parser

import (
	"encoding/json"
	"errors"
	"net/mail"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/lexio-mail/lexio/dict"
	"github.com/lexio-mail/lexio/engine/board"
	"github.com/lexio-mail/lexio/internal/botseat"
	"github.com/lexio-mail/lexio/internal/tablename"
	"github.com/lexio-mail/lexio/internal/zone"
)

// Board geometry as far as the notation needs it (RULES §2.1).
const (
	boardSize = 13
	maxRack   = 7
)

// Kind is what a command does (EMAIL §3).
type Kind int

// The command kinds. The zero Kind is no command.
const (
	KindPlace Kind = iota + 1
	KindExchange
	KindPass
	KindPreview
	KindBoard
	KindLog
	KindGames
	KindLang
	KindHelp
	KindNew
	KindJoin
	KindStart
	KindZone
	KindResign
	KindVacation
	KindNotify
	KindSay
	KindDecline
	KindStandings
	KindSignup
	KindWithdraw
	// KindConfirm answers a confirmation mail: do what was asked in my
	// name (EMAIL §1.7).
	KindConfirm
	KindNoInvite // STOP: never invite the sender again (LEAGUES §6)
	KindRematch  // REMATCH t42, or REMATCH in reply: the same players again at a new table (LEAGUES §6.2)
	KindGive     // GIVE t42 24h, or GIVE 24h in reply: more time for the player on move
	KindNote     // NOTE t42 text, or NOTE text in reply: a private note on a table, to oneself
)

// MarshalText makes kinds appear by keyword in JSON.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Dir is the direction of a placement.
type Dir int

// Directions; the zero Dir is none.
const (
	Across Dir = iota + 1
	Down
)

// String returns "ACROSS" or "DOWN".
func (d Dir) String() string {
	switch d {
	case Across:
		return "ACROSS"
	case Down:
		return "DOWN"
	}
	return ""
}

// MarshalText makes directions appear by name in JSON.
func (d Dir) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// Letter is one letter of a written word.
type Letter struct {
	Ch      byte `json:"ch"`      // 'A'..'Z'
	Blank   bool `json:"blank"`   // written CH[A]T or CHaT: the tile is a blank
	Through bool `json:"through"` // written in parentheses: already on the board
}

// Placement is the argument of PLACE and PREVIEW: the whole word from its
// first cell, tiles already on the board included (EMAIL §3).
type Placement struct {
	Col     int      `json:"col"` // 0-based: A is 0
	Row     int      `json:"row"` // 0-based: row 1 is 0
	Dir     Dir      `json:"dir"`
	Letters []Letter `json:"letters"`
}

// MarshalJSON adds the cell and the word in canonical notation to the
// placement's fields.
func (p *Placement) MarshalJSON() ([]byte, error) {
	type plain Placement
	return json.Marshal(struct {
		Cell string `json:"cell"`
		Word string `json:"word"`
		*plain
	}{p.Cell(), p.Word(), (*plain)(p)})
}

// Move is the placement as the board reads it.
func (p *Placement) Move() board.Move {
	m := board.Move{Start: board.Cell{Col: p.Col, Row: p.Row}, Dir: board.Across}
	if p.Dir == Down {
		m.Dir = board.Down
	}
	for _, l := range p.Letters {
		m.Word = append(m.Word, board.Letter{Char: l.Ch, Blank: l.Blank, Through: l.Through})
	}
	return m
}

// Cell returns the start cell in the canonical notation, e.g. "H7".
func (p *Placement) Cell() string {
	return string(rune('A'+p.Col)) + strconv.Itoa(p.Row+1)
}

// Word returns the word in canonical notation: capitals, a blank as a
// lowercase letter, letters written in parentheses kept in parentheses. A
// word of blanks alone writes them in brackets, [H][A]: lowercase letters
// without a capital beside them read as ordinary tiles.
func (p *Placement) Word() string {
	var b strings.Builder
	b.Grow(len(p.Letters) + 4)
	brackets := !slices.ContainsFunc(p.Letters, func(l Letter) bool { return !l.Blank })
	open := false
	for _, l := range p.Letters {
		if l.Through != open {
			if open {
				b.WriteByte(')')
			} else {
				b.WriteByte('(')
			}
			open = l.Through
		}
		c := l.Ch
		switch {
		case l.Blank && brackets:
			b.WriteByte('[')
			b.WriteByte(c)
			b.WriteByte(']')
			continue
		case l.Blank:
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	if open {
		b.WriteByte(')')
	}
	return b.String()
}

// Exchange is the argument of EXCHANGE: exactly one of its fields is set.
type Exchange struct {
	All     bool   `json:"all,omitempty"`
	Letters string `json:"letters,omitempty"` // 'A'..'Z' and '?' for a blank, as written
	Slots   []int  `json:"slots,omitempty"`   // rack slots 1..7, ascending, distinct
}

// Command is one parsed command.
type Command struct {
	Kind     Kind       `json:"kind"`
	Place    *Placement `json:"place,omitempty"`    // PLACE, PREVIEW
	Exchange Exchange   `json:"exchange,omitzero"`  // EXCHANGE
	Lang     string     `json:"lang,omitempty"`     // LANG: en, es or fr
	Variant  string     `json:"variant,omitempty"`  // NEW: lexio, lexico or ""
	Table    string     `json:"table,omitempty"`    // JOIN, RESIGN ("" asks which); REMATCH, GIVE, NOTE, NOTIFY ("" the reply's table)
	Hours    int        `json:"hours,omitempty"`    // GIVE: the time given, in whole hours
	Topic    string     `json:"topic,omitempty"`    // HELP: "rules" or ""
	Zone     string     `json:"zone,omitempty"`     // TZ: an IANA zone, canonical spelling
	Vacation *Vacation  `json:"vacation,omitempty"` // VACATION
	Notify   string     `json:"notify,omitempty"`   // NOTIFY: all, turn or digest
	Text     string     `json:"text,omitempty"`     // SAY: the line as written, at most MaxSay characters; NOTE: the note, at most MaxNote
	Off      bool       `json:"off,omitempty"`      // NOTE t42 OFF: remove the note
	Invite   []string   `json:"invite,omitempty"`   // NEW: the invitees' addresses, lowercase, and computer seats ("bot:medium"), in order
	League   string     `json:"league,omitempty"`   // STANDINGS (optional), SIGNUP, WITHDRAW
	Language string     `json:"language,omitempty"` // language of the keyword: en, es, fr
	// Unnamed is the same NOTE or GIVE read as naming no table, when its
	// first word may be a table's name or the start of its argument
	// ("NOTE garder le S", "GIVE 1d 12h"): the command is read as naming
	// that table only if the sender plays at one of that name, which the
	// parser cannot know (package player chooses). Nil when only one
	// reading parses.
	Unnamed *Command `json:"unnamed,omitempty"`
}

// Vacation is the argument of VACATION: exactly one of Days, the From–To
// pair and Off is set.
type Vacation struct {
	Days int    `json:"days,omitempty"` // from now, whole days
	From string `json:"from,omitempty"` // first day, YYYY-MM-DD in the player's zone
	To   string `json:"to,omitempty"`   // last day, inclusive
	Off  bool   `json:"off,omitempty"`  // end the vacation now
}

// Limits of the new commands' arguments.
const (
	MaxSay          = 500 // characters of a SAY line
	MaxNote         = 500 // characters of a NOTE
	MaxVacationDays = 366
)

// String returns the canonical English form, e.g. "PLACE H7 ACROSS CHaT",
// "EXCHANGE 1 4 7", "NEW lexico". It is a contract of `lexio parse --json`.
func (c *Command) String() string {
	if c == nil {
		return ""
	}
	kw := c.Kind.String()
	switch c.Kind {
	case KindPlace, KindPreview:
		if c.Place == nil {
			return kw
		}
		return kw + " " + c.Place.Cell() + " " + c.Place.Dir.String() + " " + c.Place.Word()
	case KindExchange:
		switch {
		case c.Exchange.All:
			return kw + " ALL"
		case len(c.Exchange.Slots) > 0:
			var b strings.Builder
			b.WriteString(kw)
			for _, s := range c.Exchange.Slots {
				b.WriteByte(' ')
				b.WriteString(strconv.Itoa(s))
			}
			return b.String()
		}
		if isAllWord(c.Exchange.Letters) {
			// The letters A L L spelled together would read as ALL.
			return kw + " " + strings.Join(strings.Split(c.Exchange.Letters, ""), " ")
		}
		return kw + " " + c.Exchange.Letters
	case KindLang:
		return kw + " " + c.Lang
	case KindNew:
		out := kw
		if c.Variant != "" {
			out += " " + c.Variant
		}
		for _, a := range c.Invite {
			out += " " + a
		}
		return out
	case KindJoin:
		return kw + " " + c.Table
	case KindGive:
		return kw + withTable(c.Table) + " " + strconv.Itoa(c.Hours) + "h"
	case KindResign, KindRematch:
		return kw + withTable(c.Table)
	case KindVacation:
		switch v := c.Vacation; {
		case v == nil:
		case v.Off:
			return kw + " OFF"
		case v.Days > 0:
			return kw + " " + strconv.Itoa(v.Days)
		default:
			return kw + " " + v.From + " " + v.To
		}
	case KindNotify:
		if c.Table != "" {
			return kw + " " + c.Notify + " " + c.Table
		}
		return kw + " " + c.Notify
	case KindSay:
		return kw + " " + c.Text
	case KindNote:
		if c.Off {
			return kw + withTable(c.Table) + " OFF"
		}
		return kw + withTable(c.Table) + " " + c.Text
	case KindStandings, KindSignup, KindWithdraw:
		if c.League != "" {
			return kw + " " + c.League
		}
	case KindZone:
		return kw + " " + c.Zone
	case KindHelp:
		if c.Topic != "" {
			return kw + " " + strings.ToUpper(c.Topic)
		}
	}
	return kw
}

// withTable is " t42" for table t42, "" for none.
func withTable(table string) string {
	if table == "" {
		return ""
	}
	return " " + table
}

// direction reads a direction token (EMAIL §3): English, Spanish, French
// words, single letters and arrows.
func direction(tok string) Dir {
	switch tok {
	case "→", "->", "⇒", "➡", "➡️":
		return Across
	case "↓", "⇓", "⬇", "⬇️":
		return Down
	}
	switch fold(tok) {
	case "ACROSS", "A", "H", "HORIZONTAL", "HORIZONTALLY", "HORIZ", "RIGHT",
		"HORIZONTALMENTE", "DERECHA", // es
		"HORIZONTALEMENT", "DROITE": // fr
		return Across
	case "DOWN", "D", "V", "VERTICAL", "VERTICALLY", "VERT",
		"VERTICALMENTE", "ABAJO", // es
		"VERTICALEMENT", "BAS": // fr
		return Down
	}
	return 0
}

// fold uppercases and drops accents (dict.Normalize); ASCII takes a fast
// path. The result may hold non-letters.
func fold(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			w, _ := dict.Normalize(s)
			return w
		}
	}
	return strings.ToUpper(s)
}

// ParseCommand parses one line of command text, e.g. "PLACE H7 ACROSS
// CHAT" or "échanger tout". Every error is an *Error.
func ParseCommand(line string) (*Command, error) {
	c, err, _ := parseLine(line)
	return c, err
}

// parseLine parses line; attempt reports whether the line looks like a
// command at all, as opposed to prose that happens to start with a
// keyword ("Pass the salt", "Play nice"). Only attempts stop the search
// for a command in a body.
func parseLine(line string) (cmd *Command, err error, attempt bool) {
	toks := tokens(line)
	if len(toks) == 0 {
		return nil, &Error{Kind: NoCommand}, false
	}
	kwText := strings.TrimRight(toks[0], ":")
	kw := fold(kwText)
	kind, lang := keyword(kw)
	if kind == 0 {
		return nil, newError(NoCommand, "%q is not a command", toks[0]), false
	}
	args := toks[1:]
	c := &Command{Kind: kind, Language: lang}
	switch kind {
	case KindPlace, KindPreview:
		attempt = len(args) > 0 && len(args) <= 4 && slices.ContainsFunc(args, hasDigit)
		c.Place, err = parsePlacement(args)
	case KindExchange:
		attempt = len(args) > 0 && len(args) <= maxRack
		c.Exchange, err = parseExchange(args)
	case KindLang:
		attempt = len(args) == 1
		c.Lang, err = parseLang(args)
	case KindNew:
		attempt = len(args) <= 2 || strings.Contains(args[len(args)-1], "@")
		c.Variant, c.Invite, err = parseNew(args)
	case KindJoin:
		attempt = len(args) == 1
		c.Table, err = parseTable(args)
	case KindRematch:
		// Alone, the game of the table whose mail it answers.
		attempt = len(args) <= 1
		if len(args) > 0 {
			c.Table, err = parseTable(args)
		}
	case KindResign:
		// Only a table's name resigns (LEAGUES §1): a stray "Abandon"
		// never resigns a game; alone it asks which tables there are.
		attempt = len(args) <= 1
		c.Table, err = parseResign(args)
	case KindVacation:
		attempt = len(args) >= 1 && len(args) <= 3 && (hasDigit(args[0]) || isOffWord(fold(args[0])))
		c.Vacation, err = parseVacation(args)
	case KindNotify:
		c.Notify, c.Table, err = parseNotify(args)
		// "Avis aux joueurs" is prose; "AVIS tour" is a command.
		attempt = len(args) >= 1 && len(args) <= 2 && notifyChoice(fold(args[0])) != ""
	case KindGive:
		// "Give it 5 minutes" is prose; "GIVE t42 24h" and "GIVE 24h" are
		// commands, and so are "GIVE t42 24" and "GIVE 24" (answered with
		// their error).
		c, err = parseGive(c, args)
		attempt = len(args) >= 2 && hasDigit(args[1]) && (err == nil || len(args) == 2) ||
			len(args) == 1 && startsWithDigit(args[0])
	case KindSay:
		attempt = len(args) > 0
		c.Text, err = parseSay(line)
	case KindNote:
		// "Note: I am away" is prose; "NOTE t42 …" names a table, and a
		// lone NOTE asks what to write.
		attempt = len(args) == 0 && kwText == toks[0] || len(args) > 0 && tablename.Check(noteTable(args[0])) == nil
		c, err = parseNote(c, line, args, kwText == toks[0])
	case KindStandings:
		attempt = len(args) <= 1
		c.League, err = parseLeague(kind, args, false)
	case KindSignup, KindWithdraw:
		attempt = len(args) == 1
		c.League, err = parseLeague(kind, args, true)
	case KindZone:
		attempt = len(args) == 1
		c.Zone, err = parseZone(args)
	case KindHelp:
		c.Topic, err = parseHelp(args)
		// "Help me" and "Help, please" are prose; HELP RULES is a command.
		attempt = err == nil
	default:
		attempt = len(args) == 0
		if len(args) > 0 {
			err = newError(ExtraArgument, "%s takes nothing after it, found %q", kind, strings.Join(args, " "))
		}
	}
	if err != nil {
		return nil, err, attempt
	}
	return c, nil, true
}

// tokens splits a line on white space (NBSP included) and drops trailing
// sentence punctuation from the line.
func tokens(line string) []string {
	line = strings.TrimRightFunc(line, func(r rune) bool {
		return unicode.IsSpace(r) || r == '.' || r == '!' || r == ';' || r == ','
	})
	f := strings.Fields(line)
	if len(f) == 2 && f[1] == "?" {
		// French sets "?" apart: "Aide ?". Only EXCHANGE takes a "?" (a
		// blank) as its argument.
		if k, _ := keyword(fold(f[0])); k != KindExchange {
			f = f[:1]
		}
	}
	if len(f) == 1 {
		// "Board?" and "Help?" are questions; in "EXCHANGE QX?" the
		// question mark is a blank, so only a lone keyword loses it.
		f[0] = strings.TrimRight(f[0], "?")
	}
	return f
}

func hasDigit(s string) bool {
	return strings.ContainsAny(s, "0123456789")
}

func parsePlacement(args []string) (*Placement, error) {
	if len(args) == 0 {
		return nil, newError(MissingArgument, "a placement needs a cell, a direction and a word, e.g. PLACE H7 ACROSS CHAT")
	}
	cellTok := args[0]
	rest := args[1:]
	// An arrow may be glued to the cell: "H7→ CHAT".
	for _, arrow := range []string{"→", "↓", "->"} {
		if c, ok := strings.CutSuffix(cellTok, arrow); ok && c != "" {
			cellTok = c
			rest = append([]string{arrow}, rest...)
			break
		}
	}
	p := &Placement{}
	var err error
	if p.Col, p.Row, err = parseCell(cellTok); err != nil {
		return nil, err
	}
	var word string
	switch {
	case len(rest) == 0:
		return nil, newError(MissingArgument, "after the cell %s give a direction and the word, e.g. PLACE %s ACROSS CHAT", cellTok, cellTok)
	case len(rest) == 1:
		if direction(rest[0]) != 0 {
			return nil, newError(MissingArgument, "the word is missing after %s %s", cellTok, rest[0])
		}
		return nil, newError(MissingArgument, "the direction is missing: write ACROSS or DOWN after the cell, e.g. PLACE %s ACROSS %s", cellTok, rest[0])
	case len(rest) > 2:
		return nil, newError(ExtraArgument, "write the cell, the direction and the word only, found %q", strings.Join(rest[2:], " "))
	}
	if d := direction(rest[0]); d != 0 {
		p.Dir, word = d, rest[1]
	} else if d := direction(rest[1]); d != 0 {
		p.Dir, word = d, rest[0]
	} else {
		return nil, newError(BadDirection, "%q is not a direction", rest[0])
	}
	if p.Letters, err = parseWord(word); err != nil {
		return nil, err
	}
	return p, nil
}

// parseCell reads "H7" or "7H" (RULES §2.1), case-insensitive.
func parseCell(tok string) (col, row int, err error) {
	t := strings.ToUpper(tok)
	var letters, digits string
	switch {
	case len(t) >= 2 && isUpperASCII(t[0]):
		letters, digits = t[:1], t[1:]
	case len(t) >= 2 && isUpperASCII(t[len(t)-1]):
		letters, digits = t[len(t)-1:], t[:len(t)-1]
	default:
		return 0, 0, newError(BadCell, "%q is not a cell; write a column A–M then a row 1–13, e.g. H7", tok)
	}
	n, convErr := strconv.Atoi(digits)
	if convErr != nil || digits[0] == '+' || digits[0] == '-' {
		return 0, 0, newError(BadCell, "%q is not a cell; write a column A–M then a row 1–13, e.g. H7", tok)
	}
	col = int(letters[0] - 'A')
	if col >= boardSize {
		return 0, 0, newError(BadCell, "%s: column %s is off the board (A–M)", tok, letters)
	}
	if n < 1 || n > boardSize {
		return 0, 0, newError(BadCell, "%s: row %d is off the board (1–13)", tok, n)
	}
	return col, n - 1, nil
}

func isUpperASCII(c byte) bool { return c >= 'A' && c <= 'Z' }

// parseWord reads a written word (EMAIL §3): letters, tiles already on the
// board in parentheses, a blank as [X] or as a lowercase letter in a word
// that also has capitals. Accents are dropped (RULES §8.2).
func parseWord(w string) ([]Letter, error) {
	hasUpper, hasLower := false, false
	for _, r := range w {
		if unicode.IsUpper(r) {
			hasUpper = true
		} else if unicode.IsLower(r) {
			hasLower = true
		}
	}
	lowerIsBlank := hasUpper && hasLower
	letters := make([]Letter, 0, len(w))
	through, bracket := false, false
	bracketLetters := 0
	for _, r := range w {
		switch r {
		case '(':
			if through || bracket {
				return nil, newError(BadWord, "%q: unexpected '('", w)
			}
			through = true
			continue
		case ')':
			if !through || bracket {
				return nil, newError(BadWord, "%q: unexpected ')'", w)
			}
			through = false
			continue
		case '[':
			if bracket {
				return nil, newError(BadWord, "%q: unexpected '['", w)
			}
			bracket, bracketLetters = true, 0
			continue
		case ']':
			if !bracket || bracketLetters != 1 {
				return nil, newError(BadWord, "%q: a blank is one letter in square brackets, e.g. CH[A]T", w)
			}
			bracket = false
			continue
		}
		var folded string
		if r < utf8.RuneSelf {
			folded = string(rune(unicode.ToUpper(r)))
		} else {
			folded, _ = dict.Normalize(string(r))
		}
		if folded == "" || strings.IndexFunc(folded, func(c rune) bool { return c < 'A' || c > 'Z' }) >= 0 {
			return nil, newError(BadWord, "%q: %q is not a letter; write the word with letters only", w, r)
		}
		blank := bracket || (lowerIsBlank && unicode.IsLower(r))
		if blank && len(folded) != 1 {
			return nil, newError(BadWord, "%q: a blank stands for one letter", w)
		}
		if bracket {
			bracketLetters++
		}
		for i := 0; i < len(folded); i++ {
			letters = append(letters, Letter{Ch: folded[i], Blank: blank, Through: through})
		}
		if len(letters) > boardSize {
			return nil, newError(WordTooLong, "%q has more than %d letters", w, boardSize)
		}
	}
	if through {
		return nil, newError(BadWord, "%q: missing ')'", w)
	}
	if bracket {
		return nil, newError(BadWord, "%q: missing ']'", w)
	}
	if len(letters) == 0 {
		return nil, newError(BadWord, "%q has no letters", w)
	}
	return letters, nil
}

// parseExchange reads EXCHANGE's arguments: ALL (or a synonym), rack
// slots 1–7, or letters with '?' for a blank. Letters may be written
// together (QX?) or apart (Q X ?); commas separate like spaces.
func parseExchange(args []string) (Exchange, error) {
	var parts []string
	for _, a := range args {
		for p := range strings.SplitSeq(a, ",") {
			if p != "" {
				parts = append(parts, p)
			}
		}
	}
	if len(parts) == 0 {
		return Exchange{}, newError(MissingArgument, "say which tiles to exchange, e.g. EXCHANGE QX?, EXCHANGE 1 4 7 or EXCHANGE ALL")
	}
	if len(parts) == 1 && isAllWord(fold(parts[0])) {
		return Exchange{All: true}, nil
	}
	if hasDigit(parts[0]) {
		var slots []int
		for _, p := range parts {
			n, err := strconv.Atoi(p)
			if err != nil || p[0] == '+' || p[0] == '-' {
				return Exchange{}, newError(BadExchange, "%q is not a rack slot; give slots 1 to 7 or letters, not both", p)
			}
			if n < 1 || n > maxRack {
				return Exchange{}, newError(BadExchange, "rack slots are 1 to 7, found %d", n)
			}
			if slices.Contains(slots, n) {
				return Exchange{}, newError(BadExchange, "slot %d is named twice", n)
			}
			slots = append(slots, n)
		}
		slices.Sort(slots)
		return Exchange{Slots: slots}, nil
	}
	var b strings.Builder
	for _, p := range parts {
		for _, r := range p {
			if r == '?' {
				b.WriteByte('?')
				continue
			}
			f := fold(string(r))
			if len(f) == 0 || strings.IndexFunc(f, func(c rune) bool { return c < 'A' || c > 'Z' }) >= 0 {
				return Exchange{}, newError(BadExchange, "%q is not a tile; give letters (? for a blank) or slots 1 to 7, not both", string(r))
			}
			b.WriteString(f)
		}
	}
	if b.Len() > maxRack {
		return Exchange{}, newError(BadExchange, "a rack holds 7 tiles, found %d to exchange", b.Len())
	}
	return Exchange{Letters: b.String()}, nil
}

// isAllWord tells whether a folded word means "all tiles" after EXCHANGE.
func isAllWord(w string) bool {
	switch w {
	case "ALL", "TODO", "TODOS", "TODAS", "TOUT", "TOUTES", "TOUS":
		return true
	}
	return false
}

func parseLang(args []string) (string, error) {
	if len(args) == 0 {
		return "", newError(MissingArgument, "say which language: LANG en, LANG es or LANG fr")
	}
	if len(args) > 1 {
		return "", newError(ExtraArgument, "give one language, found %q", strings.Join(args, " "))
	}
	switch fold(args[0]) {
	case "EN", "ENG", "ENGLISH", "INGLES", "ANGLAIS":
		return "en", nil
	case "ES", "SPA", "SPANISH", "ESPANOL", "CASTELLANO", "ESPAGNOL":
		return "es", nil
	case "FR", "FRA", "FRENCH", "FRANCES", "FRANCAIS":
		return "fr", nil
	}
	return "", newError(BadLang, "%q: choose en, es or fr", args[0])
}

// parseNew reads NEW's optional variant, after an optional "game" word,
// then the addresses of the players invited (LEAGUES §6) and the
// computer's seats ("bot", "bot:strong"), in their canonical form.
func parseNew(args []string) (string, []string, error) {
	if len(args) > 0 {
		switch fold(args[0]) {
		case "GAME", "TABLE", "PARTIDA", "MESA", "PARTIE":
			args = args[1:]
		}
	}
	variant := ""
	if _, _, isBot := botseat.Parse(firstOf(args)); len(args) > 0 && !strings.Contains(args[0], "@") && !isBot {
		switch v := fold(args[0]); v {
		case "LEXIO", "LEXICO":
			variant = strings.ToLower(v)
		default:
			return "", nil, newError(BadVariant, "%q: choose lexio or lexico", args[0])
		}
		args = args[1:]
	}
	var invite []string
	for _, a := range args {
		for part := range strings.SplitSeq(a, ",") {
			if part == "" {
				continue
			}
			if seat, _, ok := botseat.Parse(part); ok {
				// The computer takes a seat at once (it needs no invitation).
				if slices.Contains(invite, seat) {
					return "", nil, newError(BadAddress, "%s", part) // named twice
				}
				invite = append(invite, seat)
				continue
			}
			if !strings.Contains(part, "@") {
				return "", nil, newError(ExtraArgument, "NEW takes a variant and the addresses of the players invited, found %q", part)
			}
			addr, ok := address(part)
			if !ok {
				return "", nil, newError(BadAddress, "%s", part)
			}
			if slices.Contains(invite, addr) {
				return "", nil, newError(BadAddress, "%s", part) // named twice
			}
			invite = append(invite, addr)
		}
	}
	// How many may be invited is the table's rule (it depends on the
	// variant), answered there.
	return variant, invite, nil
}

func firstOf(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return args[0]
}

// address reads one invitee's address as written in a NEW line: a bare
// addr-spec, perhaps in angle brackets or after "mailto:", returned in
// lowercase. Display names and comments have no place on a command line.
func address(s string) (string, bool) {
	s = strings.TrimSuffix(strings.TrimPrefix(s, "<"), ">")
	s = strings.TrimPrefix(strings.TrimPrefix(s, "mailto:"), "MAILTO:")
	a, err := mail.ParseAddress(s)
	if err != nil || a.Name != "" || strings.Count(a.Address, "@") != 1 {
		return "", false
	}
	// A domain without a dot is kept: the demo's players are user@localhost.
	local, domain, _ := strings.Cut(a.Address, "@")
	if local == "" || domain == "" || strings.HasPrefix(domain, ".") || strings.HasSuffix(domain, ".") {
		return "", false
	}
	return strings.ToLower(a.Address), true
}

// parseResign reads RESIGN's table name; "" when there is none, a RESIGN
// that resigns nothing and is answered with the lines that would.
func parseResign(args []string) (string, error) {
	if len(args) == 0 {
		return "", nil
	}
	return parseTable(args)
}

// isOffWord tells whether a folded word ends a vacation: VACATION OFF.
func isOffWord(w string) bool {
	switch w {
	case "OFF", "END", "STOP", "FIN", "TERMINAR", "FINI", "ARRET":
		return true
	}
	return false
}

// parseVacation reads VACATION's argument: a number of days (perhaps
// followed by "days"), two dates YYYY-MM-DD (first and last day), or OFF.
func parseVacation(args []string) (*Vacation, error) {
	switch len(args) {
	case 0:
		return nil, newError(MissingArgument, "say how long: VACATION 7, VACATION 2026-12-20 2026-12-27 or VACATION OFF")
	case 1:
		if isOffWord(fold(args[0])) {
			return &Vacation{Off: true}, nil
		}
	}
	if n, err := strconv.Atoi(args[0]); err == nil && args[0][0] != '+' && args[0][0] != '-' {
		if len(args) == 2 && isDaysWord(fold(args[1])) {
			args = args[:1]
		}
		if len(args) > 1 {
			return nil, newError(ExtraArgument, "VACATION takes a number of days alone, found %q", strings.Join(args[1:], " "))
		}
		if n < 1 || n > MaxVacationDays {
			return nil, newError(BadVacation, "%s", args[0])
		}
		return &Vacation{Days: n}, nil
	}
	if len(args) == 3 && isToWord(fold(args[1])) {
		args = []string{args[0], args[2]} // VACATION 2026-12-20 to 2026-12-27
	}
	if len(args) != 2 {
		return nil, newError(BadVacation, "%s", strings.Join(args, " "))
	}
	from, errFrom := time.Parse(time.DateOnly, args[0])
	to, errTo := time.Parse(time.DateOnly, args[1])
	if errFrom != nil || errTo != nil || to.Before(from) || to.Sub(from) >= MaxVacationDays*24*time.Hour {
		return nil, newError(BadVacation, "%s %s", args[0], args[1])
	}
	return &Vacation{From: from.Format(time.DateOnly), To: to.Format(time.DateOnly)}, nil
}

func isDaysWord(w string) bool {
	switch w {
	case "DAY", "DAYS", "D", "DIA", "DIAS", "JOUR", "JOURS", "J":
		return true
	}
	return false
}

func isToWord(w string) bool {
	switch w {
	case "TO", "-", "UNTIL", "A", "HASTA", "AU", "JUSQU'AU":
		return true
	}
	return false
}

// MaxGiveHours bounds what GIVE reads, far above what it may give (the
// service's bounds: 1 h to 7 days): a number that cannot overflow.
const MaxGiveHours = 99999

// parseGive reads GIVE's table, if named, and time into c: whole hours
// or days, the unit after each number, together or apart, in en/es/fr
// (24h, 2d, 2j, 1d12h, "1 day 12 hours", "2 días", "3 jours"). Where both
// the "GIVE t42 24h" and the "GIVE 24h" readings parse, c is the first,
// c.Unnamed the second.
func parseGive(c *Command, args []string) (*Command, error) {
	var named *Command
	var err error
	if len(args) >= 2 {
		named = &Command{Kind: c.Kind, Language: c.Language}
		if named.Table, err = parseTable(args[:1]); err == nil {
			named.Hours, err = parseHours(args[1:])
		}
		if err != nil {
			named = nil
		}
	}
	hours, unnamedErr := parseHours(args)
	switch {
	case unnamedErr == nil && named != nil:
		named.Unnamed = &Command{Kind: c.Kind, Language: c.Language, Hours: hours}
		return named, nil
	case unnamedErr == nil:
		c.Hours = hours
		return c, nil
	case named != nil:
		return named, nil
	case err != nil:
		return nil, err
	case len(args) == 0 || !startsWithDigit(args[0]):
		return nil, newError(MissingArgument, "say how long, e.g. GIVE 24h in reply to the table's mail, or GIVE t42 24h")
	}
	return nil, unnamedErr
}

// startsWithDigit reports whether w begins with an ASCII digit.
func startsWithDigit(w string) bool {
	return w != "" && w[0] >= '0' && w[0] <= '9'
}

// parseHours reads GIVE's time, in hours.
func parseHours(args []string) (int, error) {
	text := fold(strings.Join(args, ""))
	bad := newError(BadDuration, "%s", strings.Join(args, " "))
	hours := 0
	for i := 0; i < len(text); {
		j := i
		for j < len(text) && text[j] >= '0' && text[j] <= '9' {
			j++
		}
		k := j
		for k < len(text) && (text[k] < '0' || text[k] > '9') {
			k++
		}
		n, convErr := strconv.Atoi(text[i:j])
		if j == i || j-i > 5 || convErr != nil || hoursIn(text[j:k]) == 0 {
			return 0, bad
		}
		if hours += n * hoursIn(text[j:k]); hours > MaxGiveHours {
			return 0, bad
		}
		i = k
	}
	if text == "" {
		return 0, bad
	}
	return hours, nil
}

// hoursIn is the hours in one of a folded time unit: an hour or a day,
// in en/es/fr; 0 for no unit.
func hoursIn(w string) int {
	switch w {
	case "H", "HR", "HRS", "HOUR", "HOURS", "HORA", "HORAS", "HEURE", "HEURES":
		return 1
	case "D", "DAY", "DAYS", "DIA", "DIAS", "J", "JOUR", "JOURS":
		return 24
	}
	return 0
}

// parseNotify reads NOTIFY's choice, in any of the three languages, and
// an optional table name.
func parseNotify(args []string) (string, string, error) {
	if len(args) == 0 {
		return "", "", newError(MissingArgument, "say which mail you want: NOTIFY all, NOTIFY turn or NOTIFY digest")
	}
	if len(args) > 2 {
		return "", "", newError(ExtraArgument, "give a choice and at most a table, found %q", strings.Join(args[2:], " "))
	}
	choice := notifyChoice(fold(args[0]))
	if choice == "" {
		return "", "", newError(BadNotify, "%s", args[0])
	}
	if len(args) == 1 {
		return choice, "", nil
	}
	table, err := parseTable(args[1:])
	return choice, table, err
}

// notifyChoice maps a folded word to all, turn or digest, or "".
func notifyChoice(w string) string {
	switch w {
	case "ALL", "TODO", "TODOS", "TOUT", "TOUS":
		return "all"
	case "TURN", "TURNO", "TOUR":
		return "turn"
	case "DIGEST", "DAILY", "RESUMEN", "DIARIO", "RESUME", "QUOTIDIEN":
		return "digest"
	}
	return ""
}

// parseSay reads SAY's text: the rest of the line as one line of
// printable text (OneLine: a lone CR inside it would be a line break in
// the others' mail, below the quoting), at most MaxSay characters.
func parseSay(line string) (string, error) {
	line = strings.TrimSpace(line)
	i := strings.IndexFunc(line, unicode.IsSpace)
	text := ""
	if i > 0 {
		text = strings.TrimSpace(line[i:])
	}
	text = OneLine(strings.TrimPrefix(OneLine(text, MaxSay+2), ":"), MaxSay+1)
	switch n := utf8.RuneCountInString(text); {
	case n == 0:
		return "", newError(MissingArgument, "say what to tell the other players, e.g. SAY good luck")
	case n > MaxSay:
		return "", newError(TextTooLong, "more than %d characters", MaxSay)
	}
	return text, nil
}

// noteTable is NOTE's table as written, "t42" or "t42:", in lowercase.
func noteTable(arg string) string {
	return strings.ToLower(strings.TrimSuffix(arg, ":"))
}

// parseNote reads NOTE's table, if named, and text into c: the rest of
// the line after the keyword (and after the table's name), its runs of
// spaces made one, at most MaxNote characters of one line of printable
// text. A character that is neither printable nor a space (a control or
// format character: a bidi override, a zero-width space, a lone CR) is
// refused rather than dropped, so that what is kept is what was written.
// The text OFF (or another word that ends a vacation, isOffWord) removes
// the note. Where both the "NOTE t42 keep the S" and the "NOTE keep the
// S" readings parse, c is the first, c.Unnamed the second. The second is
// read only after a bare keyword and a first word of letters and digits
// (accents dropped): "Note: I'm away" and "Note bene, it's late" stay
// prose. A lone word that may be a table's name is read as one, its note
// missing ("NOTE t42"), unless it is OFF.
func parseNote(c *Command, line string, args []string, bare bool) (*Command, error) {
	if len(args) == 0 {
		return nil, newError(MissingNote, "write the note, e.g. NOTE keep the S in reply to the table's mail, or NOTE t42 keep the S; NOTE OFF removes it")
	}
	rest := skipWord(line) // after the keyword
	named := &Command{Kind: c.Kind, Language: c.Language, Table: noteTable(args[0])}
	var err error
	isName := tablename.Check(named.Table) == nil
	if isName {
		named.Text, named.Off, err = noteText(skipWord(rest))
		if errors.Is(err, ErrMissingNote) {
			err = newError(MissingNote, "write the note after the table's name, e.g. NOTE %s keep the S, or NOTE %s OFF", named.Table, named.Table)
		}
	} else {
		err = newError(BadTable, "%s", args[0])
	}
	unnamed := &Command{Kind: c.Kind, Language: c.Language}
	unnamedErr := error(newError(BadTable, "%s", args[0]))
	if bare && tablename.Check(noteTable(fold(args[0]))) == nil {
		unnamed.Text, unnamed.Off, unnamedErr = noteText(rest)
	}
	if unnamedErr == nil && len(args) == 1 && isName && !unnamed.Off {
		unnamedErr = err
	}
	switch {
	case err == nil && unnamedErr == nil:
		named.Unnamed = unnamed
		return named, nil
	case err == nil:
		return named, nil
	case unnamedErr == nil:
		return unnamed, nil
	case isName:
		return nil, err
	}
	return nil, unnamedErr
}

// skipWord is s after its first word and the spaces around it.
func skipWord(s string) string {
	s = strings.TrimLeftFunc(s, unicode.IsSpace)
	i := strings.IndexFunc(s, unicode.IsSpace)
	if i < 0 {
		return ""
	}
	return strings.TrimLeftFunc(s[i:], unicode.IsSpace)
}

// noteText reads a note's text, as parseNote says.
func noteText(rest string) (text string, off bool, err error) {
	var b strings.Builder
	n, space := 0, false
	for i, r := range rest {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(rest[i:], "\uFFFD"):
			return "", false, newError(BadNote, "%U", utf8.RuneError) // a byte that is not UTF-8
		case lineBreak(r) || !Printable(r) && !unicode.IsSpace(r):
			return "", false, newError(BadNote, "%U", r)
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			n, space = n+1, false
		}
		b.WriteRune(r)
		n++
	}
	text = b.String()
	switch {
	case n == 0:
		return "", false, newError(MissingNote, "write the note, e.g. NOTE keep the S, or NOTE OFF")
	case n > MaxNote:
		e := newError(NoteTooLong, "%d characters, over %d", n, MaxNote)
		e.Length = n
		return "", false, e
	case !strings.Contains(text, " ") && isOffWord(fold(strings.TrimRight(text, ".!"))):
		return "", true, nil
	}
	return text, false, nil
}

// lineBreak reports whether r ends a line: inside a NOTE it would break
// the line its text is shown on.
func lineBreak(r rune) bool {
	switch r {
	case '\n', '\r', '\v', '\f', 0x85, 0x2028, 0x2029:
		return true
	}
	return false
}

// parseLeague reads the league name of STANDINGS (optional), SIGNUP and
// WITHDRAW (required): one word, as the host wrote it.
func parseLeague(k Kind, args []string, required bool) (string, error) {
	switch {
	case len(args) == 0 && required:
		return "", newError(MissingArgument, "name the league, e.g. %s autumn", k)
	case len(args) == 0:
		return "", nil
	case len(args) > 1:
		return "", newError(ExtraArgument, "give one league name, found %q", strings.Join(args, " "))
	}
	return args[0], nil
}

// parseHelp reads HELP's optional topic: RULES, in any of the three
// languages, accents optional (AYUDA REGLAS, AIDE RÈGLES). A word that is
// no topic is an error.
func parseHelp(args []string) (string, error) {
	if len(args) == 2 && args[1] == "?" {
		args = args[:1] // "Aide règles ?"
	}
	switch len(args) {
	case 0:
		return "", nil
	case 1:
		switch fold(strings.TrimRight(args[0], "?")) {
		case "RULES", "RULE", "REGLAS", "REGLA", "REGLES", "REGLE":
			return "rules", nil
		}
	}
	return "", newError(ExtraArgument, "HELP takes nothing after it but RULES, found %q", strings.Join(args, " "))
}

// parseTable reads JOIN's (or REMATCH's, RESIGN's, NOTIFY's) table name, in lowercase (as tables are named),
// by tablename.Check's rule.
func parseTable(args []string) (string, error) {
	if len(args) == 0 {
		return "", newError(MissingArgument, "say which table to join, e.g. JOIN t42")
	}
	if len(args) > 1 {
		return "", newError(ExtraArgument, "give one table name, found %q", strings.Join(args, " "))
	}
	t := strings.ToLower(args[0])
	if tablename.Check(t) != nil {
		return "", newError(BadTable, "%s", args[0]) // Detail names the input
	}
	return t, nil
}

// parseZone reads TZ's zone: an IANA name in any case (zone.Load), or
// UTC, given back in its canonical spelling.
func parseZone(args []string) (string, error) {
	if len(args) == 0 {
		return "", newError(MissingArgument, "say which time zone, e.g. TZ Europe/Paris")
	}
	if len(args) > 1 {
		return "", newError(ExtraArgument, "give one time zone, found %q", strings.Join(args, " "))
	}
	loc, err := zone.Load(args[0])
	if err != nil {
		return "", newError(BadZone, "%s", args[0]) // Detail names the input
	}
	return loc.String(), nil
}

// MarshalJSON writes the letter as {"ch":"A","blank":false,"through":false}.
func (l Letter) MarshalJSON() ([]byte, error) {
	return []byte(`{"ch":"` + string(rune(l.Ch)) + `","blank":` + strconv.FormatBool(l.Blank) +
		`,"through":` + strconv.FormatBool(l.Through) + `}`), nil
}
