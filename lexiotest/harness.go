package lexiotest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/config"
	"github.com/lexio-mail/lexio/dict"
	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/engine/enginetest"
	"github.com/lexio-mail/lexio/mailer"
	"github.com/lexio-mail/lexio/mailer/client"
	"github.com/lexio-mail/lexio/mailer/localmail"
	"github.com/lexio-mail/lexio/service"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/outbox"
	"github.com/lexio-mail/lexio/store/outboxmail"
	"github.com/lexio-mail/lexio/store/storetest"
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/templates"
)

// Clock is the injected time: tests move it, nothing sleeps for a deadline.
type Clock struct {
	mu sync.Mutex
	t  time.Time
	// timers wait for the clock to reach their time (Timer).
	timers []clockTimer
}

// clockTimer is a Timer not yet fired.
type clockTimer struct {
	at time.Time
	c  chan time.Time
}

// NewClock is a clock at t.
func NewClock(t time.Time) *Clock { return &Clock{t: t} }

func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Add moves the clock on by d, firing the timers it reaches.
func (c *Clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
	waiting := c.timers[:0]
	for _, tm := range c.timers {
		if tm.at.After(c.t) {
			waiting = append(waiting, tm)
			continue
		}
		tm.c <- c.t
	}
	c.timers = waiting
}

// Timer returns a channel that receives once the clock reaches at: at
// once if it has, else when Add moves it there (scheduler.Options.Timer).
func (c *Clock) Timer(at time.Time) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	if at.After(c.t) {
		c.timers = append(c.timers, clockTimer{at, ch})
	} else {
		ch <- c.t
	}
	return ch
}

// Words accepts the listed words only.
type Words []string

func (w Words) Contains(s string) bool { return slices.Contains(w, s) }

// Harness is a whole service: a SQLite file or a PostgreSQL schema, and
// its mail. By default the mail is in-process (see MemMail): what a player
// sends goes to the service's HandleMessage at once, and what the service
// queues is taken out of the outbox and put in the players' mailboxes
// whenever the test sends or reads mail. With Options.Sockets the mail
// goes over real sockets instead: the local mail server, the receiver and
// the dispatcher, for the tests whose point is that path.
type Harness struct {
	T     *testing.T
	Ctx   context.Context
	Srv   *localmail.Server // sockets only
	Mem   *MemMail          // in-process only
	Store *store.Store
	// Parts are the daemon's services, wired by the daemon's own
	// constructor (service.New): Tables, Players, Seasons, Lobby, the
	// mail front door Inbox that routes to them, and Views.
	*service.Parts
	Clock *Clock
	Cfg   *config.Config
	Disp  *mailer.Dispatcher // sockets only
	Stop  func()
	// Logs holds what the service logged.
	Logs *LogBuffer
	// DB is the database, for a restart on the same one.
	DB *DB
	// Domain is the mail domain of the service and of every account.
	Domain string
}

// DB is the database a harness keeps its state in: a SQLite file, or a
// PostgreSQL schema of the test's own.
type DB struct {
	driver string
	path   string // SQLite
	dsn    string // PostgreSQL
}

// NewDB makes an empty database for t: driver "" or store.DriverSQLite
// is a new file; store.DriverPostgres a new schema (storetest.DSN: skipped
// without a server, failed under CI).
func NewDB(t *testing.T, driver string) *DB {
	t.Helper()
	switch driver {
	case "", store.DriverSQLite:
		return &DB{driver: store.DriverSQLite, path: filepath.Join(t.TempDir(), "lexio.db")}
	case store.DriverPostgres:
		return &DB{driver: store.DriverPostgres, dsn: storetest.DSN(t)}
	}
	t.Fatalf("unknown driver %q", driver)
	return nil
}

// Path is the SQLite file ("" on PostgreSQL).
func (d *DB) Path() string { return d.path }

// Open opens the store on the database.
func (d *DB) Open(ctx context.Context, now func() time.Time) (*store.Store, error) {
	return store.Open(ctx, store.Options{Driver: d.driver, SQLitePath: d.path, PostgresDSN: d.dsn, Now: now})
}

// EachDriver runs fn on SQLite and, when storetest.EnvDSN is set, on
// PostgreSQL (whose writers are not serialised: concurrent transactions
// meet there). The test and both runs are parallel: each harness has its
// own database and mail.
func EachDriver(t *testing.T, fn func(t *testing.T, driver string)) {
	t.Parallel()
	t.Run("sqlite", func(t *testing.T) { t.Parallel(); fn(t, store.DriverSQLite) })
	t.Run("postgres", func(t *testing.T) { t.Parallel(); fn(t, store.DriverPostgres) })
}

// LogBuffer collects log output; safe for concurrent writers.
type LogBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *LogBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *LogBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

