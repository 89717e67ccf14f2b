package parser

import "testing"

// TestDecls: every kind is declared once, in Kind order, with a name in
// each language, and no word names two commands.
func TestDecls(t *testing.T) {
	seen := map[string]Kind{}
	for i, d := range decls {
		if d.kind != Kind(i+1) {
			t.Errorf("decls[%d] is %s, want kind %d", i, d.kind, i+1)
		}
		if len(d.en) == 0 || len(d.es) == 0 || len(d.fr) == 0 {
			t.Errorf("%s lacks a word in a language: %v %v %v", d.kind, d.en, d.es, d.fr)
		}
		for _, ws := range [][]string{d.en, d.es, d.fr} {
			for _, w := range ws {
				if k, dup := seen[w]; dup {
					t.Errorf("%q names %s and %s", w, k, d.kind)
				}
				seen[w] = d.kind
				if fold(w) != w {
					t.Errorf("%q is not folded", w)
				}
			}
		}
	}
	if len(seen) != len(keywords) {
		t.Errorf("keywords holds %d words, decls %d", len(keywords), len(seen))
	}
}

// TestChangesState: what needs proof of its sender (EMAIL §1.7). A move
// needs a table's reply address anyway; RESIGN, NOTE, GIVE and REMATCH
// change a table only when they name it.
func TestChangesState(t *testing.T) {
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"PLACE G7 ACROSS CHAT", false}, {"EXCHANGE 1 2", false}, {"PASS", false}, {"PREVIEW G7 ACROSS CHAT", false},
		{"BOARD", false}, {"LOG", false}, {"GAMES", false}, {"HELP", false}, {"STANDINGS", false}, {"OUI", false},
		{"RESIGN", false}, {"RESIGN t42", true}, {"REMATCH", false}, {"REMATCH t42", true},
		{"GIVE 24h", false}, {"GIVE t42 24h", true},
		{"LANG fr", true}, {"TZ Europe/Paris", true}, {"NEW lexio", true}, {"JOIN t42", true}, {"START", true},
		{"VACATION 7", true}, {"NOTIFY turn", true}, {"SAY hi", true}, {"DECLINE", true},
		{"SIGNUP autumn", true}, {"WITHDRAW autumn", true}, {"STOP", true},
	} {
		c, err := ParseCommand(tc.line)
		if err != nil {
			t.Errorf("%s: %v", tc.line, err)
			continue
		}
		if got := c.ChangesState(); got != tc.want {
			t.Errorf("%s: ChangesState %v, want %v", tc.line, got, tc.want)
		}
	}
	if Kind(0).Proof() != Changes || Kind(len(decls)+1).Proof() != Changes {
		t.Error("an undeclared kind must change state")
	}
}
