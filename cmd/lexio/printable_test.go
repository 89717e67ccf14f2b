package main

import "testing"

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
		if got := shown(tc.in); got != tc.want {
			t.Errorf("shown(%q) = %s, want %s", tc.in, got, tc.want)
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
		if got := shownText(tc.in); got != tc.want {
			t.Errorf("shownText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
