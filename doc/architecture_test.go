package doc

import (
	"go/build"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/lexio-mail/lexio/"

// TestImportsAsDocumented: architecture.md's list of imports is what the
// code imports, package by package (tests and the integration suite
// aside), so that its picture is the truth.
func TestImportsAsDocumented(t *testing.T) {
	doc, err := os.ReadFile("architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "```imports\n")
	block, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("architecture.md has no ```imports block")
	}
	documented := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
		pkg, imps, ok := strings.Cut(line, ": ")
		if !ok {
			t.Fatalf("line %q is not \"package: imports\"", line)
		}
		documented[pkg] = nil
		if imps != "-" {
			documented[pkg] = strings.Fields(imps)
		}
	}
	actual := map[string][]string{}
	err = filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel("..", path)
		name := d.Name()
		if rel != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "doc" || name == "integration" || name == "node_modules") {
			return filepath.SkipDir
		}
		p, err := build.ImportDir(path, 0)
		if err != nil {
			if _, none := err.(*build.NoGoError); none {
				return nil
			}
			return err
		}
		var ours []string
		for _, imp := range p.Imports {
			if rest, ok := strings.CutPrefix(imp, module); ok {
				ours = append(ours, rest)
			}
		}
		slices.Sort(ours)
		actual[filepath.ToSlash(rel)] = ours
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for pkg, imps := range actual {
		want, ok := documented[pkg]
		switch {
		case !ok:
			t.Errorf("package %s is not in architecture.md's imports (it imports %s)", pkg, strings.Join(imps, " "))
		case !slices.Equal(imps, want):
			t.Errorf("%s imports %q; architecture.md says %q", pkg, imps, want)
		}
	}
	for pkg := range documented {
		if _, ok := actual[pkg]; !ok {
			t.Errorf("architecture.md lists %s, which is no package", pkg)
		}
	}
}
