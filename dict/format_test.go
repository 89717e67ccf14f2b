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
// units and a valid checksum.
func compiled(words uint32, units ...uint32) []byte {
	b := make([]byte, headerSize)
	putHeader(b, int(words), len(units))
	for _, u := range units {
		b = binary.LittleEndian.AppendUint32(b, u)
	}
	return appendChecksum(b)
}

// mask is the mask unit of a state with edges for letters.
func mask(letters string) uint32 {
	var m uint32
	for _, c := range letters {
		m |= 1 << (c - 'A')
	}
	return m
}

// edge is an edge unit.
func edge(final bool, target uint32) uint32 {
	v := target << targetShift
	if final {
		v |= finalBit
	}
	return v
}

// handMade holds CAT, CHAT and CHATS, laid out by hand as the format
// comment describes.
func handMade() []byte {
	return compiled(3,
		mask("C"), edge(false, 2), // 0 root
		mask("AH"), edge(false, 5), edge(false, 7), // 2
		mask("T"), edge(true, 0), // 5: CAT
		mask("A"), edge(false, 9), // 7
		mask("T"), edge(true, 11), // 9: CHAT
		mask("S"), edge(true, 0), // 11: CHATS
	)
}

func TestParseHandMade(t *testing.T) {
	d, err := Parse(handMade())
	if err != nil {
		t.Fatal(err)
	}
	if got := allWords(d); !slices.Equal(got, []string{"CAT", "CHAT", "CHATS"}) {
		t.Errorf("words = %q", got)
	}
	for w, want := range map[string]bool{"CAT": true, "CHAT": true, "CHATS": true,
		"CHA": false, "CATS": false, "C": false, "": false, "CHATSS": false, "HAT": false} {
		if d.Contains(w) != want {
			t.Errorf("Contains(%q) = %v", w, !want)
		}
	}

	// The empty dictionary: a root without edges.
	e, err := Parse(compiled(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if e.Len() != 0 || e.Contains("A") || e.Contains("") || len(allWords(e)) != 0 {
		t.Errorf("empty dictionary: Len %d, words %q", e.Len(), allWords(e))
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
		{"units cut", good[:len(good)-9], ErrTruncated, "header declares"},
		{"trailer cut", good[:len(good)-1], ErrTruncated, "header declares"},
		{"trailing bytes", append(slices.Clone(good), 0), ErrCorrupt, "header declares"},
		{"version 2", edit(func(b []byte) []byte { b[8] = 2; return reseal(b) }), ErrVersion, "version 2, this build reads 1"},
		{"version 0", edit(func(b []byte) []byte { b[8] = 0; return b }), ErrVersion, "version 0"},
		{"unit count too big", edit(func(b []byte) []byte { b[19] = 0xff; return b }), ErrTruncated, "header declares"},
		{"checksum field", edit(func(b []byte) []byte { b[len(b)-1] ^= 1; return b }), ErrChecksum, "stored"},
		{"unit flipped", edit(func(b []byte) []byte { b[headerSize+20] ^= 4; return b }), ErrChecksum, "computed"},
		{"word count changed", edit(func(b []byte) []byte { b[12]++; return b }), ErrChecksum, ""},
		{"flags", edit(func(b []byte) []byte { b[10] = 1; return reseal(b) }), ErrCorrupt, "flags"},
		{"no units", compiled(0), ErrCorrupt, "no root"},
		{"words but no edges", compiled(5, 0), ErrCorrupt, "5 words"},
		{"edges but no words", compiled(0, mask("A"), edge(true, 0)), ErrCorrupt, "0 words"},
		{"mask beyond Z", compiled(1, mask("A")|1<<26, edge(true, 0)), ErrCorrupt, "bad state mask"},
		{"inner state without edges", compiled(1, mask("A"), edge(false, 2), 0), ErrCorrupt, "bad state mask"},
		{"state past the end", compiled(1, mask("AB"), edge(true, 0)), ErrCorrupt, "runs past the end"},
		{"dead end", compiled(1, mask("A"), edge(false, 0)), ErrCorrupt, "leads nowhere"},
		{"self loop", compiled(1, mask("A"), edge(true, 1)), ErrCorrupt, "not after it"},
		{"backward edge", compiled(1, mask("A"), edge(false, 2), mask("B"), edge(true, 2)), ErrCorrupt, "not after it"},
		{"target past the end", compiled(1, mask("A"), edge(false, 9)), ErrCorrupt, "not after it"},
		{"target inside a state", compiled(1, mask("A"), edge(false, 3), mask("B"), edge(true, 0)),
			ErrCorrupt, "into the middle of the state at unit 2"},
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
	f.Add(compiled(1, mask("A"), edge(true, 0)))
	f.Add(compiled(0, 0))
	f.Add(handMade())
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
