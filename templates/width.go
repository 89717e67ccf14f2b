package templates

import (
	"strings"
	"unicode"
)

// The text tables line up in columns of a monospaced font: a cell's width
// is its characters, not its bytes, and a combining mark (the accent of
// an "é" written e + U+0301) takes no column of its own.

// textWidth is the columns s takes in a monospaced font.
func textWidth(s string) int {
	n := 0
	for _, r := range s {
		if !unicode.In(r, unicode.Mn, unicode.Me) {
			n++
		}
	}
	return n
}

// padRight fills s with spaces to width columns, left-aligned.
func padRight(width int, s string) string {
	if n := width - textWidth(s); n > 0 {
		return s + strings.Repeat(" ", n)
	}
	return s
}

// widest is the width of a column that holds every item (strings, lists of
// strings or of words), and is at least least wide.
func widest(least int, items ...any) int {
	w := least
	see := func(s string) { w = max(w, textWidth(s)) }
	for _, it := range items {
		switch x := it.(type) {
		case string:
			see(x)
		case []string:
			for _, s := range x {
				see(s)
			}
		case []Word:
			for _, wd := range x {
				see(wd.Word)
			}
		}
	}
	return w
}

// shownNames are the names of a table of players as its rows write them:
// the reader's own followed by you ("Bob (you)"). lines is a []PlayerLine,
// []FinalLine, []RevealedRack or []StandingsLine.
func shownNames(lines any, you string) []string {
	var out []string
	add := func(name string, isYou bool) {
		if isYou {
			name += " " + you
		}
		out = append(out, name)
	}
	switch x := lines.(type) {
	case []PlayerLine:
		for _, p := range x {
			add(p.Name, p.You)
		}
	case []FinalLine:
		for _, f := range x {
			add(f.Name, f.You)
		}
	case []RevealedRack:
		for _, r := range x {
			add(r.Player, false)
		}
	case []StandingsLine:
		for _, s := range x {
			add(s.Name, s.You)
		}
	}
	return out
}
