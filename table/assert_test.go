package table_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// These helpers check what a mail says through the values it carries
// (numbers, names, command words) rather than through its sentences,
// which the templates own and may reword.

// numbersIn is every whole number written in text outside addresses and
// table names (runs of digits between non-alphanumeric characters),
// sorted.
func numbersIn(text string) []int {
	var out []int
	for _, f := range strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '@' && r != '.' && r != '-' && r != '_' && r != ':'
	}) {
		f = strings.TrimRight(f, ".")
		if n, err := strconv.Atoi(f); err == nil {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// mustNumbers checks that the numbers written in text are want, in any
// order.
func mustNumbers(t *testing.T, what, text string, want ...int) {
	t.Helper()
	w := slices.Clone(want)
	slices.Sort(w)
	if got := numbersIn(text); !slices.Equal(got, w) {
		t.Errorf("%s writes the numbers %v, want %v:\n%s", what, got, w, text)
	}
}
