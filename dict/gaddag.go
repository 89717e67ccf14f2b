package dict

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"os"
	"slices"
)

// A GADDAG (Gordon, "A faster Scrabble move generation algorithm", 1994)
// holds, for every word w of n letters and every split 1 ≤ i ≤ n, the
// string rev(w[:i]) ◇ w[i:]: the letters from some cell of the word back
// to its first, the separator ◇, then the letters after that cell (for
// i = n the separator is left out: rev(w)). A move generator starts at an
// anchor cell, walks left as far as it likes, crosses ◇ and walks right,
// so that it only ever follows letters that lead to a word.
//
// It is built from the same normalised words as the Dict, by the same
// incremental minimisation (dawg.go), with ◇ as a 27th label that sorts
// after Z ('[' is 'Z'+1), and laid out in the same order (by level).
//
// Compiled form, version 2, little-endian, checksummed as the Dict's
// (format.go), but laid out for the move generator, which reads far more
// states than it follows edges out of: a state is only its edges, and an
// edge carries the labels of the state it leads to, so that a walk knows
// what a state offers without reading it, and reads memory only to follow
// one of its edges.
//
//	offset  size  field
//	0       8     magic "\x89LXG\r\n\x1a\n"
//	8       2     version (2)
//	10      2     flags (0)
//	12      4     number of words
//	16      4     checksum of the compiled Dict it was built from
//	20      4     number of edges E
//	24      4     the root's labels
//	28      4     reserved (0)
//	32      8·E   edges
//	32+8·E  4     CRC-32C of every byte before it
//
// A state with k labels is k consecutive edges, one per label in
// increasing order (A–Z, then ◇); the root's start at edge 0. An edge is
// 64 bits: bits 0–26 the labels of its target (bit c for 'A'+c, bit 26
// for ◇), bit 31 set when the string ending with its label is one of the
// GADDAG's, bits 32–63 the index of the target's first edge. A target
// without labels has index 0; every other comes after the edge (states
// are in topological order, by level as the Dict's layout), so that no
// walk can loop.
const (
	gaddagMagic      = "\x89LXG\r\n\x1a\n"
	gaddagVersion    = 2
	gaddagHeaderSize = 32
	separatorByte    = 'Z' + 1 // ◇ while building: sorts after Z
	gaddagLabels     = letterMask | 1<<Separator
	gaddagFinal      = 1 << 31
	maxGaddagEdges   = 1<<32 - 1
)

// Separator is the label of ◇ in a GADDAG's masks and in Next; the
// letters A–Z are labels 0–25.
const Separator = 26

// ErrGaddagMismatch is returned by Pair when a GADDAG was not built from
// the dictionary it is paired with.
var ErrGaddagMismatch = errors.New("dict: GADDAG built from another dictionary")

// Gaddag is an immutable GADDAG in its compiled form, safe for concurrent
// use. Make one with BuildGaddag, ParseGaddag or OpenGaddag.
type Gaddag struct {
	// edges: the compiled edges decoded, so that following one is a
	// single load (a move generator follows thousands a position); the
	// compiled form is written again from them.
	edges  []uint64
	root   Node
	words  int
	source uint32
}

// Node is a state of a GADDAG as an edge holds it: its labels in bits
// 0–26, the index of its first edge in bits 32–63. A state without edges
// is 0, "no edges further".
type Node uint64

// Checksum is the CRC-32C that ends the compiled form: it names the exact
// word list, and a GADDAG records the one of its dictionary.
func (d *Dict) Checksum() uint32 {
	if len(d.data) < trailerSize {
		return 0
	}
	return binary.LittleEndian.Uint32(d.data[len(d.data)-trailerSize:])
}

