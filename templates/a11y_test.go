package templates

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// hasAttr is the value of n's attribute key, and whether it has it.
func hasAttr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

// checkBoardTable checks that the board tb is a data table as issue #28
// wants: not a presentation table, named by an aria-label; its first row
// the column letters A–M, th with scope col; each other row opens with its
// number, th with scope row, and each of its 13 cells has an aria-label
// that opens with the cell's coordinate ("H8: …").
func checkBoardTable(t *testing.T, tb *html.Node) bool {
	t.Helper()
	ok := true
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf("board: "+format, args...)
		ok = false
	}
	if role, has := hasAttr(tb, "role"); has {
		fail("has role %q: a board is a data table", role)
	}
	if name := attr(tb, "aria-label"); name == "" {
		fail("has no aria-label")
	}
	for i, row := range rowsOf(tb) {
		col := 0
		for c := row.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			scope := attr(c, "scope")
			label := attr(c, "aria-label")
			switch {
			case i == 0 && col == 0:
				if c.Data != "td" || nodeText(c) != "" {
					fail("the corner is <%s>%s, want an empty td", c.Data, nodeText(c))
				}
			case i == 0:
				if want := string(rune('A' + col - 1)); c.Data != "th" || scope != "col" || nodeText(c) != want {
					fail("column head %d is <%s scope=%q>%s, want <th scope=\"col\">%s", col, c.Data, scope, nodeText(c), want)
				}
			case col == 0:
				if want := fmt.Sprint(i); c.Data != "th" || scope != "row" || nodeText(c) != want {
					fail("row head %d is <%s scope=%q>%s, want <th scope=\"row\">%s", i, c.Data, scope, nodeText(c), want)
				}
			default:
				at := Pos{Row: i - 1, Col: col - 1}.String()
				if c.Data != "td" || !strings.HasPrefix(label, at+": ") || len(label) <= len(at)+2 {
					fail("cell %s is <%s aria-label=%q>", at, c.Data, label)
				}
			}
			col++
		}
	}
	return ok
}

// TestBoardNames: the board's accessible names in each language, on a
// board with a tile, a blank and a tile of the last move, and every kind
// of empty square.
func TestBoardNames(t *testing.T) {
	t.Parallel()
	s := newSet(t)
	var b Board
	layout(&b)
	put := func(at string, letter byte, blank, last bool) {
		p := pos(at)
		b.Cells[p.Row][p.Col] = Cell{Kind: b.Cells[p.Row][p.Col].Kind, Letter: letter, Blank: blank, Last: last, Value: 3}
	}
	put("H7", 'C', false, false)
	put("I7", 'A', true, true)
	put("J7", 'T', false, true)
	put("H9", 'E', true, false)
	want := map[string]map[string]string{
		"en": {"": "Board", "H7": "C", "I7": "A, blank, last move", "J7": "T, last move", "H9": "E, blank",
			"C1": "empty", "A1": "wall", "G7": "fountain", "D1": "triple word", "C2": "double word",
			"F2": "triple letter", "F4": "double letter", "H8": "cross"},
		"es": {"": "Tablero", "H7": "C", "I7": "A, comodín, última jugada", "J7": "T, última jugada", "H9": "E, comodín",
			"C1": "vacía", "A1": "muro", "G7": "fuente", "D1": "palabra triple", "C2": "palabra doble",
			"F2": "letra triple", "F4": "letra doble", "H8": "cruce"},
		"fr": {"": "Plateau", "H7": "C", "I7": "A, joker, dernier coup", "J7": "T, dernier coup", "H9": "E, joker",
			"C1": "vide", "A1": "mur", "G7": "fontaine", "D1": "mot compte triple", "C2": "mot compte double",
			"F2": "lettre compte triple", "F4": "lettre compte double", "H8": "croisée"},
	}
	for _, lang := range Langs() {
		out, err := s.Fragment(lang, "part.board", b)
		if err != nil {
			t.Fatal(err)
		}
		root, err := html.Parse(strings.NewReader(string(out)))
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		var tables int
		var walk func(*html.Node)
		walk = func(n *html.Node) {
			if n.Type == html.ElementNode && n.Data == "table" {
				tables++
				checkBoardTable(t, n)
			}
			if label, ok := hasAttr(n, "aria-label"); ok {
				at, what, _ := strings.Cut(label, ": ")
				if n.Data == "table" {
					at, what = "", label
				}
				got[at] = what
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
		}
		walk(root)
		if tables != 1 || len(got) != Size*Size+1 {
			t.Errorf("%s: %d tables, %d names", lang, tables, len(got))
		}
		for at, w := range want[lang] {
			if got[at] != w {
				t.Errorf("%s: %q is named %q, want %q", lang, at, got[at], w)
			}
		}
	}
}
