package dict

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// frenchPath is Debian's wfrench list (346,205 lines in wfrench 1.2.7).
const frenchPath = "/usr/share/dict/french"

func frenchList(tb testing.TB) []byte {
	tb.Helper()
	data, err := os.ReadFile(frenchPath)
	if os.IsNotExist(err) {
		tb.Skipf("%s not found: apt-get install wfrench to run the tests on the French list", frenchPath)
	}
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// RULES §8.2
func TestFrench(t *testing.T) {
	data := frenchList(t)
	d, st, err := Open(frenchPath)
	if err != nil {
		t.Fatal(err)
	}
	states, edges := d.counts()
	t.Logf("%s: %d lines, %d words kept, %d dropped (not A–Z), %d duplicates folded, %d blank; compiled %d bytes, %d states, %d edges",
		frenchPath, st.Lines, st.Kept, st.Dropped, st.Duplicates, st.Blank, d.Size(), states, edges)

	// The same figures, worked out independently of Build.
	var want Stats
	set := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		want.Lines++
		line = strings.TrimSpace(line)
		w, ok := normalizeReference(line)
		switch {
		case line == "":
			want.Blank++
		case !ok:
			want.Dropped++
		case set[w]:
			want.Duplicates++
		default:
			set[w] = true
		}
	}
	want.Kept = len(set)
	if st != want {
		t.Errorf("stats = %+v, want %+v", st, want)
	}
	if st.Kept < 300000 {
		t.Errorf("only %d words kept", st.Kept)
	}

	words := make([]string, 0, len(set))
	for w := range set {
		words = append(words, w)
	}
	slices.Sort(words)
	for _, w := range words {
		if !d.Contains(w) {
			t.Fatalf("kept word %q not found", w)
		}
	}
	if got := allWords(d); !slices.Equal(got, words) {
		t.Fatalf("Words gives %d words, want %d (first diff near %q)", len(got), len(words), firstDiff(got, words))
	}

	// Non-words: prefixes, extensions and random strings, against the set.
	rng := rand.New(rand.NewPCG(9, 10))
	for range 100000 {
		w := words[rng.IntN(len(words))]
		var s string
		switch rng.IntN(3) {
		case 0:
			s = w[:rng.IntN(len(w))]
		case 1:
			s = w + string(rune('A'+rng.IntN(26)))
		default:
			b := make([]byte, 1+rng.IntN(10))
			for i := range b {
				b[i] = byte('A' + rng.IntN(26))
			}
			s = string(b)
		}
		if d.Contains(s) != set[s] {
			t.Fatalf("Contains(%q) = %v", s, !set[s])
		}
	}

	// The compiled form round-trips through a file.
	path := filepath.Join(t.TempDir(), "french.dawg")
	var buf bytes.Buffer
	if _, err := d.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	c, cst, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if cst.Kept != st.Kept || c.Len() != d.Len() || c.Size() != d.Size() {
		t.Errorf("compiled: %+v, Len %d, Size %d", cst, c.Len(), c.Size())
	}
	for _, w := range []string{"COEUR", "OEUVRE", "ZYTHUM", "KIWI", "ABAISSA"} {
		if !c.Contains(w) {
			t.Errorf("compiled: %q missing", w)
		}
	}
}

func BenchmarkBuildFrench(b *testing.B) {
	data := frenchList(b)
	b.ReportAllocs()
	var d *Dict
	for b.Loop() {
		var err error
		d, _, err = Build(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(d.Size()), "compiled-B")
}

// BenchmarkBuildMapFrench is the comparison: the same words in a Go map.
func BenchmarkBuildMapFrench(b *testing.B) {
	data := frenchList(b)
	b.ReportAllocs()
	var m map[string]struct{}
	for b.Loop() {
		m = frenchMap(string(data))
	}
	runtime.KeepAlive(m)
	b.ReportMetric(float64(heapOf(func() any { return frenchMap(string(data)) })), "map-heap-B")
}

func frenchMap(text string) map[string]struct{} {
	m := make(map[string]struct{})
	for line := range strings.Lines(text) {
		if w, ok := Normalize(strings.TrimSpace(line)); ok {
			m[w] = struct{}{}
		}
	}
	return m
}

// heapOf returns how many heap bytes the value made by f keeps alive.
func heapOf(f func() any) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	v := f()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(v)
	return after.HeapAlloc - before.HeapAlloc
}

func compiledFrench(b *testing.B) []byte {
	d, _, err := Build(bytes.NewReader(frenchList(b)))
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := d.WriteTo(&buf); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkLoadCompiled: Parse of the compiled French list held in memory
// (checksum and structure checks included, no rebuilding).
func BenchmarkLoadCompiled(b *testing.B) {
	data := compiledFrench(b)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpenCompiled: the same from a file, reading it included.
func BenchmarkOpenCompiled(b *testing.B) {
	path := filepath.Join(b.TempDir(), "french.dawg")
	if err := os.WriteFile(path, compiledFrench(b), 0o644); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Open(path); err != nil {
			b.Fatal(err)
		}
	}
}

// probes returns the French words shuffled, each followed by a near miss
// (the word with one letter changed, rarely a word itself).
func probes(b *testing.B) (*Dict, []string) {
	d, _, err := Build(bytes.NewReader(frenchList(b)))
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(11, 12))
	var ps []string
	for w := range d.Words {
		m := []byte(w)
		m[rng.IntN(len(m))] = byte('A' + rng.IntN(26))
		ps = append(ps, w, string(m))
	}
	rng.Shuffle(len(ps), func(i, j int) { ps[i], ps[j] = ps[j], ps[i] })
	return d, ps
}

// BenchmarkContains looks up French words and near misses, half and half:
// "hot" cycles through 4,096 probes that stay in cache, "all" through the
// 650,000 probes, where fetching each probe string costs a cache miss.
func BenchmarkContains(b *testing.B) {
	d, ps := probes(b)
	for _, n := range []int{4096, len(ps)} {
		name := "hot"
		if n == len(ps) {
			name = "all"
		}
		b.Run(name, func(b *testing.B) {
			ps := ps[:n]
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				d.Contains(ps[i%len(ps)])
			}
		})
	}
}

func BenchmarkContainsMap(b *testing.B) {
	d, ps := probes(b)
	m := make(map[string]struct{}, d.Len())
	for w := range d.Words {
		m[w] = struct{}{}
	}
	for _, n := range []int{4096, len(ps)} {
		name := "hot"
		if n == len(ps) {
			name = "all"
		}
		b.Run(name, func(b *testing.B) {
			ps := ps[:n]
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				_ = m[ps[i%len(ps)]]
			}
		})
	}
}
