// Package gcg reads game records in GCG, the format Quackle, Macondo and
// Woogles write, adapted to Lexio's 13 × 13 board (columns A–M, rows 1–13).
//
// A record names its players with pragmas and lists one event per line:
//
//	#player1 alice Alice Martin
//	#player2 bob Bob
//	>alice: ACEHRST 7F CHAT +14 14
//	>bob: EEILNRT 8F .I.RE +9 9        (a dot is a letter already on the board)
//	>alice: AERSTXZ -XZ +0 14           (an exchange)
//	>bob: EEILNTU - +0 9                (a pass)
//	>alice: (EI) +2 40                  (end of game: gains from the other racks)
//	>bob: (EI) -2 31                    (end of game: loses its own rack)
//
// A position with the row first (7F) is played across, with the column
// first (F7) down. A lowercase letter is a blank standing for that letter.
//
// Resignations and forfeits (LEAGUES §2 of the project's rules), which GCG
// does not know, are pragmas, so that other readers skip them:
//
//	#resign carol AEINRST      (carol resigns holding AEINRST)
//	#forfeit carol AEINRST     (the same, recorded by the table for expired turns)
//	#rack1 ACEHRST             (at the end by resignation: player1's rack, revealed)
//
// With three or four players, while two or more are still in, the rack
// named goes back into the bag, which is shuffled; the player is skipped
// from then on and their score stays as it was. When one player would be
// left the game ends there, without any rack adjustment: the rack named is
// the resigner's, revealed, and a #rackN line (the standard GCG pragma for
// a player's rack) reveals each rack still in. A resignation may come off
// turn. A seat changing hands is a #note, which readers ignore:
//
//	#note carol: seat 3 passed from Carol to Dora
//
// A game its league adjudicated at the end of a season (LEAGUES §7.3) has
// #adjudicated, then each rack still in lost as at RULES §11.2, in either
// variant:
//
//	#adjudicated
//	>alice: (EI) -2 38
//
// Position, ParseRack and RackFits give `lexio moves` a position to play
// from (position.go). The package knows nothing of mail.
package gcg

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Kind is what an event does.
type Kind int

// The kinds of event.
const (
	Place      Kind = iota + 1 // tiles placed
	Exchange                   // tiles exchanged
	Pass                       // a pass (or an expired turn)
	EndGain                    // end of game: points gained from the other racks
	EndLoss                    // end of game: points lost for the own rack
	Resign                     // #resign or #forfeit: the player leaves, Rack their tiles
	Reveal                     // #rackN: a rack shown at the end by resignation
	Note                       // #note: written, not read back
	Adjudicate                 // #adjudicated: the league ended the game (LEAGUES §7.3)
)

func (k Kind) String() string {
	switch k {
	case Place:
		return "place"
	case Exchange:
		return "exchange"
	case Pass:
		return "pass"
	case EndGain:
		return "end-gain"
	case EndLoss:
		return "end-loss"
	case Resign:
		return "resign"
	case Reveal:
		return "reveal"
	case Note:
		return "note"
	case Adjudicate:
		return "adjudicate"
	}
	return "unknown"
}

// Board size of Lexio (RULES §2.1).
const size = 13

// Player is one #playerN pragma.
type Player struct {
	Nick, Name string
}

// Event is one move line.
type Event struct {
	Line int    // 1-based line number in the file
	Nick string // the player's nick
	Rack string // the rack as written (letters, '?' for a blank); for End*, the tiles in parentheses
	Kind Kind
	// Place only.
	Col, Row int  // 0-based start cell
	Down     bool // column first in the record
	Word     string
	// Exchange only: the tiles returned as written ("" when only Count is known).
	Tiles string
	Count int
	// Score is the signed score of the event, Total the cumulative score.
	Score, Total int
	// Resign only: recorded as a forfeit.
	Forfeit bool
	// Note only: the text.
	Text string
}

// Pos writes the event's position back in GCG form (7F across, F7 down).
func (e Event) Pos() string {
	col := string(rune('A' + e.Col))
	if e.Down {
		return col + strconv.Itoa(e.Row+1)
	}
	return strconv.Itoa(e.Row+1) + col
}

// Record is a whole game.
type Record struct {
	Players []Player // in #playerN order: player1 opens the game
	Events  []Event
	Title   string
	Lexicon string
}

