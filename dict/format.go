package dict

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/bits"
)

// Compiled form, version 1. All integers are little-endian.
//
//	offset  size  field
//	0       8     magic "\x89LXD\r\n\x1a\n"
//	8       2     version (1)
//	10      2     flags (0)
//	12      4     number of words
//	16      4     number of units U (≥ 1)
//	20      4·U   states, one uint32 unit after another
//	20+4·U  4     CRC-32C (Castagnoli) of every byte before it
//
// A state is a mask unit — bit c set (c = 0 for A … 25 for Z) when the
// state has an edge for that letter, bits 26–31 zero — followed by one
// edge unit per letter of the mask, in letter order. An edge unit holds in
// bit 0 whether its letter ends a word and in bits 1–31 the unit where
// the target state starts, or 0 when the target has no edges. The root
// starts at unit 0, and is the only state that may have no edges (in an
// empty dictionary). Every target lies after the edge that leads to it,
// so the automaton is acyclic, and starts a state; Parse checks both in
// one pass over the units.
//
// The letter's edge is found in constant time: it is edge number
// popcount(mask & (bit−1)) of the state.
//
// The magic starts with a byte that cannot begin UTF-8 text, so a word
// list is never taken for a compiled file, and holds CR LF and ^Z to
// catch text-mode mangling (as PNG does).
const (
	magic         = "\x89LXD\r\n\x1a\n"
	formatVersion = 1
	headerSize    = 20
	trailerSize   = 4

	letterMask  = 1<<26 - 1
	finalBit    = 1
	targetShift = 1
	maxUnits    = 1 << (32 - targetShift)
)

// Errors from Parse (and Open on a compiled file). Each is wrapped with
// the details; test with errors.Is.
var (
	// ErrNotCompiled: the data does not start with the compiled magic.
	ErrNotCompiled = errors.New("dict: not a compiled dictionary")
	// ErrVersion: a compiled form this build cannot read.
	ErrVersion = errors.New("dict: unsupported compiled dictionary version")
	// ErrTruncated: the data ends before the size its header declares.
	ErrTruncated = errors.New("dict: compiled dictionary truncated")
	// ErrChecksum: the bytes do not match their checksum.
	ErrChecksum = errors.New("dict: compiled dictionary checksum mismatch")
	// ErrCorrupt: the checksum matches but the contents are malformed.
	ErrCorrupt = errors.New("dict: compiled dictionary corrupt")
)

func putHeader(out []byte, words, units int) {
	copy(out, magic)
	binary.LittleEndian.PutUint16(out[8:], formatVersion)
	binary.LittleEndian.PutUint16(out[10:], 0)
	binary.LittleEndian.PutUint32(out[12:], uint32(words))
	binary.LittleEndian.PutUint32(out[16:], uint32(units))
}

func checksum(b []byte) uint32 {
	return crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli))
}

func appendChecksum(out []byte) []byte {
	return binary.LittleEndian.AppendUint32(out, checksum(out))
}

