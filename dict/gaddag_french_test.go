package dict

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// frenchGaddag builds the dictionary and the GADDAG of wfrench (skipped,
// saying so, where the list is not installed: see frenchList).
func frenchGaddag(tb testing.TB) (*Dict, *Gaddag) {
	tb.Helper()
	d, _, err := Build(bytes.NewReader(frenchList(tb)))
	if err != nil {
		tb.Fatal(err)
	}
	g, err := BuildGaddag(d)
	if err != nil {
		tb.Fatal(err)
	}
	return d, g
}

var frenchGaddagTest = flag.Bool("dict.french-gaddag", false, "check the GADDAG of the whole of wfrench, not every tenth word (seconds; a minute under -race)")

// The GADDAG of the French list holds exactly its words (rev(w) for each)
// and one entry per letter of each word: of every tenth word by default,
// of the whole list with -dict.french-gaddag (its build takes seconds).
func TestFrenchGaddag(t *testing.T) {
	every := 10
	if *frenchGaddagTest {
		every = 1
	}
	var sample bytes.Buffer
	for i, line := range bytes.Split(frenchList(t), []byte("\n")) {
		if i%every == 0 {
			sample.Write(line)
			sample.WriteByte('\n')
		}
	}
	d, _, err := Build(&sample)
	if err != nil {
		t.Fatal(err)
	}
	g, err := BuildGaddag(d)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Verify(); err != nil {
		t.Fatal(err)
	}
	entries, letters := 0, 0
	for range g.entries {
		entries++
	}
	for w := range d.Words {
		letters += len(w)
		if !g.Contains(w) {
			t.Fatalf("%q missing from the GADDAG", w)
		}
	}
	if entries != letters {
		t.Errorf("%d entries, want one per letter: %d", entries, letters)
	}
	if err := g.Pair(d); err != nil {
		t.Error(err)
	}
	t.Logf("GADDAG of %d words: %d entries, %d bytes compiled (dictionary %d bytes)", g.Len(), entries, g.Size(), d.Size())
}

func BenchmarkBuildGaddagFrench(b *testing.B) {
	d, _, err := Build(bytes.NewReader(frenchList(b)))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var g *Gaddag
	for b.Loop() {
		if g, err = BuildGaddag(d); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(g.Size()), "compiled-B")
}

// BenchmarkLoadGaddag: ParseGaddag of the compiled French GADDAG held in
// memory, checksum and structure checks included.
func BenchmarkLoadGaddag(b *testing.B) {
	_, g := frenchGaddag(b)
	var buf bytes.Buffer
	g.WriteTo(&buf)
	data := buf.Bytes()
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ParseGaddag(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpenGaddag: the same from a file, reading it included.
func BenchmarkOpenGaddag(b *testing.B) {
	_, g := frenchGaddag(b)
	var buf bytes.Buffer
	g.WriteTo(&buf)
	path := filepath.Join(b.TempDir(), "french.gaddag")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := OpenGaddag(path); err != nil {
			b.Fatal(err)
		}
	}
}
