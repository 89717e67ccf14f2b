package notice

import (
	"errors"
	"slices"
	"strings"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/engine/board"
	"github.com/lexio-mail/lexio/parser"
	"github.com/lexio-mail/lexio/templates"
)

// The presenters turn the engine's per-player views into the templates'
// data. Only engine.View is read for a player, so a message can hold no
// other player's rack before the end.

var bonusKinds = map[board.Bonus]templates.CellKind{
	board.NoBonus: templates.Plain, board.Wall: templates.Wall, board.FountainCell: templates.Fountain,
	board.TW: templates.TW, board.DW: templates.DW, board.TL: templates.TL, board.DL: templates.DL,
	board.Cross: templates.Cross,
}

func Pos(c board.Cell) templates.Pos { return templates.Pos{Row: c.Row, Col: c.Col} }

func BoardData(b *board.Board, r board.Rules, last []board.Cell) templates.Board {
	var out templates.Board
	for row := range board.Size {
		for col := range board.Size {
			c := board.Cell{Col: col, Row: row}
			sq := b.At(c)
			out.Cells[row][col] = templates.Cell{Kind: bonusKinds[r.Bonus(c)], Letter: sq.Letter, Blank: sq.Blank, Value: sq.Value()}
		}
	}
	for _, c := range last {
		out.Cells[c.Row][c.Col].Last = true
	}
	return out
}

func RackData(rack []engine.RackTile) templates.Rack {
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

// UnseenData is what player v.Player has not seen: the game's tiles less
// the board's (a blank counted as "?") and v's own rack. It reads only v.
func UnseenData(v engine.View) templates.Unseen {
	var n [27]int // A–Z, then the blanks
	slot := func(t byte) int {
		if t == board.BlankTile {
			return 26
		}
		return int(t - 'A')
	}
	for _, t := range board.TileSet(v.Rules) {
		n[slot(t)]++
	}
	for row := range board.Size {
		for col := range board.Size {
			switch sq := v.Board.At(board.Cell{Col: col, Row: row}); {
			case sq.Blank:
				n[26]--
			case sq.Letter != 0:
				n[slot(sq.Letter)]--
			}
		}
	}
	for _, t := range v.Rack {
		n[slot(t.Letter[0])]--
	}
	var u templates.Unseen
	for i, c := range n {
		if c <= 0 {
			continue
		}
		l := byte('A' + i)
		switch {
		case i == 26:
			l = board.BlankTile
		case strings.IndexByte("AEIOU", l) >= 0:
			u.Vowels += c
		default:
			u.Consonants += c
		}
		u.Groups = append(u.Groups, strings.Repeat(string(l), c))
		u.Tiles += c
	}
	return u
}

// RackOf turns a revealed rack string ('?' a blank) into rack tiles.
func RackOf(s string) templates.Rack {
	out := make(templates.Rack, len(s))
	for i := 0; i < len(s); i++ {
		out[i] = templates.RackTile{Slot: i + 1, Value: board.TileValue(s[i])}
		if s[i] == board.BlankTile {
			out[i].Blank = true
		} else {
			out[i].Letter = s[i]
		}
	}
	return out
}

// WordText writes a word with its blanks in lowercase, read off the board.
func WordText(b *board.Board, w board.Word) string {
	out := []byte(w.Text)
	for i, c := range w.Cells {
		if i < len(out) && b.At(c).Blank {
			out[i] += 'a' - 'A'
		}
	}
	return string(out)
}

func PlayWords(b *board.Board, p *board.Play) []templates.Word {
	ws := make([]templates.Word, len(p.Words))
	for i, w := range p.Words {
		ws[i] = templates.Word{Word: WordText(b, w), Points: w.Score}
	}
	return ws
}

// LogLines writes engine log entries as the templates' neutral lines.
func LogLines(entries []engine.LogEntry, names []string, b *board.Board) []templates.LogLine {
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
				l.Words = PlayWords(b, e.Play)
				l.Score, l.Bonus = e.Play.Score, e.Play.AllTiles
				l.Down = e.Play.Dir == board.Down
				if len(e.Play.Words) > 0 {
					l.Pos = Pos(e.Play.Words[0].Start)
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
				l.Pos = Pos(*e.Start)
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
			l.End = EndReason(e.Reason)
		case engine.LogResign:
			l.Kind, l.Forfeit, l.Count = templates.LogResign, e.Forfeit, e.Count
		case engine.LogSubst:
			// The names were written when the seat passed, maybe by
			// an older displayName: one line of printable text here.
			l.Kind, l.From, l.To = templates.LogSubstitute, parser.OneLine(e.From, 2*MaxName+8), parser.OneLine(e.To, 2*MaxName+8)
		default:
			continue
		}
		out = append(out, l)
	}
	return out
}

