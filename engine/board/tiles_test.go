package board

import (
	"slices"
	"testing"
)

func TestTileSet(t *testing.T) {
	// RULES §3.1: 102 tiles, 100 letters and 2 blanks, the given values.
	values := map[int]string{1: "EAIONRSTUL", 2: "CDMP", 3: "BG", 4: "FHV", 8: "JQX", 10: "KWYZ"}
	for v, ls := range values {
		for i := 0; i < len(ls); i++ {
			if got := LetterValue(ls[i]); got != v {
				t.Errorf("%c worth %d, want %d", ls[i], got, v)
			}
			if v >= 8 && LetterCount(ls[i]) != 1 {
				t.Errorf("%c: %d tiles, want 1", ls[i], LetterCount(ls[i]))
			}
		}
	}
	counts := map[byte]int{'E': 14, 'A': 9, 'I': 8, 'O': 6, 'N': 6, 'R': 6, 'S': 6, 'T': 6, 'U': 6, 'L': 5,
		'C': 3, 'D': 3, 'M': 3, 'P': 2, 'B': 2, 'G': 2, 'F': 2, 'H': 2, 'V': 2}
	set := TileSet(Rules{})
	if len(set) != 102 {
		t.Fatalf("%d tiles, want 102", len(set))
	}
	letters := 0
	for l := byte('A'); l <= 'Z'; l++ {
		n := 0
		for _, x := range set {
			if x == l {
				n++
			}
		}
		if want, ok := counts[l]; ok && n != want {
			t.Errorf("%c: %d tiles, want %d", l, n, want)
		}
		if n == 0 {
			t.Errorf("no %c", l)
		}
		letters += n
	}
	if letters != 100 {
		t.Errorf("%d letters, want 100", letters)
	}
	if TileValue(BlankTile) != 0 || slices.Index(set, BlankTile) < 0 {
		t.Error("blank missing or not worth 0")
	}
	// RULES §12: plain lexico has no blanks.
	plain := TileSet(Rules{Variant: Lexico, Plain: true})
	if len(plain) != 100 || slices.Contains(plain, BlankTile) {
		t.Errorf("plain set: %d tiles, blanks %v", len(plain), slices.Contains(plain, BlankTile))
	}
}
