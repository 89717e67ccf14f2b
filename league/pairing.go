// Package league holds the rules of league seasons that need no storage:
// who plays whom in a division (pairing), what a finished table gives each
// pair of its players (results), and the order of a division's standings.
package league

import (
	"math/rand/v2"
	"slices"
)

// A Table of a season is the division's players (indexes into the
// division's list, in seeding order) in seat order: the first opens.
type Table []int

// RoundRobin pairs n players for a 2-player division by the circle method:
// every pair meets once, or twice with each opening once when
// gamesPerPair is 2. The numbers of games the players open differ by at
// most one.
func RoundRobin(n, gamesPerPair int) []Table {
	if n < 2 {
		return nil
	}
	// The circle: player 0 stays, the others turn one place a round; an
	// odd division has a bye, -1.
	circle := make([]int, 0, n+1)
	for i := range n {
		circle = append(circle, i)
	}
	if n%2 == 1 {
		circle = append(circle, -1)
	}
	m := len(circle)
	var tables []Table
	for range m - 1 {
		for i := range m / 2 {
			a, b := circle[i], circle[m-1-i]
			if a >= 0 && b >= 0 {
				tables = append(tables, Table{a, b})
			}
		}
		// Turn every place but the first.
		last := circle[m-1]
		copy(circle[2:], circle[1:m-1])
		circle[1] = last
	}
	balanceOpeners(tables, n)
	if gamesPerPair == 2 {
		for _, t := range slices.Clone(tables) {
			tables = append(tables, Table{t[1], t[0]})
		}
	}
	return tables
}

// DefaultRounds is enough rounds for every player of a division of n to
// meet every other once, where the table size allows it.
func DefaultRounds(n, size int) int {
	if n <= size {
		return 1
	}
	return (n - 1 + size - 2) / (size - 1)
}

// TableSizes splits n players into the fewest tables of at most size,
// their sizes as equal as possible (so some one smaller).
func TableSizes(n, size int) []int {
	k := (n + size - 1) / size
	sizes := make([]int, k)
	for i := range sizes {
		sizes[i] = n / k
		if i < n%k {
			sizes[i]++
		}
	}
	return sizes
}

