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
	if c.InviteTTL != 7*24*time.Hour {
		t.Errorf("invite_ttl = %s, want a week", c.InviteTTL)
	}
	if c.BotDelay != time.Minute {
		t.Errorf("bot_delay = %s, want a minute", c.BotDelay)
	}
	if c.Mail.Replies != DefaultReplies {
		t.Errorf("mail.replies_per_hour = %d, want %d", c.Mail.Replies, DefaultReplies)
	}
	// LEAGUES §3: no time bank, vacations honoured, 30 days a year.
	if l := c.Leagues[0]; l.TimeBank != 0 || l.BankPerMove != 0 || !*l.Vacation {
		t.Errorf("league time: time_bank %s, bank_per_move %s, vacation %v", l.TimeBank, l.BankPerMove, *l.Vacation)
	}
	if *c.VacationDays != DefaultVacationDays {
		t.Errorf("vacation_days = %d, want %d", *c.VacationDays, DefaultVacationDays)
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
		{"quota under a message", base + "mailbox_quota_bytes = 1000\n", "embedded.mailbox_quota_bytes 1000: want at least mail.max_message_bytes"},
		{"negative attempts", base + "[smtp]\nmax_attempts = -1\n", "smtp.max_attempts -1"},
		{"negative age", base + "[smtp]\nmax_age = \"-1h\"\n", "smtp.max_age -1h0m0s"},
		{"short invite ttl", "invite_ttl = \"30m\"\n" + base, "invite_ttl 30m0s: want 1h to 2160h0m0s"},
		{"negative invite ttl", "invite_ttl = \"-1h\"\n" + base, "invite_ttl -1h0m0s"},
		{"long invite ttl", "invite_ttl = \"2161h\"\n" + base, "invite_ttl 2161h0m0s"},
		{"long bot delay", "bot_delay = \"25h\"\n" + base, "bot_delay 25h0m0s: want 1s to 24h"},
		{"negative bot delay", "bot_delay = \"-1s\"\n" + base, "bot_delay -1s"},
		{"bad bot", base + "[[table]]\nname=\"t\"\nplayers=[\"a@x.y\",\"bot:hard\"]\n", "nor a computer seat"},
		{"bot twice", base + "[[table]]\nname=\"t\"\nplayers=[\"a@x.y\",\"bot\",\"BOT:medium\"]\n", "seated twice"},
		{"negative forfeit_after", base + "[[league]]\nname=\"l\"\nforfeit_after=-1\n", "forfeit_after -1: 0 (never) or more"},
		{"bad duration", base + "[[league]]\nname=\"l\"\nturn_time=\"3 days\"\n", "turn_time"},
		// LEAGUES §3: the time bank and vacations.
		{"negative bank", base + "[[league]]\nname=\"l\"\ntime_bank=\"-1h\"\n", `time_bank -1h0m0s`},
		{"negative bank per move", base + "[[league]]\nname=\"l\"\ntime_bank=\"10h\"\nbank_per_move=\"-1h\"\n", `bank_per_move -1h0m0s`},
		{"bank per move without a bank", base + "[[league]]\nname=\"l\"\nbank_per_move=\"1h\"\n", "bank_per_move 1h0m0s needs a time_bank"},
		{"bank per move above the bank", base + "[[league]]\nname=\"l\"\ntime_bank=\"1h\"\nbank_per_move=\"2h\"\n", "more than the whole time_bank"},
		{"tiny bank", base + "[[league]]\nname=\"l\"\ntime_bank=\"10s\"\n", "time_bank 10s: at least 1m"},
		{"negative vacation days", "vacation_days = -1\n" + base, "vacation_days -1"},
		{"vacation days beyond a year", "vacation_days = 400\n" + base, "vacation_days 400"},
		{"vacation not a bool", base + "[[league]]\nname=\"l\"\nvacation=\"no\"\n", "vacation"},
		// EMAIL §7: the web side.
		{"web without base_url", base + "[web]\nlisten = \"127.0.0.1:8080\"\n", "web.base_url is empty"},
		{"web relative base_url", base + "[web]\nlisten = \"127.0.0.1:8080\"\nbase_url = \"/lexio\"\n", `web.base_url "/lexio": want an absolute http or https URL`},
		{"web ftp base_url", base + "[web]\nlisten = \"127.0.0.1:8080\"\nbase_url = \"ftp://x.org\"\n", "want an absolute http or https URL"},
		{"web base_url with a query", base + "[web]\nlisten = \"127.0.0.1:8080\"\nbase_url = \"https://x.org/?a=1\"\n", "want no query"},
		{"web listen without a port", base + "[web]\nlisten = \"localhost\"\nbase_url = \"https://x.org\"\n", `web.listen "localhost": want host:port`},
		{"web base_url without listen", base + "[web]\nbase_url = \"https://x.org\"\n", "web.listen is empty"},
		{"spectators not a bool", base + "[[league]]\nname=\"l\"\nspectators=\"yes\"\n", "spectators"},
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

// TestTimeKeys reads the time bank and vacation keys as written: zero
// vacation days is none, not the default.
func TestTimeKeys(t *testing.T) {
	c, err := Parse([]byte("vacation_days = 0\n[mail]\naddress = \"lexio@localhost\"\n[embedded]\nenabled = true\n" +
		"[[league]]\nname=\"l\"\ntime_bank=\"48h\"\nbank_per_move=\"2h\"\nvacation=false\n"))
	if err != nil {
		t.Fatal(err)
	}
	l := c.League("l")
	if l.TimeBank != 48*time.Hour || l.BankPerMove != 2*time.Hour || *l.Vacation {
		t.Errorf("league: time_bank %s, bank_per_move %s, vacation %v", l.TimeBank, l.BankPerMove, *l.Vacation)
	}
	if *c.VacationDays != 0 {
		t.Errorf("vacation_days = %d, want 0", *c.VacationDays)
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

// TestInviteTTL: invite_ttl is read as a duration.
func TestInviteTTL(t *testing.T) {
	c, err := Parse([]byte("invite_ttl = \"72h\"\n[mail]\naddress = \"lexio@localhost\"\n[embedded]\nenabled = true\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.InviteTTL != 72*time.Hour {
		t.Errorf("invite_ttl = %s, want 72h", c.InviteTTL)
	}
}

// TestWeb reads [web] and a league's spectators: off and false by default.
func TestWeb(t *testing.T) {
	base := "[mail]\naddress = \"lexio@localhost\"\n[embedded]\nenabled = true\n"
	c, err := Parse([]byte(base))
	if err != nil {
		t.Fatal(err)
	}
	if c.Web.On() || c.Leagues[0].Spectators {
		t.Errorf("web %+v, spectators %v: want off and false by default", c.Web, c.Leagues[0].Spectators)
	}
	c, err = Parse([]byte(base + "[web]\nlisten = \"127.0.0.1:0\"\nbase_url = \"https://lexio.example.org/games\"\n[[league]]\nname = \"l\"\nspectators = true\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !c.Web.On() || c.Web.BaseURL != "https://lexio.example.org/games" || !c.League("l").Spectators {
		t.Errorf("web %+v, league %+v", c.Web, c.League("l"))
	}
}
