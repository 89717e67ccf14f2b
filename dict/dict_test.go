package dict

import (
	"bytes"
	"errors"
	"flag"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// smallWords is what testdata/words.txt must give, written out by hand.
var smallWords = []string{
	"A", "ABACA", "ABAISSA", "ABAISSAI", "ABAISSAIS", "ABAISSAIT", "CAESAR",
	"CHANT", "CHANTA", "CHANTAI", "CHANTAIS", "CHANTAIT", "CHANTE", "CHANTEE",
	"CHANTEES", "CHANTER", "CHANTES", "CHAT", "CHATON", "CHATONS", "CHATS",
	"COEUR", "COEURS", "ELEVE", "ELEVER", "ETE", "ETES", "GARCON", "GARCONS",
	"NAIF", "NAIVE", "ZEBRE", "ZEBRER", "ZOO", "ZOOS",
}

func buildString(t testing.TB, list string) (*Dict, Stats) {
	t.Helper()
	d, st, err := Build(strings.NewReader(list))
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return d, st
}

func allWords(d *Dict) []string {
	var ws []string
	for w := range d.Words {
		ws = append(ws, w)
	}
	return ws
}

// RULES §8.2
func TestBuildSmallList(t *testing.T) {
	d, st, err := Open(filepath.Join("testdata", "words.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := Stats{Lines: 50, Blank: 1, Dropped: 7, Duplicates: 7, Kept: 35}
	if st != want {
		t.Errorf("stats = %+v, want %+v", st, want)
	}
	if got := allWords(d); !slices.Equal(got, smallWords) {
		t.Errorf("words = %q\nwant %q", got, smallWords)
	}
	if d.Len() != len(smallWords) {
		t.Errorf("Len = %d, want %d", d.Len(), len(smallWords))
	}
}

// RULES §8.2
func TestBuildLines(t *testing.T) {
	tests := []struct {
		name  string
		list  string
		words []string
		stats Stats
	}{
		{"accents and case", "été\nÉtÉ\nete\nETE\n", []string{"ETE"},
			Stats{Lines: 4, Duplicates: 3, Kept: 1}},
		{"ligatures", "cœur\nCÆSAR\nœuvre\n", []string{"CAESAR", "COEUR", "OEUVRE"},
			Stats{Lines: 3, Kept: 3}},
		{"CRLF", "chat\r\nchien\r\n", []string{"CHAT", "CHIEN"},
			Stats{Lines: 2, Kept: 2}},
		{"mixed endings, no final newline", "chat\r\nchien\nzoo", []string{"CHAT", "CHIEN", "ZOO"},
			Stats{Lines: 3, Kept: 3}},
		{"blank lines", "\n\nchat\n\r\n  \t\nchien\n\n", []string{"CHAT", "CHIEN"},
			Stats{Lines: 7, Blank: 5, Kept: 2}},
		{"surrounding white space", "  chat \t\n\tchien\r\n", []string{"CHAT", "CHIEN"},
			Stats{Lines: 2, Kept: 2}},
		{"byte order mark", "\uFEFFchat\nchien\n", []string{"CHAT", "CHIEN"},
			Stats{Lines: 2, Kept: 2}},
		{"hyphen apostrophe digit space", "peut-être\naujourd'hui\nmp3\npomme de terre\nchat\n",
			[]string{"CHAT"}, Stats{Lines: 5, Dropped: 4, Kept: 1}},
		{"other scripts and symbols", "άλφα\nстол\nchat!\n½\nchat\n", []string{"CHAT"},
			Stats{Lines: 5, Dropped: 4, Kept: 1}},
		{"invalid UTF-8", "ch\xffat\nchat\n", []string{"CHAT"},
			Stats{Lines: 2, Dropped: 1, Kept: 1}},
		{"unsorted input", "zoo\nchat\nabaca\nchat\n", []string{"ABACA", "CHAT", "ZOO"},
			Stats{Lines: 4, Duplicates: 1, Kept: 3}},
		{"prefixes of each other", "chatons\nchat\nchaton\nc\n", []string{"C", "CHAT", "CHATON", "CHATONS"},
			Stats{Lines: 4, Kept: 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, st := buildString(t, tt.list)
			if st != tt.stats {
				t.Errorf("stats = %+v, want %+v", st, tt.stats)
			}
			if got := allWords(d); !slices.Equal(got, tt.words) {
				t.Errorf("words = %q, want %q", got, tt.words)
			}
			if st.Lines != st.Blank+st.Dropped+st.Duplicates+st.Kept {
				t.Errorf("stats do not add up: %+v", st)
			}
		})
	}
}

func TestZeroDict(t *testing.T) {
	var d Dict
	if d.Contains("A") || d.Contains("") || d.Len() != 0 || len(allWords(&d)) != 0 {
		t.Error("the zero Dict is not empty")
	}
}

func TestBuildNoWords(t *testing.T) {
	for _, list := range []string{"", "\n\n", "peut-être\n2CV\n"} {
		d, _, err := Build(strings.NewReader(list))
		if !errors.Is(err, ErrNoWords) || d != nil {
			t.Errorf("Build(%q) = %v, %v; want ErrNoWords", list, d, err)
		}
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestBuildReadError(t *testing.T) {
	_, _, err := Build(failingReader{})
	if err == nil || !strings.HasPrefix(err.Error(), "dict: ") || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("err = %v", err)
	}
}

// checkExactly checks that d holds exactly words (sorted, distinct): every
// word, and no prefix, extension, neighbour or random string besides.
func checkExactly(t *testing.T, d *Dict, words []string, rng *rand.Rand) {
	t.Helper()
	set := make(map[string]bool, len(words))
	for _, w := range words {
		set[w] = true
	}
	if got := allWords(d); !slices.Equal(got, words) {
		t.Fatalf("Words gives %d words, want %d (first diff near %q)", len(got), len(words), firstDiff(got, words))
	}
	if d.Len() != len(words) {
		t.Errorf("Len = %d, want %d", d.Len(), len(words))
	}
	probe := func(s string) {
		if got := d.Contains(s); got != set[s] {
			t.Errorf("Contains(%q) = %v, want %v", s, got, set[s])
		}
	}
	for _, w := range words {
		probe(w)
		for i := range len(w) {
			probe(w[:i]) // prefixes, the empty word included
		}
		for c := byte('A'); c <= 'Z'; c++ {
			probe(w + string(c))
		}
		b := []byte(w)
		i := rng.IntN(len(b))
		b[i] = byte('A' + rng.IntN(26))
		probe(string(b))
	}
	for range 2000 {
		b := make([]byte, 1+rng.IntN(12))
		for i := range b {
			b[i] = byte('A' + rng.IntN(26))
		}
		probe(string(b))
	}
	// Not normalised: never a word, even when the folded form is.
	for _, s := range []string{"", "chat", "Chat", "CHAT ", " CHAT", "CHAT\n", "CH-AT", "ÉTÉ", "CHAT\x00", "@", "[", "`", "{"} {
		if d.Contains(s) {
			t.Errorf("Contains(%q) = true", s)
		}
	}
}

func firstDiff(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return a[i] + " / " + b[i]
		}
	}
	return "the end"
}

func TestContainsExactly(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	d, _, err := Open(filepath.Join("testdata", "words.txt"))
	if err != nil {
		t.Fatal(err)
	}
	checkExactly(t, d, smallWords, rng)

	// Random lists over small alphabets share many prefixes and suffixes.
	for round := range 50 {
		words := randomWords(rng, 1+rng.IntN(300), 2+rng.IntN(5), 1+rng.IntN(9))
		d, _ := buildString(t, strings.Join(words, "\n"))
		checkExactly(t, d, words, rng)
		if t.Failed() {
			t.Fatalf("round %d: list %q", round, words)
		}
	}
}

// randomWords returns up to n sorted distinct words of 1..maxLen letters
// from the first alpha letters.
func randomWords(rng *rand.Rand, n, alpha, maxLen int) []string {
	var ws []string
	for range n {
		b := make([]byte, 1+rng.IntN(maxLen))
		for i := range b {
			b[i] = byte('A' + rng.IntN(alpha))
		}
		ws = append(ws, string(b))
	}
	slices.Sort(ws)
	return slices.Compact(ws)
}

// minimalStates counts the states of the minimal edge-final automaton of
// words from its definition (Myhill–Nerode): one state per distinct
// non-empty set of non-empty suffixes that follow a prefix.
func minimalStates(words []string) int {
	suffixes := map[string][]string{}
	for _, w := range words {
		for i := range len(w) {
			suffixes[w[:i]] = append(suffixes[w[:i]], w[i:])
		}
	}
	distinct := map[string]bool{}
	for _, s := range suffixes {
		slices.Sort(s)
		distinct[strings.Join(s, ",")] = true
	}
	return len(distinct)
}

func TestMinimal(t *testing.T) {
	tests := []struct {
		words         []string
		states, edges int
	}{
		// root -T-> s1 -A,O-> s2 -P(final)-> s3 -S(final)-> end
		{[]string{"TAP", "TAPS", "TOP", "TOPS"}, 4, 5},
		// CHANT and DANS share the state that ends with A or E.
		{[]string{"CHANTA", "CHANTE", "DANSA", "DANSE"}, 9, 11},
		{[]string{"A"}, 1, 1},
		{[]string{"A", "B", "C"}, 1, 3},
		{[]string{"AB", "B"}, 2, 3},
	}
	for _, tt := range tests {
		d, _ := buildString(t, strings.Join(tt.words, "\n"))
		states, edges := d.counts()
		if states != tt.states || edges != tt.edges {
			t.Errorf("%q: %d states, %d edges; want %d, %d", tt.words, states, edges, tt.states, tt.edges)
		}
		if got := minimalStates(tt.words); got != tt.states {
			t.Errorf("%q: reference count %d, table says %d", tt.words, got, tt.states)
		}
	}

	d, _, err := Open(filepath.Join("testdata", "words.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := d.counts(); got != minimalStates(smallWords) {
		t.Errorf("testdata/words.txt: %d states, minimal is %d", got, minimalStates(smallWords))
	}

	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		words := randomWords(rng, 1+rng.IntN(200), 2+rng.IntN(4), 1+rng.IntN(8))
		d, _ := buildString(t, strings.Join(words, "\n"))
		if got, _ := d.counts(); got != minimalStates(words) {
			t.Fatalf("%q: %d states, minimal is %d", words, got, minimalStates(words))
		}
	}
}

func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	lists := [][]string{smallWords, {"A"}, {"Z", "ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ"}}
	for range 20 {
		lists = append(lists, randomWords(rng, 1+rng.IntN(500), 26, 12))
	}
	dir := t.TempDir()
	for i, words := range lists {
		d, _ := buildString(t, strings.Join(words, "\n"))
		var buf bytes.Buffer
		n, err := d.WriteTo(&buf)
		if err != nil || n != int64(buf.Len()) || buf.Len() != d.Size() {
			t.Fatalf("WriteTo = %d, %v; wrote %d, Size %d", n, err, buf.Len(), d.Size())
		}
		p, err := Parse(buf.Bytes())
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		checkExactly(t, p, words, rng)

		path := filepath.Join(dir, "d.dawg")
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		o, st, err := Open(path)
		if err != nil {
			t.Fatalf("Open compiled: %v", err)
		}
		if st != (Stats{Kept: len(words)}) {
			t.Errorf("Open compiled stats = %+v", st)
		}
		var again bytes.Buffer
		if _, err := o.WriteTo(&again); err != nil || !bytes.Equal(again.Bytes(), buf.Bytes()) {
			t.Errorf("list %d: compiled form changed through Open (%v)", i, err)
		}
	}
}

// The compiled form of testdata/words.txt is pinned, so that a change of
// format is a deliberate one (with a new version number).
func TestGolden(t *testing.T) {
	d, _, err := Open(filepath.Join("testdata", "words.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := d.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "words.dawg")
	if *update {
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("compiled form of words.txt differs from %s (%d bytes, want %d); run go test -update if the change is intended",
			golden, buf.Len(), len(want))
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	good, err := os.ReadFile(filepath.Join("testdata", "words.dawg"))
	if err != nil {
		t.Fatal(err)
	}
	bad := slices.Clone(good)
	bad[len(bad)/2] ^= 0x10
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name string
		path string
		want error
	}{
		{"missing", filepath.Join(dir, "nope.txt"), os.ErrNotExist},
		{"checksum", write("bad.dawg", bad), ErrChecksum},
		{"truncated", write("short.dawg", good[:30]), ErrTruncated},
		{"magic byte only", write("m.dawg", good[:1]), ErrNotCompiled},
		{"empty list", write("empty.txt", nil), ErrNoWords},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, _, err := Open(tt.path)
			if !errors.Is(err, tt.want) || d != nil {
				t.Fatalf("Open = %v, %v; want %v", d, err, tt.want)
			}
			if !strings.HasPrefix(err.Error(), "dict: ") {
				t.Errorf("error %q lacks the dict: prefix", err)
			}
		})
	}
}

func TestConcurrentContains(t *testing.T) {
	d, _, err := Open(filepath.Join("testdata", "words.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 2000 {
				w := smallWords[(i+g)%len(smallWords)]
				if !d.Contains(w) || d.Contains(w+"Q") {
					t.Errorf("wrong answer for %q", w)
					return
				}
			}
		})
	}
	wg.Wait()
}

