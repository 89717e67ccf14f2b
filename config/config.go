// Package config reads lexio's one TOML file (EMAIL §6.1): storage, mail,
// rules and times per league, the dictionary, tables and their players.
//
// Secrets (passwords, the MAC secret, a PostgreSQL DSN with a password) are
// never taken only inline: each has a *_file key and an environment
// variable, and the inline form is refused by Validate unless the
// embedded demo mail server is in use. The OAuth2 refresh token is a file
// alone, since lexio writes it back when the provider rotates it.
// A secret file must be private to its owner (mode 0600 or 0400).
//
// Demo writes the file `lexio demo` plays with. The package knows nothing
// of what the other packages do with the values.
package config

import (
	"errors"
	"fmt"
	"net"
	"net/mail"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/lexio-mail/lexio/internal/botseat"
	"github.com/lexio-mail/lexio/internal/secretfile"
	"github.com/lexio-mail/lexio/internal/tablename"
	"github.com/lexio-mail/lexio/internal/zone"
)

// Config is the whole file.
type Config struct {
	DataDir    string `toml:"data_dir"`
	Dictionary string `toml:"dictionary"`
	Language   string `toml:"language"`
	TimeZone   string `toml:"time_zone"` // IANA name; a player's own TZ overrides it
	// VacationDays is how many whole days of VACATION each player has
	// per calendar year (LEAGUES §3.2); nil where the file is silent
	// (DefaultVacationDays), 0 for none.
	VacationDays *int   `toml:"vacation_days"`
	LogLevel     string `toml:"log_level"`
	// InviteTTL is how long an invitation to a table (NEW with
	// addresses) waits for its answer (LEAGUES §6).
	InviteTTL time.Duration `toml:"invite_ttl"`
	// RatingTau is Glicko-2's system constant τ (LEAGUES §10.1).
	RatingTau float64 `toml:"rating_tau"`
	// BotDelay is how long a computer seat waits before it plays, so that
	// it feels like play (default DefaultBotDelay).
	BotDelay time.Duration `toml:"bot_delay"`

	Storage  Storage  `toml:"storage"`
	Mail     Mail     `toml:"mail"`
	IMAP     IMAP     `toml:"imap"`
	SMTP     SMTP     `toml:"smtp"`
	Embedded Embedded `toml:"embedded"`
	Open     Open     `toml:"open_tables"`
	Web      Web      `toml:"web"`
	Metrics  Metrics  `toml:"metrics"`
	OAuth2   OAuth2   `toml:"oauth2"`
	Leagues  []League `toml:"league"`
	Tables   []Table  `toml:"table"`
}

// Storage selects the database.
type Storage struct {
	Driver          string `toml:"driver"` // sqlite | postgres
	SQLitePath      string `toml:"sqlite_path"`
	PostgresDSNFile string `toml:"postgres_dsn_file"`
	PostgresDSN     string `toml:"postgres_dsn"` // discouraged: prefer the file or LEXIO_POSTGRES_DSN
}

// Mail is the service's identity and the protocol knobs of EMAIL §1–2.
type Mail struct {
	Address         string `toml:"address"`
	Name            string `toml:"name"`
	TokenInSubject  bool   `toml:"token_in_subject"`
	MaxMessageBytes int64  `toml:"max_message_bytes"`
	RequireAuth     bool   `toml:"require_auth"`
	AuthServID      string `toml:"auth_serv_id"`
	SecretFile      string `toml:"secret_file"`
	Secret          string `toml:"secret"` // discouraged: prefer the file or LEXIO_SECRET
	// ErrorReplies bounds the replies about unreadable input or a bad
	// token, per sender and hour; beyond it they are not answered.
	ErrorReplies int `toml:"error_replies_per_hour"`
	// Replies bounds every answer to a sender (refusals, BOARD, LOG,
	// PREVIEW, HELP, GAMES, LANG ...; not the turn's mails), per sender and
	// hour (EMAIL §2.6). The first message over it gets one short notice
	// saying until when replies are paused, the next ones nothing.
	Replies int `toml:"replies_per_hour"`
	// SeparateAcceptance sends the author of a move a mail of its own
	// saying it was accepted, besides their turn notice; by default the
	// acceptance heads the author's notice (one mail per player per turn).
	SeparateAcceptance bool `toml:"separate_acceptance"`
	// OutsiderMails bounds, in all and per day, the mail sent to addresses
	// that never played here (invitations, confirmations, answers to the
	// plain address): the service is no way to mail strangers in bulk.
	// The mail to one domain's outsiders, answers and invitations
	// together, spends a tenth of it at most.
	OutsiderMails int `toml:"outsider_mails_per_day"`
	// UnprovenAnswers bounds the answers (confirmations included) to one
	// address, per day, for mail that came to the plain address with no
	// proof of its sender (EMAIL §1.7); UnprovenAnswersTotal bounds them
	// for every address together, and a tenth of it for one domain's. A
	// forged From can make us write to its victim that often at most.
	UnprovenAnswers      int `toml:"unproven_answers_per_day"`
	UnprovenAnswersTotal int `toml:"unproven_answers_total_per_day"`
}