const Secret = "0123456789abcdef0123456789abcdef"

// BaseConfig is the test configuration; mail holds extra keys of the
// [mail] section (error_replies_per_hour, replies_per_hour and
// unproven_answers_per_day default to 100 unless given, the day's totals
// to ten times theirs), extra is appended after the leagues.
func BaseConfig(mail, extra string) string {
	if !strings.Contains(mail, "error_replies_per_hour") {
		mail += "\nerror_replies_per_hour = 100"
	}
	if !strings.Contains(mail, "\nreplies_per_hour") && !strings.HasPrefix(mail, "replies_per_hour") {
		mail += "\nreplies_per_hour = 100"
	}
	if !strings.Contains(mail, "unproven_answers_per_day") {
		mail += "\nunproven_answers_per_day = 100"
	}
	// A test's accounts share one domain, which may spend a tenth of a
	// day's total (EMAIL §2.6): the totals are ten times the defaults.
	if !strings.Contains(mail, "unproven_answers_total_per_day") {
		mail += "\nunproven_answers_total_per_day = 5000"
	}
	if !strings.Contains(mail, "outsider_mails_per_day") {
		mail += "\noutsider_mails_per_day = 1000"
	}
	return `
[mail]
address = "lexio@localhost"
secret = "` + Secret + `"
` + mail + `
[embedded]
enabled = true
[[league]]
name = "main"
turn_time = "72h"
reminders = ["24h", "2h"]
away_grace = "2h"
[[league]]
name = "duo"
variant = "lexico"
[[league]]
name = "plain"
variant = "lexico"
multipliers = false
` + extra
}

// Options are what a harness is built with; zero is SQLite and
// in-process mail.
type Options struct {
	Config string // appended to the base configuration
	Top    string // keys of the file's top, before every section
	Mail   string // extra keys of the [mail] section
	// Sockets runs the mail over the local mail server, the receiver and
	// the dispatcher instead of in-process; SMTPAddr and Srv need it.
	Sockets bool
	// SMTPAddr is where the dispatcher sends ("" the local server).
	SMTPAddr string
	Dict     engine.Dictionary
	Gaddag   *dict.Gaddag // dict's words for the computer's seats
	// Driver is the database of a new harness (see NewDB).
	Driver string
	// DB reuses a database (a restart, with the mail of Srv or Mem);
	// nil makes a new one.
	DB    *DB
	Srv   *localmail.Server
	Mem   *MemMail
	Clock *Clock
	// Domain is the mail domain of a new server ("" is localhost); a
	// reused server keeps its own.
	Domain string
}

// harnessUsers are the mail accounts every harness starts with.
var harnessUsers = []string{"lexio", "alice", "bob", "carol", "dave", "eve"}

// New starts a harness for t, stopped when t ends.
func New(t *testing.T, o Options) *Harness {
	t.Helper()
	switch {
	case !o.Sockets && (o.SMTPAddr != "" || o.Srv != nil), o.Sockets && o.Mem != nil:
		t.Fatal("harness: smtpAddr and srv are for sockets, mem for in-process mail")
	case o.DB != nil && o.Srv == nil && o.Mem == nil:
		t.Fatal("harness: a restart on db keeps the mail of the last harness (srv or mem)")
	}
	ctx, cancel := context.WithCancel(context.Background())
	h := &Harness{T: t, Ctx: ctx, Clock: o.Clock, Srv: o.Srv, Mem: o.Mem}
	if h.Clock == nil {
		h.Clock = &Clock{t: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)}
	}
	switch {
	case h.Mem != nil:
		h.Domain = h.Mem.domain
	case !o.Sockets:
		h.Domain = o.Domain
		if h.Domain == "" {
			h.Domain = "localhost"
		}
		h.Mem = newMemMail(h.Domain)
		for _, u := range harnessUsers {
			h.Mem.addUser(u)
		}
	case h.Srv == nil:
		// The server outlives the harness: a restart reuses it.
		srv, err := localmail.Start(context.Background(), localmail.Options{Domain: o.Domain})
		if err != nil {
			t.Fatal(err)
		}
		h.Srv = srv
		for _, u := range harnessUsers {
			if err := srv.AddUser(u, u+"-pw"); err != nil {
				t.Fatal(err)
			}
		}
		t.Cleanup(func() { srv.Close() })
		h.Domain = srv.Domain()
	default:
		h.Domain = h.Srv.Domain()
	}
	text := strings.Replace(o.Top+BaseConfig(o.Mail, o.Config), `address = "lexio@localhost"`, `address = "lexio@`+h.Domain+`"`, 1)
	cfg, err := config.Parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	h.Cfg = cfg
	h.DB = o.DB
	if h.DB == nil {
		h.DB = NewDB(t, o.Driver)
	}
	st, err := h.DB.Open(ctx, h.Clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	h.Store = st
	h.Logs = &LogBuffer{}
	logger := slog.New(slog.NewTextHandler(h.Logs, nil))
	if !o.Sockets {
		mem := h.Mem
		h.newService(o, cfg, st, logger, func() { mem.poked.Store(true) })
		var once sync.Once
		h.Stop = func() {
			once.Do(func() {
				cancel()
				st.Close()
			})
		}
		t.Cleanup(h.Stop)
		return h
	}
	smtpAddr := o.SMTPAddr
	if smtpAddr == "" {
		smtpAddr = h.Srv.SMTPAddr()
	}
	disp, err := mailer.NewDispatcher(mailer.DispatcherConfig{
		Addr: smtpAddr, Timeout: 2 * time.Second, Logger: logger, TLS: mailer.TLSNone, Now: h.Clock.Now, Interval: 50 * time.Millisecond,
	}, outboxmail.New(st))
	if err != nil {
		t.Fatal(err)
	}
	h.Disp = disp
	h.newService(o, cfg, st, logger, disp.Poke)
	recv, err := mailer.NewReceiver(mailer.ReceiverConfig{
		Addr: h.Srv.IMAPAddr(), TLS: mailer.TLSNone, Username: "lexio", Password: "lexio-pw",
		PollInterval: time.Second, MaxMessageBytes: cfg.Mail.MaxMessageBytes, Retry: mailer.Backoff{Base: 50 * time.Millisecond, Max: 200 * time.Millisecond},
	}, h.Parts.Inbox)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); recv.Run(ctx) }()
	go func() { defer wg.Done(); disp.Run(ctx) }()
	var once sync.Once
	h.Stop = func() {
		once.Do(func() {
			cancel()
			wg.Wait()
			st.Close()
		})
	}
	t.Cleanup(h.Stop)
	return h
}

