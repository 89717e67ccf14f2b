package board

import (
	"os"
	"strings"
	"testing"
)

// TestRulesDocExamples plays the worked examples of doc/rules.md through
// the engine's scoring (RULES §5): the page for players must not promise
// a score the game does not give.
func TestRulesDocExamples(t *testing.T) {
	doc, err := os.ReadFile("../../doc/rules.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(doc)), " ")
	tests := []struct {
		name  string
		board []string // tiles already there
		play  string
		score int
		says  string // the example's sum as the page writes it
	}{
		{"first word", nil, "E7 across CHAT", 8, "C 2 + H 4 + A 1 + T 1 = **8**"},
		{"letter bonus", []string{"E7 across CHAT"}, "H8 down AXI", 12, "T 1 + A 1 + X 8 + I 1 × 2 = **12**"},
		{"cross", []string{"E7 across CHAT"}, "F8 across EU", 16, "4 + 10 + 2 = **16**"},
		{"two triple words", []string{"B8 across N"}, "A4 down VOITURE", 122, "30 for the seven tiles: **122**"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := boardWith(t, tt.board...)
			p, err := Evaluate(b, tiles(t, tt.play), Rules{})
			if err != nil {
				t.Fatal(err)
			}
			if p.Score != tt.score {
				t.Errorf("%s scores %d (words %v), the page says %d", tt.play, p.Score, p.Words, tt.score)
			}
			if !strings.Contains(text, tt.says) {
				t.Errorf("doc/rules.md no longer says %q", tt.says)
			}
		})
	}
}
