package parser

import (
	"errors"
	"os"
	"testing"

	"github.com/lexio-mail/lexio/parser/mailtext"
)

// FuzzParse feeds Parse mutations of the corpus and of the blockquote
// bomb. parse is called without Parse's recover so that a
// panic fails the fuzzer. Invariants: Body within its bound; an ignored
// message has neither command nor error; otherwise exactly one of them;
// errors are *Error; an ambiguous From leaves no sender; a command's
// canonical form parses back to itself.
func FuzzParse(f *testing.F) {
	for _, file := range corpusFiles(f) {
		raw, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	f.Add([]byte("From: a@b.c\r\nContent-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\nContent-Type: multipart/alternative; boundary=y\r\n\r\n--y\r\n\r\nPASS\r\n"))
	f.Add([]byte("From: Friends: a@b.c, (x:y) \"d:e\" <d@e.f>;\r\nFrom: g@h.i\r\n\r\nPASS\r\n"))
	f.Add(blockquoteBomb(16 << 10))
	f.Add(msg("Subject: [lexio a][lexio b][lexio [lexio c]d]", "Hello"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		m := &Message{}
		parse(m, raw, Options{ServiceAddress: testService, MaxBytes: 64 << 10})
		if len(m.Body) > mailtext.MaxBodyKept {
			t.Fatalf("Body of %d bytes, over %d", len(m.Body), mailtext.MaxBodyKept)
		}
		if m.Ignored != "" {
			if m.Command != nil || m.Err != nil {
				t.Fatalf("ignored %q with command %v, err %v", m.Ignored, m.Command, m.Err)
			}
			return
		}
		if (m.Command == nil) == (m.Err == nil) {
			t.Fatalf("command %v and err %v: want exactly one", m.Command, m.Err)
		}
		if m.Err != nil {
			var pe *Error
			if !errors.As(m.Err, &pe) {
				t.Fatalf("error %v is not a *parser.Error", m.Err)
			}
			if pe.Kind == AmbiguousFrom && m.From != "" {
				t.Fatalf("ambiguous From with the sender %q", m.From)
			}
			return
		}
		checkCanonical(t, m.Command)
	})
}

// FuzzParseCommand checks ParseCommand on arbitrary lines: no panic, typed
// errors, canonical forms that parse back to themselves and stay within
// the board.
func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{
		"PLACE H7 ACROSS CHAT", "jouer 7h ↓ c(ha)[t]é", "EXCHANGE 1,4,7", "échanger QX?",
		"LANG es", "NEW lexico", "JOIN t42", "PASS", "APERÇU M13 → ŒUF", "PLACE H7 A CHaT",
		"HELP RULES", "aide règles ?", "AYUDA REGLA",
		"TZ Europe/Paris", "fuseau europe/paris", "ZONA UTC", "TZ Mars/Olympus",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		c, err := ParseCommand(line)
		if err != nil {
			var pe *Error
			if c != nil || !errors.As(err, &pe) {
				t.Fatalf("ParseCommand(%q) = %v, %v: want nil and a *parser.Error", line, c, err)
			}
			return
		}
		checkCanonical(t, c)
	})
}

func checkCanonical(t *testing.T, c *Command) {
	t.Helper()
	s := c.String()
	again, err := ParseCommand(s)
	if err != nil || again.String() != s {
		t.Fatalf("canonical %q does not parse back: %v, %v", s, again, err)
	}
	if p := c.Place; p != nil {
		if p.Col < 0 || p.Col >= boardSize || p.Row < 0 || p.Row >= boardSize || len(p.Letters) == 0 || len(p.Letters) > boardSize {
			t.Fatalf("placement off the board: %+v", p)
		}
		for _, l := range p.Letters {
			if l.Ch < 'A' || l.Ch > 'Z' {
				t.Fatalf("letter %q in %q", l.Ch, s)
			}
		}
	}
}
