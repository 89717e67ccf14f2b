package gcg

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/dict"
	"github.com/lexio-mail/lexio/engine/board"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func testDict(t *testing.T) *dict.Dict {
	t.Helper()
	d, _, err := dict.Open(filepath.Join("testdata", "words.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func readFile(t *testing.T, name string) *Record {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec, err := Read(f)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// TestReplayGolden replays every record under testdata with --check and
// compares the output with its golden file.
func TestReplayGolden(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.gcg"))
	if len(files) == 0 {
		t.Fatal("no records under testdata")
	}
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			var out bytes.Buffer
			sum, err := Replay(readFile(t, name), Options{Dict: testDict(t), Check: true}, &out)
			if err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			if !sum.Over {
				t.Errorf("the game should be over")
			}
			out.WriteString(sum.Board.String())
			golden := filepath.Join("testdata", strings.TrimSuffix(name, ".gcg")+".golden")
			if *update {
				if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if out.String() != string(want) {
				t.Errorf("output differs from %s:\n%s", golden, out.String())
			}
		})
	}
}

// TestReplayIdle checks the hand-computed figures of testdata/idle.gcg.
func TestReplayIdle(t *testing.T) {
	sum, err := Replay(readFile(t, "idle.gcg"), Options{Dict: testDict(t), Check: true}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	// RULES §5.4, §11.2, §11.3: 8 + 21 - 7 and 8 - 18.
	if sum.Scores[0] != 22 || sum.Scores[1] != -10 {
		t.Errorf("scores %v, want [22 -10]", sum.Scores)
	}
}

// TestReplayCheck changes one line of a good record at a time: each
// change must stop --check at that line with the reason.
func TestReplayCheck(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("testdata", "idle.gcg"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, old, new, want string
		line                 int
	}{
		{"score", "CHAT +8 8", "CHAT +9 9", "score +9 in the record, +8 computed", 6},
		{"cumulative", "E.HO +8 8", "E.HO +8 9", "cumulative 9 in the record, 8 computed", 8},
		{"not on rack", ">alice: ACHTEIR 7F", ">alice: ACXTEIR 7F", "not on the rack", 6},
		{"unknown word", "7F CHAT +8 8", "7F CHTA +8 8", "not in the dictionary: CHTA", 6},
		{"first off centre", "7F CHAT +8 8", "6F CHAT +8 8", "first not centre", 6},
		{"out of turn", ">bob: EHOLMNP F6", ">alice: EHOLMNP F6", "out of turn", 8},
		{"empty dot", "F6 E.HO", "F6 EC.O", "the cell is empty", 8},
		{"exchange not on rack", "-XZ +0 8", "-QZ +0 8", "Q is not on the rack", 11},
		{"exchange scores", "-XZ +0 8", "-XZ +3 11", "exchange scores 0", 11},
		{"bad adjustment", "(ENRSUOT) -7 22", "(ENRSUOT) -8 21", "worth 7", 15},
		{"gain after idle end", "(ENRSUOT) -7 22", "(ENRSUOT) +7 36", "only the player who went out", 15},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := strings.Replace(string(good), tt.old, tt.new, 1)
			if text == string(good) {
				t.Fatalf("%q not found in the record", tt.old)
			}
			rec, err := Read(strings.NewReader(text))
			if err != nil {
				t.Fatal(err)
			}
			_, err = Replay(rec, Options{Dict: testDict(t), Check: true}, &bytes.Buffer{})
			var p Problem
			if !errors.Is(err, ErrCheck) || !errors.As(err, &p) || p.Line != tt.line || !strings.Contains(p.Reason, tt.want) {
				t.Fatalf("err = %v; want line %d: %q", err, tt.line, tt.want)
			}
		})
	}
}

// RULES §12: lexico has no rack adjustments and no exchange on a first turn.
func TestReplayLexico(t *testing.T) {
	rec, err := Read(strings.NewReader("#player1 a\n#player2 b\n>a: ACHTEIR 7F CHAT +8 8\n>b: ABCDEFG -AB +0 0\n"))
	if err != nil {
		t.Fatal(err)
	}
	// lexico's first word needs 3 tiles: CHAT has 4, fine; b exchanges on
	// their first turn: refused.
	_, err = Replay(rec, Options{Rules: board.Rules{Variant: board.Lexico}, Dict: testDict(t), Check: true}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "first turn") {
		t.Fatalf("err = %v", err)
	}
}
