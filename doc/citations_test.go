package doc

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	citation = regexp.MustCompile(`\b(RULES|EMAIL|LEAGUES) §(\d+(?:\.\d+)?)`)
	// A numbered heading: "## 4. Your turn" holds §4, "### 4.2 Words" §4.2.
	heading = regexp.MustCompile(`^#+ (\d+(?:\.\d+)?)\.? `)
)

// sections reads the numbered headings of one document.
func sections(t *testing.T, name string) map[string]bool {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m := heading.FindStringSubmatch(sc.Text()); m != nil {
			out[m[1]] = true
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCitationsResolve: every "RULES §n", "EMAIL §n" and "LEAGUES §n" in
// the repository's Go files, templates, TOML and Markdown names a
// numbered heading of doc/rules.md, doc/email.md or doc/leagues.md.
func TestCitationsResolve(t *testing.T) {
	docs := map[string]map[string]bool{
		"RULES":   sections(t, "rules.md"),
		"EMAIL":   sections(t, "email.md"),
		"LEAGUES": sections(t, "leagues.md"),
	}
	n := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != ".." && (strings.HasPrefix(name, ".") || name == "data" || name == "bin" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".tmpl", ".toml", ".md":
		default:
			return nil
		}
		if strings.HasSuffix(path, "citations_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			for _, m := range citation.FindAllStringSubmatch(line, -1) {
				n++
				if !docs[m[1]][m[2]] {
					t.Errorf("%s:%d: %s §%s is no numbered heading of doc/%s.md", path, i+1, m[1], m[2], strings.ToLower(m[1]))
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Errorf("found %d citations: the walk missed the repository", n)
	}
}
