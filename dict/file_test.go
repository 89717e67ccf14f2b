package dict

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Compile writes the dictionary and its GADDAG side by side; GaddagOf
// reads the pair back, and refuses a GADDAG of other words.
func TestCompileAndGaddagOf(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "words.dawg")
	st, n, gn, err := Compile(strings.NewReader("chat\nÉté\nete\n"), out)
	if err != nil || st.Kept != 2 || n == 0 || gn == 0 {
		t.Fatalf("Compile: %+v %d %d %v", st, n, gn, err)
	}
	d, _, err := Open(out)
	if err != nil {
		t.Fatal(err)
	}
	gd, err := GaddagOf(out, d)
	if err != nil || !gd.Contains("CHAT") || gd.Size() != int(gn) {
		t.Fatalf("GaddagOf: %v", err)
	}
	other := filepath.Join(dir, "other.dawg")
	if _, _, _, err := Compile(strings.NewReader("echo\n"), other); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(other+GaddagSuffix, out+GaddagSuffix); err != nil {
		t.Fatal(err)
	}
	if _, err := GaddagOf(out, d); !errors.Is(err, ErrGaddagMismatch) {
		t.Errorf("a GADDAG of other words: %v", err)
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, "*.tmp")); len(tmp) > 0 {
		t.Errorf("left behind: %v", tmp)
	}
}
