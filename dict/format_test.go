package dict

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func goldenBytes(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "words.dawg"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// reseal rewrites the checksum of a compiled form after an edit, so that
// the checks behind the checksum are reached.
func reseal(b []byte) []byte {
	if len(b) < headerSize+trailerSize {
		return b
	}
	body := b[:len(b)-trailerSize]
	binary.LittleEndian.PutUint32(b[len(body):], checksum(body))
	return b
}

// compiled lays out a compiled form by hand: words in the header, then the
// edges (the sentinel included) and a valid checksum.
func compiled(words uint32, edges ...uint32) []byte {
	b := make([]byte, headerSize)
	putHeader(b, int(words), len(edges))
	for _, e := range edges {
		b = binary.LittleEndian.AppendUint32(b, e)
	}
	return appendChecksum(b)
}

func edgeOf(letter byte, final, last bool, target uint32) uint32 {
	v := uint32(letter-'A'+1) | target<<targetShift
	if final {
		v |= finalBit
	}
	if last {
		v |= lastBit
	}
	return v
}

func TestParseHandMade(t *testing.T) {
	// CHAT, CHATS, CAT laid out by hand as the format comment describes.
	b := compiled(3,
		lastBit,                     // 0 sentinel
		edgeOf('C', false, true, 2), // 1 root
		edgeOf('A', false, false, 4),
		edgeOf('H', false, true, 5), // 3
		edgeOf('T', true, true, 0),  // 4: CAT
		edgeOf('A', false, true, 6), // 5
		edgeOf('T', true, true, 7),  // 6: CHAT
		edgeOf('S', true, true, 0),  // 7: CHATS
	)
	d, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if got := allWords(d); !slices.Equal(got, []string{"CAT", "CHAT", "CHATS"}) {
		t.Errorf("words = %q", got)
	}
	for w, want := range map[string]bool{"CAT": true, "CHAT": true, "CHATS": true, "CHA": false, "CATS": false, "C": false} {
		if d.Contains(w) != want {
			t.Errorf("Contains(%q) = %v", w, !want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	good := goldenBytes(t)
	edit := func(f func(b []byte) []byte) []byte { return f(slices.Clone(good)) }
	tests := []struct {
		name string
		data []byte
		want error
		msg  string // part of the message
	}{
		{"nil", nil, ErrNotCompiled, "bad magic"},
		{"word list", []byte("chat\nchien\n"), ErrNotCompiled, "bad magic"},
		{"magic damaged", edit(func(b []byte) []byte { b[1] = 'X'; return b }), ErrNotCompiled, "bad magic"},
		{"magic without CR (text-mode mangling)", edit(func(b []byte) []byte {
			return append(b[:4:4], b[5:]...)
		}), ErrNotCompiled, "bad magic"},
		{"magic only", good[:len(magic)], ErrTruncated, "header alone"},
		{"header cut", good[:headerSize], ErrTruncated, "header alone"},
		{"edges cut", good[:len(good)-9], ErrTruncated, "header declares"},
		{"trailer cut", good[:len(good)-1], ErrTruncated, "header declares"},
		{"trailing bytes", append(slices.Clone(good), 0), ErrCorrupt, "header declares"},
		{"version 2", edit(func(b []byte) []byte { b[8] = 2; return reseal(b) }), ErrVersion, "version 2, this build reads 1"},
		{"version 0", edit(func(b []byte) []byte { b[8] = 0; return b }), ErrVersion, "version 0"},
		{"edge count too big", edit(func(b []byte) []byte { b[19] = 0xff; return b }), ErrTruncated, "header declares"},
		{"checksum field", edit(func(b []byte) []byte { b[len(b)-1] ^= 1; return b }), ErrChecksum, "stored"},
		{"edge flipped", edit(func(b []byte) []byte { b[headerSize+20] ^= 4; return b }), ErrChecksum, "computed"},
		{"word count changed", edit(func(b []byte) []byte { b[12]++; return b }), ErrChecksum, ""},
		{"flags", edit(func(b []byte) []byte { b[10] = 1; return reseal(b) }), ErrCorrupt, "flags"},
		{"no edges", compiled(0), ErrCorrupt, "sentinel"},
		{"bad sentinel", compiled(0, 0), ErrCorrupt, "sentinel"},
		{"words but no edges", compiled(5, lastBit), ErrCorrupt, "5 words in 1 edges"},
		{"edges but no words", compiled(0, lastBit, edgeOf('A', true, true, 0)), ErrCorrupt, "0 words"},
		{"letter 0", compiled(1, lastBit, finalBit|lastBit), ErrCorrupt, "letter 0"},
		{"letter 27", compiled(1, lastBit, 27|finalBit|lastBit), ErrCorrupt, "letter 27"},
		{"dead end", compiled(1, lastBit, edgeOf('A', false, true, 0)), ErrCorrupt, "leads nowhere"},
		{"self loop", compiled(1, lastBit, edgeOf('A', true, true, 1)), ErrCorrupt, "not after it"},
		{"backward edge", compiled(1, lastBit, edgeOf('A', false, true, 2), edgeOf('B', true, true, 1)),
			ErrCorrupt, "not after it"},
		{"target past the end", compiled(1, lastBit, edgeOf('A', false, true, 9)), ErrCorrupt, "not after it"},
		{"target inside a state", compiled(1, lastBit,
			edgeOf('A', false, true, 3), edgeOf('B', true, false, 0), edgeOf('C', true, true, 0)),
			ErrCorrupt, "not the start of a state"},
		{"unterminated", compiled(1, lastBit, edgeOf('A', true, false, 0)), ErrCorrupt, "not terminated"},
		{"letters out of order", compiled(2, lastBit, edgeOf('B', true, false, 0), edgeOf('A', true, true, 0)),
			ErrCorrupt, "not increasing"},
		{"letter repeated", compiled(2, lastBit, edgeOf('A', true, false, 0), edgeOf('A', true, true, 0)),
			ErrCorrupt, "not increasing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Parse(tt.data)
			if !errors.Is(err, tt.want) || d != nil {
				t.Fatalf("Parse = %v, %v; want %v", d, err, tt.want)
			}
			if !strings.HasPrefix(err.Error(), "dict: ") || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q: want the dict: prefix and %q", err, tt.msg)
			}
		})
	}
}

// Every truncation and every single-bit flip of a valid file is refused.
func TestParseEveryDamage(t *testing.T) {
	good := goldenBytes(t)
	if _, err := Parse(good); err != nil {
		t.Fatal(err)
	}
	for n := range len(good) {
		if d, err := Parse(good[:n]); err == nil || d != nil {
			t.Errorf("Parse of the first %d bytes succeeded", n)
		}
	}
	for i := range len(good) {
		for bit := range 8 {
			b := slices.Clone(good)
			b[i] ^= 1 << bit
			if d, err := Parse(b); err == nil || d != nil {
				t.Errorf("Parse with byte %d bit %d flipped succeeded", i, bit)
			}
		}
	}
}

func FuzzParse(f *testing.F) {
	good := goldenBytes(f)
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte{})
	f.Add([]byte(magic))
	f.Add(compiled(1, lastBit, edgeOf('A', true, true, 0)))
	f.Add(compiled(3, lastBit, edgeOf('C', false, true, 2), edgeOf('A', false, false, 4),
		edgeOf('H', false, true, 5), edgeOf('T', true, true, 0), edgeOf('A', false, true, 6),
		edgeOf('T', true, true, 7), edgeOf('S', true, true, 0)))
	f.Fuzz(func(t *testing.T, data []byte) {
		// As given (the checksum stops nearly everything), then with the
		// header's sizes and the checksum made consistent, so that the
		// structure checks see the mutations.
		fixed := slices.Clone(data)
		if len(fixed) >= headerSize+trailerSize {
			copy(fixed, magic)
			binary.LittleEndian.PutUint16(fixed[8:], formatVersion)
			binary.LittleEndian.PutUint32(fixed[16:], uint32((len(fixed)-headerSize-trailerSize)/4))
			fixed = fixed[:headerSize+4*((len(fixed)-headerSize-trailerSize)/4)+trailerSize]
			reseal(fixed)
		}
		for _, b := range [][]byte{data, fixed} {
			d, err := Parse(b)
			if err != nil {
				if d != nil || !strings.HasPrefix(err.Error(), "dict: ") {
					t.Fatalf("Parse = %v, %q", d, err)
				}
				continue
			}
			// A loaded dictionary answers for every word it lists, and
			// rejects what is not a word at all.
			n := 0
			for w := range d.Words {
				if !d.Contains(w) {
					t.Fatalf("Words lists %q, Contains says no", w)
				}
				if n++; n > 5000 {
					break
				}
			}
			for _, s := range []string{"", "A", "AB", "ZZZZ", "a", "É"} {
				d.Contains(s)
			}
			if d.Contains("") || d.Contains("a") {
				t.Fatal("Contains accepts a non-word")
			}
		}
	})
}
