package dict

import "testing"

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
		{"aujourd'hui", "AUJOURD'HUI", false},
		{"peut-être", "PEUT-ETRE", false},
		{"a2", "A2", false},
		{"pomme de", "POMME DE", false},
		{"", "", false},
	}
	for _, tt := range tests {
		got, ok := Normalize(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Normalize(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