// IMAP is the inbound side.
type IMAP struct {
	Address          string        `toml:"address"`
	TLS              string        `toml:"tls"` // tls | starttls | none
	CAFile           string        `toml:"ca_file"`
	Username         string        `toml:"username"`
	Auth             string        `toml:"auth"` // password | oauth2
	PasswordFile     string        `toml:"password_file"`
	Password         string        `toml:"password"`
	Mailbox          string        `toml:"mailbox"`
	ProcessedMailbox string        `toml:"processed_mailbox"`
	PollInterval     time.Duration `toml:"poll_interval"`
	IDLE             *bool         `toml:"idle"` // default true
}

// SMTP is the outbound side. MaxAttempts, MaxAge and Connections stay
// zero when the file does not set them: zero is the dispatcher's default
// (mailer.DefaultMaxAttempts and the rest), defined there alone.
type SMTP struct {
	Address      string `toml:"address"`
	TLS          string `toml:"tls"` // tls | starttls | none
	CAFile       string `toml:"ca_file"`
	Username     string `toml:"username"`
	Auth         string `toml:"auth"` // password | oauth2
	PasswordFile string `toml:"password_file"`
	Password     string `toml:"password"`
	// MaxAttempts and MaxAge bound the tries of an outgoing mail.
	MaxAttempts int           `toml:"max_attempts"`
	MaxAge      time.Duration `toml:"max_age"`
	// Connections is how many SMTP connections the outbox uses at once.
	Connections int `toml:"connections"`
}

// Embedded is the built-in local mail server of `make run`.
type Embedded struct {
	Enabled    bool   `toml:"enabled"`
	IMAPListen string `toml:"imap_listen"`
	SMTPListen string `toml:"smtp_listen"`
	Domain     string `toml:"domain"`
	// Users are the players' local parts; the password of each is its
	// name. The service's own mailbox (mail.address's local part) gets a
	// random password, kept in MailDir.
	Users []string `toml:"users"`
	// MailDir keeps the mailboxes in this directory (created 0700), so
	// that they survive a restart or a crash; empty: in memory only.
	MailDir string `toml:"mail_dir"`
	// MailboxQuota bounds the bytes of each user's mailboxes (default
	// DefaultMailboxQuota): the built-in server keeps every message in
	// memory, and refuses mail beyond it.
	MailboxQuota int64 `toml:"mailbox_quota_bytes"`
}

// DefaultMailboxQuota is embedded.mailbox_quota_bytes's default.
const DefaultMailboxQuota = 64 << 20

// Open says whether players may open tables by mail (NEW/JOIN/START),
// and bounds what one opener may make the service send (LEAGUES §6).
type Open struct {
	Allow  bool   `toml:"allow"`
	League string `toml:"league"`
	// PerRecipient bounds the invitations sent to one address in any 7
	// days, from anyone (DefaultInvitesPerRecipient).
	PerRecipient int `toml:"invitations_per_recipient_week"`
	// PerOpener bounds the invitations one opener sends in any 24 hours,
	// answered, expired or withdrawn since or not (DefaultInvitesPerOpener).
	PerOpener int `toml:"invitations_per_opener_day"`
	// Tables bounds the open tables, not started yet, one opener holds at
	// once (DefaultOpenTables); an open table lapses after invite_ttl.
	Tables int `toml:"open_tables_per_opener"`
}

// Web is the read-only web side (EMAIL §7): the pages that mail links
// to, off unless Listen is set.
type Web struct {
	// Listen is the address the HTTP server listens on, such as
	// "127.0.0.1:8080" behind a reverse proxy that adds TLS; "" is off.
	Listen string `toml:"listen"`
	// BaseURL is the absolute http(s) URL the links in mail start with:
	// the address players reach the server at, through the proxy.
	BaseURL string `toml:"base_url"`
}

