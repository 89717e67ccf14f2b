package mailer

import (
	"slices"
	"strings"
	"testing"
)

// TestLanesOf: a recipient's rows share a lane in their order, whatever
// the case of the address; new recipients go to the lightest lane; never
// more lanes than asked or than rows, and no empty lane.
func TestLanesOf(t *testing.T) {
	row := func(to string, size int) Outgoing {
		return Outgoing{To: []string{to}, Raw: []byte(strings.Repeat("x", size))}
	}
	rows := []Outgoing{
		row("a@x", 100), row("b@x", 10), row("c@x", 10), row("A@x", 100), row("d@x", 10), row("b@x", 10), row("e@x", 10),
	}
	lanes := lanesOf(rows, 3)
	if len(lanes) != 3 {
		t.Fatalf("%d lanes: %v", len(lanes), lanes)
	}
	want := [][]int{{0, 3}, {1, 4, 5}, {2, 6}}
	if !slices.EqualFunc(lanes, want, slices.Equal) {
		t.Errorf("lanes %v, want %v", lanes, want)
	}
	if l := lanesOf(rows[:2], 8); len(l) != 2 {
		t.Errorf("two rows in %d lanes", len(l))
	}
	if l := lanesOf([]Outgoing{row("a@x", 1), row("a@x", 1), row("a@x", 1)}, 4); len(l) != 1 || len(l[0]) != 3 {
		t.Errorf("one recipient: %v", l)
	}
	if l := lanesOf(rows, 0); len(l) != 1 || len(l[0]) != len(rows) {
		t.Errorf("zero connections: %v", l)
	}
}
