package parser

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestOneLine: player text is one line of printable text, each class of
// character folded or removed, cut by characters.
func TestOneLine(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		max            int
	}{
		{"plain", "good luck", "good luck", 100},
		{"lone CR", "hi\rRESIGN t42", "hi RESIGN t42", 100},
		{"LF", "hi\nRESIGN t42", "hi RESIGN t42", 100},
		{"CRLF is one break", "hi\r\nRESIGN t42", "hi RESIGN t42", 100},
		{"NEL", "hi\u0085RESIGN t42", "hi RESIGN t42", 100},
		{"line separator", "hi\u2028RESIGN t42", "hi RESIGN t42", 100},
		{"paragraph separator", "hi\u2029RESIGN t42", "hi RESIGN t42", 100},
		{"vertical tab, form feed", "a\vb\fc", "a b c", 100},
		{"tab", "a\tb", "a b", 100},
		{"no-break spaces", "a\u00a0b\u202fc\u3000d", "a b c d", 100},
		{"a run of spaces is one", "a \r\n\r\n  b", "a b", 100},
		{"trimmed", " \r\n\u2028 a b \n\t", "a b", 100},
		{"C0 controls", "a\x00b\x07c\x1b[31md\x7fe", "abc[31mde", 100},
		{"C1 controls", "a\u0080b\u009bc\u009fd", "abcd", 100},
		{"bidi overrides", "a\u202ab\u202bc\u202cd\u202de\u202ef", "abcdef", 100},
		{"bidi isolates", "a\u2066b\u2067c\u2068d\u2069e", "abcde", 100},
		{"bidi marks", "a\u200eb\u200fc\u061cd", "abcd", 100},
		{"zero-width", "a\u200bb\u200cc\u200dd\u2060e\ufefff\u180eg", "abcdefg", 100},
		{"soft hyphen, invisible operators", "a\u00adb\u2062c\u2064d", "abcd", 100},
		{"tags", "a\U000e0001\U000e0041b", "ab", 100},
		{"invisible letters", "a\u3164b\u115fc\uffa0d\u034fe", "abcde", 100},
		{"private use, unassigned", "a\ue000b\U0010fffdc\U000e0080d", "abcd", 100},
		{"accents and emoji stay", "Œuvre à l'été, ñandú 🎉 ★", "Œuvre à l'été, ñandú 🎉 ★", 100},
		{"invalid UTF-8 shown as such", "a\xffb\xc3", "a\ufffdb\ufffd", 100},
		{"cut by characters", "ééééé", "ééé", 3},
		{"cut after removal", "\u202eé\u200bé\u200béé", "éé", 2},
		{"no trailing space at the cut", "ab cd", "ab", 3},
		{"the cut counts the space", "a b c", "a b", 3},
		{"nothing", "\u202e\u200b\r\n", "", 10},
		{"max 0", "abc", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := OneLine(tc.in, tc.max)
			if got != tc.want {
				t.Errorf("OneLine(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
			}
			if !utf8.ValidString(got) {
				t.Errorf("OneLine(%q, %d) = %q: not UTF-8", tc.in, tc.max, got)
			}
		})
	}
}

// TestOneLineLength: the bound is in characters, whatever their bytes.
func TestOneLineLength(t *testing.T) {
	for _, s := range []string{strings.Repeat("a", 600), strings.Repeat("é", 600), strings.Repeat("🎉", 600), strings.Repeat("e\u0301", 600)} {
		got := OneLine(s, 500)
		if n := utf8.RuneCountInString(got); n != 500 || !utf8.ValidString(got) || !strings.HasPrefix(s, got) {
			t.Errorf("OneLine of %d runes: %d runes, valid %v", utf8.RuneCountInString(s), n, utf8.ValidString(got))
		}
	}
}

// TestSayOneLine: SAY's text is one line of printable text; the bound
// counts what is left.
func TestSayOneLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"SAY hi\rRESIGN t42", "hi RESIGN t42"},
		{"SAY hi\u2028RESIGN t42", "hi RESIGN t42"},
		{"SAY \u202egnik\u202c ok", "gnik ok"},
		{"SAY: \u200bgood\x1b[2J luck", "good[2J luck"},
		{"SAY :" + strings.Repeat("é", MaxSay), strings.Repeat("é", MaxSay)},
		{"SAY " + strings.Repeat("é\u200b", MaxSay), strings.Repeat("é", MaxSay)},
	} {
		c, err := ParseCommand(tc.in)
		if err != nil || c.Kind != KindSay || c.Text != tc.want {
			t.Errorf("ParseCommand(%q) = %+v, %v; want SAY %q", tc.in, c, err, tc.want)
		}
	}
	for _, in := range []string{"SAY \u202e\u200b", "SAY " + strings.Repeat("é", MaxSay+1)} {
		if _, err := ParseCommand(in); !errors.Is(err, ErrMissingArgument) && !errors.Is(err, ErrTextTooLong) {
			t.Errorf("ParseCommand(%q): %v, want a refusal", in, err)
		}
	}
}