// On reports whether the web side runs.
func (w Web) On() bool { return w.Listen != "" }

// League holds the rules and times its tables play by.
type League struct {
	Name          string          `toml:"name"`
	Variant       string          `toml:"variant"` // lexio | lexico
	Multipliers   *bool           `toml:"multipliers"`
	TurnTime      time.Duration   `toml:"turn_time"`
	Reminders     []time.Duration `toml:"reminders"`
	AwayGrace     time.Duration   `toml:"away_grace"`
	ReserveSize   int             `toml:"reserve_size"`
	ReserveRefill time.Duration   `toml:"reserve_refill"`
	Season
	// TimeBank and BankPerMove are the time bank (LEAGUES §3.1): 0 is
	// none.
	TimeBank    time.Duration `toml:"time_bank"`
	BankPerMove time.Duration `toml:"bank_per_move"`
	// Vacation says whether the league's tables stop a player's clock
	// during their VACATION (default true; LEAGUES §3.2).
	Vacation *bool `toml:"vacation"`
	// ForfeitAfter is how many of a player's turns in a row may expire
	// before the table records a forfeit for them (LEAGUES §2.3); 0 never.
	ForfeitAfter int `toml:"forfeit_after"`
	// Spectators gives each table of the league a spectator link in its
	// notices, which shows the game without any rack until it ends
	// (EMAIL §7.1); it needs [web].
	Spectators bool `toml:"spectators"`
}

// Table is a table the admin opens from the file.
type Table struct {
	Name    string   `toml:"name"`
	League  string   `toml:"league"`
	Players []string `toml:"players"` // in join order: the first opens the game
	Seed    uint64   `toml:"seed"`    // 0: chosen at random when the table is created
}

// The bounds of [open_tables] on what one opener may make the service
// send (LEAGUES §6), where the file is silent.
const (
	DefaultInvitesPerRecipient = 3  // invitations to one address in any 7 days
	DefaultInvitesPerOpener    = 12 // invitations by one opener in any 24 hours
	DefaultOpenTables          = 3  // open tables not started, per opener
)

// Defaults used where the file is silent (EMAIL §5.1, RULES §6.2).
const (
	DefaultTurnTime      = 72 * time.Hour
	DefaultAwayGrace     = 2 * time.Hour
	DefaultReserveSize   = 10
	DefaultReserveRefill = 15 * time.Second
	DefaultMaxMessage    = 1 << 20
	DefaultReplies       = 30  // answers per sender and hour (EMAIL §2.6)
	DefaultOutsiderMails = 100 // mails a day to addresses that never played here
	// Answers a day to mail with no proof of its sender (EMAIL §1.7):
	// to one address, and to all.
	DefaultUnprovenAnswers      = 5
	DefaultUnprovenAnswersTotal = 500
	DefaultDictionary           = "/usr/share/dict/french"
	DefaultVacationDays         = 30 // per player and calendar year (LEAGUES §3.2)
	DefaultBotDelay             = time.Minute
	DefaultInviteTTL            = 7 * 24 * time.Hour
	MaxInviteTTL                = 90 * 24 * time.Hour
)

// DefaultReminders are sent before a turn's deadline.
func DefaultReminders() []time.Duration { return []time.Duration{24 * time.Hour, 2 * time.Hour} }

// Load reads and validates the file at path. Unknown keys are errors: a
// misspelt key silently ignored is a league played by the wrong rules.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	c, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("config: %s: %w", path, errors.Unwrap(err))
	}
	return c, nil
}

// Parse reads a configuration from TOML text, fills defaults and validates.
func Parse(data []byte) (*Config, error) {
	var c Config
	md, err := toml.Decode(string(data), &c)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		return nil, fmt.Errorf("config: %w", fmt.Errorf("unknown keys: %s", strings.Join(keys, ", ")))
	}
	c.fill()
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return &c, nil
}

