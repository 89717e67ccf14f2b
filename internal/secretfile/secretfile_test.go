package secretfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadRefusesOpenFiles(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "secret")
	if err := os.WriteFile(f, []byte("hunter2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if s, err := Read(f); err != nil || s != "hunter2" {
		t.Fatalf("Read = %q, %v", s, err)
	}
	for _, mode := range []os.FileMode{0o640, 0o604, 0o660} {
		if err := os.Chmod(f, mode); err != nil {
			t.Fatal(err)
		}
		_, err := Read(f)
		if !errors.Is(err, ErrNotPrivate) || !strings.Contains(err.Error(), "chmod 600") || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("mode %04o: %v", mode, err)
		}
	}
	if _, err := Read(filepath.Join(dir, "none")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func TestWriteWholePrivate(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "token")
	for _, s := range []string{"first", "second"} {
		if err := Write(f, s); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(f)
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("%v %v: want mode 0600", fi.Mode(), err)
		}
		if got, err := Read(f); err != nil || got != s {
			t.Fatalf("Read after Write(%q) = %q, %v", s, got, err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files left in the directory, want the secret alone", len(entries))
	}
}

// TestWriteOverReadOnly replaces a read-only secret (mode 0400, as a host
// may leave it) and names no secret when it cannot write.
func TestWriteOverReadOnly(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "token")
	if err := os.WriteFile(f, []byte("old\n"), 0o400); err != nil {
		t.Fatal(err)
	}
	if err := Write(f, "new"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(f); string(b) != "new\n" {
		t.Errorf("content %q", b)
	}
	if err := Write(filepath.Join(dir, "missing", "token"), "secret-data"); err == nil || strings.Contains(err.Error(), "secret-data") {
		t.Errorf("into a missing directory: %v", err)
	}
}
