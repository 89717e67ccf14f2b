// Command lexio runs games of Lexio by email and gives admins the tools
// around it. `lexio help` lists the subcommands.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	_ "time/tzdata" // players' time zones on machines without /usr/share/zoneinfo
)

// command is one subcommand: its usage line, a one-line summary and run.
type command struct {
	name, usage, summary string
	run                  func(ctx context.Context, env *env, args []string) error
}

// env is what a subcommand may touch: no package-level state, so tests run
// several commands in one process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	// prog is the program as it was run (os.Args[0], e.g. bin/lexio),
	// which the hints a command prints name; "" reads as "lexio".
	prog string
}

// program is how hints name this program: as it was run.
func (e *env) program() string {
	if e.prog == "" {
		return "lexio"
	}
	return e.prog
}

// errUsage marks an error that should be followed by the command's usage.
var errUsage = errors.New("usage")

// exitError carries a specific exit status (e.g. replay --check's 1).
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func commands() []command {
	return []command{
		{"help", "help [COMMAND]", "list the commands, or explain one", nil},
		{"check-config", "check-config [-c FILE] [--connect]", "read the configuration and name every problem; --connect also logs into IMAP and SMTP as serve would, sending nothing", runCheckConfig},
		{"replay", "replay [--variant lexio|lexico] [--plain] [--dict FILE] [--check] GAME.gcg", "replay a game record (GCG) through the rules and check its scores", runReplay},
		{"serve", "serve [-c FILE]", "run the daemon: read mail, apply moves, send notices, enforce deadlines", runServe},
		{"demo", "demo [--data DIR] [--imap ADDR] [--smtp ADDR] [--web ADDR]", "the daemon with a built-in mail server and a table for alice and bob (make run)", runDemo},
		{"auth login", "auth login [-c FILE] [--timeout D]", "get the first OAuth2 refresh token ([oauth2] grant = \"refresh_token\"): sign in from a browser on this machine; writes oauth2.refresh_token_file", runAuthLogin},
		{"mail read", "mail read --as ADDRESS [--list] [-n N] [--html | --raw]", "read a player's mailbox on the built-in mail server: the newest message, message N, the list with sizes, or a message as delivered", runMailRead},
		{"mail send", "mail send --as ADDRESS [--table NAME | --to ADDRESS] [--wait D] COMMAND", "send a command as a player through the built-in mail server, as a reply to their newest mail; a move, when their mail holds notices of several tables, to the newest of the table where it is their turn (their turn at several or at none: --table says which)", runMailSend},
		{"table new", "table new [--league L] [--seed N] NAME PLAYER...", "open a table: players in turn order, tiles dealt, notices queued", runTableNew},
		{"table list", "table list", "list the tables", runTableList},
		{"table show", "table show [--gcg] NAME", "show a table's board (columns A–M, rows 1–13, a blank in lowercase), scores and log, numbered as the players' LOG (refusals, private, left out); or its GCG record", runTableShow},
		{"table substitute", "table substitute NAME OLD NEW", "give OLD's seat (rack, score, turn) to NEW, who is mailed the table; OLD's replies stop working", runTableSubstitute},
		{"league list", "league list", "list the leagues and where their seasons are", runLeagueList},
		{"league show", "league show LEAGUE", "show a league's current season (tables, who is to play) and the next season's divisions", runLeagueShow},
		{"league start", "league start LEAGUE", "start a league's next season: every table of every division at once, notices queued", runLeagueStart},
		{"league close", "league close LEAGUE", "end a league's season now: every table still in play adjudicated (each loses their rack's value), the game-over mails queued", runLeagueClose},
		{"league standings", "league standings [--season N] [--json] LEAGUE", "a season's standings, division by division (default: the current season, else the last)", runLeagueStandings},
		{"parse", "parse [--json] [--service ADDRESS] FILE.eml...", "show how messages are read: sender, token, command or error", runParse},
		{"dict build", "dict build WORDLIST OUT", "compile a word list into a dictionary that loads fast (OUT), and its GADDAG for lexio moves (OUT.gaddag)", runDictBuild},
		{"moves", "moves [--variant lexio|lexico] [--plain] [--dict FILE] [--json] [--limit N] [--count] GAME.gcg RACK", "every legal placement of RACK ('?' a blank) after GAME.gcg, best score first, as PLACE commands with their score", runMoves},
		{"analyze", "analyze [--variant lexio|lexico] [--plain] [--dict FILE] [--json] GAME.gcg", "what each player missed in GAME.gcg: the points left on the table (the best placement's score less theirs, turn by turn) and their three biggest misses", runAnalyze},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv, prog: os.Args[0]}
	os.Exit(run(ctx, e, os.Args[1:]))
}