func (c *Config) fill() {
	if c.DataDir == "" {
		c.DataDir = "data"
	}
	if c.Dictionary == "" {
		c.Dictionary = DefaultDictionary
	}
	if c.Language == "" {
		c.Language = "en"
	}
	if c.TimeZone == "" {
		c.TimeZone = "UTC"
	}
	if c.VacationDays == nil {
		n := DefaultVacationDays
		c.VacationDays = &n
	}
	if c.LogLevel == "" {
		c.LogLevel = "info"
	}
	if c.RatingTau == 0 {
		c.RatingTau = DefaultRatingTau
	}
	if c.BotDelay == 0 {
		c.BotDelay = DefaultBotDelay
	}
	if c.InviteTTL == 0 {
		c.InviteTTL = DefaultInviteTTL
	}
	if c.Storage.Driver == "" {
		c.Storage.Driver = "sqlite"
	}
	if c.Storage.SQLitePath == "" {
		c.Storage.SQLitePath = filepath.Join(c.DataDir, "lexio.db")
	}
	if c.Mail.Name == "" {
		c.Mail.Name = "Lexio"
	}
	if c.Mail.MaxMessageBytes == 0 {
		c.Mail.MaxMessageBytes = DefaultMaxMessage
	}
	if c.Mail.ErrorReplies == 0 {
		c.Mail.ErrorReplies = 5
	}
	if c.Mail.Replies == 0 {
		c.Mail.Replies = DefaultReplies
	}
	if c.Mail.OutsiderMails == 0 {
		c.Mail.OutsiderMails = DefaultOutsiderMails
	}
	if c.Mail.UnprovenAnswers == 0 {
		c.Mail.UnprovenAnswers = DefaultUnprovenAnswers
	}
	if c.Mail.UnprovenAnswersTotal == 0 {
		c.Mail.UnprovenAnswersTotal = DefaultUnprovenAnswersTotal
	}
	if c.IMAP.TLS == "" {
		c.IMAP.TLS = "tls"
	}
	if c.IMAP.Mailbox == "" {
		c.IMAP.Mailbox = "INBOX"
	}
	if c.IMAP.ProcessedMailbox == "" {
		c.IMAP.ProcessedMailbox = "Processed"
	}
	if c.IMAP.IDLE == nil {
		t := true
		c.IMAP.IDLE = &t
	}
	if c.IMAP.PollInterval == 0 {
		c.IMAP.PollInterval = time.Minute
	}
	if c.SMTP.TLS == "" {
		c.SMTP.TLS = "starttls"
	}
	c.fillOAuth2()
	if c.Embedded.Domain == "" {
		c.Embedded.Domain = "localhost"
	}
	if c.Embedded.IMAPListen == "" {
		c.Embedded.IMAPListen = "127.0.0.1:1143"
	}
	if c.Embedded.SMTPListen == "" {
		c.Embedded.SMTPListen = "127.0.0.1:2525"
	}
	if c.Embedded.MailboxQuota == 0 {
		c.Embedded.MailboxQuota = DefaultMailboxQuota
	}
	if len(c.Leagues) == 0 {
		c.Leagues = []League{{Name: "default"}}
	}
	for i := range c.Leagues {
		l := &c.Leagues[i]
		if l.Variant == "" {
			l.Variant = "lexio"
		}
		if l.Multipliers == nil {
			t := true
			l.Multipliers = &t
		}
		if l.TurnTime == 0 {
			l.TurnTime = DefaultTurnTime
		}
		if l.Reminders == nil {
			l.Reminders = DefaultReminders()
		}
		if l.AwayGrace == 0 {
			l.AwayGrace = DefaultAwayGrace
		}
		if l.ReserveSize == 0 {
			l.ReserveSize = DefaultReserveSize
		}
		if l.ReserveRefill == 0 {
			l.ReserveRefill = DefaultReserveRefill
		}
		l.Season.fill()
		if l.Vacation == nil {
			t := true
			l.Vacation = &t
		}
	}
	if c.Open.League == "" {
		c.Open.League = c.Leagues[0].Name
	}
	if c.Open.PerRecipient == 0 {
		c.Open.PerRecipient = DefaultInvitesPerRecipient
	}
	if c.Open.PerOpener == 0 {
		c.Open.PerOpener = DefaultInvitesPerOpener
	}
	if c.Open.Tables == 0 {
		c.Open.Tables = DefaultOpenTables
	}
	for i := range c.Tables {
		if c.Tables[i].League == "" {
			c.Tables[i].League = c.Leagues[0].Name
		}
		for j, p := range c.Tables[i].Players {
			c.Tables[i].Players[j] = strings.ToLower(strings.TrimSpace(p))
			if seat, _, ok := botseat.Parse(p); ok {
				c.Tables[i].Players[j] = seat // "bot" is "bot:medium"
			}
		}
	}
}

