package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// readmeChecks is what each command of the README's quick start must
// print, as the README says it does. A command the README gains needs
// its line here: the test fails on a command it cannot check.
var readmeChecks = map[string][]string{
	"mail read --as alice@localhost":                                                               {"It is your turn", "Your rack"},
	"mail send --as alice@localhost 'PLACE F7 ACROSS POSE'":                                        {"Played: POSE"},
	"mail read --as bob@localhost":                                                                 {"It is your turn", "POSE"},
	"mail send --as bob@localhost 'EXCHANGE 1 4 7'":                                                {"Exchange done"},
	"mail read --as alice@localhost --list":                                                        {"Your turn", "Played: POSE"},
	"mail send --as carol@localhost --to lexio@localhost 'NEW lexio dave@localhost bob@localhost'": {"Was it you?"},
	"mail send --as carol@localhost CONFIRM":                                                       {"is open"},
	"mail send --as dave@localhost JOIN":                                                           {"You joined"},
	"mail send --as carol@localhost START":                                                         {"Your turn"},
	"mail send --as dave@localhost --to lexio@localhost 'NEW lexio bot'":                           {"Was it you?"},
	"mail send --as dave@localhost CONFIRM":                                                        {"Your turn"},
}

// readmeWords is a word list that holds the README's opening.
const readmeWords = "pose\nposer\nchat\nose\nnous\n"

// The README's quick start, played verbatim on a fresh data directory as
// a newcomer would after `make run`, for a few deals: every command does
// what the README says, the first move is played, and a restart's guide
// says whose turn it is and a move that is then played as written.
func TestReadmeQuickStart(t *testing.T) {
	cmds := readmeCommands(t)
	words := filepath.Join(t.TempDir(), "words.txt")
	if err := os.WriteFile(words, []byte(readmeWords), 0o644); err != nil {
		t.Fatal(err)
	}
	seeds := map[string]bool{}
	for deal := range 3 {
		dir := t.TempDir()
		guide := runDemoFor(t, dir, words, func(cfg string) {
			// The guide comes as the first notices leave: a newcomer
			// reading it gives them the time to land.
			waitFor(t, "alice's first notice", time.Now().Add(20*time.Second), newestMail(t, cfg, "alice@localhost"), "It is your turn")
			for _, c := range cmds {
				want, ok := readmeChecks[strings.TrimPrefix(c.line, "bin/lexio ")]
				if !ok {
					t.Fatalf("the README's %q has no check in readmeChecks", c.line)
				}
				out := readmeRun(t, cfg, c.args)
				for _, w := range want {
					if !strings.Contains(out, w) {
						t.Errorf("deal %d: %s: no %q in\n%s", deal, c.line, w, out)
					}
				}
				if strings.Contains(out, "Refused") {
					t.Errorf("deal %d: %s was refused:\n%s", deal, c.line, out)
				}
			}
		})
		// The guide suggests the README's opening, naming the program
		// as the README runs it.
		if !strings.Contains(guide, "bin/lexio mail send --as alice@localhost '"+demoOpening+"'") {
			t.Errorf("deal %d: the guide does not suggest the README's opening:\n%s", deal, guide)
		}
		b, err := os.ReadFile(filepath.Join(dir, "demo.toml"))
		if err != nil {
			t.Fatal(err)
		}
		seed := regexp.MustCompile(`(?m)^seed = \d+$`).Find(b)
		if seed == nil {
			t.Fatalf("deal %d: demo.toml has no seed:\n%s", deal, b)
		}
		seeds[string(seed)] = true
		if deal > 0 {
			continue
		}
		// Started again, the demo tells the truth: alice is on move (bob
		// exchanged), and the move it suggests is played as written.
		guide = runDemoFor(t, dir, words, func(cfg string) {})
		m := regexp.MustCompile(`bin/lexio mail send --as (\S+) '([^']+)'`).FindStringSubmatch(guide)
		if !strings.Contains(guide, "goes on, alice to play") || m == nil || m[1] != "alice@localhost" {
			t.Fatalf("after a restart the guide says:\n%s", guide)
		}
		runDemoFor(t, dir, words, func(cfg string) {
			out := readmeRun(t, cfg, []string{"bin/lexio", "mail", "send", "--as", m[1], m[2]})
			if strings.Contains(out, "Refused") || !strings.Contains(out, "new mail:") {
				t.Errorf("the guide's %q after a restart:\n%s", m[2], out)
			}
		})
	}
	if len(seeds) < 2 {
		t.Errorf("three fresh demos dealt alike: %v", seeds)
	}
}

