package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/config"
	"github.com/lexio-mail/lexio/mailer"
)

// config.example.toml shows every [smtp] key with its default, and those
// defaults are the dispatcher's alone: the file the admin copies says what
// a silent file does.
func TestExampleStatesTheSMTPDefaults(t *testing.T) {
	c, err := config.Load(filepath.Join("..", "..", "config.example.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if c.SMTP.MaxAttempts != mailer.DefaultMaxAttempts {
		t.Errorf("config.example.toml: smtp.max_attempts = %d; the dispatcher's default is %d", c.SMTP.MaxAttempts, mailer.DefaultMaxAttempts)
	}
	if c.SMTP.MaxAge != mailer.DefaultMaxAge {
		t.Errorf("config.example.toml: smtp.max_age = %s; the dispatcher's default is %s", c.SMTP.MaxAge, mailer.DefaultMaxAge)
	}
	if c.SMTP.Connections != mailer.DefaultConnections {
		t.Errorf("config.example.toml: smtp.connections = %d; the dispatcher's default is %d", c.SMTP.Connections, mailer.DefaultConnections)
	}
}

// check-config resolves everything serve needs before it starts, and
// names every problem at once.
func TestCheckConfigChecksWhatServeNeeds(t *testing.T) {
	dir := t.TempDir()
	words := filepath.Join("..", "..", "gcg", "testdata", "words.txt")
	secret := filepath.Join(dir, "secret")
	writeFile(t, secret, "0123456789abcdef0123456789abcdef\n", 0o600)
	short := filepath.Join(dir, "short")
	writeFile(t, short, "0123456789\n", 0o600)
	open := filepath.Join(dir, "open")
	writeFile(t, open, "0123456789abcdef0123456789abcdef\n", 0o644)
	dsn := filepath.Join(dir, "dsn")
	writeFile(t, dsn, "host=127.0.0.1 user=lexio dbname=lexio\n", 0o600)
	badDSN := filepath.Join(dir, "bad-dsn")
	writeFile(t, badDSN, "postgres://lexio:pw@[::1/lexio\n", 0o600)
	ca := filepath.Join(dir, "ca.pem")
	writeFile(t, ca, "not a certificate\n", 0o644)
	good := testConfig(t, dir, secret, words, "")
	postgres := func(file string) string {
		return strings.Replace(good, "[storage]\n", "[storage]\ndriver = \"postgres\"\npostgres_dsn_file = "+quote(file)+"\n", 1)
	}
	external := func(extra string) string {
		return `dictionary = ` + quote(words) + `
[mail]
address = "lexio@example.org"
secret_file = ` + quote(secret) + `
[imap]
address = "imap.example.org:993"
password_file = ` + quote(filepath.Join(dir, "imap-password")) + `
` + extra + `
[smtp]
address = "smtp.example.org:587"
username = "lexio@example.org"
password_file = ` + quote(filepath.Join(dir, "smtp-password")) + "\n"
	}

	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"a missing secret file", strings.Replace(good, secret, secret+"-gone", 1), []string{"mail secret", "secret-gone: no such file"}},
		{"a short secret", strings.Replace(good, secret, short, 1), []string{"mail secret: want at least 16 bytes"}},
		{"a secret others may read", strings.Replace(good, secret, open, 1), []string{"open to group or others", "chmod 600"}},
		{"a missing DSN file", postgres(dsn + "-gone"), []string{"postgres dsn", "dsn-gone: no such file"}},
		{"a malformed DSN", postgres(badDSN), []string{"the postgres dsn does not parse"}},
		{"a missing dictionary", strings.Replace(good, words, words+"-gone", 1), []string{"dictionary", "words.txt-gone"}},
		{"every problem at once", external(`ca_file = ` + quote(ca)), []string{"3 problems", "imap password", "imap-password: no such file",
			"smtp password", "smtp-password: no such file", "imap.ca_file", "holds no PEM certificate"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, "lexio.toml")
			writeFile(t, path, tc.text, 0o600)
			code, out, errOut := lexio(t, "check-config", "-c", path)
			if code != 1 || strings.Contains(out, "ok") {
				t.Fatalf("status %d, stdout %q, stderr %q", code, out, errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr does not say %q:\n%s", w, errOut)
				}
			}
			if strings.Contains(errOut, "pw@") {
				t.Errorf("the DSN's password is shown:\n%s", errOut)
			}
		})
	}

	t.Run("a good file", func(t *testing.T) {
		for _, text := range []string{good, postgres(dsn)} {
			path := filepath.Join(dir, "lexio.toml")
			writeFile(t, path, text, 0o600)
			if code, out, errOut := lexio(t, "check-config", "-c", path); code != 0 || !strings.Contains(out, ": ok: ") {
				t.Errorf("status %d, stdout %q, stderr %q", code, out, errOut)
			}
		}
	})
}

// TestCheckConfigCounts: check-config counts leagues and the file's tables
// in good English, and says the tables are the file's: those opened by
// mail are not in it (#34).
func TestCheckConfigCounts(t *testing.T) {
	for _, tc := range []struct{ tables, want string }{
		{"[[table]]\nname = \"t1\"\nplayers = [\"alice@localhost\", \"bob@localhost\"]\n", ": ok: 1 league, 1 table in the file, storage sqlite"},
		{leagueConfig, ": ok: 2 leagues, 0 tables in the file, storage sqlite"},
		{leagueConfig + "[[table]]\nname = \"t1\"\nplayers = [\"alice@localhost\", \"bob@localhost\"]\n[[table]]\nname = \"t2\"\nplayers = [\"bob@localhost\", \"alice@localhost\"]\n",
			": ok: 2 leagues, 2 tables in the file, storage sqlite"},
	} {
		_, cfg := adminConfig(t, tc.tables)
		if code, out, errOut := lexio(t, "check-config", "-c", cfg); code != 0 || !strings.Contains(out, tc.want) {
			t.Errorf("%d %q %q, want %q", code, out, errOut, tc.want)
		}
	}
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `\`, `\\`) + `"` }