// Error names the line a record is wrong at.
type Error struct {
	Line int
	Err  error
}

func (e *Error) Error() string { return fmt.Sprintf("gcg: line %d: %v", e.Line, e.Err) }
func (e *Error) Unwrap() error { return e.Err }

// ErrSyntax is wrapped by every error about a line's form.
var ErrSyntax = errors.New("syntax error")

// maxLine bounds a line: a record is text, not a place for megabytes.
const maxLine = 64 << 10

// Read parses a record. It checks the form of every line, not the rules.
func Read(r io.Reader) (*Record, error) {
	rec := &Record{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), maxLine)
	nicks := map[string]bool{}
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(strings.TrimPrefix(sc.Text(), "\ufeff"))
		fail := func(format string, args ...any) error {
			return &Error{Line: n, Err: fmt.Errorf("%w: "+format, append([]any{ErrSyntax}, args...)...)}
		}
		switch {
		case line == "":
		case strings.HasPrefix(line, "#"):
			key, val, _ := strings.Cut(line[1:], " ")
			val = strings.TrimSpace(val)
			switch {
			case strings.HasPrefix(key, "player"):
				idx, err := strconv.Atoi(key[len("player"):])
				if err != nil || idx < 1 || idx > 4 {
					return nil, fail("%q: players are #player1 to #player4", "#"+key)
				}
				if idx != len(rec.Players)+1 {
					return nil, fail("#player%d comes before #player%d", idx, len(rec.Players)+1)
				}
				nick, name, _ := strings.Cut(val, " ")
				if nick == "" {
					return nil, fail("#player%d has no nick", idx)
				}
				if nicks[nick] {
					return nil, fail("nick %q used twice", nick)
				}
				nicks[nick] = true
				rec.Players = append(rec.Players, Player{Nick: nick, Name: strings.TrimSpace(name)})
			case key == "resign" || key == "forfeit":
				nick, rack, _ := strings.Cut(val, " ")
				rack = strings.TrimSpace(rack)
				if !nicks[nick] {
					return nil, &Error{Line: n, Err: fmt.Errorf("unknown player %q (declare it with #playerN)", nick)}
				}
				if err := checkRack(rack); err != nil || strings.Contains(rack, " ") {
					return nil, fail("#%s %s: the rack is letters and '?', as on an event line", key, nick)
				}
				rec.Events = append(rec.Events, Event{Line: n, Nick: nick, Rack: rack, Kind: Resign, Forfeit: key == "forfeit"})
			case strings.HasPrefix(key, "rack"):
				idx, err := strconv.Atoi(key[len("rack"):])
				if err != nil || idx < 1 || idx > len(rec.Players) {
					return nil, fail("%q: a rack pragma names a declared player, #rack1 to #rack%d", "#"+key, len(rec.Players))
				}
				if err := checkRack(val); err != nil || strings.Contains(val, " ") {
					return nil, fail("#%s: the rack is letters and '?'", key)
				}
				rec.Events = append(rec.Events, Event{Line: n, Nick: rec.Players[idx-1].Nick, Rack: val, Kind: Reveal})
			case key == "adjudicated":
				rec.Events = append(rec.Events, Event{Line: n, Kind: Adjudicate})
			case key == "title":
				rec.Title = val
			case key == "lexicon":
				rec.Lexicon = val
			}
			// other pragmas (#description, #note, #id, #character-encoding, …) are kept out
		case strings.HasPrefix(line, ">"):
			ev, err := parseEvent(line[1:])
			if err != nil {
				return nil, fail("%v", err)
			}
			if !nicks[ev.Nick] {
				return nil, &Error{Line: n, Err: fmt.Errorf("unknown player %q (declare it with #playerN)", ev.Nick)}
			}
			ev.Line = n
			rec.Events = append(rec.Events, ev)
		default:
			return nil, fail("a line starts with '#' (pragma) or '>' (event)")
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("gcg: %w", err)
	}
	if len(rec.Players) < 2 {
		return nil, fmt.Errorf("gcg: %w: a record names at least two players (#player1, #player2)", ErrSyntax)
	}
	return rec, nil
}