// readmeCmd is a command line of the README: as written (without its
// comment) and split as the shell would.
type readmeCmd struct {
	line string
	args []string
}

// readmeCommands are the bin/lexio lines of the README's quick start.
func readmeCommands(t *testing.T) []readmeCmd {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	start, end := strings.Index(text, "## Quick start"), strings.Index(text, "## Playing by mail")
	if start < 0 || end < start {
		t.Fatal("README.md has no quick start before its section on playing by mail")
	}
	var cmds []readmeCmd
	for _, line := range strings.Split(text[start:end], "\n") {
		if strings.HasPrefix(line, "bin/lexio ") {
			args, n := shellWords(t, line)
			cmds = append(cmds, readmeCmd{strings.TrimSpace(line[:n]), args})
		}
	}
	if len(cmds) < 5 {
		t.Fatalf("the quick start has %d commands", len(cmds))
	}
	return cmds
}

// shellWords splits line as sh would, for what the README writes: words,
// single quotes and a comment, which begins at n.
func shellWords(t *testing.T, line string) (words []string, n int) {
	var w strings.Builder
	in, quoted := false, false
	n = len(line)
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case quoted && c == '\'':
			quoted = false
		case quoted:
			w.WriteByte(c)
		case c == '\'':
			quoted, in = true, true
		case c == ' ' || c == '\t':
			if in {
				words = append(words, w.String())
				w.Reset()
				in = false
			}
		case c == '#' && !in:
			n, i = i, len(line)
		case c == '"' || c == '\\' || c == '$' || c == '`':
			t.Fatalf("README: %q: the test reads single quotes only", line)
		default:
			w.WriteByte(c)
			in = true
		}
	}
	if quoted {
		t.Fatalf("README: %q: an unclosed quote", line)
	}
	if in {
		words = append(words, w.String())
	}
	return words, n
}

// runDemoFor runs `bin/lexio demo` on dir until play returns, and returns
// its guide; play gets the configuration that LEXIO_CONFIG names.
func runDemoFor(t *testing.T, dir, words string, play func(cfg string)) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out, errOut := &syncBuffer{}, &syncBuffer{}
	e := &env{stdin: strings.NewReader(""), stdout: out, stderr: errOut, getenv: func(string) string { return "" }, prog: "bin/lexio"}
	done := make(chan int)
	go func() {
		done <- run(ctx, e, []string{"demo", "--data", dir, "--dict", words, "--imap", freeAddr(t), "--smtp", freeAddr(t), "--web", freeAddr(t)})
	}()
	defer func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("demo exited %d: %s", code, errOut.String())
		}
	}()
	waitFor(t, "the demo", time.Now().Add(20*time.Second), func() string { return out.String() + errOut.String() }, "Commands:")
	cfg := filepath.Join(dir, "demo.toml")
	if strings.Contains(out.String(), "Commands:") {
		play(cfg)
	}
	return out.String()
}

// readmeRun runs one README command as the shell would beside the demo,
// its configuration found through LEXIO_CONFIG; it returns what it printed.
func readmeRun(t *testing.T, cfg string, args []string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	getenv := func(k string) string {
		if k == "LEXIO_CONFIG" {
			return cfg
		}
		return ""
	}
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: getenv, prog: args[0]}
	if code := run(context.Background(), e, args[1:]); code != 0 {
		t.Errorf("%s: exit %d\n%s%s", strings.Join(args, " "), code, out.String(), errOut.String())
	}
	return out.String() + errOut.String()
}