// Rounds pairs n players for a division of 3- or 4-player tables: rounds
// rounds, each splitting the division into tables (TableSizes), chosen so
// that as few pairs of players as possible meet more than once. The
// search is a seeded local search: the same seed gives the same tables.
// Openers are balanced as in RoundRobin.
func Rounds(n, size, rounds int, seed uint64) [][]Table {
	if n < 2 || rounds < 1 {
		return nil
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	sizes := TableSizes(n, size)
	var best [][]Table
	bestCost := -1
	for range restarts {
		met := newMeetings(n)
		var sched [][]Table
		for range rounds {
			round := bestSplit(n, sizes, met, rng)
			for _, t := range round {
				met.add(t)
			}
			sched = append(sched, round)
		}
		if c := met.repeats(); bestCost < 0 || c < bestCost {
			best, bestCost = sched, c
		}
		if bestCost == 0 {
			break
		}
	}
	var all []Table
	for _, round := range best {
		all = append(all, round...)
	}
	balanceOpeners(all, n)
	return best
}

// restarts and climbs bound the local search; both are far more than a
// division of a few dozen players needs to reach its best split.
const (
	restarts = 30
	climbs   = 10
)

// bestSplit returns the round, among climbs local searches from random
// splits, that adds the fewest repeated meetings to met.
func bestSplit(n int, sizes []int, met meetings, rng *rand.Rand) []Table {
	var best []Table
	bestCost := -1
	for range climbs {
		round := randomSplit(n, sizes, rng)
		cost := climb(round, met)
		if bestCost < 0 || cost < bestCost {
			best, bestCost = round, cost
		}
		if bestCost == 0 {
			break
		}
	}
	return best
}

func randomSplit(n int, sizes []int, rng *rand.Rand) []Table {
	perm := rng.Perm(n)
	round := make([]Table, len(sizes))
	at := 0
	for i, s := range sizes {
		round[i] = Table(slices.Clone(perm[at : at+s]))
		at += s
	}
	return round
}

// climb swaps players between tables while a swap lowers the round's
// repeated meetings, and returns the cost it reached.
func climb(round []Table, met meetings) int {
	cost := 0
	for _, t := range round {
		cost += met.cost(t)
	}
	for improved := true; improved; {
		improved = false
		for a := range round {
			for b := a + 1; b < len(round); b++ {
				for i := range round[a] {
					for j := range round[b] {
						before := met.cost(round[a]) + met.cost(round[b])
						round[a][i], round[b][j] = round[b][j], round[a][i]
						after := met.cost(round[a]) + met.cost(round[b])
						if after < before {
							cost += after - before
							improved = true
						} else {
							round[a][i], round[b][j] = round[b][j], round[a][i]
						}
					}
				}
			}
		}
	}
	return cost
}

// meetings counts how often each pair of players has met.
type meetings struct {
	n     int
	count []int
}

func newMeetings(n int) meetings { return meetings{n: n, count: make([]int, n*n)} }

func (m meetings) add(t Table) {
	for i, a := range t {
		for _, b := range t[i+1:] {
			m.count[a*m.n+b]++
			m.count[b*m.n+a]++
		}
	}
}

// cost is how many of t's pairs have met before.
func (m meetings) cost(t Table) int {
	c := 0
	for i, a := range t {
		for _, b := range t[i+1:] {
			c += m.count[a*m.n+b]
		}
	}
	return c
}

// repeats is the number of meetings beyond the first, over every pair.
func (m meetings) repeats() int {
	r := 0
	for a := range m.n {
		for b := a + 1; b < m.n; b++ {
			if c := m.count[a*m.n+b]; c > 1 {
				r += c - 1
			}
		}
	}
	return r
}

// balanceOpeners reorders each table's seats so that the numbers of
// tables the players open (seat 0) differ by at most one: while the
// spread is wider, a chain of tables hands one opening from a player who
// opens the most to one who opens the fewest (each table's opener gives
// its seat to another player of that table, who gives theirs on, and so
// on). Each table keeps its other seats in their order.
func balanceOpeners(tables []Table, n int) {
	opens := make([]int, n)
	for _, t := range tables {
		opens[t[0]]++
	}
	for {
		hi, lo := slices.Max(opens), slices.Min(opens)
		if hi-lo <= 1 {
			return
		}
		var path []hand
		from := -1
		for p := range n {
			if opens[p] == hi {
				if path = handOver(tables, n, opens, p); path != nil {
					from = p
					break
				}
			}
		}
		if path == nil {
			return // no chain: the division cannot be more even
		}
		for _, step := range path {
			t := tables[step.table]
			i := slices.Index(t, step.to)
			t[0], t[i] = t[i], t[0]
		}
		opens[from]--
		opens[path[len(path)-1].to]++
	}
}

type hand struct{ table, to int }

// handOver finds, breadth first, the shortest chain of tables along
// which the opening of player from can pass to a player who opens at
// least two fewer.
func handOver(tables []Table, n int, opens []int, from int) []hand {
	prev := make([]hand, n)
	seen := make([]bool, n)
	seen[from] = true
	queue := []int{from}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for ti, t := range tables {
			if t[0] != p {
				continue
			}
			for _, q := range t[1:] {
				if seen[q] {
					continue
				}
				seen[q] = true
				prev[q] = hand{table: ti, to: q}
				if opens[q] <= opens[from]-2 {
					var path []hand
					for x := q; x != from; {
						h := prev[x]
						path = append(path, h)
						x = tables[h.table][0]
					}
					slices.Reverse(path)
					return path
				}
				queue = append(queue, q)
			}
		}
	}
	return nil
}
