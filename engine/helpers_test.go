package engine

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// cell parses a cell or fails the test.
func cell(t testing.TB, s string) Cell {
	t.Helper()
	c, err := ParseCell(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// letters writes a word the way players do: lowercase letters are blanks,
// letters in parentheses are already on the board.
func letters(s string) []Letter {
	var out []Letter
	through := false
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; {
		case ch == '(':
			through = true
		case ch == ')':
			through = false
		case ch >= 'a' && ch <= 'z':
			out = append(out, Letter{Char: ch - 'a' + 'A', Blank: true, Through: through})
		default:
			out = append(out, Letter{Char: ch, Through: through})
		}
	}
	return out
}

// move builds a Move from "D7 across CHAT".
func move(t testing.TB, spec string) Move {
	t.Helper()
	f := strings.Fields(spec)
	d := Across
	if f[1] == "down" {
		d = Down
	}
	return Move{Start: cell(t, f[0]), Dir: d, Word: letters(f[2])}
}

// tiles builds placements from "D7 across CHAT" (lowercase: blanks), every
// letter a placed tile.
func tiles(t testing.TB, spec string) []Placement {
	t.Helper()
	m := move(t, spec)
	ps := make([]Placement, len(m.Word))
	for i, l := range m.Word {
		ps[i] = Placement{Cell: m.Start.Next(m.Dir, i), Letter: l.Char, Blank: l.Blank}
	}
	return ps
}

// boardWith puts words on an empty board without any rule check.
func boardWith(t testing.TB, specs ...string) *Board {
	t.Helper()
	var b Board
	for _, s := range specs {
		for _, p := range tiles(t, s) {
			b.put(p.Cell, Square{Letter: p.Letter, Blank: p.Blank})
		}
	}
	return &b
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
func wantKind(t testing.TB, err error, k Kind) *MoveError {
	t.Helper()
	me, ok := err.(*MoveError)
	if !ok {
		t.Fatalf("error %v (%T), want a *MoveError of kind %s", err, err, k)
	}
	if me.Kind != k {
		t.Fatalf("kind %s (%v), want %s", me.Kind, me, k)
	}
	return me
}

func cellList(cs []Cell) string {
	var s []string
	for _, c := range cs {
		s = append(s, c.String())
	}
	return strings.Join(s, " ")
}

// kindOf returns the Kind of err when it is (or wraps) a *MoveError, else "".
func kindOf(err error) Kind {
	var me *MoveError
	if errors.As(err, &me) {
		return me.Kind
	}
	return ""
}
