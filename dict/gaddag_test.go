package dict

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// gaddagEntries is the definition: every rev(w[:i]) ◇ w[i:], ◇ as '[',
// and rev(w) for i = n, sorted.
func gaddagEntries(words []string) []string {
	var out []string
	for _, w := range words {
		for i := 1; i <= len(w); i++ {
			var b []byte
			for k := i - 1; k >= 0; k-- {
				b = append(b, w[k])
			}
			if i < len(w) {
				b = append(b, '[')
				b = append(b, w[i:]...)
			}
			out = append(out, string(b))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func allEntries(g *Gaddag) []string {
	var out []string
	for e := range g.entries {
		out = append(out, e)
	}
	return out
}

func buildGaddag(t testing.TB, words []string) (*Dict, *Gaddag) {
	t.Helper()
	d, _ := buildString(t, strings.Join(words, "\n"))
	g, err := BuildGaddag(d)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Verify(); err != nil {
		t.Fatalf("a built GADDAG fails Verify: %v", err)
	}
	return d, g
}

func TestGaddagEntries(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	lists := [][]string{smallWords, {"A"}, {"AB"}, {"CAT", "CHAT", "CHATS"}}
	for range 100 {
		lists = append(lists, randomWords(rng, 1+rng.IntN(200), 2+rng.IntN(6), 1+rng.IntN(9)))
	}
	for _, words := range lists {
		d, g := buildGaddag(t, words)
		if got, want := allEntries(g), gaddagEntries(words); !slices.Equal(got, want) {
			t.Fatalf("%q: entries %q\nwant %q (first diff near %q)", words, got, want, firstDiff(got, want))
		}
		if g.Len() != len(words) {
			t.Errorf("Len = %d, want %d", g.Len(), len(words))
		}
		if err := g.Pair(d); err != nil {
			t.Errorf("Pair with its own dictionary: %v", err)
		}
		for range 200 {
			w := randomWords(rng, 1, 2+rng.IntN(6), 1+rng.IntN(9))[0]
			if g.Contains(w) != d.Contains(w) {
				t.Fatalf("%q: Contains(%q) = %v, the dictionary says %v", words, w, g.Contains(w), d.Contains(w))
			}
		}
	}
}

// The walk a move generator does: from a middle letter left, across ◇,
// then right.
func TestGaddagNext(t *testing.T) {
	_, g := buildGaddag(t, []string{"CAT", "CHAT", "CHATS"})
	walk := func(s string) (final, ok bool) {
		n := Node(0)
		for i := 0; i < len(s); i++ {
			c := s[i] - 'A'
			if s[i] == '^' {
				c = Separator
			}
			if i > 0 && n == 0 {
				return false, false
			}
			var next Node
			next, final, ok = g.Next(n, c)
			if !ok {
				return false, false
			}
			n = next
		}
		return final, ok
	}
	for s, want := range map[string][2]bool{
		"AHC^T":  {true, true},  // CHAT from its A
		"AHC^TS": {true, true},  // CHATS
		"AHC^":   {false, true}, // on the way
		"AC^T":   {true, true},  // CAT
		"STAHC":  {true, true},  // CHATS ending at S: no ◇
		"TAC":    {true, true},
		"TAC^":   {false, false}, // nothing after the last letter
		"AC^TS":  {false, false},
		"Q":      {false, false},
	} {
		if final, ok := walk(s); final != want[0] || ok != want[1] {
			t.Errorf("%s: final %v ok %v, want %v %v", s, final, ok, want[0], want[1])
		}
	}
	// Arc agrees with Next on every edge.
	for n := range Node(len(g.units) / 4) {
		labels := g.Labels(n)
		for c := byte(0); c <= Separator; c++ {
			if labels&(1<<c) == 0 {
				continue
			}
			next, final, _ := g.Next(n, c)
			if an, af := g.Arc(n, labels, c); an != next || af != final {
				t.Errorf("Arc(%d, %c) = %d %v, Next %d %v", n, 'A'+c, an, af, next, final)
			}
		}
	}
	if got := g.Labels(0); got != 1<<('A'-'A')|1<<('C'-'A')|1<<('H'-'A')|1<<('S'-'A')|1<<('T'-'A') {
		t.Errorf("root labels %b", got)
	}
}

func TestGaddagRoundTrip(t *testing.T) {
	d, g := buildGaddag(t, smallWords)
	var buf bytes.Buffer
	if n, err := g.WriteTo(&buf); err != nil || n != int64(g.Size()) {
		t.Fatalf("WriteTo = %d, %v", n, err)
	}
	path := filepath.Join(t.TempDir(), "words.gaddag")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := OpenGaddag(path)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(allEntries(h), allEntries(g)) || h.Len() != g.Len() {
		t.Error("the loaded GADDAG differs")
	}
	if err := h.Pair(d); err != nil {
		t.Error(err)
	}
	other, _ := buildString(t, "CHAT\nCHIEN")
	if err := h.Pair(other); !errors.Is(err, ErrGaddagMismatch) {
		t.Errorf("Pair with another dictionary = %v", err)
	}
	// The same words give the same bytes.
	_, again := buildGaddag(t, smallWords)
	var buf2 bytes.Buffer
	again.WriteTo(&buf2)
	if !bytes.Equal(buf.Bytes(), buf2.Bytes()) {
		t.Error("two builds of the same words differ")
	}
	if _, err := BuildGaddag(&Dict{}); !errors.Is(err, ErrNoWords) {
		t.Errorf("BuildGaddag of the zero Dict = %v", err)
	}
	if _, err := OpenGaddag(filepath.Join(t.TempDir(), "none")); err == nil {
		t.Error("OpenGaddag of a missing file succeeded")
	}
	// A dictionary is not a GADDAG, nor the other way round.
	var dbuf bytes.Buffer
	d.WriteTo(&dbuf)
	if _, err := ParseGaddag(dbuf.Bytes()); !errors.Is(err, ErrNotCompiled) {
		t.Errorf("ParseGaddag of a dictionary = %v", err)
	}
	if _, err := Parse(buf.Bytes()); !errors.Is(err, ErrNotCompiled) {
		t.Errorf("Parse of a GADDAG = %v", err)
	}
}

func TestParseGaddagErrors(t *testing.T) {
	_, g := buildGaddag(t, smallWords)
	var buf bytes.Buffer
	g.WriteTo(&buf)
	good := buf.Bytes()
	edit := func(f func(b []byte) []byte) []byte { return f(slices.Clone(good)) }
	seal := func(units ...uint32) []byte {
		b := make([]byte, gaddagHeaderSize)
		putGaddagHeader(b, 1, 0, len(units))
		for _, u := range units {
			b = append(b, byte(u), byte(u>>8), byte(u>>16), byte(u>>24))
		}
		return appendChecksum(b)
	}
	tests := []struct {
		name string
		data []byte
		want error
	}{
		{"nil", nil, ErrNotCompiled},
		{"magic", edit(func(b []byte) []byte { b[3] = 'D'; return b }), ErrNotCompiled},
		{"header cut", good[:gaddagHeaderSize], ErrTruncated},
		{"units cut", good[:len(good)-5], ErrTruncated},
		{"trailing bytes", append(slices.Clone(good), 0), ErrCorrupt},
		{"version", edit(func(b []byte) []byte { b[8] = 2; return reseal(b) }), ErrVersion},
		{"checksum", edit(func(b []byte) []byte { b[len(b)-1] ^= 1; return b }), ErrChecksum},
		{"source changed", edit(func(b []byte) []byte { b[16] ^= 1; return b }), ErrChecksum},
		{"flags", edit(func(b []byte) []byte { b[10] = 1; return reseal(b) }), ErrCorrupt},
		{"no root", seal(0), ErrCorrupt},
		{"no units", seal(), ErrCorrupt},
		{"label beyond ◇", seal(1<<27, edge(true, 0)), ErrCorrupt},
		{"backward edge", seal(mask("A"), edge(false, 2), mask("B"), edge(true, 2)), ErrCorrupt},
	}
	for _, tt := range tests {
		h, err := ParseGaddag(tt.data)
		if err == nil && tt.want == ErrCorrupt {
			err = h.Verify() // the structure is Verify's
			h = nil
		}
		if !errors.Is(err, tt.want) || h != nil {
			t.Errorf("%s: ParseGaddag = %v, %v; want %v", tt.name, h, err, tt.want)
		}
	}
	if err := g.Verify(); err != nil {
		t.Errorf("Verify of a built GADDAG: %v", err)
	}
	// A structure that passes the checksum but not Verify answers without
	// panicking: every read is range-checked.
	broken, err := ParseGaddag(seal(mask("AZ")|1<<Separator, edge(false, 9), edge(true, 1)))
	if err != nil {
		t.Fatal(err)
	}
	for c := byte(0); c <= Separator+5; c++ {
		broken.Next(0, c)
		broken.Next(Node(c), c)
		broken.Labels(Node(c))
	}
	broken.Next(9, 0)
	broken.Contains("AZ")
	// ◇ is a label of its own.
	if _, err := ParseGaddag(seal(1<<Separator, edge(false, 2), mask("A"), edge(true, 0))); err != nil {
		t.Errorf("a ◇ edge: %v", err)
	}
	for n := range len(good) {
		if h, err := ParseGaddag(good[:n]); err == nil || h != nil {
			t.Fatalf("ParseGaddag of the first %d bytes succeeded", n)
		}
	}
}

func FuzzParseGaddag(f *testing.F) {
	_, g := buildGaddag(f, smallWords)
	var buf bytes.Buffer
	g.WriteTo(&buf)
	good := buf.Bytes()
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte(gaddagMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		// As given, then with the header's sizes and checksum made
		// consistent, so that the reads behind them see the mutations.
		fixed := slices.Clone(data)
		if len(fixed) >= gaddagHeaderSize+trailerSize {
			copy(fixed, gaddagMagic)
			fixed[8], fixed[9], fixed[10], fixed[11] = gaddagVersion, 0, 0, 0
			n := (len(fixed) - gaddagHeaderSize - trailerSize) / 4
			fixed = fixed[:gaddagHeaderSize+4*n+trailerSize]
			fixed[20], fixed[21], fixed[22], fixed[23] = byte(n), byte(n>>8), byte(n>>16), byte(n>>24)
			reseal(fixed)
		}
		for _, b := range [][]byte{data, fixed} {
			h, err := ParseGaddag(b)
			if err != nil {
				if h != nil || !strings.HasPrefix(err.Error(), "dict: ") {
					t.Fatalf("ParseGaddag = %v, %q", h, err)
				}
				continue
			}
			// Whatever the structure, no read panics.
			for n := range Node(len(h.units)/4 + 2) {
				labels := h.Labels(n)
				for c := byte(0); c <= Separator+1; c++ {
					h.Next(n, c)
					h.Arc(n, labels, c)
				}
			}
			h.Contains("CHAT")
			if h.Verify() == nil {
				for e := range h.entries {
					_ = e
				}
			}
		}
	})
}