// run executes one command line and returns the exit status.
func run(ctx context.Context, e *env, args []string) int {
	if len(args) == 0 {
		help(e, e.stderr, nil)
		return 2
	}
	name, rest := args[0], args[1:]
	if name == "help" || name == "-h" || name == "--help" {
		if !help(e, e.stdout, rest) {
			fmt.Fprintf(e.stderr, "lexio: no command %q; `%s help` lists them\n", strings.Join(rest, " "), e.program())
			return 2
		}
		return 0
	}
	if name == "table" || name == "dict" || name == "mail" || name == "league" || name == "auth" {
		// two-word commands: "table new", "dict build", "mail send"
		if len(rest) > 0 && (rest[0] == "-h" || rest[0] == "--help") {
			help(e, e.stdout, []string{name})
			return 0
		}
		if len(rest) == 0 || strings.HasPrefix(rest[0], "-") {
			help(e, e.stderr, []string{name})
			return 2
		}
		name, rest = name+" "+rest[0], rest[1:]
	}
	for _, c := range commands() {
		if c.name != name || c.run == nil {
			continue
		}
		err := c.run(ctx, e, rest)
		var ee *exitError
		switch {
		case err == nil:
			return 0
		case errors.Is(err, flag.ErrHelp):
			return 0
		case errors.Is(err, errUsage):
			fmt.Fprintf(e.stderr, "lexio: %v\nusage: %s %s\n", err, e.program(), c.usage)
			return 2
		case errors.As(err, &ee):
			fmt.Fprintf(e.stderr, "lexio %s: %v\n", c.name, ee.err)
			return ee.code
		default:
			fmt.Fprintf(e.stderr, "lexio %s: %v\n", c.name, err)
			return 1
		}
	}
	fmt.Fprintf(e.stderr, "lexio: unknown command %q; `%s help` lists them\n", name, e.program())
	return 2
}

// help writes the general help, or that of one command (its usage,
// summary and flags), or of a group of commands ("mail", "table",
// "league", "dict"). It reports false for a name it does not know.
func help(e *env, w io.Writer, args []string) bool {
	if len(args) == 0 {
		fmt.Fprintln(w, "lexio — Lexio, the crossword tile game, played by email.")
		fmt.Fprintf(w, "\nusage: %s COMMAND [ARGS]\n\ncommands:\n", e.program())
		for _, c := range commands() {
			fmt.Fprintf(w, "  %s %s\n      %s\n", e.program(), c.usage, c.summary)
		}
		fmt.Fprintf(w, "\n`%s help COMMAND` explains one. The configuration file is -c FILE, else\n", e.program())
		fmt.Fprintln(w, "$LEXIO_CONFIG, else ./lexio.toml, else ./data/demo.toml (which `make run` writes).")
		fmt.Fprintln(w, "\nPlayers write HELP to the game's address for the commands by mail, and")
		fmt.Fprintln(w, "HELP RULES for the rules of the game (as in doc/rules.md).")
		return true
	}
	want := strings.Join(args, " ")
	var group []command
	for _, c := range commands() {
		if c.name == want {
			fmt.Fprintf(w, "usage: %s %s\n\n%s\n", e.program(), c.usage, c.summary)
			if c.run != nil {
				// The command's own flags, as -h prints them.
				_ = c.run(context.Background(), &env{stdin: e.stdin, stdout: io.Discard, stderr: w, getenv: e.getenv, prog: e.prog}, []string{"-h"})
			}
			return true
		}
		if strings.HasPrefix(c.name, want+" ") {
			group = append(group, c)
		}
	}
	if len(group) == 0 {
		return false
	}
	fmt.Fprintf(w, "usage: %s %s COMMAND [ARGS]\n\ncommands:\n", e.program(), want)
	for _, c := range group {
		fmt.Fprintf(w, "  %s %s\n      %s\n", e.program(), c.usage, c.summary)
	}
	fmt.Fprintf(w, "\n`%s help %s COMMAND` explains one.\n", e.program(), want)
	return true
}

// flags is a FlagSet that takes flags after the arguments too
// (`lexio table show demo -c FILE`), as admins type them.
type flags struct {
	*flag.FlagSet
	args []string
}

// newFlags makes flags that report to env's stderr.
func newFlags(e *env, name string) *flags {
	fs := flag.NewFlagSet("lexio "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		n := 0
		fs.VisitAll(func(*flag.Flag) { n++ })
		if n > 0 {
			fmt.Fprintf(fs.Output(), "\nflags of %s %s:\n", e.program(), name)
			fs.PrintDefaults()
		}
	}
	return &flags{FlagSet: fs}
}

// Parse reads flags wherever they stand; "--" ends them.
func (f *flags) Parse(args []string) error {
	for {
		if err := f.FlagSet.Parse(args); err != nil {
			return err
		}
		rest := f.FlagSet.Args()
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			f.args = append(f.args, rest...) // after "--", nothing is a flag
			return nil
		}
		if len(rest) == 0 {
			return nil
		}
		f.args = append(f.args, rest[0])
		args = rest[1:]
	}
}

// Args, NArg and Arg give the arguments that are not flags.
func (f *flags) Args() []string { return f.args }
func (f *flags) NArg() int      { return len(f.args) }
func (f *flags) Arg(i int) string {
	if i < 0 || i >= len(f.args) {
		return ""
	}
	return f.args[i]
}

// demoConfigPath is where `make run` (lexio demo) writes its configuration.
const demoConfigPath = "data/demo.toml"

// configPath is the -c flag's default: $LEXIO_CONFIG, else ./lexio.toml,
// else the demo's ./data/demo.toml when only that one exists, so that
// the admin commands find the demo's tables after `make run`.
func configPath(e *env) string {
	if p := e.getenv("LEXIO_CONFIG"); p != "" {
		return p
	}
	if _, err := os.Stat("lexio.toml"); err != nil {
		if _, err := os.Stat(demoConfigPath); err == nil {
			return demoConfigPath
		}
	}
	return "lexio.toml"
}