// Validate reports every problem at once, one per line.
func (c *Config) Validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }

	if !slices.Contains([]string{"en", "es", "fr"}, c.Language) {
		bad("language %q: want en, es or fr", c.Language)
	}
	if _, err := zone.Load(c.TimeZone); err != nil {
		bad("time_zone %q: not an IANA time zone (e.g. Europe/Paris or UTC)", c.TimeZone)
	}
	if c.InviteTTL < time.Hour || c.InviteTTL > MaxInviteTTL {
		bad("invite_ttl %s: want 1h to %s (90 days), e.g. \"168h\" for a week", c.InviteTTL, MaxInviteTTL)
	}
	if c.BotDelay < time.Second || c.BotDelay > 24*time.Hour {
		bad("bot_delay %s: want 1s to 24h, e.g. \"1m\"", c.BotDelay)
	}
	switch c.Storage.Driver {
	case "sqlite":
	case "postgres":
		if c.Storage.PostgresDSN == "" && c.Storage.PostgresDSNFile == "" && os.Getenv("LEXIO_POSTGRES_DSN") == "" {
			bad("storage: driver postgres needs postgres_dsn_file or LEXIO_POSTGRES_DSN")
		}
	default:
		bad("storage.driver %q: want sqlite or postgres", c.Storage.Driver)
	}
	if _, err := mail.ParseAddress(c.Mail.Address); err != nil || !strings.Contains(c.Mail.Address, "@") {
		bad("mail.address %q: want the service's address, like lexio@example.org", c.Mail.Address)
	} else if strings.Contains(localPart(c.Mail.Address), "+") {
		bad("mail.address %q: the local part must not hold '+': lexio adds +token itself", c.Mail.Address)
	}
	if *c.VacationDays < 0 || *c.VacationDays > 366 {
		bad("vacation_days %d: want 0 to 366 (whole days per calendar year)", *c.VacationDays)
	}
	if c.Mail.OutsiderMails < 0 {
		bad("mail.outsider_mails_per_day %d: want 1 or more", c.Mail.OutsiderMails)
	}
	if c.Mail.UnprovenAnswers < 0 || c.Mail.UnprovenAnswersTotal < 0 {
		bad("mail.unproven_answers_per_day %d, mail.unproven_answers_total_per_day %d: want 1 or more", c.Mail.UnprovenAnswers, c.Mail.UnprovenAnswersTotal)
	}
	if c.Mail.ErrorReplies < 0 || c.Mail.Replies < 0 {
		bad("mail.error_replies_per_hour %d, mail.replies_per_hour %d: want 1 or more", c.Mail.ErrorReplies, c.Mail.Replies)
	}
	if c.Mail.MaxMessageBytes < 1024 {
		bad("mail.max_message_bytes %d: too small", c.Mail.MaxMessageBytes)
	}
	if c.Mail.RequireAuth && c.Mail.AuthServID == "" {
		bad("mail.require_auth needs mail.auth_serv_id (the receiving server that adds Authentication-Results)")
	}
	for _, s := range []struct{ name, v string }{{"imap.tls", c.IMAP.TLS}, {"smtp.tls", c.SMTP.TLS}} {
		if !slices.Contains([]string{"tls", "starttls", "none"}, s.v) {
			bad("%s %q: want tls, starttls or none", s.name, s.v)
		}
	}
	if c.Embedded.MailboxQuota < c.Mail.MaxMessageBytes {
		bad("embedded.mailbox_quota_bytes %d: want at least mail.max_message_bytes (%d)", c.Embedded.MailboxQuota, c.Mail.MaxMessageBytes)
	}
	if !c.Embedded.Enabled {
		if c.IMAP.Address == "" {
			bad("imap.address is empty (or enable [embedded])")
		}
		if c.SMTP.Address == "" {
			bad("smtp.address is empty (or enable [embedded])")
		}
		c.validateClearText(bad)
		for _, s := range []struct{ name, v, env string }{
			{"mail.secret", c.Mail.Secret, "LEXIO_SECRET"},
			{"imap.password", c.IMAP.Password, "LEXIO_IMAP_PASSWORD"},
			{"smtp.password", c.SMTP.Password, "LEXIO_SMTP_PASSWORD"},
			{"storage.postgres_dsn", c.Storage.PostgresDSN, "LEXIO_POSTGRES_DSN"},
		} {
			if s.v != "" {
				bad("%s is written inline: use %s_file or the environment variable %s (EMAIL §1.6)", s.name, s.name, s.env)
			}
		}
	}
	// Zero is "the default" (see SMTP).
	if c.SMTP.Connections < 0 || c.SMTP.Connections > 32 {
		bad("smtp.connections %d: want 1 to 32", c.SMTP.Connections)
	}
	if c.SMTP.MaxAttempts < 0 {
		bad("smtp.max_attempts %d: want 1 or more", c.SMTP.MaxAttempts)
	}
	if c.SMTP.MaxAge < 0 {
		bad("smtp.max_age %s: want a positive duration", c.SMTP.MaxAge)
	}
	if c.IMAP.PollInterval < time.Second {
		bad("imap.poll_interval %s: at least 1s", c.IMAP.PollInterval)
	}

	c.Web.validate(bad)
	c.Metrics.validate(c.Web, bad)
	c.validateOAuth2(bad)
	leagues := map[string]bool{}
	for _, l := range c.Leagues {
		if l.Name == "" {
			bad("league without a name")
		}
		if leagues[l.Name] {
			bad("league %q defined twice", l.Name)
		}
		leagues[l.Name] = true
		if l.Variant != "lexio" && l.Variant != "lexico" {
			bad("league %q: variant %q: want lexio or lexico", l.Name, l.Variant)
		}
		if l.Variant == "lexio" && !*l.Multipliers {
			bad("league %q: multipliers = false exists only for variant lexico (RULES §12)", l.Name)
		}
		if l.TurnTime < time.Minute {
			bad("league %q: turn_time %s: at least 1m", l.Name, l.TurnTime)
		}
		for _, r := range l.Reminders {
			if r <= 0 || r >= l.TurnTime {
				bad("league %q: reminder %s must be between 0 and turn_time", l.Name, r)
			}
		}
		if l.AwayGrace <= 0 || l.AwayGrace > l.TurnTime {
			bad("league %q: away_grace %s must be between 0 and turn_time", l.Name, l.AwayGrace)
		}
		if l.ReserveSize < 1 || l.ReserveRefill <= 0 {
			bad("league %q: reserve_size and reserve_refill must be positive", l.Name)
		}
		l.Season.validate(l.Name, l.Variant, bad)
		if l.ForfeitAfter < 0 {
			bad("league %q: forfeit_after %d: 0 (never) or more", l.Name, l.ForfeitAfter)
		}
		switch {
		case l.TimeBank < 0 || l.BankPerMove < 0:
			bad("league %q: time_bank %s, bank_per_move %s: want 0 (none) or a positive duration", l.Name, l.TimeBank, l.BankPerMove)
		case l.BankPerMove > 0 && l.TimeBank == 0:
			bad("league %q: bank_per_move %s needs a time_bank to add to", l.Name, l.BankPerMove)
		case l.BankPerMove > l.TimeBank:
			bad("league %q: bank_per_move %s is more than the whole time_bank %s", l.Name, l.BankPerMove, l.TimeBank)
		case l.TimeBank > 0 && l.TimeBank < time.Minute:
			bad("league %q: time_bank %s: at least 1m", l.Name, l.TimeBank)
		}
	}
	checkTau(c.RatingTau, bad)
	if c.Open.PerRecipient < 0 || c.Open.PerOpener < 0 || c.Open.Tables < 0 {
		bad("open_tables: invitations_per_recipient_week, invitations_per_opener_day and open_tables_per_opener want 1 or more")
	}
	if c.Open.Allow && !leagues[c.Open.League] {
		bad("open_tables.league %q is not a league", c.Open.League)
	}
	names := map[string]bool{}
	for _, t := range c.Tables {
		if err := tablename.Check(t.Name); err != nil {
			bad("[[table]]: %w", err)
		}
		if names[t.Name] {
			bad("table %q defined twice", t.Name)
		}
		names[t.Name] = true
		if !leagues[t.League] {
			bad("table %q: league %q is not defined", t.Name, t.League)
		}
		max := 4
		if l := c.League(t.League); l != nil && l.Variant == "lexico" {
			max = 2
		}
		if len(t.Players) < 2 || len(t.Players) > max {
			bad("table %q: %d players; want 2 to %d (RULES §1.1, §12)", t.Name, len(t.Players), max)
		}
		seen := map[string]bool{}
		for _, p := range t.Players {
			if a, err := mail.ParseAddress(p); (err != nil || a.Address != p) && !botseat.Is(p) {
				bad("table %q: player %q is not a bare email address, nor a computer seat (bot, bot:easy, bot:medium, bot:strong)", t.Name, p)
			}
			if seen[p] {
				bad("table %q: player %q seated twice", t.Name, p)
			}
			seen[p] = true
		}
	}
	return errors.Join(errs...)
}

