package tidy

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestText(t *testing.T) {
	long := strings.Repeat("word ", 30)
	got := Text("a  \n\n\n\nb\n   12. "+long+"\n-- \nsig\n\n", 40)
	lines := strings.Split(got, "\n")
	if lines[0] != "a" || lines[1] != "" || lines[2] != "b" {
		t.Errorf("blank lines: %q", got)
	}
	if !strings.HasPrefix(lines[3], "   12. word") || !strings.HasPrefix(lines[4], "       word") {
		t.Errorf("numbered continuation: %q / %q", lines[3], lines[4])
	}
	if !strings.Contains(got, "\n-- \nsig\n") {
		t.Errorf("signature separator lost: %q", got)
	}
	for _, l := range lines {
		if utf8.RuneCountInString(l) > 40 {
			t.Errorf("line over 40: %q", l)
		}
	}
	// A quoted line is quoted on each line it wraps to (SAY's words).
	quoted := strings.Split(Text("> "+long+"PASS\n", 40), "\n")
	if len(quoted) < 3 {
		t.Fatalf("a long quote did not wrap: %q", quoted)
	}
	for _, l := range quoted[:len(quoted)-1] {
		if !strings.HasPrefix(l, "> word") && l != "> PASS" {
			t.Errorf("quote wrapped to %q", l)
		}
	}
}

// TestWhole: a line opened by Whole is kept whole, its marker dropped.
func TestWhole(t *testing.T) {
	long := strings.Repeat("AAAA ", 30)
	got := Text("a\n"+Whole+"Unseen (120): "+long+"\n   "+long+"\n", 40)
	lines := strings.Split(got, "\n")
	if lines[1] != "Unseen (120): "+strings.TrimRight(long, " ") || strings.Contains(got, Whole) {
		t.Errorf("whole line: %q", lines[1])
	}
	if len(lines) < 5 {
		t.Errorf("the next line was not wrapped: %q", got)
	}
}
