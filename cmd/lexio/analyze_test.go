package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var idleGame = filepath.Join("..", "..", "gcg", "testdata", "idle.gcg")

// TestAnalyzeCommand: gcg/testdata/idle.gcg worked out by hand. alice's
// CHAT (8) and HAI (21) are her best; then she passes twice holding an S,
// where (CHAT)S, C 2 H 4 A T S 1 on row 7 without a bonus (RULES §2.4),
// scores 9 each time. bob's ECHO is his best, and his exchange and pass
// had no placement (no A, I, S, E or O that fits).
func TestAnalyzeCommand(t *testing.T) {
	code, out, errOut := lexio(t, "analyze", "--dict", testWords, idleGame)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	want := "alice: 18 points left on the table\n" +
		"  turn 5: PASS 0, best PLACE F7 ACROSS (CHAT)S 9\n" +
		"  turn 7: PASS 0, best PLACE F7 ACROSS (CHAT)S 9\n" +
		"bob: 0 points left on the table\n"
	if out != want || errOut != "" {
		t.Errorf("got\n%s(stderr %q), want\n%s", out, errOut, want)
	}

	code, js, _ := lexio(t, "analyze", "--json", "--dict", testWords, idleGame)
	if code != 0 {
		t.Fatal(code)
	}
	lines := strings.Split(strings.TrimSuffix(js, "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d JSON lines: %s", len(lines), js)
	}
	var alice, bob map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &alice); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(lines[1]), &bob); err != nil {
		t.Fatal(err)
	}
	miss := func(turn float64) map[string]any {
		return map[string]any{"turn": turn, "played": "PASS", "score": 0.0, "best": "PLACE F7 ACROSS (CHAT)S", "best_score": 9.0}
	}
	if w := map[string]any{"player": "alice", "left": 18.0, "misses": []any{miss(5), miss(7)}}; !reflect.DeepEqual(alice, w) {
		t.Errorf("alice %s", lines[0])
	}
	if w := map[string]any{"player": "bob", "left": 0.0, "misses": []any{}}; !reflect.DeepEqual(bob, w) {
		t.Errorf("bob %s", lines[1])
	}
}

// A line whose rack is not one the player holds in full is skipped, and
// said; a record with an illegal move is refused.
func TestAnalyzeSkipsAndRefuses(t *testing.T) {
	data, err := os.ReadFile(idleGame)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	partial := filepath.Join(dir, "partial.gcg")
	// bob's exchange written with six of his seven tiles: the replay
	// takes the record's word for it, so that his pass's rack of seven
	// is not one he can hold either.
	text := strings.Replace(string(data), ">bob: LMNPXZK -XZ", ">bob: LMNPXZ -XZ", 1)
	if err := os.WriteFile(partial, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := lexio(t, "analyze", "--dict", testWords, partial)
	if code != 0 || !strings.HasPrefix(out, "alice: 18 points left on the table\n") ||
		!strings.Contains(errOut, "2 turns skipped") {
		t.Errorf("partial rack: %d\n%s%s", code, out, errOut)
	}

	bad := filepath.Join(dir, "bad.gcg")
	text = strings.Replace(string(data), "8F .AI +21 29", "8F .AIX +21 29", 1)
	if err := os.WriteFile(bad, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := lexio(t, "analyze", "--dict", testWords, bad); code != 1 || out != "" || !strings.Contains(errOut, "line 10: tiles not on the rack") {
		t.Errorf("illegal move: %d %q %q", code, out, errOut)
	}
	if code, _, _ := lexio(t, "analyze", "--dict", testWords); code != 2 {
		t.Errorf("no record: status %d", code)
	}
}
