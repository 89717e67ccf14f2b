package dict

import (
	"encoding/binary"
	"fmt"
	"io"
)

// Dict is an immutable dictionary: a minimal acyclic automaton kept in
// its compiled form. It is safe for concurrent use.
type Dict struct {
	data  []byte // the whole compiled form, as WriteTo writes it
	edges []byte // the edge table inside data
	words int
}

func (d *Dict) edge(i uint32) uint32 {
	return binary.LittleEndian.Uint32(d.edges[4*i:])
}

// Contains reports whether word is in the dictionary. word must already
// be normalised (RULES §8.2, see Normalize): anything but a non-empty run
// of A–Z is simply not a word.
func (d *Dict) Contains(word string) bool {
	if len(d.edges) <= 4 { // empty dictionary: the sentinel alone
		return false
	}
	i := uint32(1) // the root's edges
	final := false
	for k := 0; k < len(word); k++ {
		if i == 0 {
			return false
		}
		c := word[k] - 'A'
		if c >= 26 {
			return false
		}
		label := uint32(c) + 1
		for {
			e := d.edge(i)
			if l := e & labelMask; l == label {
				final = e&finalBit != 0
				i = e >> targetShift
				break
			} else if l > label || e&lastBit != 0 {
				return false
			}
			i++
		}
	}
	return final
}

// Len returns the number of words.
func (d *Dict) Len() int { return d.words }

// Size returns the size in bytes of the compiled form.
func (d *Dict) Size() int { return len(d.data) }

// Words calls yield for every word in increasing byte order until yield
// returns false. It fits range-over-func: for w := range d.Words { … }.
func (d *Dict) Words(yield func(string) bool) {
	if len(d.edges) <= 4 {
		return
	}
	buf := make([]byte, 0, 32)
	d.walk(1, buf, yield)
}

func (d *Dict) walk(i uint32, prefix []byte, yield func(string) bool) bool {
	for ; ; i++ {
		e := d.edge(i)
		w := append(prefix, byte(e&labelMask)-1+'A')
		if e&finalBit != 0 && !yield(string(w)) {
			return false
		}
		if t := e >> targetShift; t != 0 && !d.walk(t, w, yield) {
			return false
		}
		if e&lastBit != 0 {
			return true
		}
	}
}

// WriteTo writes the compiled form, which Parse and Open load back.
func (d *Dict) WriteTo(w io.Writer) (int64, error) {
	n, err := w.Write(d.data)
	if err != nil {
		return int64(n), fmt.Errorf("dict: write compiled form: %w", err)
	}
	return int64(n), nil
}

// stateCount is the number of states with outgoing edges (the sentinel
// aside): the size of the automaton for the minimality tests.
func (d *Dict) stateCount() int {
	n := 0
	for i := uint32(1); i < uint32(len(d.edges)/4); i++ {
		if d.edge(i)&lastBit != 0 {
			n++
		}
	}
	return n
}