// FuzzBuild: any input loads or says why, the stats add up, and the
// dictionary holds exactly the entries that normalise to A–Z.
func FuzzBuild(f *testing.F) {
	seed, err := os.ReadFile(filepath.Join("testdata", "words.txt"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(seed))
	f.Add("été\r\nÉTÉ\n\ncœur\n")
	f.Add("a\nab\nabc\nb\n")
	f.Add("\uFEFFchat\n\uFEFFchien\n")
	f.Fuzz(func(t *testing.T, list string) {
		d, st, err := Build(strings.NewReader(list))
		if st.Lines != st.Blank+st.Dropped+st.Duplicates+st.Kept {
			t.Fatalf("stats do not add up: %+v", st)
		}
		want := map[string]bool{}
		for line := range strings.Lines(strings.TrimPrefix(list, "\uFEFF")) {
			if w, ok := normalizeReference(strings.TrimSpace(line)); ok {
				want[w] = true
			}
		}
		if err != nil {
			if !errors.Is(err, ErrNoWords) || len(want) != 0 {
				t.Fatalf("Build: %v (%d words expected)", err, len(want))
			}
			return
		}
		if d.Len() != len(want) || st.Kept != len(want) {
			t.Fatalf("Len %d, Kept %d, want %d", d.Len(), st.Kept, len(want))
		}
		for w := range d.Words {
			if !want[w] || !d.Contains(w) {
				t.Fatalf("word %q: expected %v, Contains %v", w, want[w], d.Contains(w))
			}
		}
		var buf bytes.Buffer
		if _, err := d.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		if _, err := Parse(buf.Bytes()); err != nil {
			t.Fatalf("compiled form does not load: %v", err)
		}
	})
}

// counts returns the number of states with edges and of edges: the size
// of the automaton, for the minimality tests.
func (d *Dict) counts() (states, edges int) {
	n := uint32(len(d.units) / 4)
	for p := uint32(0); p < n; {
		k := uint32(bits.OnesCount32(d.unit(p)))
		if k > 0 {
			states++
			edges += int(k)
		}
		p += 1 + k
	}
	return states, edges
}