// testTemplates parses the templates once for every harness: a Set is
// read-only and safe for concurrent use, as the daemon's one Set is.
var testTemplates = sync.OnceValues(templates.New)

// newService builds the services of a harness with the daemon's own
// constructor: the one place that knows their options. poke wakes the
// dispatcher, or tells the in-process mail that the outbox has rows.
func (h *Harness) newService(o Options, cfg *config.Config, st *store.Store, logger *slog.Logger, poke func()) {
	t := h.T
	t.Helper()
	tmpl, err := testTemplates()
	if err != nil {
		t.Fatal(err)
	}
	d := o.Dict
	if d == nil {
		d = enginetest.AnyWord{}
	}
	h.Parts, err = service.New(table.Options{Config: cfg, Store: st, Dict: d, Gaddag: o.Gaddag, Templates: tmpl,
		Secret: []byte(Secret), Now: h.Clock.Now, Poke: poke, Logger: logger}, logger)
	if err != nil {
		t.Fatal(err)
	}
}

// Account is name's mail account.
func (h *Harness) Account(name string) client.Account {
	acc := client.Account{Username: name, Password: name + "-pw", Address: name + "@" + h.Domain}
	if h.Srv != nil {
		acc.IMAPAddr, acc.SMTPAddr = h.Srv.IMAPAddr(), h.Srv.SMTPAddr()
	}
	return acc
}

// AddUser adds a mail account.
func (h *Harness) AddUser(name string) {
	h.T.Helper()
	if h.Mem != nil {
		h.Mem.addUser(name)
		return
	}
	if err := h.Srv.AddUser(name, name+"-pw"); err != nil {
		h.T.Fatal(err)
	}
}

// Inbox is name's INBOX, oldest first, once the mail due rests.
func (h *Harness) Inbox(name string) []client.Message {
	h.T.Helper()
	if h.Mem != nil {
		h.Settle()
		msgs, err := h.Mem.inbox(name)
		if err != nil {
			h.T.Fatal(err)
		}
		return msgs
	}
	msgs, err := h.Account(name).Fetch(h.Ctx)
	if err != nil {
		h.T.Fatal(err)
	}
	return msgs
}

