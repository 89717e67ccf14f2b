package engine

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/engine/board"
)

// cell parses a cell or fails the test.
func cell(t testing.TB, s string) board.Cell {
	t.Helper()
	c, err := board.ParseCell(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// letters writes a word the way players do: lowercase letters are blanks,
// letters in parentheses are already on the board.
func letters(s string) []board.Letter {
	var out []board.Letter
	through := false
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; {
		case ch == '(':
			through = true
		case ch == ')':
			through = false
		case ch >= 'a' && ch <= 'z':
			out = append(out, board.Letter{Char: ch - 'a' + 'A', Blank: true, Through: through})
		default:
			out = append(out, board.Letter{Char: ch, Through: through})
		}
	}
	return out
}

// move builds a Move from "D7 across CHAT".
func move(t testing.TB, spec string) board.Move {
	t.Helper()
	f := strings.Fields(spec)
	d := board.Across
	if f[1] == "down" {
		d = board.Down
	}
	return board.Move{Start: cell(t, f[0]), Dir: d, Word: letters(f[2])}
}

// dictOf accepts exactly the given words.
type dictOf map[string]bool

func (d dictOf) Contains(w string) bool { return d[w] }

func words(ws ...string) dictOf {
	d := dictOf{}
	for _, w := range ws {
		d[w] = true
	}
	return d
}

// anyWord accepts every word.
type anyWord struct{}

func (anyWord) Contains(string) bool { return true }

var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// at returns t0 plus s seconds.
func at(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }

// wantKind fails unless err is a *MoveError of kind k.
func wantKind(t testing.TB, err error, k board.Kind) *board.MoveError {
	t.Helper()
	me, ok := err.(*board.MoveError)
	if !ok {
		t.Fatalf("error %v (%T), want a *MoveError of kind %s", err, err, k)
	}
	if me.Kind != k {
		t.Fatalf("kind %s (%v), want %s", me.Kind, me, k)
	}
	return me
}

func cellList(cs []board.Cell) string {
	var s []string
	for _, c := range cs {
		s = append(s, c.String())
	}
	return strings.Join(s, " ")
}

// kindOf returns the Kind of err when it is (or wraps) a *MoveError, else "".
func kindOf(err error) board.Kind {
	var me *board.MoveError
	if errors.As(err, &me) {
		return me.Kind
	}
	return ""
}
