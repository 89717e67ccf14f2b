package parser

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Player text is one line of printable text: whatever a player chose — a
// SAY line (LEAGUES §5.3), the local part of their address shown as a name —
// reaches the other players through OneLine, so that it can neither break
// out of its quoting nor hide, reorder or restyle what is around it.

// OneLine returns s as one line of printable text of at most max
// characters (runes, never bytes; max < 1 gives ""): line and paragraph
// breaks (CR, LF, CRLF, NEL, U+2028, U+2029), tabs and other spaces fold
// to a space, a run of them to one; control characters (C0, DEL, C1), format characters (bidi
// overrides, isolates and marks, zero-width spaces and joiners, the
// byte-order mark, soft hyphens, tags), private-use and unassigned code
// points and the invisible fillers are removed; bytes that are not UTF-8
// become U+FFFD. Spaces at either end are trimmed, before and after the
// cut.
func OneLine(s string, max int) string {
	if max < 1 {
		return ""
	}
	var b strings.Builder
	b.Grow(min(len(s), 4*max))
	n := 0
	space := false // a space is pending: written only before a character
	for i := 0; i < len(s) && n < max; {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == '\r' && strings.HasPrefix(s[i+size:], "\n") {
			size++ // CRLF is one break
		}
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			r = utf8.RuneError // a byte that is not UTF-8, shown as such
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case !Printable(r):
			continue
		}
		if space {
			if n+1 == max {
				break // the space would end the line: trimmed
			}
			b.WriteByte(' ')
			n++
			space = false
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// Printable reports whether r is shown as it is in player text: a letter,
// mark, number, punctuation, symbol or the space, and not one of the
// characters that draw nothing (OneLine removes the others).
func Printable(r rune) bool {
	return r == ' ' || unicode.IsGraphic(r) && !unicode.IsSpace(r) && !invisible(r)
}

// invisible reports whether r, though a letter or a mark, draws nothing:
// the Hangul fillers, the combining grapheme joiner, the Khmer inherent
// vowels and the Mongolian variation selectors. (Format characters, the
// other invisible ones, are not graphic.)
func invisible(r rune) bool {
	switch r {
	case 0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B, 0x180C, 0x180D, 0x180F, 0x3164, 0xFFA0:
		return true
	}
	return false
}

// The admin's terminal acts on what it is given: an escape sequence in an
// address recolours or clears it, a bidi override reverses what follows.
// What a player chose (addresses, names, subjects, text) is printed
// through Shown or ShownText, which write such characters as escapes.

// Shown returns s as it is when every character of it is printable
// (Printable), else in double quotes with the others escaped as in
// Go ("\x1b", "\u202e", "\r"; a byte that is not UTF-8 "\xff"), and with
// quotes and backslashes escaped, so that the two read apart.
func Shown(s string) string {
	if utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool { return !Printable(r) }) {
		return s
	}
	var b strings.Builder
	b.WriteByte('"')
	escape(&b, s, func(r rune) bool { return r != '"' && r != '\\' && Printable(r) })
	b.WriteByte('"')
	return b.String()
}

// ShownText returns a mail's text for the terminal: its lines as they are
// (CRLF or LF), tabs and spaces as they are, every other character that
// Printable refuses escaped as in Go, a lone CR among them.
func ShownText(s string) string {
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	var b strings.Builder
	b.Grow(len(s))
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		escape(&b, l, func(r rune) bool { return r == '\t' || unicode.Is(unicode.Zs, r) || Printable(r) })
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

// ShownAll is Shown of each of ss.
func ShownAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = Shown(s)
	}
	return out
}
