// Package tidy finishes a mail's rendered parts: a text part's lines
// trimmed, its blank lines squeezed and its long lines wrapped at spaces;
// an HTML part's blank lines dropped. It knows nothing of the messages,
// their languages or their data.
package tidy

import (
	"bytes"
	"slices"
	"strings"
)

// Whole opens a text line that is never wrapped, however long: Text
// drops it and keeps the line whole, for a line a program reads back.
const Whole = "\x1f"

// Text trims trailing spaces, squeezes runs of blank lines and wraps
// lines longer than width at spaces, continuing with the line's indent
// (plus two for a "- " list item, and "> " again for a quoted line).
func Text(s string, width int) string {
	var out []string
	blank := 0
	for line := range strings.SplitSeq(s, "\n") {
		if line != "-- " { // the signature separator keeps its space
			line = strings.TrimRight(line, " \t\r")
		}
		if line == "" {
			blank++
			if blank > 1 || len(out) == 0 {
				continue
			}
			out = append(out, "")
			continue
		}
		blank = 0
		if whole, ok := strings.CutPrefix(line, Whole); ok {
			out = append(out, whole)
			continue
		}
		out = append(out, wrap(line, width)...)
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return strings.Join(out, "\n") + "\n"
}

func wrap(line string, width int) []string {
	if len([]rune(line)) <= width {
		return []string{line}
	}
	indent := len(line) - len(strings.TrimLeft(line, " "))
	rest := line[indent:]
	cont := indent + markerLen(rest)
	var out []string
	prefix := strings.Repeat(" ", indent)
	next := strings.Repeat(" ", cont)
	if strings.HasPrefix(rest, "> ") {
		// A quote stays a quote on every line (SAY's words).
		next = prefix + "> "
	}
	for {
		avail := width - len([]rune(prefix))
		r := []rune(rest)
		if len(r) <= avail {
			out = append(out, prefix+rest)
			return out
		}
		cut := -1
		for i := avail; i > 0; i-- {
			if r[i] == ' ' {
				cut = i
				break
			}
		}
		if cut <= 0 { // one unbreakable word: break it after it
			cut = slices.Index(r[avail:], ' ')
			if cut < 0 {
				out = append(out, prefix+rest)
				return out
			}
			cut += avail
		}
		out = append(out, prefix+strings.TrimRight(string(r[:cut]), " "))
		rest = strings.TrimLeft(string(r[cut:]), " ")
		prefix = next
	}
}

// markerLen is the width of a list marker opening s: "- ", "* ", "12. ".
func markerLen(s string) int {
	if strings.HasPrefix(s, "- ") || strings.HasPrefix(s, "* ") {
		return 2
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 && strings.HasPrefix(s[i:], ". ") {
		return i + 2
	}
	return 0
}

// HTML drops the blank lines the templates leave and the blanks that
// end lines, in place.
func HTML(b []byte) []byte {
	out := b[:0]
	for rest := b; len(rest) > 0; {
		n := bytes.IndexByte(rest, '\n')
		line := rest
		if n >= 0 {
			line, rest = rest[:n], rest[n+1:]
		} else {
			rest = nil
		}
		line = bytes.TrimRight(line, " \t")
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		// out never passes the line being read: copying forward is safe.
		out = append(out, line...)
		out = append(out, '\n')
	}
	if len(out) == 0 {
		return append(out, '\n')
	}
	return out
}
