package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/analysis"
	"github.com/lexio-mail/lexio/dict"
	"github.com/lexio-mail/lexio/engine/board"
	"github.com/lexio-mail/lexio/gcg"
	"github.com/lexio-mail/lexio/parser"
)

var testWords = filepath.Join("..", "..", "gcg", "testdata", "words.txt")

// gameFile writes the first n lines of gcg/testdata/idle.gcg (its first
// moves: CHAT, ECHO) to a file of its own.
func gameFile(t *testing.T, n int) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "gcg", "testdata", "idle.gcg"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	path := filepath.Join(t.TempDir(), "game.gcg")
	if err := os.WriteFile(path, []byte(strings.Join(lines[:n], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// boardOf replays a record to the board it leaves.
func boardOf(t *testing.T, path string) board.Board {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec, err := gcg.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	d, _, err := dict.Open(testWords)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := gcg.Replay(rec, gcg.Options{Dict: d}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	return sum.Board
}

// readBack parses a printed command as a player's and resolves it on the
// board, as the table does.
func readBack(t *testing.T, b *board.Board, command string) []board.Placement {
	t.Helper()
	c, err := parser.ParseCommand(command)
	if err != nil || c.Kind != parser.KindPlace {
		t.Fatalf("%q reads back as %v, %v", command, c, err)
	}
	// The canonical form, but for a word of blanks only, which
	// Command.String writes in lowercase (read back as ordinary tiles).
	if !strings.Contains(command, "[") && c.String() != command {
		t.Fatalf("%q reads back as %q", command, c.String())
	}
	m := board.Move{Start: board.Cell{Col: c.Place.Col, Row: c.Place.Row}, Dir: board.Across}
	if c.Place.Dir == parser.Down {
		m.Dir = board.Down
	}
	for _, l := range c.Place.Letters {
		m.Word = append(m.Word, board.Letter{Char: l.Ch, Blank: l.Blank, Through: l.Through})
	}
	ps, err := b.Resolve(m)
	if err != nil {
		t.Fatalf("%q: %v", command, err)
	}
	return ps
}

func TestMovesCommand(t *testing.T) {
	game := gameFile(t, 8) // after CHAT and E.HO
	b := boardOf(t, game)
	code, out, errOut := lexio(t, "moves", "--dict", testWords, game, "SAICT?")
	if code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	// HAI doubled by the cross H8, HA, AI doubled: 21 (RULES §5.4), as
	// alice played it in the record.
	if lines[0] != "PLACE F8 ACROSS (H)AI 21" {
		t.Errorf("best move %q", lines[0])
	}
	for _, want := range []string{
		"PLACE F8 ACROSS (H)aI 18",  // the blank for a letter the rack holds: a move of its own
		"PLACE F8 ACROSS (H)A 10",   // one tile, a word each way: once, across (Board.Check)
		"PLACE F7 ACROSS (CHAT)s 8", // a blank
		"PLACE H7 DOWN (A)I 2",      // one tile, one word down
	} {
		if !slices.Contains(lines, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	scores := make([]int, len(lines))
	for i, l := range lines {
		f := strings.Fields(l)
		s, err := strconv.Atoi(f[len(f)-1])
		if err != nil {
			t.Fatalf("%q: no score", l)
		}
		scores[i] = s
		// The command reads back to a placement the engine scores the same.
		ps := readBack(t, &b, strings.Join(f[:len(f)-1], " "))
		if play, err := board.Evaluate(&b, ps, board.Rules{}); err != nil || play.Score != s {
			t.Errorf("%q: engine %d, %v", l, play.Score, err)
		}
	}
	if !slices.IsSortedFunc(scores, func(a, b int) int { return b - a }) {
		t.Errorf("not best first:\n%s", out)
	}

	code, js, _ := lexio(t, "moves", "--json", "--dict", testWords, game, "SAICT?")
	if code != 0 {
		t.Fatal(code)
	}
	jl := strings.Split(strings.TrimSuffix(js, "\n"), "\n")
	if len(jl) != len(lines) {
		t.Fatalf("%d JSON lines, %d text lines", len(jl), len(lines))
	}
	var first map[string]any
	if err := json.Unmarshal([]byte(jl[0]), &first); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"command": "PLACE F8 ACROSS (H)AI", "score": 21.0, "words": []any{"HAI", "HA", "AI"}, "leave": "SCT?"}
	if !reflect.DeepEqual(first, want) {
		t.Errorf("first JSON line %s, want %v", jl[0], want)
	}
	for i, l := range jl {
		var m analysis.Move
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		if m.Command+" "+strconv.Itoa(m.Score) != lines[i] {
			t.Errorf("JSON %s, text %s", l, lines[i])
		}
	}

	if code, out, _ := lexio(t, "moves", "--count", "--dict", testWords, game, "SAICT?"); code != 0 || out != strconv.Itoa(len(lines))+"\n" {
		t.Errorf("--count: %d %q, want %d", code, out, len(lines))
	}
	if code, out, _ := lexio(t, "moves", "--limit", "2", "--dict", testWords, game, "saict?"); code != 0 || out != lines[0]+"\n"+lines[1]+"\n" {
		t.Errorf("--limit 2 (and a lowercase rack): %d %q", code, out)
	}
	// lexico: no cross (RULES §12), so HAI scores 6 + 5 + 2 and ChATS,
	// its T on the letter ×2 of J6, comes first.
	if code, out, _ := lexio(t, "moves", "--variant", "lexico", "--limit", "3", "--dict", testWords, game, "SAICT?"); code != 0 ||
		out != "PLACE J3 DOWN ChATS 15\nPLACE F8 ACROSS (H)AI 13\nPLACE F8 ACROSS (H)Ai 11\n" {
		t.Errorf("lexico: %d %q", code, out)
	}
}

// The first move covers G7 (RULES §4.2); a word of blanks only is written
// in brackets, since CHaT's lowercase is a blank only beside capitals.
func TestMovesFirstAndBlanks(t *testing.T) {
	empty := gameFile(t, 4) // players, no move
	code, out, errOut := lexio(t, "moves", "--dict", testWords, empty, "??")
	if code != 0 {
		t.Fatalf("%d %s", code, errOut)
	}
	var b board.Board
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for _, l := range lines {
		cmd := strings.TrimSuffix(l, " 0")
		if !strings.Contains(cmd, "[") {
			t.Errorf("%q: blanks only, not in brackets", l)
		}
		for _, p := range readBack(t, &b, cmd) {
			if !p.Blank {
				t.Errorf("%q reads back with an ordinary tile", l)
			}
		}
	}
	// HA and AI across and down, through G7, from either cell: 8 moves.
	if len(lines) != 8 || !slices.Contains(lines, "PLACE F7 ACROSS [H][A] 0") || !slices.Contains(lines, "PLACE G6 DOWN [A][I] 0") {
		t.Errorf("first moves of ??:\n%s", out)
	}
	// lexico wants 3 tiles on the first move.
	if code, out, _ := lexio(t, "moves", "--variant", "lexico", "--dict", testWords, empty, "CHATS"); code != 0 || !strings.HasPrefix(out, "PLACE C7 ACROSS CHATS 9\n") || strings.Contains(out, " HA ") {
		t.Errorf("lexico first move: %d %q", code, out)
	}
}

func TestMovesErrors(t *testing.T) {
	game := gameFile(t, 8)
	over := filepath.Join("..", "..", "gcg", "testdata", "idle.gcg")
	garbled := filepath.Join(t.TempDir(), "garbled.gcg")
	os.WriteFile(garbled, []byte("#player1 a\n#player2 b\n>a: ABC 7G\n"), 0o644)
	tests := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{game}, 2, "a game record and a rack"},
		{[]string{game, "ABC", "DEF"}, 2, "a game record and a rack"},
		{[]string{"--variant", "scrabble", game, "ABC"}, 2, "unknown variant"},
		{[]string{"--limit", "-1", game, "ABC"}, 2, "--limit -1"},
		{[]string{"--frobnicate", game, "ABC"}, 2, "flag provided but not defined"},
		{[]string{game, "ABCDEFGH"}, 1, "1 to 7 tiles"},
		{[]string{game, "AB1"}, 1, "letters A–Z and '?'"},
		{[]string{"--variant", "lexico", "--plain", game, "AB?"}, 1, "plain lexico has no blanks"},
		{[]string{game, "ZZ"}, 1, "holds 2 Z, but the game has 1 left"},
		{[]string{game, "HA"}, 1, "holds 1 H, but the game has 0 left"}, // CHAT and ECHO hold both
		{[]string{filepath.Join(t.TempDir(), "none.gcg"), "AB"}, 1, "no such file"},
		{[]string{garbled, "AB"}, 1, "line 3"},
		{[]string{over, "AB"}, 1, "the game is over"},
	}
	for _, tt := range tests {
		code, _, errOut := lexio(t, append([]string{"moves", "--dict", testWords}, tt.args...)...)
		if code != tt.code || !strings.Contains(errOut, tt.msg) {
			t.Errorf("moves %q: %d %q, want %d and %q", tt.args, code, errOut, tt.code, tt.msg)
		}
	}
	// A record the rules refuse: ECHO is not in a list without it.
	other := filepath.Join(t.TempDir(), "other.txt")
	os.WriteFile(other, []byte("chat\n"), 0o644)
	if code, _, errOut := lexio(t, "moves", "--dict", other, game, "AB"); code != 1 || !strings.Contains(errOut, "not in the dictionary: ECHO") {
		t.Errorf("unplayable record: %d %q", code, errOut)
	}
}

// dict build writes OUT.gaddag beside OUT; moves reads it, and refuses
// one built from another list.
func TestMovesWithCompiledGaddag(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "words.dawg")
	code, stdout, errOut := lexio(t, "dict", "build", testWords, out)
	if code != 0 || !strings.Contains(stdout, out+".gaddag: ") {
		t.Fatalf("dict build: %d %s%s", code, stdout, errOut)
	}
	if _, err := dict.OpenGaddag(out + ".gaddag"); err != nil {
		t.Fatal(err)
	}
	game := gameFile(t, 8)
	_, want, _ := lexio(t, "moves", "--dict", testWords, game, "SAICT?")
	if code, got, errOut := lexio(t, "moves", "--dict", out, game, "SAICT?"); code != 0 || got != want {
		t.Errorf("with the compiled files: %d %s\n%s\nwant\n%s", code, errOut, got, want)
	}
	// A GADDAG of another list beside the dictionary.
	list := filepath.Join(dir, "more.txt")
	data, _ := os.ReadFile(testWords)
	os.WriteFile(list, append(data, "chien\n"...), 0o644)
	other := filepath.Join(dir, "more.dawg")
	if code, _, _ := lexio(t, "dict", "build", list, other); code != 0 {
		t.Fatal(code)
	}
	os.Rename(other+".gaddag", out+".gaddag")
	if code, _, errOut := lexio(t, "moves", "--dict", out, game, "SAICT?"); code != 1 || !strings.Contains(errOut, "GADDAG built from another dictionary") {
		t.Errorf("mismatched GADDAG: %d %q", code, errOut)
	}
}