// validate checks [web]: a listen address with a port, and the absolute
// http(s) URL mail links start with whenever the server listens.
func (w Web) validate(bad func(string, ...any)) {
	if w.Listen == "" {
		if w.BaseURL != "" {
			bad("web.base_url %q is set but web.listen is empty: set listen (e.g. \"127.0.0.1:8080\") or remove base_url", w.BaseURL)
		}
		return
	}
	if _, port, err := net.SplitHostPort(w.Listen); err != nil || port == "" {
		bad("web.listen %q: want host:port, like 127.0.0.1:8080", w.Listen)
	}
	u, err := url.Parse(w.BaseURL)
	switch {
	case w.BaseURL == "":
		bad("web.base_url is empty: web.listen needs the URL players reach it at, like https://lexio.example.org")
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Opaque != "":
		bad("web.base_url %q: want an absolute http or https URL, like https://lexio.example.org", w.BaseURL)
	case u.RawQuery != "" || u.Fragment != "" || u.User != nil:
		bad("web.base_url %q: want no query, fragment or user: the links add their own path", w.BaseURL)
	}
}

func localPart(addr string) string {
	local, _, _ := strings.Cut(addr, "@")
	return local
}

// League returns the league called name, or nil.
func (c *Config) League(name string) *League {
	for i := range c.Leagues {
		if c.Leagues[i].Name == name {
			return &c.Leagues[i]
		}
	}
	return nil
}

