package tablename

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	good := []string{"a", "t42", "0", "club-du-jeudi", "a-", "tbd1e2f3a", strings.Repeat("x", MaxLen)}
	for _, name := range good {
		if err := Check(name); err != nil {
			t.Errorf("Check(%q) = %v, want nil", name, err)
		}
	}
	bad := []string{"", "-a", "T42", "t_42", "t.42", "t 42", "té", "a\x00", strings.Repeat("x", MaxLen+1)}
	for _, name := range bad {
		err := Check(name)
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("Check(%q) = %v, want ErrInvalid", name, err)
			continue
		}
		if !strings.Contains(err.Error(), strconv.Quote(name)) || !strings.Contains(err.Error(), Rule) {
			t.Errorf("Check(%q) = %q: want the name and the rule", name, err)
		}
	}
}

// TestShorts: the names of tables opened by mail are short, of the
// alphabet without look-alikes, valid by Check, the same for the same
// seed, shortest first, and each seed's are distinct.
func TestShorts(t *testing.T) {
	if strings.ContainsAny(Alphabet, "01oli") || len(Alphabet) != 31 {
		t.Fatalf("alphabet %q", Alphabet)
	}
	var first []string
	for name := range Shorts("<a@example.org>") {
		first = append(first, name)
	}
	if len(first) != (ShortMax-ShortMin+1)*triesPerLen {
		t.Fatalf("%d names, want %d", len(first), (ShortMax-ShortMin+1)*triesPerLen)
	}
	seen := map[string]bool{}
	for i, name := range first {
		if err := Check(name); err != nil || !IsShort(name) || len(name) > 6 {
			t.Errorf("%q: Check %v, IsShort %v", name, err, IsShort(name))
		}
		if i > 0 && len(name) < len(first[i-1]) {
			t.Errorf("%q after %q: names only grow", name, first[i-1])
		}
		if seen[name] {
			t.Errorf("%q twice", name)
		}
		seen[name] = true
	}
	if len(first[0]) != 1+ShortMin {
		t.Errorf("first name %q, want %d characters", first[0], 1+ShortMin)
	}
	i := 0
	for name := range Shorts("<a@example.org>") {
		if name != first[i] {
			t.Fatalf("name %d: %q, then %q for the same seed", i, first[i], name)
		}
		if i++; i == 3 {
			break // a caller stops at the first free name
		}
	}
	for name := range Shorts("<b@example.org>") {
		if name == first[0] {
			t.Errorf("two seeds begin with %q", name)
		}
		break
	}
	for _, name := range []string{"t42", "tab", "t", "t1", "tol", "t2345678", "x42", "club-du-jeudi", "t4-2"} {
		want := name == "t42" || name == "tab"
		if IsShort(name) != want {
			t.Errorf("IsShort(%q) = %v, want %v", name, !want, want)
		}
	}
}
