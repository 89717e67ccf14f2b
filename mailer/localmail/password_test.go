package localmail_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/mailer/localmail"
)

// A kept password is written once, mode 0600, and read back after a
// restart; a file others may read is refused. Without Dir it is new each
// time and kept nowhere.
func TestKeptPassword(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mail")
	srv := startDir(t, dir)
	pw, file, err := srv.KeptPassword("Lexio")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "lexio.password"); file != want {
		t.Errorf("kept in %q, want %q", file, want)
	}
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the file: %v %v, want mode 0600", fi, err)
	}
	srv.Close()
	srv = startDir(t, dir)
	if again, _, err := srv.KeptPassword("lexio"); err != nil || again != pw {
		t.Errorf("after a restart %q (%v), was %q", again, err, pw)
	}
	if err := os.Chmod(file, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := srv.KeptPassword("lexio"); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("a file others may read: %v", err)
	}
	srv.Close()

	mem, err := localmail.Start(t.Context(), localmail.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	a, file, err := mem.KeptPassword("lexio")
	b, _, _ := mem.KeptPassword("lexio")
	if err != nil || file != "" || len(a) != 32 || a == b {
		t.Errorf("without Dir: %q %q %q %v", a, b, file, err)
	}
}
