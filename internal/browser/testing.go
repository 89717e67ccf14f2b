package browser

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// EnvScreenshots names the variable that chooses where tests keep their
// screenshots.
const EnvScreenshots = "LEXIO_SCREENSHOTS"

// ForTest starts a browser for t and closes it when t ends. Without
// ExecPath it skips t, saying what to install; under CI (CI set) it fails
// t instead, since there the browser tests must not be skipped (make test
// installs the browser).
func ForTest(t testing.TB) *Browser {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	b, err := Start(ctx)
	if errors.Is(err, ErrMissing) {
		if os.Getenv("CI") != "" {
			t.Fatalf("%v; CI is set, so the browser tests must run (make test installs it)", err)
		}
		t.Skipf("%v; the browser tests were skipped", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := b.Close(); err != nil {
			t.Error(err)
		}
	})
	return b
}

// ScreenshotDir returns the directory, created, where a test keeps the
// screenshots named sub, for a human to look at: $LEXIO_SCREENSHOTS/sub,
// or else .screenshots/sub at the root of the module, which git ignores.
// Each run overwrites the files of the last.
func ScreenshotDir(t testing.TB, sub string) string {
	t.Helper()
	root := os.Getenv(EnvScreenshots)
	if root == "" {
		dir, ok := moduleRoot()
		if !ok {
			t.Fatalf("browser: no go.mod above the test's directory; set %s", EnvScreenshots)
		}
		root = filepath.Join(dir, ".screenshots")
	}
	dir := filepath.Join(root, sub)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// moduleRoot is the nearest directory at or above the working directory
// (a test's: its package's) that holds a go.mod.
func moduleRoot() (string, bool) {
	dir, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, true
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", false
		}
		dir = up
	}
}

// AxeForTest loads axe-core for t from the module's AxeDir. Without it it
// skips t, saying what to run; under CI (CI set) it fails t instead, as
// ForTest does for the browser (make test installs both).
func AxeForTest(t testing.TB) *Axe {
	t.Helper()
	root, ok := moduleRoot()
	if !ok {
		t.Fatal("browser: no go.mod above the test's directory")
	}
	a, err := LoadAxe(root)
	if errors.Is(err, ErrAxeMissing) {
		if os.Getenv("CI") != "" {
			t.Fatalf("%v; CI is set, so the accessibility checks must run (make test installs axe-core)", err)
		}
		t.Skipf("%v; the accessibility checks were skipped", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return a
}
