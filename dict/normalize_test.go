package dict

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// RULES §8.2
func TestNormalize(t *testing.T) {
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{"été", "ETE", true},
		{"cœur", "COEUR", true},
		{"Cæsar", "CAESAR", true},
		{"ÉLÈVE", "ELEVE", true},
		{"naïf", "NAIF", true},
		{"garçon", "GARCON", true},
		{"chat", "CHAT", true},
		{"CHAT", "CHAT", true},
		{"ŒUVRE", "OEUVRE", true},
		{"ÆGIR", "AEGIR", true},
		{"straße", "STRASSE", true},
		{"e\u0301te\u0301", "ETE", true}, // already decomposed
		{"Ångström", "ANGSTROM", true},
		{"ǅ", "Ǆ", false}, // a digraph letter is no A–Z pair
		{"aujourd'hui", "AUJOURD'HUI", false},
		{"peut-être", "PEUT-ETRE", false},
		{"a2", "A2", false},
		{"pomme de", "POMME DE", false},
		{"ch\xffat", "CH\uFFFDAT", false},
		{"\u0301", "", false}, // a lone mark folds to nothing
		{"", "", false},
	}
	for _, tt := range tests {
		got, ok := Normalize(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Normalize(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// normalizeReference is RULES §8.2 written as plainly as possible: the
// whole string through NFD, then one rune at a time. Normalize must agree
// with it everywhere.
func normalizeReference(s string) (string, bool) {
	var b strings.Builder
	ok := true
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
			continue
		case r == 'œ' || r == 'Œ':
			b.WriteString("OE")
			continue
		case r == 'æ' || r == 'Æ':
			b.WriteString("AE")
			continue
		case r == 'ß':
			b.WriteString("SS")
			continue
		}
		r = unicode.ToUpper(r)
		if r < 'A' || r > 'Z' {
			ok = false
		}
		b.WriteRune(r)
	}
	return b.String(), ok && b.Len() > 0
}

// RULES §8.2
func TestNormalizeMatchesReference(t *testing.T) {
	check := func(s string) {
		t.Helper()
		got, gotOK := Normalize(s)
		want, wantOK := normalizeReference(s)
		if got != want || gotOK != wantOK {
			t.Fatalf("Normalize(%q) = %q, %v; reference %q, %v", s, got, gotOK, want, wantOK)
		}
	}
	// Every code point alone, and between letters.
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		check(string(r))
		if r < 0x3000 {
			check("a" + string(r) + "b")
		}
	}
	// Random mixes of ASCII, Latin letters, combining marks and others.
	pool := []rune("aezAEZ -'2éèêëàâäîïôöùûüçÉÈÊÀÇœŒæÆßſıİǅĳ\u0301\u0300\u0308\u0327\u0323\u031b가힣ᄀ")
	rng := rand.New(rand.NewPCG(7, 8))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(8) {
			b.WriteRune(pool[rng.IntN(len(pool))])
		}
		check(b.String())
	}
}

func BenchmarkNormalize(b *testing.B) {
	words := []string{"abaissa", "été", "chantées", "cœur", "ZOO", "aujourd'hui"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Normalize(words[i%len(words)])
	}
}
