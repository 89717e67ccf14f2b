package lexiotest

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/lexio-mail/lexio/templates/noticetest"
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

// MustNumbers checks that the numbers written in text are want, in any
// order.
func MustNumbers(t *testing.T, what, text string, want ...int) {
	t.Helper()
	w := slices.Clone(want)
	slices.Sort(w)
	if got := numbersIn(text); !slices.Equal(got, w) {
		t.Errorf("%s writes the numbers %v, want %v:\n%s", what, got, w, text)
	}
}

// Intro is a text mail's opening after its greeting line, before its
// first "== section ==" (the final scores, the board…): where a notice
// says what happened.
func Intro(text string) string {
	if i := strings.Index(text, "\n=="); i >= 0 {
		text = text[:i]
	}
	_, rest, _ := strings.Cut(text, "\n")
	return rest
}

// marked is the players a game-over mail's final scores mark as winners:
// the rows that begin with "*", by name.
func marked(text string) []string {
	_, scores, _ := strings.Cut(text, "\n==")
	if i := strings.Index(scores[1:], "\n=="); i >= 0 {
		scores = scores[:i+1]
	}
	var out []string
	for _, l := range strings.Split(scores, "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "*" {
			out = append(out, f[1])
		}
	}
	return out
}

// MustWin checks that a game-over mail marks exactly the winners, and
// writes each player's final score on their row.
func MustWin(t *testing.T, what, text string, winners []string, finals map[string]int) {
	t.Helper()
	if got := marked(text); !slices.Equal(got, winners) {
		t.Errorf("%s marks %v as winners, want %v:\n%s", what, got, winners, text)
	}
	for name, final := range finals {
		if !noticetest.HasScoreLine(text, name, final) {
			t.Errorf("%s has no final score %d for %s:\n%s", what, final, name, text)
		}
	}
}

// MustHaveNumbers checks that each of want is written in text as a whole
// number (see numbersIn), as often as want names it.
func MustHaveNumbers(t *testing.T, what, text string, want ...int) {
	t.Helper()
	got := numbersIn(text)
	for _, n := range want {
		i := slices.Index(got, n)
		if i < 0 {
			t.Errorf("%s does not write %d (it writes %v):\n%s", what, n, numbersIn(text), text)
			continue
		}
		got = slices.Delete(got, i, i+1)
	}
}

// Day and ClockTime write a time as the English mail does, for a test to
// find it: "Monday 2 March 2026" and "19:00 UTC".
func Day(t time.Time) string       { return t.Format("Monday 2 January 2006") }
func ClockTime(t time.Time) string { return t.Format("15:04 MST") }

// MustTell checks that text gives the time at: its day and its hour.
func MustTell(t *testing.T, what, text string, at ...time.Time) {
	t.Helper()
	for _, a := range at {
		MustContain(t, what, text, Day(a), ClockTime(a))
	}
}

// digestItem matches an item of a digest: "- t1 (lexio): …" on a line of
// its own.
var digestItem = regexp.MustCompile(`(?m)^- (\S+) \(`)

// MustDigest checks that a digest lists exactly tables, in order, each
// item giving the turn's end (deadline, in the reader's zone) and the
// table's players by name.
func MustDigest(t *testing.T, what, text string, tables []string, deadline time.Time, players [][]string) {
	t.Helper()
	locs := digestItem.FindAllStringSubmatchIndex(text, -1)
	var got []string
	for _, l := range locs {
		got = append(got, text[l[2]:l[3]])
	}
	if !slices.Equal(got, tables) {
		t.Fatalf("%s lists %v, want %v:\n%s", what, got, tables, text)
	}
	for i, l := range locs {
		end := len(text)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		} else if j := strings.Index(text[l[0]:], "\n\n"); j >= 0 {
			end = l[0] + j
		}
		MustTell(t, what+" at "+tables[i], text[l[0]:end], deadline)
		MustContain(t, what+" at "+tables[i], text[l[0]:end], players[i]...)
	}
}

// MustName checks that text names each of names as a whole word: a short
// table name ("vs", "eb") must not be found inside another word.
func MustName(t *testing.T, what, text string, names ...string) {
	t.Helper()
	for _, n := range names {
		if !regexp.MustCompile(`(^|[^\pL\pN])` + regexp.QuoteMeta(n) + `($|[^\pL\pN])`).MatchString(text) {
			t.Errorf("%s does not name %q:\n%s", what, n, text)
		}
	}
}

// MustContain checks that text holds each of subs, white space
// flattened.
func MustContain(t *testing.T, what, text string, subs ...string) {
	t.Helper()
	flat := strings.Join(strings.Fields(text), " ")
	for _, s := range subs {
		if !strings.Contains(flat, s) {
			t.Errorf("%s lacks %q:\n%s", what, s, text)
		}
	}
}

// MustNotContain checks that text holds none of subs, white space
// flattened.
func MustNotContain(t *testing.T, what, text string, subs ...string) {
	t.Helper()
	flat := strings.Join(strings.Fields(text), " ")
	for _, s := range subs {
		if strings.Contains(flat, s) {
			t.Errorf("%s holds %q:\n%s", what, s, text)
		}
	}
}