// BuildGaddag builds the GADDAG of d's words.
func BuildGaddag(d *Dict) (*Gaddag, error) {
	if d.Len() == 0 {
		return nil, ErrNoWords
	}
	// Every entry of every word in one arena, cut into strings after.
	size := 0
	for w := range d.Words {
		size += len(w)*(len(w)+1) - 1
	}
	arena := make([]byte, 0, size)
	var ends []int
	for w := range d.Words {
		n := len(w)
		for i := 1; i <= n; i++ {
			for k := i - 1; k >= 0; k-- {
				arena = append(arena, w[k])
			}
			if i < n {
				arena = append(arena, separatorByte)
				arena = append(arena, w[i:]...)
			}
			ends = append(ends, len(arena))
		}
	}
	all := string(arena)
	entries := make([]string, len(ends))
	start := 0
	for i, end := range ends {
		entries[i] = all[start:end]
		start = end
	}
	slices.Sort(entries)
	b := newBuilder()
	for _, e := range entries {
		b.add(e)
	}
	out, root, err := b.gaddagLayout()
	if err != nil {
		return nil, err
	}
	putGaddagHeader(out, d.Len(), d.Checksum(), (len(out)-gaddagHeaderSize)/8, root)
	out = appendChecksum(out)
	return newGaddag(out, d.Len(), d.Checksum(), root), nil
}

// gaddagLayout freezes what is left and returns the edges laid out after
// room for the header, and the root's labels. The states are in level
// order (builder.layout): the walks start at the root every time, and the
// states a few letters from it stay together in the cache.
func (b *builder) gaddagLayout() ([]byte, uint32, error) {
	b.freeze(0)
	order := b.levelOrder(b.topoOrder())
	labels := make([]uint32, len(b.states))
	start := make([]uint64, len(b.states))
	next := uint64(0)
	for _, s := range order {
		for _, e := range b.states[s] {
			labels[s] |= 1 << (e.label - 1)
		}
		if n := len(b.states[s]); n > 0 {
			start[s] = next
			next += uint64(n)
		}
	}
	if next > maxGaddagEdges {
		return nil, 0, fmt.Errorf("dict: GADDAG too large: %d edges (max %d)", next, maxGaddagEdges)
	}
	out := make([]byte, gaddagHeaderSize, gaddagHeaderSize+8*int(next)+trailerSize)
	for _, s := range order {
		for _, e := range b.states[s] {
			v := start[e.target]<<32 | uint64(labels[e.target])
			if e.final {
				v |= gaddagFinal
			}
			out = binary.LittleEndian.AppendUint64(out, v)
		}
	}
	return out, labels[0], nil
}

func putGaddagHeader(out []byte, words int, source uint32, edges int, root uint32) {
	copy(out, gaddagMagic)
	binary.LittleEndian.PutUint16(out[8:], gaddagVersion)
	binary.LittleEndian.PutUint16(out[10:], 0)
	binary.LittleEndian.PutUint32(out[12:], uint32(words))
	binary.LittleEndian.PutUint32(out[16:], source)
	binary.LittleEndian.PutUint32(out[20:], uint32(edges))
	binary.LittleEndian.PutUint32(out[24:], root)
	binary.LittleEndian.PutUint32(out[28:], 0)
}

// newGaddag decodes the compiled form data, whose header and checksum
// hold; it does not keep data.
func newGaddag(data []byte, words int, source, root uint32) *Gaddag {
	raw := data[gaddagHeaderSize : len(data)-trailerSize]
	edges := make([]uint64, len(raw)/8)
	for i := range edges {
		edges[i] = binary.LittleEndian.Uint64(raw[8*i:])
	}
	return &Gaddag{edges: edges, root: Node(root), words: words, source: source}
}

