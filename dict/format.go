package dict

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
)

// Compiled form, version 1. All integers are little-endian.
//
//	offset  size  field
//	0       8     magic "\x89LXD\r\n\x1a\n"
//	8       2     version (1)
//	10      2     flags (0)
//	12      4     number of words
//	16      4     number of edges E (≥ 1)
//	20      4·E   edges
//	20+4·E  4     CRC-32C (Castagnoli) of every byte before it
//
// Each edge is a uint32: bits 0–4 the letter (1 = A … 26 = Z), bit 5 set
// on the last edge of a state, bit 6 set when the letter ends a word,
// bits 7–31 the index of the first edge of the target state, or 0 when
// the target has no edges. A state is the run of edges up to and
// including one with bit 5; its letters strictly increase. Edge 0 is a
// sentinel (bit 5 only); the root's edges start at index 1. Every target
// lies after the edge that leads to it, so the automaton is acyclic by
// construction and checking one inequality per edge proves it.
//
// The magic starts with a byte that cannot begin UTF-8 text, so a word
// list is never taken for a compiled file, and holds CR LF and ^Z to
// catch text-mode mangling (as PNG does).
const (
	magic         = "\x89LXD\r\n\x1a\n"
	formatVersion = 1
	headerSize    = 20
	trailerSize   = 4

	labelMask   = 0x1f
	lastBit     = 1 << 5
	finalBit    = 1 << 6
	targetShift = 7
	maxEdges    = 1 << (32 - targetShift)
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

func putHeader(out []byte, words, edges int) {
	copy(out, magic)
	binary.LittleEndian.PutUint16(out[8:], formatVersion)
	binary.LittleEndian.PutUint16(out[10:], 0)
	binary.LittleEndian.PutUint32(out[12:], uint32(words))
	binary.LittleEndian.PutUint32(out[16:], uint32(edges))
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
	nEdges := binary.LittleEndian.Uint32(data[16:])
	want := uint64(headerSize) + 4*uint64(nEdges) + trailerSize
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
	d := &Dict{data: data, edges: body[headerSize:], words: int(words)}
	if err := d.validate(); err != nil {
		return nil, err
	}
	return d, nil
}

// validate checks the structure so that no lookup or walk can index out
// of range or loop: see the format comment.
func (d *Dict) validate() error {
	n := uint32(len(d.edges) / 4)
	if n == 0 {
		return fmt.Errorf("%w: no sentinel edge", ErrCorrupt)
	}
	if e := d.edge(0); e != lastBit {
		return fmt.Errorf("%w: sentinel edge is %#x", ErrCorrupt, e)
	}
	if (n == 1) != (d.words == 0) {
		return fmt.Errorf("%w: %d words in %d edges", ErrCorrupt, d.words, n)
	}
	for i := uint32(1); i < n; i++ {
		e := d.edge(i)
		label := e & labelMask
		target := e >> targetShift
		switch {
		case label < 1 || label > 26:
			return fmt.Errorf("%w: edge %d: letter %d out of range", ErrCorrupt, i, label)
		case target == 0 && e&finalBit == 0:
			return fmt.Errorf("%w: edge %d leads nowhere", ErrCorrupt, i)
		case target != 0 && (target <= i || target >= n):
			return fmt.Errorf("%w: edge %d: target %d not after it and below %d", ErrCorrupt, i, target, n)
		case target != 0 && d.edge(target-1)&lastBit == 0:
			return fmt.Errorf("%w: edge %d: target %d is not the start of a state", ErrCorrupt, i, target)
		}
		if e&lastBit != 0 {
			continue
		}
		if i == n-1 {
			return fmt.Errorf("%w: last state not terminated", ErrCorrupt)
		}
		if next := d.edge(i+1) & labelMask; next <= label {
			return fmt.Errorf("%w: edge %d: letters not increasing", ErrCorrupt, i+1)
		}
	}
	return nil
}
