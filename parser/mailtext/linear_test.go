package mailtext

import (
	"strings"
	"testing"
)

// repeatTo repeats unit after prefix until the text is about n bytes long,
// each line end counted as CRLF, then adds suffix.
func repeatTo(n int, prefix, unit, suffix string) string {
	crlf := func(s string) int { return len(s) + strings.Count(s, "\n") }
	var b strings.Builder
	b.WriteString(prefix)
	for size := crlf(prefix) + crlf(suffix); size+crlf(unit) <= n; size += crlf(unit) {
		b.WriteString(unit)
	}
	b.WriteString(suffix)
	return b.String()
}

func TestHTMLQuoteDepth(t *testing.T) {
	in := strings.Repeat("<blockquote>", maxQuoteDepth+4) + "PASS" + strings.Repeat("</blockquote>", maxQuoteDepth+4) + "after"
	want := strings.Repeat("> ", maxQuoteDepth) + "PASS\nafter"
	if got := strings.TrimSpace(htmlToText(in)); got != want {
		t.Errorf("htmlToText = %q, want %q", got, want)
	}
}

// TestHTMLTextBound checks that the text of HTML stops at the HTML's own
// length, and that the line it cut is dropped.
func TestHTMLTextBound(t *testing.T) {
	in := strings.Repeat("<blockquote>", maxQuoteDepth) + "<pre>" + strings.Repeat("ab\n", 100)
	got := htmlToText(in)
	if len(got) > len(in) {
		t.Fatalf("%d bytes of text from %d bytes of HTML", len(got), len(in))
	}
	line := strings.Repeat("> ", maxQuoteDepth) + "ab\n"
	if len(got) <= len(in)-len(line) || got != strings.Repeat(line, len(got)/len(line)) {
		t.Errorf("text %q: want whole lines %q up to %d bytes", got, line, len(in))
	}
}

func TestCutText(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"PASS\nBOARD", 20, "PASS\nBOARD"},
		{"PASS\nBOARD", 8, "PASS\n"},
		{"PASS\nBOARD\n", 11, "PASS\nBOARD\n"},
		{"ÉCHANGER", 2, "É"},
		{"ÉCHANGER", 1, ""},
	}
	for _, tc := range tests {
		if got := CutText(tc.in, tc.n); got != tc.want {
			t.Errorf("CutText(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}

// TestSubjectTags checks the one-pass reading of [Lexio …] tags.
func TestSubjectTags(t *testing.T) {
	tests := []struct{ in, want string }{
		{"[Lexio t1] Re: [lexio t2 TOK] PASS", "PASS"},
		{"Re: [Lexio t1", "[Lexio t1"},
		{strings.Repeat("[lexio x]", 1000) + " BOARD", "BOARD"},
	}
	for _, tc := range tests {
		if got := SubjectText(tc.in); got != tc.want {
			t.Errorf("SubjectText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
