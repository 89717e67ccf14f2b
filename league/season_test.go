package league

import (
	"reflect"
	"testing"
)

func ranks(players ...string) []Row {
	rows := make([]Row, len(players))
	for i, p := range players {
		rows[i] = Row{Rank: i + 1, Player: p}
	}
	return rows
}

// TestNextSeason: two up and two down between neighbouring divisions,
// withdrawn players out before the moves, sign-ups into the lowest
// division and a new one when it is full (LEAGUES §7.4).
func TestNextSeason(t *testing.T) {
	divs := []Division{
		{Name: "premier", Players: []string{"a1", "a2", "a3", "a4", "a5"}},
		{Name: "second", Players: []string{"b1", "b2", "b3", "b4", "b5"}},
		{Name: "third", Players: []string{"c1", "c2", "c3", "c4"}},
	}
	standings := [][]Row{
		ranks("a1", "a2", "a3", "a4", "a5"),
		ranks("b1", "b2", "b3", "b4", "b5"),
		ranks("c1", "c2", "c3", "c4"),
	}
	got := NextSeason(divs, standings, Moves{Promote: 2, Relegate: 2, Size: 6},
		map[string]bool{"b2": true}, []string{"n1", "a3", "n2", "n3", "n4"})
	want := []Division{
		// a4, a5 down; b1 and b3 (b2 withdrew) up.
		{Name: "premier", Players: []string{"a1", "a2", "a3", "b1", "b3"}},
		// b4, b5 down; c1, c2 up; a4, a5 down from above, first.
		{Name: "second", Players: []string{"a4", "a5", "c1", "c2"}},
		// c3, c4 stay; b4, b5 come down; n1, n2 sign up; a3 already plays.
		{Name: "third", Players: []string{"b4", "b5", "c3", "c4", "n1", "n2"}},
		// third is full at 6: a new division for n3 and n4.
		{Name: "division-4", Players: []string{"n3", "n4"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got\n%+v\nwant\n%+v", got, want)
	}
}

// TestNextSeasonSmall: in a division smaller than promote + relegate, a
// player is promoted rather than relegated; one division has no moves.
func TestNextSeasonSmall(t *testing.T) {
	divs := []Division{{Name: "top", Players: []string{"a", "b"}}, {Name: "mid", Players: []string{"c", "d", "e"}}, {Name: "low", Players: []string{"f"}}}
	got := NextSeason(divs, [][]Row{ranks("a", "b"), ranks("c", "d", "e"), ranks("f")},
		Moves{Promote: 2, Relegate: 2}, nil, nil)
	// mid's top two go up, leaving e to go down; f, alone in low, goes up.
	want := []Division{
		{Name: "top", Players: []string{"c", "d"}},
		{Name: "mid", Players: []string{"a", "b", "f"}},
		{Name: "low", Players: []string{"e"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	one := NextSeason(divs[:1], [][]Row{ranks("b", "a")}, Moves{Promote: 2, Relegate: 2}, nil, []string{"z"})
	if !reflect.DeepEqual(one, []Division{{Name: "top", Players: []string{"b", "a", "z"}}}) {
		t.Fatalf("one division: %+v", one)
	}
}