// ParseGaddag loads a compiled GADDAG (as WriteTo writes it), checking its
// header and checksum (the structure is Verify's); it does not keep data. Errors
// wrap the same sentinels as Parse's.
func ParseGaddag(data []byte) (*Gaddag, error) {
	if len(data) < len(gaddagMagic) || string(data[:len(gaddagMagic)]) != gaddagMagic {
		return nil, fmt.Errorf("%w (bad GADDAG magic)", ErrNotCompiled)
	}
	if len(data) < gaddagHeaderSize+trailerSize {
		return nil, fmt.Errorf("%w: %d bytes, the GADDAG header alone needs %d",
			ErrTruncated, len(data), gaddagHeaderSize+trailerSize)
	}
	if v := binary.LittleEndian.Uint16(data[8:]); v != gaddagVersion {
		return nil, fmt.Errorf("%w: GADDAG version %d, this build reads %d", ErrVersion, v, gaddagVersion)
	}
	words := binary.LittleEndian.Uint32(data[12:])
	source := binary.LittleEndian.Uint32(data[16:])
	edges := binary.LittleEndian.Uint32(data[20:])
	root := binary.LittleEndian.Uint32(data[24:])
	want := uint64(gaddagHeaderSize) + 8*uint64(edges) + trailerSize
	switch {
	case uint64(len(data)) < want:
		return nil, fmt.Errorf("%w: %d bytes, the GADDAG header declares %d", ErrTruncated, len(data), want)
	case uint64(len(data)) > want:
		return nil, fmt.Errorf("%w: %d bytes, the GADDAG header declares %d", ErrCorrupt, len(data), want)
	}
	body := data[:len(data)-trailerSize]
	if got, sum := checksum(body), binary.LittleEndian.Uint32(data[len(body):]); got != sum {
		return nil, fmt.Errorf("%w: stored %08x, computed %08x", ErrChecksum, sum, got)
	}
	if f := binary.LittleEndian.Uint16(data[10:]); f != 0 {
		return nil, fmt.Errorf("%w: unknown GADDAG flags %#04x", ErrCorrupt, f)
	}
	if r := binary.LittleEndian.Uint32(data[28:]); r != 0 {
		return nil, fmt.Errorf("%w: reserved GADDAG header field %#x", ErrCorrupt, r)
	}
	if (root == 0) != (words == 0) || root&^gaddagLabels != 0 || uint32(bits.OnesCount32(root)) > edges {
		return nil, fmt.Errorf("%w: %d words, %d edges, GADDAG root labels %#x", ErrCorrupt, words, edges, root)
	}
	return newGaddag(data, int(words), source, root), nil
}

// Verify walks the whole structure as Parse does a dictionary's: every
// edge holds labels only and leads forward, or nowhere at the end of a
// string; every edge belongs to exactly one state, which every edge into
// it gives the same labels. ParseGaddag leaves it out (the walk takes
// several milliseconds for wfrench, about as long as the load): the
// checksum catches damage, and every read of Arc and Next is
// range-checked, so that a file made to pass the checksum with a broken
// structure gives wrong answers, never a panic, and no walk can loop (it
// is bounded by a line of the board).
func (g *Gaddag) Verify() error {
	n := uint64(len(g.edges))
	// size[i]: how many labels the state starting at edge i has, as the
	// edges into it say; 0 where none starts.
	size := make([]uint8, n+1)
	size[0] = uint8(bits.OnesCount32(uint32(g.root)))
	for q := range n {
		e := g.edges[q]
		labels, t := uint32(e)&^gaddagFinal, e>>32
		k := uint8(bits.OnesCount32(labels))
		switch {
		case labels&^gaddagLabels != 0:
			return fmt.Errorf("%w: edge %d: bad labels %#x", ErrCorrupt, q, labels)
		case labels == 0 && (t != 0 || e&gaddagFinal == 0):
			return fmt.Errorf("%w: edge %d leads nowhere", ErrCorrupt, q)
		case labels != 0 && (t <= q || t+uint64(k) > n):
			return fmt.Errorf("%w: edge %d: target %d not after it, or its %d edges past %d", ErrCorrupt, q, t, k, n)
		case labels != 0 && size[t] != 0 && size[t] != k:
			return fmt.Errorf("%w: edge %d: %d labels for the state at %d, which another edge gives %d", ErrCorrupt, q, k, t, size[t])
		}
		if labels != 0 {
			size[t] = k
		}
	}
	// The states tile the edges: each starts where the one before ends.
	for q := uint64(0); q < n; q += uint64(size[q]) {
		if size[q] == 0 {
			return fmt.Errorf("%w: edge %d belongs to no state", ErrCorrupt, q)
		}
		for j := q + 1; j < q+uint64(size[q]); j++ {
			if size[j] != 0 {
				return fmt.Errorf("%w: an edge leads into the middle of the state at %d", ErrCorrupt, q)
			}
		}
	}
	return nil
}

