package store

import "testing"

// TestPersonKey: the spellings of one mailbox give one key; those of two
// mailboxes, two.
func TestPersonKey(t *testing.T) {
	same := [][]string{
		{"victim@example.org", " Victim@Example.ORG ", "victim+1@example.org", "VICTIM+afterstop@example.org",
			`"victim"@example.org`, `"victim+x"@example.org`, `"vic\tim"@example.org`, "victim+a+b@example.org"},
		{"john.smith@gmail.com", "johnsmith@gmail.com", "J.O.H.N.Smith+lexio@GoogleMail.com", "john.smith@googlemail.com"},
		{"+tag@example.org", "+TAG@example.org"},
		{"no-at-all", " NO-AT-ALL "},
	}
	for _, group := range same {
		want := PersonKey(group[0])
		for _, a := range group[1:] {
			if got := PersonKey(a); got != want {
				t.Errorf("PersonKey(%q) = %q, want %q as for %q", a, got, want, group[0])
			}
		}
	}
	if got := PersonKey("Victim+1@Example.org"); got != "victim@example.org" {
		t.Errorf("PersonKey(Victim+1@Example.org) = %q", got)
	}
	apart := [][2]string{
		{"john.smith@example.org", "johnsmith@example.org"}, // dots matter but at Gmail
		{"john-smith@example.org", "john@example.org"},      // '-' is no subaddress here
		{"victim@example.org", "victim@example.net"},
		{"victim@example.org", "victim@mail.example.org"},
		{"+tag@example.org", "tag@example.org"},
		{`"a@b"@example.org`, "a@example.org"},
	}
	for _, p := range apart {
		if PersonKey(p[0]) == PersonKey(p[1]) {
			t.Errorf("%q and %q give one key, %q", p[0], p[1], PersonKey(p[0]))
		}
	}
}
