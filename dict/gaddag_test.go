package dict

import (
	"bytes"
	"encoding/binary"
	"errors"
	"maps"
	"math/bits"
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
		n := g.Root()
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
	// Arc agrees with Next on every edge of every state.
	for _, n := range states(g) {
		labels := g.Labels(n)
		for c := byte(0); c <= Separator; c++ {
			if labels&(1<<c) == 0 {
				continue
			}
			next, final, _ := g.Next(n, c)
			if an, af := g.Arc(n, c); an != next || af != final {
				t.Errorf("Arc(%#x, %c) = %#x %v, Next %#x %v", n, 'A'+c, an, af, next, final)
			}
		}
	}
	if got := g.Labels(g.Root()); got != 1|1<<('C'-'A')|1<<('H'-'A')|1<<('S'-'A')|1<<('T'-'A') {
		t.Errorf("root labels %b", got)
	}
}

// states returns the states reachable from g's root, each once.
func states(g *Gaddag) []Node {
	seen := map[Node]bool{g.Root(): true}
	todo := []Node{g.Root()}
	for len(todo) > 0 {
		n := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for ls := g.Labels(n); ls != 0; ls &= ls - 1 {
			next, _ := g.Arc(n, byte(bits.TrailingZeros32(ls)))
			if next != 0 && !seen[next] {
				seen[next] = true
				todo = append(todo, next)
			}
		}
	}
	return slices.Collect(maps.Keys(seen))
}

// gedge is an edge of a compiled GADDAG to the state of the given labels
// starting at edge target.
func gedge(final bool, target, labels uint32) uint64 {
	v := uint64(target)<<32 | uint64(labels)
	if final {
		v |= gaddagFinal
	}
	return v
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
	// seal makes a GADDAG of one word from the root's labels and edges.
	seal := func(root uint32, edges ...uint64) []byte {
		b := make([]byte, gaddagHeaderSize)
		putGaddagHeader(b, 1, 0, len(edges), root)
		for _, e := range edges {
			b = binary.LittleEndian.AppendUint64(b, e)
		}
		return appendChecksum(b)
	}
	leaf := gedge(true, 0, 0)
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
		{"version 1", edit(func(b []byte) []byte { b[8] = 1; return reseal(b) }), ErrVersion},
		{"checksum", edit(func(b []byte) []byte { b[len(b)-1] ^= 1; return b }), ErrChecksum},
		{"source changed", edit(func(b []byte) []byte { b[16] ^= 1; return b }), ErrChecksum},
		{"flags", edit(func(b []byte) []byte { b[10] = 1; return reseal(b) }), ErrCorrupt},
		{"reserved", edit(func(b []byte) []byte { b[28] = 1; return reseal(b) }), ErrCorrupt},
		{"no root", seal(0), ErrCorrupt},
		{"root's edges missing", seal(mask("A")), ErrCorrupt},
		{"root label beyond ◇", seal(1<<27, leaf), ErrCorrupt},
		{"label beyond ◇", seal(mask("A"), gedge(false, 1, 1<<27), leaf), ErrCorrupt},
		{"edge nowhere", seal(mask("A"), 0), ErrCorrupt},
		{"backward edge", seal(mask("A"), gedge(false, 1, mask("B")), gedge(true, 1, mask("B"))), ErrCorrupt},
		{"target past the end", seal(mask("A"), gedge(false, 1, mask("AB")), leaf), ErrCorrupt},
		{"stray edge", seal(mask("A"), leaf, leaf), ErrCorrupt},
		{"into a state's middle", seal(mask("AB"), gedge(false, 2, mask("AB")), gedge(false, 3, mask("A")), leaf, leaf), ErrCorrupt},
		{"labels disagree", seal(mask("AB"), gedge(false, 2, mask("A")), gedge(false, 2, mask("AB")), leaf, leaf), ErrCorrupt},
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
	broken, err := ParseGaddag(seal(mask("AZ")|1<<Separator,
		gedge(false, 9, mask("A")), gedge(true, 1, mask("AZ")|1<<Separator), gedge(false, 1<<31, 1<<Separator)))
	if err != nil {
		t.Fatal(err)
	}
	for c := byte(0); c <= Separator+5; c++ {
		for _, n := range []Node{broken.Root(), Node(c), Node(uint64(c)<<32 | gaddagLabels), 1<<64 - 1} {
			broken.Next(n, c)
			broken.Arc(n, c)
		}
	}
	broken.Contains("AZ")
	// ◇ is a label of its own.
	if h, err := ParseGaddag(seal(1<<Separator, gedge(false, 1, mask("A")), leaf)); err != nil || h.Verify() != nil {
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
			n := (len(fixed) - gaddagHeaderSize - trailerSize) / 8
			fixed = fixed[:gaddagHeaderSize+8*n+trailerSize]
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
			// What loads is written back as it was.
			var out bytes.Buffer
			if _, err := h.WriteTo(&out); err != nil || !bytes.Equal(out.Bytes(), b) {
				t.Fatalf("WriteTo after ParseGaddag: %v, %d bytes for %d", err, out.Len(), len(b))
			}
			// Whatever the structure, no read panics.
			for k := range uint64(len(h.edges) + 2) {
				for _, labels := range []uint64{0, 1, 1 << Separator, gaddagLabels} {
					n := Node(k<<32 | labels)
					for c := byte(0); c <= Separator+1; c++ {
						h.Next(n, c)
						h.Arc(n, c)
					}
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