// OpenGaddag loads the compiled GADDAG in the file at path.
func OpenGaddag(path string) (*Gaddag, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("dict: %w", err)
	}
	g, err := ParseGaddag(data)
	if err != nil {
		return nil, fmt.Errorf("%w (%s)", err, path)
	}
	return g, nil
}

// Pair checks that g was built from d's word list (ErrGaddagMismatch
// otherwise).
func (g *Gaddag) Pair(d *Dict) error {
	if g.source != d.Checksum() || g.words != d.Len() {
		return fmt.Errorf("%w: GADDAG of %d words from %08x, dictionary of %d words %08x",
			ErrGaddagMismatch, g.words, g.source, d.Len(), d.Checksum())
	}
	return nil
}

// WriteTo writes the compiled form, which ParseGaddag loads back.
func (g *Gaddag) WriteTo(w io.Writer) (int64, error) {
	out := make([]byte, gaddagHeaderSize, g.Size())
	putGaddagHeader(out, g.words, g.source, len(g.edges), uint32(g.root))
	for _, e := range g.edges {
		out = binary.LittleEndian.AppendUint64(out, e)
	}
	n, err := w.Write(appendChecksum(out))
	if err != nil {
		return int64(n), fmt.Errorf("dict: write compiled GADDAG: %w", err)
	}
	return int64(n), nil
}

// Len returns the number of words.
func (g *Gaddag) Len() int { return g.words }

// Size returns the size in bytes of the compiled form.
func (g *Gaddag) Size() int { return gaddagHeaderSize + 8*len(g.edges) + trailerSize }

// Root returns the state every walk starts from.
func (g *Gaddag) Root() Node { return g.root }

// Labels returns the labels node has an edge for: bit c for letter 'A'+c,
// bit Separator for ◇. The node holds them: this reads no memory.
func (g *Gaddag) Labels(node Node) uint32 { return uint32(node) & gaddagLabels }

// Next follows node's edge for label (0–25 a letter, Separator ◇): ok
// reports whether there is one, final whether the string it ends is in the
// GADDAG, next the state it leads to, 0 when no edge leaves that state.
func (g *Gaddag) Next(node Node, label byte) (next Node, final, ok bool) {
	if label > Separator || g.Labels(node)&(1<<label) == 0 {
		return 0, false, false
	}
	next, final = g.Arc(node, label)
	return next, final, true
}

// Arc is Next for a label known to be among node's Labels, as a walk over
// them has them: it does not check it. Given another label it answers
// wrong but stays within the GADDAG.
func (g *Gaddag) Arc(node Node, label byte) (next Node, final bool) {
	j := uint64(node)>>32 + uint64(bits.OnesCount32(uint32(node)&(1<<(label&31)-1)))
	if j >= uint64(len(g.edges)) {
		return 0, false
	}
	e := g.edges[j]
	return Node(e &^ gaddagFinal), e&gaddagFinal != 0
}

// Contains reports whether word (normalised, as Dict.Contains takes it)
// is one of the words: its entry rev(word) is in the GADDAG.
func (g *Gaddag) Contains(word string) bool {
	if len(word) == 0 {
		return false
	}
	node := g.root
	for k := len(word) - 1; k >= 0; k-- {
		c := word[k] - 'A'
		if c >= 26 {
			return false
		}
		next, final, ok := g.Next(node, c)
		if !ok {
			return false
		}
		if k == 0 {
			return final
		}
		if next == 0 {
			return false
		}
		node = next
	}
	return false
}

// entries calls yield with every string of the GADDAG, ◇ written '[', in
// increasing byte order (for tests and tools).
func (g *Gaddag) entries(yield func(string) bool) {
	var walk func(n Node, prefix []byte) bool
	walk = func(n Node, prefix []byte) bool {
		mask := g.Labels(n)
		for mask != 0 {
			c := byte(bits.TrailingZeros32(mask))
			mask &= mask - 1
			next, final, _ := g.Next(n, c)
			s := append(prefix, 'A'+c)
			if final && !yield(string(s)) {
				return false
			}
			if next != 0 && !walk(next, s) {
				return false
			}
		}
		return true
	}
	walk(g.root, make([]byte, 0, 32))
}
