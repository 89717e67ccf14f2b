package dict

import (
	"encoding/binary"
	"fmt"
	"io"
	"math/bits"
)

// Dict is an immutable dictionary: a minimal acyclic automaton kept in
// its compiled form. It is safe for concurrent use. Make one with Build,
// Open or Parse; the zero Dict holds no word.
type Dict struct {
	data  []byte // the whole compiled form, as WriteTo writes it
	units []byte // the states inside data
	words int
}

// newDict wraps a compiled form whose structure is valid.
func newDict(data []byte, words int) *Dict {
	return &Dict{data: data, units: data[headerSize : len(data)-trailerSize], words: words}
}

func (d *Dict) unit(i uint32) uint32 {
	return binary.LittleEndian.Uint32(d.units[4*i:])
}

// Contains reports whether word is in the dictionary. word must already
// be normalised (RULES §8.2, see Normalize): anything but a non-empty run
// of A–Z is simply not a word.
func (d *Dict) Contains(word string) bool {
	us := d.units
	if len(us) == 0 {
		return false // the zero Dict
	}
	p, e := uint32(0), uint32(0) // the root; no edge taken yet
	for k := 0; k < len(word); k++ {
		c := word[k] - 'A'
		if c >= 26 {
			return false
		}
		if k > 0 {
			if p = e >> targetShift; p == 0 {
				return false
			}
		}
		mask := binary.LittleEndian.Uint32(us[4*p:])
		bit := uint32(1) << c
		if mask&bit == 0 {
			return false
		}
		e = binary.LittleEndian.Uint32(us[4*(p+1+uint32(bits.OnesCount32(mask&(bit-1)))):])
	}
	return e&finalBit != 0
}

// Len returns the number of words.
func (d *Dict) Len() int { return d.words }

// Size returns the size in bytes of the compiled form.
func (d *Dict) Size() int { return len(d.data) }

// Words calls yield for every word in increasing byte order until yield
// returns false. It fits range-over-func: for w := range d.Words { … }.
func (d *Dict) Words(yield func(string) bool) {
	if len(d.units) == 0 {
		return // the zero Dict
	}
	d.walk(0, make([]byte, 0, 32), yield)
}

func (d *Dict) walk(p uint32, prefix []byte, yield func(string) bool) bool {
	mask := d.unit(p)
	for q := p + 1; mask != 0; q++ {
		c := bits.TrailingZeros32(mask)
		mask &= mask - 1
		e := d.unit(q)
		w := append(prefix, 'A'+byte(c))
		if e&finalBit != 0 && !yield(string(w)) {
			return false
		}
		if t := e >> targetShift; t != 0 && !d.walk(t, w, yield) {
			return false
		}
	}
	return true
}

// WriteTo writes the compiled form, which Parse and Open load back. The
// zero Dict writes nothing.
func (d *Dict) WriteTo(w io.Writer) (int64, error) {
	n, err := w.Write(d.data)
	if err != nil {
		return int64(n), fmt.Errorf("dict: write compiled form: %w", err)
	}
	return int64(n), nil
}
