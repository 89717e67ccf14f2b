package botseat

import "testing"

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in, seat, level string
		ok              bool
	}{
		{"bot", "bot:medium", Medium, true},
		{" BOT ", "bot:medium", Medium, true},
		{"bot:easy", "bot:easy", Easy, true},
		{"Bot:Strong", "bot:strong", Strong, true},
		{"bot:medium", "bot:medium", Medium, true},
		{"bot:hard", "", "", false},
		{"bot:", "", "", false},
		{"robot", "", "", false},
		{"bot@example.org", "", "", false},
		{"", "", "", false},
	} {
		seat, level, ok := Parse(tc.in)
		if seat != tc.seat || level != tc.level || ok != tc.ok {
			t.Errorf("Parse(%q) = %q %q %v, want %q %q %v", tc.in, seat, level, ok, tc.seat, tc.level, tc.ok)
		}
	}
	for addr, want := range map[string]bool{"bot:strong": true, "bot:easy": true, "bot": false, "alice@example.org": false, "bot:x": false} {
		if Is(addr) != want {
			t.Errorf("Is(%q) = %v", addr, !want)
		}
	}
}
