package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestExampleLoads(t *testing.T) {
	c, err := Load(filepath.Join("..", "config.example.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Mail.Address != "lexio@example.org" || c.Storage.Driver != "sqlite" {
		t.Errorf("unexpected values: %+v", c)
	}
	l := c.League("autumn")
	if l == nil || l.TurnTime != 72*time.Hour || l.AwayGrace != 2*time.Hour || len(l.Reminders) != 2 || l.ReserveSize != 10 || l.ReserveRefill != 15*time.Second {
		t.Errorf("league autumn: %+v", l)
	}
	if c.SMTP.Connections != 4 {
		t.Errorf("smtp.connections = %d", c.SMTP.Connections)
	}
	if c.Mail.ErrorReplies != 5 || c.Mail.Replies != 30 {
		t.Errorf("mail: error_replies_per_hour %d, replies_per_hour %d", c.Mail.ErrorReplies, c.Mail.Replies)
	}
	if len(c.Tables) != 1 || len(c.Tables[0].Players) != 3 {
		t.Errorf("tables: %+v", c.Tables)
	}
}

func TestDefaults(t *testing.T) {
	c, err := Parse([]byte("[mail]\naddress = \"lexio@localhost\"\n[embedded]\nenabled = true\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Dictionary != DefaultDictionary || c.Storage.SQLitePath != filepath.Join("data", "lexio.db") {
		t.Errorf("defaults: %+v", c)
	}
	if !*c.IMAP.IDLE {
		t.Error("IDLE is on unless the file says idle = false")
	}
	// The [smtp] keys the file does not set are left at zero: the
	// dispatcher's defaults (mailer.DefaultMaxAttempts ...), defined there
	// alone, apply.
	if c.SMTP.MaxAttempts != 0 || c.SMTP.MaxAge != 0 || c.SMTP.Connections != 0 {
		t.Errorf("smtp: max_attempts %d, max_age %s, connections %d; want them left at zero", c.SMTP.MaxAttempts, c.SMTP.MaxAge, c.SMTP.Connections)
	}
	if c.TimeZone != "UTC" {
		t.Errorf("time_zone = %q, want UTC", c.TimeZone)
	}
	if c.Mail.Replies != DefaultReplies {
		t.Errorf("mail.replies_per_hour = %d, want %d", c.Mail.Replies, DefaultReplies)
	}
	if len(c.Leagues) != 1 || c.Leagues[0].Variant != "lexio" || c.Leagues[0].TurnTime != DefaultTurnTime || !*c.Leagues[0].Multipliers {
		t.Errorf("default league: %+v", c.Leagues)
	}
}

func TestInvalid(t *testing.T) {
	base := "[mail]\naddress = \"lexio@localhost\"\n[embedded]\nenabled = true\n"
	tests := []struct {
		name, toml, want string
	}{
		{"unknown key", base + "[imap]\nadress = \"x\"\n", "unknown keys: imap.adress"},
		{"bad language", "language = \"de\"\n" + base, `language "de"`},
		{"bad time zone", "time_zone = \"Europe/Pariss\"\n" + base, `time_zone "Europe/Pariss": not an IANA time zone`},
		{"local time zone", "time_zone = \"Local\"\n" + base, `time_zone "Local"`},
		{"negative reply bound", "[mail]\naddress = \"lexio@localhost\"\nreplies_per_hour = -1\n[embedded]\nenabled = true\n", "mail.replies_per_hour -1"},
		{"plus in address", "[mail]\naddress = \"lexio+x@localhost\"\n[embedded]\nenabled = true\n", "must not hold '+'"},
		{"inline secret", "[mail]\naddress = \"a@b.c\"\nsecret = \"x\"\n[imap]\naddress=\"h:1\"\n[smtp]\naddress=\"h:2\"\n", "mail.secret is written inline"},
		{"no imap", "[mail]\naddress = \"a@b.c\"\n[smtp]\naddress=\"h:2\"\n", "imap.address is empty"},
		// RULES §12: lexico is for two players; plain only for lexico.
		{"lexico four players", base + "[[league]]\nname=\"l\"\nvariant=\"lexico\"\n[[table]]\nname=\"t\"\nplayers=[\"a@x.y\",\"b@x.y\",\"c@x.y\"]\n", "want 2 to 2"},
		{"plain lexio", base + "[[league]]\nname=\"l\"\nmultipliers=false\n", "multipliers = false exists only"},
		{"one player", base + "[[table]]\nname=\"t\"\nplayers=[\"a@x.y\"]\n", "1 players"},
		{"seated twice", base + "[[table]]\nname=\"t\"\nplayers=[\"a@x.y\",\"A@x.y\"]\n", "seated twice"},
		{"bad table name", base + "[[table]]\nname=\"Big Table\"\nplayers=[\"a@x.y\",\"b@x.y\"]\n", "\"Big Table\" is not a table name: 1 to 32 of a-z"},
		{"reminder too long", base + "[[league]]\nname=\"l\"\nturn_time=\"1h\"\naway_grace=\"30m\"\nreminders=[\"2h\"]\n", "reminder 2h0m0s"},
		{"too many connections", base + "[smtp]\nconnections = 33\n", "smtp.connections 33: want 1 to 32"},
		{"negative connections", base + "[smtp]\nconnections = -1\n", "smtp.connections -1: want 1 to 32"},
		{"negative attempts", base + "[smtp]\nmax_attempts = -1\n", "smtp.max_attempts -1"},
		{"negative age", base + "[smtp]\nmax_age = \"-1h\"\n", "smtp.max_age -1h0m0s"},
		{"negative forfeit_after", base + "[[league]]\nname=\"l\"\nforfeit_after=-1\n", "forfeit_after -1: 0 (never) or more"},
		{"bad duration", base + "[[league]]\nname=\"l\"\nturn_time=\"3 days\"\n", "turn_time"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.toml))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v; want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestSecrets(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "secret")
	if err := os.WriteFile(f, []byte("0123456789abcdef-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c := &Config{Mail: Mail{SecretFile: f}}
	s, err := c.Secret()
	if err != nil || string(s) != "0123456789abcdef-file" {
		t.Fatalf("from file: %q %v", s, err)
	}
	t.Setenv("LEXIO_SECRET", "0123456789abcdef-env")
	s, err = c.Secret()
	if err != nil || string(s) != "0123456789abcdef-env" {
		t.Fatalf("env must win: %q %v", s, err)
	}
	t.Setenv("LEXIO_SECRET", "short")
	if _, err := c.Secret(); err == nil || strings.Contains(err.Error(), "short") {
		t.Fatalf("a short secret must be refused without being shown: %v", err)
	}
}

// Every secret file must be private to its owner (mode 0600 or 0400): one
// that its group or others may open is refused, naming the fix.
func TestSecretFilesMustBePrivate(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "secret")
	if err := os.WriteFile(f, []byte("0123456789abcdef-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c := &Config{Mail: Mail{SecretFile: f}, IMAP: IMAP{PasswordFile: f}, SMTP: SMTP{PasswordFile: f},
		Storage: Storage{PostgresDSNFile: f}}
	read := map[string]func() error{
		"secret":        func() error { _, err := c.Secret(); return err },
		"imap password": func() error { _, err := c.IMAPPassword(); return err },
		"smtp password": func() error { _, err := c.SMTPPassword(); return err },
		"postgres dsn":  func() error { _, err := c.PostgresDSN(); return err },
	}
	for _, mode := range []os.FileMode{0o600, 0o400} {
		if err := os.Chmod(f, mode); err != nil {
			t.Fatal(err)
		}
		for name, fn := range read {
			if err := fn(); err != nil {
				t.Errorf("%s, mode %04o: %v", name, mode, err)
			}
		}
	}
	for _, mode := range []os.FileMode{0o640, 0o604, 0o620, 0o644} {
		if err := os.Chmod(f, mode); err != nil {
			t.Fatal(err)
		}
		for name, fn := range read {
			err := fn()
			if !errors.Is(err, ErrNotPrivate) || !strings.Contains(err.Error(), "chmod 600") || !strings.Contains(err.Error(), f) {
				t.Errorf("%s, mode %04o: %v", name, mode, err)
			}
		}
	}
}
