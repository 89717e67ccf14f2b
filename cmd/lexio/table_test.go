package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestTableSubstitute: `lexio table substitute` (LEAGUES §4.1) gives a
// seat to a new address, which table show and the GCG record then name;
// each mistake is refused with a reason and a failing status.
func TestTableSubstitute(t *testing.T) {
	_, cfg := adminConfig(t, "")
	if code, _, errOut := lexio(t, "table", "new", "-c", cfg, "t1", "alice@localhost", "bob@localhost", "carol@localhost"); code != 0 {
		t.Fatalf("table new: %d %q", code, errOut)
	}
	code, out, errOut := lexio(t, "table", "substitute", "-c", cfg, "t1", "bob@localhost", "dave@localhost")
	if code != 0 || !strings.Contains(out, "dave@localhost now holds the seat of bob@localhost") {
		t.Fatalf("substitute: %d %q %q", code, out, errOut)
	}
	code, out, _ = lexio(t, "table", "show", "-c", cfg, "t1")
	if code != 0 || !strings.Contains(out, "2. dave@localhost") || !strings.Contains(out, "seat passed from Bob to Dave") {
		t.Errorf("show: %d\n%s", code, out)
	}
	code, out, _ = lexio(t, "table", "show", "-c", cfg, "--gcg", "t1")
	if code != 0 || !strings.Contains(out, "#player2 dave dave@localhost") || !strings.Contains(out, "#note dave: seat 2 passed from Bob to Dave") {
		t.Errorf("show --gcg: %d\n%s", code, out)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"nosuch", "alice@localhost", "eve@localhost"}, 1, "table: no table named nosuch: store: not found"},
		{[]string{"t1", "bob@localhost", "eve@localhost"}, 1, "table t1: bob@localhost holds no seat there"},
		{[]string{"t1", "alice@localhost", "carol@localhost"}, 1, "table t1: carol@localhost holds a seat there already"},
		{[]string{"t1", "alice@localhost"}, 2, "usage: lexio table substitute NAME OLD NEW"},
	} {
		code, _, errOut := lexio(t, append([]string{"table", "substitute", "-c", cfg}, tc.args...)...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: %d %q, want %d and %q", tc.args, code, errOut, tc.code, tc.want)
		}
	}
}

// TestTableShowSpectators: with [web] on, table show gives the spectators'
// link of a table whose league allows spectators (EMAIL §7.1), and none
// otherwise.
func TestTableShowSpectators(t *testing.T) {
	words, err := filepath.Abs(filepath.Join("..", "..", "gcg", "testdata", "words.txt"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret")
	writeFile(t, secret, "0123456789abcdef0123456789abcdef\n", 0o600)
	cfg := filepath.Join(dir, "lexio.toml")
	writeFile(t, cfg, testConfig(t, dir, secret, words, `[web]
listen = "127.0.0.1:0"
base_url = "https://lexio.example.org"
[[league]]
name = "open"
spectators = true
[[league]]
name = "closed"
`), 0o600)
	for _, tc := range []struct{ table, league, want string }{
		{"t3", "open", "spectators: https://lexio.example.org/t/t3/s/"},
		{"t4", "closed", ""},
	} {
		if code, _, errOut := lexio(t, "table", "new", "-c", cfg, "--league", tc.league, tc.table, "alice@localhost", "bob@localhost"); code != 0 {
			t.Fatalf("table new: %d %q", code, errOut)
		}
		code, out, _ := lexio(t, "table", "show", "-c", cfg, tc.table)
		if code != 0 || tc.want != "" && !strings.Contains(out, tc.want) || tc.want == "" && strings.Contains(out, "spectators:") {
			t.Errorf("show %s: %d\n%s", tc.table, code, out)
		}
	}
}

// TestTableListEscapes: an address holding an escape sequence or a bidi
// override reached the admin's terminal raw through table list and table
// show; they print it escaped now.
func TestTableListEscapes(t *testing.T) {
	_, cfg := adminConfig(t, "")
	esc, bidi := "eve\x1b[2j\x1b]0;owned\x07@localhost", "\u202emallory@localhost"
	code, out, errOut := lexio(t, "table", "new", "-c", cfg, "t1", esc, bidi)
	if code != 0 {
		t.Fatalf("table new: %d %q", code, errOut)
	}
	outs := []string{out}
	for _, args := range [][]string{{"list"}, {"show", "t1"}, {"show", "--gcg", "t1"}} {
		code, out, errOut := lexio(t, append([]string{"table", args[0], "-c", cfg}, args[1:]...)...)
		if code != 0 {
			t.Fatalf("table %v: %d %q", args, code, errOut)
		}
		outs = append(outs, out)
	}
	for i, out := range outs {
		if strings.ContainsAny(out, "\x1b\x07\u202e") {
			t.Errorf("output %d prints a control character raw:\n%q", i, out)
		}
		if i < 3 && (!strings.Contains(out, `"eve\x1b[2j\x1b]0;owned\x07@localhost"`) || !strings.Contains(out, `"\u202emallory@localhost"`)) {
			t.Errorf("output %d lacks the escaped addresses:\n%s", i, out)
		}
	}
}
