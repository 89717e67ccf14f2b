package league

import (
	"fmt"
	"slices"
	"testing"
)

// opensSpread returns how many tables each player opens, and the spread.
func opensSpread(tables []Table, n int) ([]int, int) {
	opens := make([]int, n)
	for _, t := range tables {
		opens[t[0]]++
	}
	return opens, slices.Max(opens) - slices.Min(opens)
}

// TestRoundRobin: with 2-player tables every pair meets once, or twice
// with each opening once; openers differ by at most one (LEAGUES §7.2).
func TestRoundRobin(t *testing.T) {
	for n := 2; n <= 16; n++ {
		for _, gpp := range []int{1, 2} {
			tables := RoundRobin(n, gpp)
			if want := gpp * n * (n - 1) / 2; len(tables) != want {
				t.Fatalf("n=%d gpp=%d: %d tables, want %d", n, gpp, len(tables), want)
			}
			seen := map[[2]int]int{}
			for _, tb := range tables {
				if len(tb) != 2 || tb[0] == tb[1] || min(tb[0], tb[1]) < 0 || max(tb[0], tb[1]) >= n {
					t.Fatalf("n=%d: table %v", n, tb)
				}
				seen[[2]int{tb[0], tb[1]}]++
			}
			for a := range n {
				for b := a + 1; b < n; b++ {
					ab, ba := seen[[2]int{a, b}], seen[[2]int{b, a}]
					if ab+ba != gpp || gpp == 2 && (ab != 1 || ba != 1) {
						t.Fatalf("n=%d gpp=%d: %d and %d meet %d+%d times", n, gpp, a, b, ab, ba)
					}
				}
			}
			if opens, spread := opensSpread(tables, n); spread > 1 {
				t.Fatalf("n=%d gpp=%d: openers %v", n, gpp, opens)
			}
		}
	}
}

func TestTableSizes(t *testing.T) {
	for _, tc := range []struct {
		n, size int
		want    []int
	}{
		{3, 3, []int{3}}, {4, 3, []int{2, 2}}, {5, 3, []int{3, 2}}, {6, 3, []int{3, 3}},
		{7, 3, []int{3, 2, 2}}, {5, 4, []int{3, 2}}, {6, 4, []int{3, 3}}, {7, 4, []int{4, 3}},
		{9, 4, []int{3, 3, 3}}, {12, 4, []int{4, 4, 4}}, {13, 4, []int{4, 3, 3, 3}},
	} {
		if got := TableSizes(tc.n, tc.size); !slices.Equal(got, tc.want) {
			t.Errorf("TableSizes(%d, %d) = %v, want %v", tc.n, tc.size, got, tc.want)
		}
	}
}

// TestRounds: each round seats every player once at tables of the right
// sizes; openers differ by at most one; the same seed gives the same
// tables.
func TestRounds(t *testing.T) {
	for _, size := range []int{3, 4} {
		for n := 3; n <= 24; n++ {
			rounds := DefaultRounds(n, size)
			sched := Rounds(n, size, rounds, uint64(n*31+size))
			if len(sched) != rounds {
				t.Fatalf("n=%d size=%d: %d rounds, want %d", n, size, len(sched), rounds)
			}
			var all []Table
			for r, round := range sched {
				var seated []int
				var sizes []int
				for _, tb := range round {
					seated = append(seated, tb...)
					sizes = append(sizes, len(tb))
				}
				slices.Sort(seated)
				for i, p := range seated {
					if p != i || len(seated) != n {
						t.Fatalf("n=%d size=%d round %d: seated %v", n, size, r, seated)
					}
				}
				if !slices.Equal(sizes, TableSizes(n, size)) || slices.Min(sizes) < 2 {
					t.Fatalf("n=%d size=%d round %d: sizes %v", n, size, r, sizes)
				}
				all = append(all, round...)
			}
			if opens, spread := opensSpread(all, n); spread > 1 {
				t.Fatalf("n=%d size=%d: openers %v", n, size, opens)
			}
			again := Rounds(n, size, rounds, uint64(n*31+size))
			if fmt.Sprint(again) != fmt.Sprint(sched) {
				t.Fatalf("n=%d size=%d: the same seed gave other tables", n, size)
			}
		}
	}
}

// TestRoundsMinimalRepeats compares the repeated meetings of Rounds with
// the fewest possible, found by trying every sequence of splits, for
// small divisions.
func TestRoundsMinimalRepeats(t *testing.T) {
	for _, tc := range []struct{ n, size int }{
		{4, 3}, {5, 3}, {6, 3}, {7, 3}, {5, 4}, {6, 4}, {7, 4}, {8, 4}, {9, 4},
	} {
		rounds := DefaultRounds(tc.n, tc.size)
		want := bruteRepeats(tc.n, TableSizes(tc.n, tc.size), rounds)
		for seed := range uint64(20) {
			met := newMeetings(tc.n)
			for _, round := range Rounds(tc.n, tc.size, rounds, seed) {
				for _, tb := range round {
					met.add(tb)
				}
			}
			if got := met.repeats(); got != want {
				t.Errorf("n=%d size=%d rounds=%d seed %d: %d repeated meetings, the fewest is %d", tc.n, tc.size, rounds, seed, got, want)
			}
		}
	}
}

// bruteRepeats is the fewest repeated meetings of any sequence of rounds
// splits of n players into tables of the given sizes. The first round
// can be any split: every split is the same up to renaming the players.
func bruteRepeats(n int, sizes []int, rounds int) int {
	splits := allSplits(n, sizes)
	met := newMeetings(n)
	for _, tb := range splits[0] {
		met.add(tb)
	}
	best := -1
	var search func(r int)
	search = func(r int) {
		if r == rounds {
			if c := met.repeats(); best < 0 || c < best {
				best = c
			}
			return
		}
		for _, sp := range splits {
			for _, tb := range sp {
				met.add(tb)
			}
			search(r + 1)
			for _, tb := range sp {
				remove(met, tb)
			}
		}
	}
	search(1)
	return best
}

func remove(m meetings, t Table) {
	for i, a := range t {
		for _, b := range t[i+1:] {
			m.count[a*m.n+b]--
			m.count[b*m.n+a]--
		}
	}
}

// allSplits lists every split of players 0..n-1 into unordered tables of
// the given sizes, once each: every assignment of players to numbered
// tables, deduplicated by its tables sorted.
func allSplits(n int, sizes []int) [][]Table {
	seen := map[string]bool{}
	var out [][]Table
	cur := make([]Table, len(sizes))
	var place func(p int)
	place = func(p int) {
		if p == n {
			split := make([]Table, len(cur))
			for i, tb := range cur {
				split[i] = slices.Clone(tb)
			}
			slices.SortFunc(split, func(a, b Table) int { return slices.Compare(a, b) })
			if key := fmt.Sprint(split); !seen[key] {
				seen[key] = true
				out = append(out, split)
			}
			return
		}
		for k := range cur {
			if len(cur[k]) < sizes[k] {
				cur[k] = append(cur[k], p)
				place(p + 1)
				cur[k] = cur[k][:len(cur[k])-1]
			}
		}
	}
	place(0)
	return out
}
