package league

import (
	"reflect"
	"testing"
)

// TestPairs: the higher final score wins, equal scores tie; who left loses
// to everyone still in and to who left after them, and never gains a
// positive spread from it (LEAGUES §2.2, §8.1).
func TestPairs(t *testing.T) {
	f := Finished{Table: "t1", Seats: []Seat{
		{Player: "a", Score: 300},          // still in
		{Player: "b", Score: 300},          // still in, level with a
		{Player: "c", Score: 350, Left: 2}, // left second, ahead of everyone
		{Player: "d", Score: 100, Left: 1}, // left first
	}}
	want := []Pair{
		{A: "a", B: "b", Score: 0.5, Spread: 0},
		{A: "a", B: "c", Score: 1, Spread: 0},   // c was ahead: 0, not +50 for c
		{A: "a", B: "d", Score: 1, Spread: 200}, // d behind: the real spread
		{A: "b", B: "c", Score: 1, Spread: 0},
		{A: "b", B: "d", Score: 1, Spread: 200},
		{A: "c", B: "d", Score: 1, Spread: 250}, // the later to leave ranks higher
	}
	if got := Pairs(f); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
	// Two players: the resigner loses whatever the scores.
	two := Finished{Seats: []Seat{{Player: "x", Score: 120, Left: 1}, {Player: "y", Score: 80}}}
	if got := Pairs(two); !reflect.DeepEqual(got, []Pair{{A: "x", B: "y", Score: 0, Spread: 0}}) {
		t.Fatalf("resigner ahead: %+v", got)
	}
	two.Seats[0].Score = 40
	if got := Pairs(two); !reflect.DeepEqual(got, []Pair{{A: "x", B: "y", Score: 0, Spread: -40}}) {
		t.Fatalf("resigner behind: %+v", got)
	}
}

// TestStandings checks a small division by hand: league points, then
// spread, then the points among the players still level, then points for,
// then address (LEAGUES §9.1).
func TestStandings(t *testing.T) {
	players := []string{"ann", "bob", "cat", "dan", "eve"}
	g := func(a string, sa int, b string, sb int) Finished {
		return Finished{Seats: []Seat{{Player: a, Score: sa}, {Player: b, Score: sb}}}
	}
	tables := []Finished{
		// ann, bob and cat beat each other in a circle, each by 10: level
		// on points (2) and spread (0) among those three...
		g("ann", 310, "bob", 300),
		g("bob", 310, "cat", 300),
		g("cat", 310, "ann", 300),
		// ...and each beats dan by 50 and loses to eve by 50.
		g("ann", 350, "dan", 300), g("bob", 350, "dan", 300), g("cat", 350, "dan", 300),
		g("eve", 400, "ann", 350), g("eve", 400, "bob", 350), g("eve", 400, "cat", 350),
		// dan and eve tie.
		g("dan", 200, "eve", 200),
	}
	got := Standings(players, tables, DefaultPoints)
	// eve: 3 wins + 1 tie = 7 points, spread +150. ann, bob, cat: 2 wins
	// (circle, dan) and 2 losses = 4 points, spread +10-10+50-50 = 0; the
	// points among them are 2 each, so points for decides: ann
	// 310+300+350+350 = 1310, bob 300+310+350+350 = 1310, cat 300+310+350+350
	// = 1310: all level, so the address. dan: 1 point, spread -150.
	want := []Row{
		{Rank: 1, Player: "eve", Played: 4, Won: 3, Tied: 1, Points: 7, Spread: 150, PointsFor: 1400},
		{Rank: 2, Player: "ann", Played: 4, Won: 2, Lost: 2, Points: 4, Spread: 0, PointsFor: 1310},
		{Rank: 3, Player: "bob", Played: 4, Won: 2, Lost: 2, Points: 4, Spread: 0, PointsFor: 1310},
		{Rank: 4, Player: "cat", Played: 4, Won: 2, Lost: 2, Points: 4, Spread: 0, PointsFor: 1310},
		{Rank: 5, Player: "dan", Played: 4, Lost: 3, Tied: 1, Points: 1, Spread: -150, PointsFor: 1100},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got\n%+v\nwant\n%+v", got, want)
	}
}

func game(a string, sa int, b string, sb int) Finished {
	return Finished{Seats: []Seat{{Player: a, Score: sa}, {Player: b, Score: sb}}}
}

func order(rows []Row) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r.Player)
	}
	return out
}

// TestStandingsAmongThemselves: two players level on points and spread
// are ordered by their game against each other, before points for.
func TestStandingsAmongThemselves(t *testing.T) {
	tables := []Finished{
		game("a", 290, "b", 300),  // b +10
		game("a", 530, "c", 500),  // a +30
		game("a", 1000, "d", 990), // a +10
		game("b", 400, "d", 370),  // b +30
		game("b", 300, "c", 310),  // b -10
	}
	// a: 2 wins, 1 loss = 4 points, spread -10+30+10 = +30, points for 1820.
	// b: 2 wins, 1 loss = 4 points, spread +10+30-10 = +30, points for 1000.
	// b beat a: b first, though a has more points for.
	got := Standings([]string{"a", "b", "c", "d"}, tables, DefaultPoints)
	if o := order(got); !reflect.DeepEqual(o, []string{"b", "a", "c", "d"}) {
		t.Fatalf("order %v: %+v", o, got)
	}
	if got[0].PointsFor != 1000 || got[1].PointsFor != 1820 || got[0].Spread != 30 || got[1].Spread != 30 {
		t.Fatalf("%+v", got)
	}
}

// TestStandingsGroupTieBreak: three players level on points and spread
// are ordered as one group by the league points of the games among
// them, against the order points for would give.
func TestStandingsGroupTieBreak(t *testing.T) {
	tables := []Finished{
		// Among x, y, z: x beats both, y beats z, each by 10.
		game("x", 110, "y", 100), game("x", 110, "z", 100), game("y", 110, "z", 100),
		// Against w each ends on 4 points and spread 0; z scores most.
		game("x", 100, "w", 110), game("x", 100, "w", 110),
		game("y", 300, "w", 290), game("y", 290, "w", 300),
		game("z", 900, "w", 890), game("z", 900, "w", 890),
	}
	got := Standings([]string{"z", "y", "x", "w"}, tables, DefaultPoints)
	if o := order(got); !reflect.DeepEqual(o, []string{"w", "x", "y", "z"}) {
		t.Fatalf("order %v: %+v", o, got)
	}
	for _, r := range got[1:] {
		if r.Points != 4 || r.Spread != 0 {
			t.Fatalf("x, y and z should be level: %+v", got)
		}
	}
	if got[3].PointsFor <= got[1].PointsFor {
		t.Fatalf("z should have the most points for: %+v", got)
	}
}
