package main

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/glebarez/go-sqlite" // the raw write below
)

// TestTableListUnreadable: a table whose row SQLite cannot read back (a
// deadline in year 10000, as stored before the store bounded its times)
// used to fail `lexio table list` for every table. The list now shows the
// others, a line of error for it, and fails naming it.
func TestTableListUnreadable(t *testing.T) {
	dir, cfg := adminConfig(t, "")
	for _, name := range []string{"t1", "t2", "t3"} {
		if code, _, errOut := lexio(t, "table", "new", "-c", cfg, name, "alice@localhost", "bob@localhost"); code != 0 {
			t.Fatalf("table new %s: %d %q", name, code, errOut)
		}
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "lexio.db")+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("UPDATE tables SET deadline = '10000-01-01 00:00:00+00:00' WHERE name = 't2'"); err != nil {
		t.Fatal(err)
	}

	code, out, errOut := lexio(t, "table", "list", "-c", cfg)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 1 || len(lines) != 4 || !strings.HasPrefix(lines[1], "t1 ") || !strings.HasPrefix(lines[3], "t3 ") ||
		!strings.Contains(lines[1], "alice@localhost bob@localhost") || !strings.HasPrefix(lines[2], "t2 ") || !strings.Contains(lines[2], "error: table t2: ") {
		t.Errorf("table list: %d\n%s", code, out)
	}
	if !strings.Contains(errOut, "table list: 1 of 3 tables cannot be read: t2") {
		t.Errorf("table list's error: %q", errOut)
	}
}