// TestErrorDetailOneLine: an error's Detail quotes the player's input as
// one line of printable text.
func TestErrorDetailOneLine(t *testing.T) {
	_, err := ParseCommand("JOIN t\u202e42\x1b[0m")
	var pe *Error
	if !errors.As(err, &pe) || pe.Kind != BadTable {
		t.Fatalf("JOIN: %v, want bad_table", err)
	}
	if pe.Detail != "t42[0m" {
		t.Errorf("Detail %q, want %q", pe.Detail, "t42[0m")
	}
}

// FuzzOneLine: whatever comes in, OneLine's result is valid UTF-8, at
// most max characters, printable, with no space at either end and none
// doubled, and is its own OneLine.
func FuzzOneLine(f *testing.F) {
	for _, s := range []string{"good luck", "hi\rRESIGN t42", "a\r\n\u2028\u0085b", "\u202eabc\u200b\x1b[2J", "\xff\xc3", "é\u0301 🎉", "  "} {
		f.Add(s, 10)
	}
	f.Fuzz(func(t *testing.T, s string, max int) {
		max = max%600 + 1
		if max < 1 {
			max += 600
		}
		got := OneLine(s, max)
		switch {
		case !utf8.ValidString(got):
			t.Fatalf("OneLine(%q, %d) = %q: not UTF-8", s, max, got)
		case utf8.RuneCountInString(got) > max:
			t.Fatalf("OneLine(%q, %d) = %q: too long", s, max, got)
		case strings.ContainsFunc(got, func(r rune) bool { return !Printable(r) }):
			t.Fatalf("OneLine(%q, %d) = %q: not printable", s, max, got)
		case got != strings.TrimSpace(got) || strings.Contains(got, "  "):
			t.Fatalf("OneLine(%q, %d) = %q: spaces", s, max, got)
		case OneLine(got, max) != got:
			t.Fatalf("OneLine(%q, %d) = %q, and again %q", s, max, got, OneLine(got, max))
		}
	})
}

// TestShown: what a player chose reaches the admin's terminal with its
// control characters escaped, never raw; plain text as it is.
func TestShown(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"alice@localhost", "alice@localhost"},
		{"élodie@exemple.fr", "élodie@exemple.fr"},
		{"Alice (evil.test)", "Alice (evil.test)"},
		{"eve\x1b[31m@localhost", `"eve\x1b[31m@localhost"`},
		{"\u202emallory@localhost", `"\u202emallory@localhost"`},
		{"a\rRESIGN t1", `"a\rRESIGN t1"`},
		{"a\nb\tc", `"a\nb\tc"`},
		{"zero\u200bwidth\ufeff", `"zero\u200bwidth\ufeff"`},
		{"c1\u009bcsi", `"c1\u009bcsi"`},
		{"raw\x9bbyte", `"raw\x9bbyte"`},
		{"tag\U000e0041", `"tag\U000e0041"`},
		{"nbsp\u00a0", `"nbsp\u00a0"`},
		{`quote" and \ with` + "\x07", `"quote\" and \\ with\x07"`},
	} {
		if got := Shown(tc.in); got != tc.want {
			t.Errorf("Shown(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// TestShownText: a mail's text keeps its lines, spaces and tabs; every
// other character a terminal would act on is escaped.
func TestShownText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Hello Alice,\r\n\r\nBob says:\r\n> hi\r\n", "Hello Alice,\n\nBob says:\n> hi\n"},
		{"> hi\rRESIGN t1\r\n", `> hi\rRESIGN t1` + "\n"},
		{"Bonjour\u00a0!\tà\u202fvous", "Bonjour\u00a0!\tà\u202fvous"},
		{"\x1b[2J\u202eevil\u2028x\u0085y\x9b", `\x1b[2J\u202eevil\u2028x\u0085y\x9b`},
		{`a "quote" \ stays`, `a "quote" \ stays`},
	} {
		if got := ShownText(tc.in); got != tc.want {
			t.Errorf("ShownText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
