package templates

import (
	"slices"
	"strings"
	"testing"
)

// TestGameOverFacts: the winners, their score and the racks' values are
// the data's (GameOverMsg.Winners, WinScore, Rack.Value), and the mail
// says them: one winner, a shared victory (no golden has one) and a
// blank worth nothing (RULES §11.3, §11.4).
func TestGameOverFacts(t *testing.T) {
	r := Rack{{Slot: 1, Letter: 'Q', Value: 8}, {Slot: 2, Blank: true}, {Slot: 3, Letter: 'E', Value: 1}}
	if v := r.Value(); v != 9 {
		t.Errorf("Q?E is worth %d, want 9", v)
	}
	if v := Rack(nil).Value(); v != 0 {
		t.Errorf("an empty rack is worth %d", v)
	}
	one := sample(GameOver).(GameOverMsg)
	if w, s := one.Winners(), one.WinScore(); !slices.Equal(w, []string{"Bob"}) || s != 110 {
		t.Errorf("winners %q with %d, want Bob with 110", w, s)
	}
	tie := one
	tie.Final = slices.Clone(one.Final)
	tie.Final[1].Score, tie.Final[1].Winner = 110, true
	if w, s := tie.Winners(), tie.WinScore(); !slices.Equal(w, []string{"Bob", "Alice"}) || s != 110 {
		t.Errorf("winners %q with %d, want Bob and Alice with 110", w, s)
	}
	if w, s := (GameOverMsg{}).Winners(), (GameOverMsg{}).WinScore(); w != nil || s != 0 {
		t.Errorf("no lines: winners %q with %d", w, s)
	}
	s := newSet(t)
	says := map[string][2]string{
		"en": {"a shared victory", "Bob and Alice share the victory with 110 points each."},
		"es": {"victoria compartida", "Bob y Alice comparten la victoria con 110 puntos cada uno."},
		"fr": {"victoire partagée", "Bob et Alice se partagent la victoire avec 110 points chacun."},
	}
	for _, lang := range Langs() {
		r, err := s.Render(lang, tie)
		if err != nil {
			t.Fatal(err)
		}
		want := says[lang]
		if !strings.Contains(r.Subject, want[0]) || !strings.Contains(r.Text, want[1]) || !strings.Contains(r.HTML, want[1]) {
			t.Errorf("%s: want %q in the subject and %q in both parts:\n%s\n%s", lang, want[0], want[1], r.Subject, r.Text)
		}
	}
}