// Secret returns the MAC secret from LEXIO_SECRET, mail.secret_file or,
// for the embedded demo only, mail.secret.
func (c *Config) Secret() ([]byte, error) {
	s, err := secret("LEXIO_SECRET", c.Mail.SecretFile, c.Mail.Secret)
	if err != nil {
		return nil, fmt.Errorf("config: mail secret: %w", err)
	}
	if len(s) < 16 {
		return nil, fmt.Errorf("config: mail secret: want at least 16 bytes, have %d", len(s))
	}
	return []byte(s), nil
}

// IMAPPassword returns the IMAP password from LEXIO_IMAP_PASSWORD,
// imap.password_file or imap.password.
func (c *Config) IMAPPassword() (string, error) {
	return secret("LEXIO_IMAP_PASSWORD", c.IMAP.PasswordFile, c.IMAP.Password)
}

// SMTPPassword returns the SMTP password from LEXIO_SMTP_PASSWORD,
// smtp.password_file or smtp.password.
func (c *Config) SMTPPassword() (string, error) {
	return secret("LEXIO_SMTP_PASSWORD", c.SMTP.PasswordFile, c.SMTP.Password)
}

// PostgresDSN returns the DSN from LEXIO_POSTGRES_DSN,
// storage.postgres_dsn_file or storage.postgres_dsn.
func (c *Config) PostgresDSN() (string, error) {
	return secret("LEXIO_POSTGRES_DSN", c.Storage.PostgresDSNFile, c.Storage.PostgresDSN)
}

func secret(env, file, inline string) (string, error) {
	if v := os.Getenv(env); v != "" {
		return v, nil
	}
	if file != "" {
		return SecretFile(file)
	}
	if inline != "" {
		return inline, nil
	}
	return "", fmt.Errorf("not set (%s or a *_file key)", env)
}

// SecretFile reads a secret kept in a file that only its owner may read
// or write (else ErrNotPrivate), without its final line break. A missing
// file gives an error that is fs.ErrNotExist.
func SecretFile(file string) (string, error) { return secretfile.Read(file) }

// ErrNotPrivate reports a secret file open to its group or to others. Such
// a file is refused, as ssh refuses a private key anyone else may read.
var ErrNotPrivate = secretfile.ErrNotPrivate
