package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// lexio runs one command line in-process and returns its status and output.
func lexio(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }}
	code := run(context.Background(), e, args)
	return code, out.String(), errOut.String()
}

func TestHelpListsEveryCommand(t *testing.T) {
	code, out, _ := lexio(t, "help")
	if code != 0 {
		t.Fatalf("help: status %d", code)
	}
	for _, c := range commands() {
		if !strings.Contains(out, "  lexio "+c.usage+"\n") {
			t.Errorf("help does not list %q", c.usage)
		}
	}
	// Admins are told how players get the commands and the rules by mail.
	for _, s := range []string{"HELP ", "HELP RULES"} {
		if !strings.Contains(out, s) {
			t.Errorf("help does not mention %q", s)
		}
	}
	if code, _, errOut := lexio(t, "frobnicate"); code != 2 || !strings.Contains(errOut, "unknown command") {
		t.Errorf("unknown command: %d %q", code, errOut)
	}
}

func TestReplayCommand(t *testing.T) {
	words := filepath.Join("..", "..", "gcg", "testdata", "words.txt")
	game := filepath.Join("..", "..", "gcg", "testdata", "idle.gcg")
	code, out, errOut := lexio(t, "replay", "--check", "--dict", words, game)
	if code != 0 || !strings.Contains(out, "alice           22") || !strings.Contains(out, "HAI 12, HA 5, AI 4") {
		t.Fatalf("status %d\n%s\n%s", code, out, errOut)
	}

	// A wrong score: --check exits 1 naming the line and the reason.
	data, err := os.ReadFile(game)
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "bad.gcg")
	if err := os.WriteFile(bad, bytes.Replace(data, []byte(".AI +21 29"), []byte(".AI +20 28"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = lexio(t, "replay", "--check", "--dict", words, bad)
	if code != 1 || !strings.Contains(errOut, "line 10: score +20 in the record, +21 computed") {
		t.Fatalf("status %d, stderr %q", code, errOut)
	}
	// Without --check the replay goes on and counts the problem.
	code, out, _ = lexio(t, "replay", "--dict", words, bad)
	if code != 0 || !strings.Contains(out, "1 problems") {
		t.Fatalf("status %d\n%s", code, out)
	}
	if code, _, errOut := lexio(t, "replay", "--variant", "scrabble", "--dict", words, game); code != 2 || !strings.Contains(errOut, "unknown variant") {
		t.Fatalf("bad variant: %d %q", code, errOut)
	}
}

func TestDictBuildCommand(t *testing.T) {
	dir := t.TempDir()
	list := filepath.Join(dir, "words.txt")
	if err := os.WriteFile(list, []byte("chat\nÉté\nete\naujourd'hui\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "words.dawg")
	code, stdout, errOut := lexio(t, "dict", "build", list, out)
	if code != 0 || !strings.Contains(stdout, "2 words kept, 1 dropped") || !strings.Contains(stdout, "1 duplicates") {
		t.Fatalf("status %d\n%s%s", code, stdout, errOut)
	}
	// The compiled file is a dictionary: CHAT is in it, ECHO is not.
	game := filepath.Join("..", "..", "gcg", "testdata", "idle.gcg")
	if code, _, errOut := lexio(t, "replay", "--check", "--dict", out, game); code != 1 || !strings.Contains(errOut, "line 8: not in the dictionary: ECHO") {
		t.Fatalf("replay with a two-word list: %d %q", code, errOut)
	}
}

func TestParseJSON(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "parser", "testdata", "corpus", "*.eml"))
	if len(files) < 40 {
		t.Fatalf("%d corpus files", len(files))
	}
	code, out, errOut := lexio(t, append([]string{"parse", "--json"}, files...)...)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(files) {
		t.Fatalf("%d lines for %d files", len(lines), len(files))
	}
	// The canonical English form of every command of correspondence play,
	// whatever language it was written in.
	want := map[string]string{
		"zone.1@yahoo.fr":                   "TZ Europe/Paris",
		"resign-fr-abandonner.1@yahoo.fr":   "RESIGN t42",
		"resign-bare-es.1@gmail.com":        "RESIGN",
		"vacation-cmd-days-es.1@gmail.com":  "VACATION 7",
		"vacation-cmd-dates-en.1@gmail.com": "VACATION 2026-12-20 2026-12-27",
		"vacation-cmd-off-fr.1@yahoo.fr":    "VACATION OFF",
		"notify-turn-en.1@gmail.com":        "NOTIFY turn",
		"say-good-luck-en.1@gmail.com":      "SAY good luck",
		"note-en.1@gmail.com":               "NOTE t42 keep the S for the triple at M13",
		"note-off-es.1@gmail.com":           "NOTE t42 OFF",
		"note-fr.1@yahoo.fr":                "NOTE t42 garder le W pour la case rouge ; Léa tient le Z",
		"new-invite-en.1@gmail.com":         "NEW lexio alice@x.org bob@y.org",
		"decline-es.1@gmail.com":            "DECLINE",
		"standings-fr.1@yahoo.fr":           "STANDINGS",
		"signup-en.1@gmail.com":             "SIGNUP autumn",
		"withdraw-es.1@gmail.com":           "WITHDRAW autumn",
		"rematch-es.1@gmail.com":            "REMATCH t42",
		"give-en.1@gmail.com":               "GIVE t42 24h",
		"give-es.1@gmail.com":               "GIVE t42 48h",
		"give-fr.1@yahoo.fr":                "GIVE t42 36h",
	}
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		for _, k := range []string{"message_id", "from", "token", "ignored", "command", "error"} {
			if _, ok := m[k].(string); !ok {
				t.Errorf("key %q missing or not a string in %s", k, l)
			}
		}
		id, _ := m["message_id"].(string)
		if w, ok := want[id]; ok {
			if m["command"] != w {
				t.Errorf("%s: command %q, want %q", id, m["command"], w)
			}
			delete(want, id)
		}
	}
	for id := range want {
		t.Errorf("no line for message %s", id)
	}
	// An unreadable file is named, the others are still read.
	code, out, errOut = lexio(t, "parse", "--json", "/nonexistent.eml", files[0])
	if code != 1 || !strings.Contains(errOut, "nonexistent.eml") || strings.Count(out, "\n") != 1 {
		t.Fatalf("status %d, %q, %q", code, out, errOut)
	}
}

// Flags may follow the arguments; "--" ends them.
func TestFlagsAnywhere(t *testing.T) {
	e := &env{stderr: &bytes.Buffer{}}
	for _, tc := range []struct {
		args []string
		c    string
		rest []string
	}{
		{[]string{"demo", "-c", "x.toml"}, "x.toml", []string{"demo"}},
		{[]string{"-c", "x.toml", "a", "b"}, "x.toml", []string{"a", "b"}},
		{[]string{"a", "-c", "x.toml", "b"}, "x.toml", []string{"a", "b"}},
		{[]string{"a", "--", "-c", "b"}, "", []string{"a", "-c", "b"}},
		{[]string{"-", "PASS"}, "", []string{"-", "PASS"}},
	} {
		fs := newFlags(e, "test")
		c := fs.String("c", "", "")
		if err := fs.Parse(tc.args); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if *c != tc.c || strings.Join(fs.Args(), " ") != strings.Join(tc.rest, " ") || fs.NArg() != len(tc.rest) {
			t.Errorf("%v: -c %q, args %q", tc.args, *c, fs.Args())
		}
	}
}

// `lexio help GROUP` lists that group's commands, `lexio help COMMAND`
// gives its usage and flags; an unknown name is an error.
func TestHelpOfOneCommandOrGroup(t *testing.T) {
	code, out, _ := lexio(t, "help", "mail")
	if code != 0 || !strings.Contains(out, "usage: lexio mail COMMAND") || strings.Contains(out, "lexio serve") {
		t.Errorf("help mail: %d\n%s", code, out)
	}
	for _, c := range commands() {
		if strings.HasPrefix(c.name, "mail ") && !strings.Contains(out, "  lexio "+c.usage+"\n") {
			t.Errorf("help mail does not list %q", c.usage)
		}
	}
	code, out, _ = lexio(t, "help", "mail", "read")
	if code != 0 || !strings.HasPrefix(out, "usage: lexio mail read --as ADDRESS") || !strings.Contains(out, "-html") || strings.Contains(out, "mail send") {
		t.Errorf("help mail read: %d\n%s", code, out)
	}
	code, out, _ = lexio(t, "help", "table")
	if code != 0 || !strings.Contains(out, "lexio table show") || strings.Contains(out, "lexio mail") {
		t.Errorf("help table: %d\n%s", code, out)
	}
	code, out, _ = lexio(t, "help", "serve")
	if code != 0 || !strings.HasPrefix(out, "usage: lexio serve [-c FILE]") || !strings.Contains(out, "-c file") {
		t.Errorf("help serve: %d\n%s", code, out)
	}
	if code, _, errOut := lexio(t, "help", "frobnicate"); code != 2 || !strings.Contains(errOut, `no command "frobnicate"`) {
		t.Errorf("help frobnicate: %d %q", code, errOut)
	}
	if code, _, errOut := lexio(t, "mail"); code != 2 || !strings.Contains(errOut, "usage: lexio mail COMMAND") {
		t.Errorf("mail alone: %d %q", code, errOut)
	}
	if code, out, _ := lexio(t, "table", "-h"); code != 0 || !strings.Contains(out, "usage: lexio table COMMAND") {
		t.Errorf("table -h: %d %q", code, out)
	}
}

// Without -c or $LEXIO_CONFIG the commands read ./lexio.toml, else the
// demo's ./data/demo.toml (`make run`); with neither the error says where
// lexio looked.
func TestConfigPathFindsTheDemo(t *testing.T) {
	words, err := filepath.Abs(filepath.Join("..", "..", "gcg", "testdata", "words.txt"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	e := &env{getenv: func(string) string { return "" }}
	if got := configPath(e); got != "lexio.toml" {
		t.Errorf("nothing here: %q", got)
	}
	code, _, errOut := lexio(t, "table", "list")
	if code != 1 || !strings.Contains(errOut, "lexio.toml") || !strings.Contains(errOut, "data/demo.toml") || !strings.Contains(errOut, "-c FILE") {
		t.Errorf("no configuration: %d %q", code, errOut)
	}

	if err := os.Mkdir("data", 0o700); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(dir, "data", "secret")
	writeFile(t, secret, "0123456789abcdef0123456789abcdef\n", 0o600)
	writeFile(t, demoConfigPath, testConfig(t, filepath.Join(dir, "data"), secret, words,
		"[[table]]\nname = \"demo\"\nplayers = [\"alice@localhost\", \"bob@localhost\"]\n"), 0o600)
	if got := configPath(e); got != demoConfigPath {
		t.Errorf("only the demo's: %q", got)
	}
	if code, out, errOut := lexio(t, "check-config"); code != 0 || !strings.HasPrefix(out, "data/demo.toml: ok") {
		t.Errorf("check-config after make run: %d %q %q", code, out, errOut)
	}
	if code, _, errOut := lexio(t, "table", "new", "t2", "alice@localhost", "bob@localhost"); code != 0 {
		t.Errorf("table new after make run: %d %q", code, errOut)
	}
	if code, out, errOut := lexio(t, "table", "list"); code != 0 || !strings.Contains(out, "t2") {
		t.Errorf("table list after make run: %d %q %q", code, out, errOut)
	}

	writeFile(t, "lexio.toml", "", 0o600)
	if got := configPath(e); got != "lexio.toml" {
		t.Errorf("both: %q, want ./lexio.toml first", got)
	}
	e.getenv = func(k string) string {
		if k == "LEXIO_CONFIG" {
			return "/etc/lexio/lexio.toml"
		}
		return ""
	}
	if got := configPath(e); got != "/etc/lexio/lexio.toml" {
		t.Errorf("$LEXIO_CONFIG: %q", got)
	}
}
