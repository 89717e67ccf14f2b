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