func parseEvent(s string) (Event, error) {
	var ev Event
	nick, rest, ok := strings.Cut(s, ":")
	if !ok {
		return ev, errors.New("an event is '>nick: RACK ...'")
	}
	ev.Nick = strings.TrimSpace(nick)
	f := strings.Fields(rest)
	if len(f) < 3 {
		return ev, fmt.Errorf("too few fields in %q", strings.TrimSpace(rest))
	}
	var err error
	if ev.Total, err = strconv.Atoi(f[len(f)-1]); err != nil {
		return ev, fmt.Errorf("cumulative score %q is not a number", f[len(f)-1])
	}
	scoreTok := f[len(f)-2]
	if ev.Score, err = strconv.Atoi(scoreTok); err != nil || (scoreTok[0] != '+' && scoreTok[0] != '-') {
		return ev, fmt.Errorf("score %q: want +N or -N", scoreTok)
	}
	f = f[:len(f)-2]

	// End of game: ">nick: (TILES) +N CUM" or "-N".
	if len(f) == 1 && strings.HasPrefix(f[0], "(") && strings.HasSuffix(f[0], ")") {
		ev.Rack = strings.Trim(f[0], "()")
		if err := checkRack(ev.Rack); err != nil {
			return ev, err
		}
		ev.Kind = EndGain
		if scoreTok[0] == '-' {
			ev.Kind = EndLoss // "-0" too: a rack of blanks loses nothing
		}
		return ev, nil
	}
	ev.Rack = f[0]
	if err := checkRack(ev.Rack); err != nil {
		return ev, err
	}
	switch {
	case len(f) == 2 && f[1] == "-":
		ev.Kind = Pass
	case len(f) == 2 && f[1] == "--":
		return ev, errors.New("'--' withdraws a challenged play: Lexio has no challenges (RULES §6.1)")
	case len(f) == 2 && strings.HasPrefix(f[1], "-"):
		ev.Kind = Exchange
		t := f[1][1:]
		if n, err := strconv.Atoi(t); err == nil {
			ev.Count = n
		} else {
			if err := checkRack(t); err != nil {
				return ev, fmt.Errorf("exchanged tiles: %v", err)
			}
			ev.Tiles, ev.Count = t, len(t)
		}
		if ev.Count < 1 || ev.Count > 7 {
			return ev, fmt.Errorf("exchange of %d tiles: 1 to 7", ev.Count)
		}
	case len(f) == 3:
		ev.Kind = Place
		if err := parsePos(f[1], &ev); err != nil {
			return ev, err
		}
		ev.Word = f[2]
		if len(ev.Word) < 1 || len(ev.Word) > size {
			return ev, fmt.Errorf("word %q: 1 to %d letters", ev.Word, size)
		}
		for _, c := range []byte(ev.Word) {
			if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '.') {
				return ev, fmt.Errorf("word %q: letters, lowercase for a blank, '.' for a letter on the board", ev.Word)
			}
		}
	default:
		return ev, fmt.Errorf("cannot read %q: want 'RACK POS WORD', 'RACK -TILES', 'RACK -' or '(TILES)'", strings.Join(f, " "))
	}
	return ev, nil
}

func checkRack(r string) error {
	if len(r) > 100 {
		return fmt.Errorf("rack %q is too long", r[:20]+"…")
	}
	for _, c := range []byte(r) {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '?') {
			return fmt.Errorf("rack %q: letters and '?' only", r)
		}
	}
	return nil
}

// parsePos reads 7F (row first: across) or F7 (column first: down).
func parsePos(p string, ev *Event) error {
	bad := fmt.Errorf("position %q: want row then column (7F, across) or column then row (F7, down), on A–M and 1–13", p)
	if len(p) < 2 || len(p) > 3 {
		return bad
	}
	up := strings.ToUpper(p)
	var col byte
	var row string
	switch {
	case up[0] >= 'A' && up[0] <= 'Z':
		col, row, ev.Down = up[0], up[1:], true
	case up[len(up)-1] >= 'A' && up[len(up)-1] <= 'Z':
		col, row = up[len(up)-1], up[:len(up)-1]
	default:
		return bad
	}
	r, err := strconv.Atoi(row)
	if err != nil || r < 1 || r > size || col > 'A'+size-1 {
		return bad
	}
	ev.Col, ev.Row = int(col-'A'), r-1
	return nil
}
