package templates

import (
	stdhtml "html"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestRulesMailHasTheWorkedExamples: the rules by mail give, in every
// language and in both parts, the sums of doc/rules.md's worked examples
// and of its example of a game's end, which engine/doc_test.go checks
// against the scoring.
func TestRulesMailHasTheWorkedExamples(t *testing.T) {
	doc, err := os.ReadFile("../doc/rules.md")
	if err != nil {
		t.Fatal(err)
	}
	docText := strings.Join(strings.Fields(string(doc)), " ")
	for _, says := range []string{"= **8**", "= **12**", "= **16**", ": **122**", "4 + 10 + 2", "× 9 = 90",
		"(8 + 1)", "(0 + 10)", "Bob loses 9, Carol loses 10, Alice gains 19"} {
		if !strings.Contains(docText, says) {
			t.Fatalf("doc/rules.md no longer says %q: update the rules mail with it", says)
		}
	}
	sums := []string{
		"C 2 + H 4 + A 1 + T 1 = 8",
		"T 1 + A 1 + X 8 + I 1 × 2 = 12",
		"(1 + 1) × 2 = 4", "(4 + 1) × 2 = 10", "AU 1 + 1 = 2", "4 + 10 + 2 = 16",
		"(4 + 1 + 1 + 1 + 1 + 1 + 1) × 9 = 90", "UN 1 + 1 = 2", "90 + 2 + 30 = 122",
		"(8 + 1)", "(0 + 10)",
	}
	// The end of a game: the two losses and the gain, in that order.
	ending := regexp.MustCompile(`\D9\D[^.]*\D10\D[^.]*\D19\D`)
	s := newSet(t)
	for _, lang := range Langs() {
		r, err := s.Render(lang, sample(HelpRules))
		if err != nil {
			t.Fatal(err)
		}
		html := stdhtml.UnescapeString(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(r.HTML, " "))
		for part, text := range map[string]string{"text": r.Text, "html": html} {
			text = strings.Join(strings.Fields(text), " ")
			for _, sum := range sums {
				if !strings.Contains(text, sum) {
					t.Errorf("%s %s: no %q", lang, part, sum)
				}
			}
			if !ending.MatchString(text) {
				t.Errorf("%s %s: no end of game with 9, 10 and 19", lang, part)
			}
		}
	}
}