// LastMove is the latest of the lines that end a turn or a seat (a
// placement, an exchange, a pass, an expiry, a resignation); nil when
// there is none yet.
func LastMove(ls []templates.LogLine) *templates.LogLine {
	for i := len(ls) - 1; i >= 0; i-- {
		if isMove(ls[i].Kind) {
			l := ls[i]
			return &l
		}
	}
	return nil
}

func isMove(k templates.LogKind) bool {
	switch k {
	case templates.LogPlace, templates.LogExchange, templates.LogPass, templates.LogExpire, templates.LogResign:
		return true
	}
	return false
}

// BoardWords lists the board's words, runs of two letters or more, row
// by row across then column by column down, blanks in lowercase.
func BoardWords(b *board.Board) []templates.BoardWord {
	var out []templates.BoardWord
	for _, down := range []bool{false, true} {
		for i := range board.Size {
			var run []byte
			var start board.Cell
			for j := 0; j <= board.Size; j++ {
				c := board.Cell{Row: i, Col: j}
				if down {
					c = board.Cell{Row: j, Col: i}
				}
				var sq board.Square
				if j < board.Size {
					sq = b.At(c)
				}
				if sq.Letter != 0 {
					if len(run) == 0 {
						start = c
					}
					l := sq.Letter
					if sq.Blank {
						l += 'a' - 'A'
					}
					run = append(run, l)
					continue
				}
				if len(run) > 1 {
					out = append(out, templates.BoardWord{Word: string(run), Pos: Pos(start), Down: down})
				}
				run = run[:0]
			}
		}
	}
	return out
}

// EndReason is how the templates name an end of the game.
func EndReason(r engine.EndReason) templates.EndReason {
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

// Recent is what a player's state lists of a table's log (ls, from
// LogLines), each thing said once: last, the last move, told in words
// (as LastMove); news, the log's last line when it came after the last
// move (a seat passed), told first; and the n latest of the other lines,
// oldest first. None is a refused play, told once in the answer to it
// (EMAIL §4.1).
func Recent(ls []templates.LogLine, n int) (recent []templates.LogLine, last, news *templates.LogLine) {
	ls = WithoutRefusals(ls)
	at := len(ls) - 1 // the last move's line
	for ; at >= 0 && !isMove(ls[at].Kind); at-- {
	}
	for i, l := range ls {
		switch {
		case i == at:
			last = &l
		case i == len(ls)-1:
			news = &l
		default:
			recent = append(recent, l)
		}
	}
	return Latest(recent, n), last, news
}

// WithoutRefusals is ls without its refused plays (LogRejected): only
// their author sees them, each told once, in the answer to it.
func WithoutRefusals(ls []templates.LogLine) []templates.LogLine {
	return slices.DeleteFunc(slices.Clone(ls), func(l templates.LogLine) bool { return l.Kind == templates.LogRejected })
}

// Latest keeps the last n lines.
func Latest(ls []templates.LogLine, n int) []templates.LogLine {
	if len(ls) > n {
		return ls[len(ls)-n:]
	}
	return ls
}

// Reasons turns a refusal from the engine or the parser into the
// templates' reasons.
func Reasons(err error) []templates.Reason {
	var me *board.MoveError
	var pe *parser.Error
	switch {
	case errors.As(err, &me):
		r := templates.Reason{Kind: templates.ReasonKind(me.Kind), Letters: me.Letters, Words: me.Words,
			Slots: me.Slots, Need: me.Need, Have: me.Have}
		for _, c := range me.Cells {
			r.Cells = append(r.Cells, Pos(c))
		}
		return []templates.Reason{r}
	case errors.As(err, &pe):
		r := templates.Reason{Kind: parserReasons[pe.Kind], Detail: pe.Detail}
		switch pe.Kind {
		case parser.TextTooLong:
			r.Detail, r.Need = "", parser.MaxSay
		case parser.NoteTooLong:
			r.Detail, r.Need, r.Have = "", parser.MaxNote, pe.Length
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
	parser.TextTooLong: templates.ReasonSayTooLong, parser.BadDuration: templates.ReasonBadDuration,
	parser.MissingArgument: templates.ReasonMissingArg, parser.ExtraArgument: templates.ReasonExtraArg,
	parser.MissingNote: templates.ReasonMissingNote, parser.NoteTooLong: templates.ReasonNoteTooLong, parser.BadNote: templates.ReasonBadNote,
}

// Division is a division's standings as the mails show them (LEAGUES
// §9.1), with the address of each line's player, so that each
// recipient's line is marked by address, never by a display name two
// players may share.
type Division struct {
	Standings templates.Standings
	Addrs     []string // of Standings.Lines' players
}

// For is the standings with the line of the player at address marked;
// nil for no division.
func (d *Division) For(address string) *templates.Standings {
	if d == nil {
		return nil
	}
	c := d.Standings
	c.Lines = make([]templates.StandingsLine, len(d.Standings.Lines))
	for i, l := range d.Standings.Lines {
		l.You = d.Addrs[i] == address
		c.Lines[i] = l
	}
	return &c
}
