package dict

import (
	"encoding/binary"
	"fmt"
	"slices"
)

// The automaton is built from the sorted word list by incremental
// construction (Daciuk, Mihov, Watson & Watson, "Incremental construction
// of minimal acyclic finite-state automata", 2000): words are added in
// order to a trie, and each state is compared with a register of states
// already frozen as soon as no later word can reach it, so the trie never
// grows beyond one word's path.
//
// Finality sits on the edges ("this letter ends a word"), not on the
// states, as in the compiled form. Two states are equivalent when they
// have the same edges (letter, finality, equivalent target), which is
// the minimal automaton for edge-finality: it never has more states than
// the state-finality one.

// bedge is an edge while building: letter 1–26.
type bedge struct {
	label  byte
	final  bool
	target int32
}

// builder holds the states under construction. State 0 is the root.
type builder struct {
	states [][]bedge
	free   []int32          // slots of states merged away, for reuse
	reg    map[string]int32 // frozen states by signature
	path   []int32          // path[k]: state after the first k letters of prev
	prev   string
	key    []byte
}

func newBuilder() *builder {
	return &builder{
		states: [][]bedge{nil},
		reg:    make(map[string]int32),
		path:   []int32{0},
	}
}

// add appends word, which must sort strictly after the previous one and be
// a non-empty run of A–Z.
func (b *builder) add(word string) {
	p := 0
	for p < len(word) && p < len(b.prev) && word[p] == b.prev[p] {
		p++
	}
	b.freeze(p)
	for k := p; k < len(word); k++ {
		n := b.newState()
		parent := b.path[k]
		b.states[parent] = append(b.states[parent], bedge{
			label:  word[k] - 'A' + 1,
			final:  k == len(word)-1,
			target: n,
		})
		b.path = append(b.path, n)
	}
	b.prev = word
}

func (b *builder) newState() int32 {
	if n := len(b.free); n > 0 {
		s := b.free[n-1]
		b.free = b.free[:n-1]
		b.states[s] = b.states[s][:0]
		return s
	}
	b.states = append(b.states, nil)
	return int32(len(b.states) - 1)
}

// freeze registers the states of the previous word's path deeper than
// depth, replacing each by an equivalent frozen state when there is one.
// Children are frozen before their parents, so signatures name canonical
// targets.
func (b *builder) freeze(depth int) {
	for k := len(b.path) - 1; k > depth; k-- {
		child := b.path[k]
		parent := b.path[k-1]
		b.key = b.key[:0]
		for _, e := range b.states[child] {
			b.key = append(b.key, e.label)
			if e.final {
				b.key[len(b.key)-1] |= 0x80
			}
			b.key = binary.LittleEndian.AppendUint32(b.key, uint32(e.target))
		}
		if same, ok := b.reg[string(b.key)]; ok {
			edges := b.states[parent]
			edges[len(edges)-1].target = same
			b.free = append(b.free, child)
		} else {
			b.reg[string(b.key)] = child
		}
	}
	b.path = b.path[:depth+1]
}

// compile freezes what is left and lays the automaton out in the compiled
// form (see format.go): states in topological order, the root first and
// parents before children, so that every edge points forward.
func (b *builder) compile(words int) ([]byte, error) {
	out, units, err := b.layout(headerSize)
	if err != nil {
		return nil, err
	}
	putHeader(out, words, units)
	return appendChecksum(out), nil
}

// layout freezes what is left and returns the states laid out after
// prefix bytes left for a header, and the number of units.
func (b *builder) layout(prefix int) ([]byte, int, error) {
	b.freeze(0)
	order := b.topoOrder()
	start := make([]uint32, len(b.states))
	next := 1 + uint64(len(b.states[0])) // the root, even without edges
	for _, s := range order[1:] {
		if n := len(b.states[s]); n > 0 {
			start[s] = uint32(next)
			next += 1 + uint64(n)
		}
	}
	if next > maxUnits {
		return nil, 0, fmt.Errorf("dict: automaton too large: %d units (max %d)", next, maxUnits)
	}
	out := make([]byte, prefix, prefix+4*int(next)+trailerSize)
	for _, s := range order {
		edges := b.states[s]
		if len(edges) == 0 && s != 0 {
			continue
		}
		var mask uint32
		for _, e := range edges {
			mask |= 1 << (e.label - 1)
		}
		out = binary.LittleEndian.AppendUint32(out, mask)
		for _, e := range edges {
			v := start[e.target] << targetShift
			if e.final {
				v |= finalBit
			}
			out = binary.LittleEndian.AppendUint32(out, v)
		}
	}
	return out, int(next), nil
}

// topoOrder returns the states reachable from the root, each before all
// the states it leads to (reverse post-order of a depth-first walk).
func (b *builder) topoOrder() []int32 {
	type frame struct {
		state int32
		edge  int
	}
	seen := make([]bool, len(b.states))
	var post []int32
	stack := []frame{{state: 0}}
	seen[0] = true
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		edges := b.states[f.state]
		if f.edge < len(edges) {
			t := edges[f.edge].target
			f.edge++
			if !seen[t] {
				seen[t] = true
				stack = append(stack, frame{state: t})
			}
			continue
		}
		post = append(post, f.state)
		stack = stack[:len(stack)-1]
	}
	for i, j := 0, len(post)-1; i < j; i, j = i+1, j-1 {
		post[i], post[j] = post[j], post[i]
	}
	return post
}

// levelOrder reorders a topological order by level, the length of the
// longest path from the root to the state, then as before: an edge still
// leads to a later state, and the states nearest the root come first.
func (b *builder) levelOrder(order []int32) []int32 {
	level := make([]int32, len(b.states))
	for _, s := range order {
		for _, e := range b.states[s] {
			level[e.target] = max(level[e.target], level[s]+1)
		}
	}
	rank := make([]int32, len(b.states))
	for i, s := range order {
		rank[s] = int32(i)
	}
	out := slices.Clone(order)
	slices.SortFunc(out, func(x, y int32) int {
		if level[x] != level[y] {
			return int(level[x] - level[y])
		}
		return int(rank[x] - rank[y])
	})
	return out
}
