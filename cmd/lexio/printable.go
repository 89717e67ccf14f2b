package main

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lexio-mail/lexio/parser"
)

// The admin's terminal acts on what it is given: an escape sequence in an
// address recolours or clears it, a bidi override reverses what follows.
// What a player chose (addresses, names, subjects, text) is printed
// through shown or shownText, which write such characters as escapes.

// shown returns s as it is when every character of it is printable
// (parser.Printable), else in double quotes with the others escaped as in
// Go ("\x1b", "\u202e", "\r"; a byte that is not UTF-8 "\xff"), and with
// quotes and backslashes escaped, so that the two read apart.
func shown(s string) string {
	if utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool { return !parser.Printable(r) }) {
		return s
	}
	var b strings.Builder
	b.WriteByte('"')
	escape(&b, s, func(r rune) bool { return r != '"' && r != '\\' && parser.Printable(r) })
	b.WriteByte('"')
	return b.String()
}

// shownAll is shown of each of ss.
func shownAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = shown(s)
	}
	return out
}

// shownText returns a mail's text for the terminal: its lines as they are
// (CRLF or LF), tabs and spaces as they are, every other character that
// parser.Printable refuses escaped as in Go, a lone CR among them.
func shownText(s string) string {
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	var b strings.Builder
	b.Grow(len(s))
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		escape(&b, l, func(r rune) bool { return r == '\t' || unicode.Is(unicode.Zs, r) || parser.Printable(r) })
	}
	return b.String()
}

// escape writes s into b, the characters keep refuses as Go escapes.
func escape(b *strings.Builder, s string, keep func(rune) bool) {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(b, `\x%02x`, s[i])
		case keep(r):
			b.WriteString(s[i : i+size])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x80:
			fmt.Fprintf(b, `\x%02x`, r)
		case r <= 0xFFFF:
			fmt.Fprintf(b, `\u%04x`, r)
		default:
			fmt.Fprintf(b, `\U%08x`, r)
		}
		i += size
	}
}
