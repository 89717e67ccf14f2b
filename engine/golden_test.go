package engine

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// TestGoldenGame pins a whole random game (actions, log, result): stored
// games are rebuilt from seed + actions, so the bag, the draws and the
// scoring must never change silently.
func TestGoldenGame(t *testing.T) {
	cfg := Config{Players: 3, Seed: 2025, Start: t0}
	g := playRandom(t, cfg, func(*Game, int) {})
	// A game is its configuration and its actions (what a table stores).
	type game struct {
		Config  Config   `json:"config"`
		Actions []Action `json:"actions"`
	}
	out, err := json.MarshalIndent(struct {
		Game   game
		Log    []LogEntry
		Result Result
	}{game{g.Config(), g.Actions()}, g.Log(), g.Result()}, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "game-2025.golden.json")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if string(want) != string(out) {
		t.Errorf("game differs from %s; run go test -update if the change is meant", path)
	}
}