// Parse loads a compiled dictionary (as written by WriteTo) without
// rebuilding it: the header, checksum and structure are checked, then
// lookups index straight into data. Parse keeps data; the caller must not
// modify it afterwards.
//
// A malformed input gives an error wrapping ErrNotCompiled, ErrVersion,
// ErrTruncated, ErrChecksum or ErrCorrupt; Parse never panics.
func Parse(data []byte) (*Dict, error) {
	if len(data) < len(magic) || string(data[:len(magic)]) != magic {
		return nil, fmt.Errorf("%w (bad magic)", ErrNotCompiled)
	}
	if len(data) < headerSize+trailerSize {
		return nil, fmt.Errorf("%w: %d bytes, the header alone needs %d",
			ErrTruncated, len(data), headerSize+trailerSize)
	}
	if v := binary.LittleEndian.Uint16(data[8:]); v != formatVersion {
		return nil, fmt.Errorf("%w: version %d, this build reads %d", ErrVersion, v, formatVersion)
	}
	words := binary.LittleEndian.Uint32(data[12:])
	units := binary.LittleEndian.Uint32(data[16:])
	want := uint64(headerSize) + 4*uint64(units) + trailerSize
	switch {
	case uint64(len(data)) < want:
		return nil, fmt.Errorf("%w: %d bytes, the header declares %d", ErrTruncated, len(data), want)
	case uint64(len(data)) > want:
		return nil, fmt.Errorf("%w: %d bytes, the header declares %d", ErrCorrupt, len(data), want)
	}
	body := data[:len(data)-trailerSize]
	if got, sum := checksum(body), binary.LittleEndian.Uint32(data[len(body):]); got != sum {
		return nil, fmt.Errorf("%w: stored %08x, computed %08x", ErrChecksum, sum, got)
	}
	if f := binary.LittleEndian.Uint16(data[10:]); f != 0 {
		return nil, fmt.Errorf("%w: unknown flags %#04x", ErrCorrupt, f)
	}
	if err := validate(body[headerSize:], int(words), letterMask); err != nil {
		return nil, err
	}
	return newDict(data, int(words)), nil
}

// validate checks the structure so that no lookup or walk can index out
// of range or loop (see the format comment): one pass over the units in
// order, with a bitmap of the units that edges lead to, each of which must
// turn out to start a state. labels holds the bits a mask unit may have:
// the 26 letters, and the separator in a GADDAG.
func validate(us []byte, words int, labels uint32) error {
	n := uint32(len(us) / 4)
	if n == 0 {
		return fmt.Errorf("%w: no root state", ErrCorrupt)
	}
	if root := binary.LittleEndian.Uint32(us); (root == 0) != (words == 0) || (root == 0) != (n == 1) {
		return fmt.Errorf("%w: %d words, root mask %#x, %d units", ErrCorrupt, words, root, n)
	}
	targets := make([]uint64, (n+63)/64+1) // one spare word for into
	for p := uint32(0); p < n; {
		mask := binary.LittleEndian.Uint32(us[4*p:])
		if mask&^labels != 0 || (mask == 0 && p != 0) {
			return fmt.Errorf("%w: unit %d: bad state mask %#x", ErrCorrupt, p, mask)
		}
		k := uint32(bits.OnesCount32(mask))
		if k >= n-p {
			return fmt.Errorf("%w: unit %d: state of %d edges runs past the end", ErrCorrupt, p, k)
		}
		edges := us[4*(p+1) : 4*(p+1+k)]
		for j := 0; j+4 <= len(edges); j += 4 {
			e := binary.LittleEndian.Uint32(edges[j:])
			q, t := p+1+uint32(j/4), e>>targetShift
			// t after q and below n, or no target but a word's end. The
			// root (bit 0) is no state's edge, so t = 0 is marked freely.
			if t-(q+1) >= n-(q+1) && (t != 0 || e&finalBit == 0) {
				return edgeError(q, e, n)
			}
			targets[t/64] |= 1 << (t % 64)
		}
		// Every edge that could lead into this state's edges comes before
		// them, so it has been seen.
		if into(targets, p+1, k) {
			return fmt.Errorf("%w: an edge leads into the middle of the state at unit %d", ErrCorrupt, p)
		}
		p += 1 + k
	}
	return nil
}

func edgeError(q, e, n uint32) error {
	if t := e >> targetShift; t != 0 {
		return fmt.Errorf("%w: unit %d: target %d not after it and below %d", ErrCorrupt, q, t, n)
	}
	return fmt.Errorf("%w: unit %d: edge leads nowhere", ErrCorrupt, q)
}

// into reports whether any of the k ≤ 32 bits from bit lo of set is set.
func into(set []uint64, lo, k uint32) bool {
	w, off := lo/64, lo%64
	x := set[w] >> off
	if off+k > 64 {
		x |= set[w+1] << (64 - off)
	}
	return x&(1<<k-1) != 0
}