// WaitFor polls until cond holds; the deadline only bounds a broken test.
// In-process, the mail due rests before each look: what the test waits
// for has then happened, or will not.
func (h *Harness) WaitFor(what string, cond func() bool) {
	h.T.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for h.Settle(); !cond(); h.Settle() {
		if time.Now().After(deadline) {
			h.T.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// WaitMail waits until name's inbox holds at least n messages.
func (h *Harness) WaitMail(name string, n int) []client.Message {
	h.T.Helper()
	var msgs []client.Message
	h.WaitFor(fmt.Sprintf("%d messages for %s", n, name), func() bool {
		msgs = h.Inbox(name)
		return len(msgs) >= n
	})
	return msgs
}

// Kind reads the message kind out of one of the service's Message-IDs:
// lexio.<table>.<seq>.<kind>.<seat>[...]@<domain>.
func Kind(m client.Message) string {
	id := m.MessageID
	if at := strings.LastIndexByte(id, '@'); at >= 0 {
		id = id[:at]
	}
	parts := strings.Split(id, ".")
	if len(parts) < 5 {
		return ""
	}
	return parts[3]
}

// Seq reads the seq out of one of the service's Message-IDs.
func Seq(m client.Message) int {
	parts := strings.Split(m.MessageID, ".")
	var n int
	if len(parts) > 2 {
		fmt.Sscanf(parts[2], "%d", &n)
	}
	return n
}

// OfKind keeps the messages of kind k.
func OfKind(msgs []client.Message, k string) []client.Message {
	var out []client.Message
	for _, m := range msgs {
		if Kind(m) == k {
			out = append(out, m)
		}
	}
	return out
}

// LatestNotice is the newest message of the table that can be replied to.
func LatestNotice(msgs []client.Message) *client.Message {
	for i := len(msgs) - 1; i >= 0; i-- {
		if k := Kind(msgs[i]); k == "turn-notice" || k == "reminder" || k == "expired" {
			return &msgs[i]
		}
	}
	return nil
}

// Send replies to a player's latest notice with a command, as a mail
// client would.
func (h *Harness) Send(name, command string) string {
	h.T.Helper()
	m := LatestNotice(h.Inbox(name))
	if m == nil {
		h.T.Fatalf("%s has no notice to reply to", name)
	}
	return h.ReplyTo(name, m, command)
}

var msgCounter struct {
	sync.Mutex
	n int
}

// ReplyTo sends command from name in reply to m and returns its
// Message-ID.
func (h *Harness) ReplyTo(name string, m *client.Message, command string) string {
	h.T.Helper()
	msgCounter.Lock()
	msgCounter.n++
	id := fmt.Sprintf("reply-%d-%s@localhost", msgCounter.n, name)
	msgCounter.Unlock()
	to, raw := h.Account(name).Reply(m, command, h.Clock.Now(), id)
	h.Submit(name, []string{to}, raw)
	return id
}

// SendRaw delivers a message as written.
func (h *Harness) SendRaw(from string, to []string, raw string) {
	h.T.Helper()
	h.Submit(from, to, []byte(strings.ReplaceAll(raw, "\n", "\r\n")))
}

// Submit sends raw from an account to the envelope recipients, as its
// mail client would. In-process the service has handled it on return.
func (h *Harness) Submit(from string, to []string, raw []byte) {
	h.T.Helper()
	if h.Mem == nil {
		if err := h.Account(from).Send(h.Ctx, to, raw); err != nil {
			h.T.Fatal(err)
		}
		return
	}
	if err := h.Mem.deliver(to, raw); err != nil {
		h.T.Fatalf("client: send: %v", err)
	}
	h.Settle()
}

// Handled waits until the service recorded the message.
func (h *Harness) Handled(messageID string) store.Message {
	h.T.Helper()
	var rec *store.Message
	h.WaitFor("message "+messageID+" handled", func() bool {
		err := h.Store.View(h.Ctx, func(tx *store.Tx) error {
			var err error
			rec, err = tx.MessageByID(messageID)
			return err
		})
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			h.T.Fatal(err)
		}
		return err == nil
	})
	return *rec
}

// OutboxEmpty waits until every queued mail was sent. In-process it
// reads the outbox whether poked or not.
func (h *Harness) OutboxEmpty() {
	h.T.Helper()
	if h.Mem != nil {
		h.Mem.poked.Store(true)
	}
	h.WaitFor("the outbox to drain", func() bool {
		rows, err := outbox.New(h.Store).Due(h.Ctx, h.Clock.Now().Add(time.Hour), 1)
		if err != nil {
			h.T.Fatal(err)
		}
		return len(rows) == 0
	})
}

// Game is the table's game, rebuilt from its log.
func (h *Harness) Game(name string) *engine.Game {
	h.T.Helper()
	g, err := h.Tables.Game(h.Ctx, name)
	if err != nil {
		h.T.Fatal(err)
	}
	return g
}

// VacationsOf reads the vacations stored for the player at addr.
func (h *Harness) VacationsOf(addr string) []store.Vacation {
	h.T.Helper()
	var vs []store.Vacation
	err := h.Store.View(h.Ctx, func(tx *store.Tx) error {
		pl, err := tx.PlayerByAddress(addr)
		if err != nil {
			return err
		}
		vs, err = tx.Vacations(pl.ID)
		return err
	})
	if err != nil {
		h.T.Fatal(err)
	}
	return vs
}
