package board

import (
	"strings"
	"testing"
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
