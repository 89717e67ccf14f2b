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
// after Z ('[' is 'Z'+1), and laid out in the same way.
//
// Compiled form, version 1, little-endian, as the Dict's (format.go) but
// for its header and labels:
//
//	offset  size  field
//	0       8     magic "\x89LXG\r\n\x1a\n"
//	8       2     version (1)
//	10      2     flags (0)
//	12      4     number of words
//	16      4     checksum of the compiled Dict it was built from
//	20      4     number of units U (≥ 1)
//	24      4·U   states
//	24+4·U  4     CRC-32C of every byte before it
//
// A mask unit may have bits 0–25 (A–Z) and bit 26 (◇). An edge is final
// when the string ending with its label is one of the GADDAG's.
const (
	gaddagMagic      = "\x89LXG\r\n\x1a\n"
	gaddagVersion    = 1
	gaddagHeaderSize = 24
	separatorByte    = 'Z' + 1 // ◇ while building: sorts after Z
	gaddagLabels     = letterMask | 1<<Separator
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
	data   []byte
	units  []byte
	words  int
	source uint32
}

// Node is a state of a GADDAG: the unit where it starts. The root is 0;
// no edge leads back to it, so Next uses 0 for "no edges further".
type Node uint32

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
	out, units, err := b.layout(gaddagHeaderSize, true)
	if err != nil {
		return nil, err
	}
	putGaddagHeader(out, d.Len(), d.Checksum(), units)
	out = appendChecksum(out)
	return newGaddag(out, d.Len(), d.Checksum()), nil
}

func putGaddagHeader(out []byte, words int, source uint32, units int) {
	copy(out, gaddagMagic)
	binary.LittleEndian.PutUint16(out[8:], gaddagVersion)
	binary.LittleEndian.PutUint16(out[10:], 0)
	binary.LittleEndian.PutUint32(out[12:], uint32(words))
	binary.LittleEndian.PutUint32(out[16:], source)
	binary.LittleEndian.PutUint32(out[20:], uint32(units))
}

func newGaddag(data []byte, words int, source uint32) *Gaddag {
	return &Gaddag{data: data, units: data[gaddagHeaderSize : len(data)-trailerSize], words: words, source: source}
}

// ParseGaddag loads a compiled GADDAG (as WriteTo writes it), checking its
// header and checksum (the structure is Verify's); it keeps data. Errors
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
	units := binary.LittleEndian.Uint32(data[20:])
	want := uint64(gaddagHeaderSize) + 4*uint64(units) + trailerSize
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
	if units == 0 {
		return nil, fmt.Errorf("%w: no GADDAG root state", ErrCorrupt)
	}
	if root := binary.LittleEndian.Uint32(body[gaddagHeaderSize:]); (root == 0) != (words == 0) {
		return nil, fmt.Errorf("%w: %d words, GADDAG root mask %#x", ErrCorrupt, words, root)
	}
	return newGaddag(data, int(words), source), nil
}

// Verify walks the whole structure as Parse does a dictionary's: every
// mask holds labels only, every edge leads forward to the start of a
// state. ParseGaddag leaves it out to load in about a millisecond (the
// walk takes several for wfrench's 4 MB): the checksum catches damage, and
// every read of Labels and Next is range-checked, so that a file made to
// pass the checksum with a broken structure gives wrong answers, never a
// panic, and no walk can loop (it is bounded by a line of the board).
func (g *Gaddag) Verify() error {
	return validate(g.units, g.words, gaddagLabels)
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
	n, err := w.Write(g.data)
	if err != nil {
		return int64(n), fmt.Errorf("dict: write compiled GADDAG: %w", err)
	}
	return int64(n), nil
}

// Len returns the number of words.
func (g *Gaddag) Len() int { return g.words }

// Size returns the size in bytes of the compiled form.
func (g *Gaddag) Size() int { return len(g.data) }

// Labels returns the labels node has an edge for: bit c for letter 'A'+c,
// bit Separator for ◇. node must be the root or a Node that Next returned
// other than 0.
func (g *Gaddag) Labels(node Node) uint32 {
	i := 4 * uint64(node)
	if i+4 > uint64(len(g.units)) {
		return 0
	}
	return binary.LittleEndian.Uint32(g.units[i:]) & gaddagLabels
}

// Next follows node's edge for label (0–25 a letter, Separator ◇): ok
// reports whether there is one, final whether the string it ends is in the
// GADDAG, next the state it leads to, 0 when no edge leaves that state.
func (g *Gaddag) Next(node Node, label byte) (next Node, final, ok bool) {
	us := g.units
	i := 4 * uint64(node)
	if i+4 > uint64(len(us)) {
		return 0, false, false
	}
	mask := binary.LittleEndian.Uint32(us[i:])
	bit := uint32(1) << label
	if mask&bit == 0 || label > Separator {
		return 0, false, false
	}
	j := i + 4 + 4*uint64(bits.OnesCount32(mask&(bit-1)))
	if j+4 > uint64(len(us)) {
		return 0, false, false
	}
	e := binary.LittleEndian.Uint32(us[j:])
	return Node(e >> targetShift), e&finalBit != 0, true
}

// Arc is Next for a label known to be among labels, node's Labels, as a
// walk over them has them: it does not read them again. Given labels that
// are not node's, it answers wrong but stays within the GADDAG.
func (g *Gaddag) Arc(node Node, labels uint32, label byte) (next Node, final bool) {
	j := 4 * (uint64(node) + 1 + uint64(bits.OnesCount32(labels&(1<<label-1))))
	if j+4 > uint64(len(g.units)) {
		return 0, false
	}
	e := binary.LittleEndian.Uint32(g.units[j:])
	return Node(e >> targetShift), e&finalBit != 0
}

// Contains reports whether word (normalised, as Dict.Contains takes it)
// is one of the words: its entry rev(word) is in the GADDAG.
func (g *Gaddag) Contains(word string) bool {
	if len(g.units) == 0 || len(word) == 0 {
		return false
	}
	node := Node(0)
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
	walk(0, make([]byte, 0, 32))
}
