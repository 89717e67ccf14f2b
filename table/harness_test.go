package table_test

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
	"github.com/lexio-mail/lexio/inbox"
	"github.com/lexio-mail/lexio/lobby"
	"github.com/lexio-mail/lexio/mailer"
	"github.com/lexio-mail/lexio/mailer/client"
	"github.com/lexio-mail/lexio/mailer/localmail"
	"github.com/lexio-mail/lexio/player"
	"github.com/lexio-mail/lexio/season"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/outbox"
	"github.com/lexio-mail/lexio/store/outboxmail"
	"github.com/lexio-mail/lexio/store/storetest"
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/table/tableview"
	"github.com/lexio-mail/lexio/templates"
)

// clock is the injected time: tests move it, nothing sleeps for a deadline.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// anyWord accepts every word: full games test the mail, not French.
type anyWord = enginetest.AnyWord

// words accepts the listed words only.
type words []string

func (w words) Contains(s string) bool { return slices.Contains(w, s) }

// harness is a whole service: a SQLite file or a PostgreSQL schema, and
// its mail. By default the mail is in-process (see memMail): what a player
// sends goes to the service's HandleMessage at once, and what the service
// queues is taken out of the outbox and put in the players' mailboxes
// whenever the test sends or reads mail. With harnessOpts.sockets the mail
// goes over real sockets instead: the local mail server, the receiver and
// the dispatcher, for the tests whose point is that path.
type harness struct {
	t     *testing.T
	ctx   context.Context
	srv   *localmail.Server // sockets only
	mem   *memMail          // in-process only
	store *store.Store
	svc   *table.Service
	// players, seasons and lobby own a player's preferences, league
	// seasons and gathering players at tables; front is the mail front
	// door that routes to them (as cmd/lexio/wire.go connects them);
	// views read the tables as the operator and the web do.
	players *player.Service
	seasons *season.Service
	lobby   *lobby.Service
	front   *inbox.Service
	views   *tableview.Service
	clock   *clock
	cfg     *config.Config
	disp    *mailer.Dispatcher // sockets only
	stop    func()
	// logs holds what the service logged.
	logs *logBuffer
	// db is the database, for a restart on the same one.
	db *testDB
	// domain is the mail domain of the service and of every account.
	domain string
}

// testDB is the database a harness keeps its state in: a SQLite file, or a
// PostgreSQL schema of the test's own.
type testDB struct {
	driver string
	path   string // SQLite
	dsn    string // PostgreSQL
}

// newTestDB makes an empty database for t: driver "" or store.DriverSQLite
// is a new file; store.DriverPostgres a new schema (storetest.DSN: skipped
// without a server, failed under CI).
func newTestDB(t *testing.T, driver string) *testDB {
	t.Helper()
	switch driver {
	case "", store.DriverSQLite:
		return &testDB{driver: store.DriverSQLite, path: filepath.Join(t.TempDir(), "lexio.db")}
	case store.DriverPostgres:
		return &testDB{driver: store.DriverPostgres, dsn: storetest.DSN(t)}
	}
	t.Fatalf("unknown driver %q", driver)
	return nil
}

func (d *testDB) open(ctx context.Context, now func() time.Time) (*store.Store, error) {
	return store.Open(ctx, store.Options{Driver: d.driver, SQLitePath: d.path, PostgresDSN: d.dsn, Now: now})
}

// eachDriver runs fn on SQLite and, when storetest.EnvDSN is set, on
// PostgreSQL (whose writers are not serialised: concurrent transactions
// meet there). The test and both runs are parallel: each harness has its
// own database and mail.
func eachDriver(t *testing.T, fn func(t *testing.T, driver string)) {
	t.Parallel()
	t.Run("sqlite", func(t *testing.T) { t.Parallel(); fn(t, store.DriverSQLite) })
	t.Run("postgres", func(t *testing.T) { t.Parallel(); fn(t, store.DriverPostgres) })
}

// logBuffer collects log output; safe for concurrent writers.
type logBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

const testSecret = "0123456789abcdef0123456789abcdef"

// baseConfig is the test configuration; mail holds extra keys of the
// [mail] section (error_replies_per_hour and replies_per_hour default to
// 100 unless given), extra is appended after the leagues.
func baseConfig(mail, extra string) string {
	if !strings.Contains(mail, "error_replies_per_hour") {
		mail += "\nerror_replies_per_hour = 100"
	}
	if !strings.Contains(mail, "\nreplies_per_hour") && !strings.HasPrefix(mail, "replies_per_hour") {
		mail += "\nreplies_per_hour = 100"
	}
	if !strings.Contains(mail, "unproven_answers_per_day") {
		mail += "\nunproven_answers_per_day = 100"
	}
	return `
[mail]
address = "lexio@localhost"
secret = "` + testSecret + `"
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

type harnessOpts struct {
	config string // appended to the base configuration
	top    string // keys of the file's top, before every section
	mail   string // extra keys of the [mail] section
	// sockets runs the mail over the local mail server, the receiver and
	// the dispatcher instead of in-process; smtpAddr and srv need it.
	sockets bool
	// smtpAddr is where the dispatcher sends ("" the local server).
	smtpAddr string
	dict     engine.Dictionary
	gaddag   *dict.Gaddag // dict's words for the computer's seats
	// driver is the database of a new harness (see newTestDB).
	driver string
	// db reuses a database (a restart, with the mail of srv or mem);
	// nil makes a new one.
	db    *testDB
	srv   *localmail.Server
	mem   *memMail
	clock *clock
	// domain is the mail domain of a new server ("" is localhost); a
	// reused server keeps its own.
	domain string
}

// harnessUsers are the mail accounts every harness starts with.
var harnessUsers = []string{"lexio", "alice", "bob", "carol", "dave", "eve"}

func newHarness(t *testing.T, o harnessOpts) *harness {
	t.Helper()
	switch {
	case !o.sockets && (o.smtpAddr != "" || o.srv != nil), o.sockets && o.mem != nil:
		t.Fatal("harness: smtpAddr and srv are for sockets, mem for in-process mail")
	case o.db != nil && o.srv == nil && o.mem == nil:
		t.Fatal("harness: a restart on db keeps the mail of the last harness (srv or mem)")
	}
	ctx, cancel := context.WithCancel(context.Background())
	h := &harness{t: t, ctx: ctx, clock: o.clock, srv: o.srv, mem: o.mem}
	if h.clock == nil {
		h.clock = &clock{t: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)}
	}
	switch {
	case h.mem != nil:
		h.domain = h.mem.domain
	case !o.sockets:
		h.domain = o.domain
		if h.domain == "" {
			h.domain = "localhost"
		}
		h.mem = newMemMail(h.domain)
		for _, u := range harnessUsers {
			h.mem.addUser(u)
		}
	case h.srv == nil:
		// The server outlives the harness: a restart reuses it.
		srv, err := localmail.Start(context.Background(), localmail.Options{Domain: o.domain})
		if err != nil {
			t.Fatal(err)
		}
		h.srv = srv
		for _, u := range harnessUsers {
			if err := srv.AddUser(u, u+"-pw"); err != nil {
				t.Fatal(err)
			}
		}
		t.Cleanup(func() { srv.Close() })
		h.domain = srv.Domain()
	default:
		h.domain = h.srv.Domain()
	}
	text := strings.Replace(o.top+baseConfig(o.mail, o.config), `address = "lexio@localhost"`, `address = "lexio@`+h.domain+`"`, 1)
	cfg, err := config.Parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	h.cfg = cfg
	h.db = o.db
	if h.db == nil {
		h.db = newTestDB(t, o.driver)
	}
	st, err := h.db.open(ctx, h.clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	h.store = st
	h.logs = &logBuffer{}
	logger := slog.New(slog.NewTextHandler(h.logs, nil))
	if !o.sockets {
		mem := h.mem
		h.newService(o, cfg, st, logger, func() { mem.poked.Store(true) })
		var once sync.Once
		h.stop = func() {
			once.Do(func() {
				cancel()
				st.Close()
			})
		}
		t.Cleanup(h.stop)
		return h
	}
	smtpAddr := o.smtpAddr
	if smtpAddr == "" {
		smtpAddr = h.srv.SMTPAddr()
	}
	disp, err := mailer.NewDispatcher(mailer.DispatcherConfig{
		Addr: smtpAddr, Timeout: 2 * time.Second, Logger: logger, TLS: mailer.TLSNone, Now: h.clock.Now, Interval: 50 * time.Millisecond,
	}, outboxmail.New(st))
	if err != nil {
		t.Fatal(err)
	}
	h.disp = disp
	h.newService(o, cfg, st, logger, disp.Poke)
	recv, err := mailer.NewReceiver(mailer.ReceiverConfig{
		Addr: h.srv.IMAPAddr(), TLS: mailer.TLSNone, Username: "lexio", Password: "lexio-pw",
		PollInterval: time.Second, MaxMessageBytes: cfg.Mail.MaxMessageBytes, Retry: mailer.Backoff{Base: 50 * time.Millisecond, Max: 200 * time.Millisecond},
	}, h.front)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); recv.Run(ctx) }()
	go func() { defer wg.Done(); disp.Run(ctx) }()
	var once sync.Once
	h.stop = func() {
		once.Do(func() {
			cancel()
			wg.Wait()
			st.Close()
		})
	}
	t.Cleanup(h.stop)
	return h
}

// testTemplates parses the templates once for every harness: a Set is
// read-only and safe for concurrent use, as the daemon's one Set is.
var testTemplates = sync.OnceValues(templates.New)

// newService builds the services of a harness, connected as the daemon
// connects them: the one place that knows their options. poke wakes the
// dispatcher, or tells the in-process mail that the outbox has rows.
func (h *harness) newService(o harnessOpts, cfg *config.Config, st *store.Store, logger *slog.Logger, poke func()) {
	t := h.t
	t.Helper()
	tmpl, err := testTemplates()
	if err != nil {
		t.Fatal(err)
	}
	d := o.dict
	if d == nil {
		d = anyWord{}
	}
	h.svc, err = table.New(table.Options{Config: cfg, Store: st, Dict: d, Gaddag: o.gaddag, Templates: tmpl,
		Secret: []byte(testSecret), Now: h.clock.Now, Poke: poke, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	h.players, h.lobby = player.New(h.svc, logger), lobby.New(h.svc, logger)
	h.seasons = season.New(h.svc, h.lobby, logger)
	h.svc.SetSeasons(h.seasons)
	h.svc.SetVacations(h.players)
	h.front = inbox.New(h.svc, h.players, h.seasons, h.lobby, logger)
	h.views = tableview.New(h.svc, logger)
}

func (h *harness) account(name string) client.Account {
	acc := client.Account{Username: name, Password: name + "-pw", Address: name + "@" + h.domain}
	if h.srv != nil {
		acc.IMAPAddr, acc.SMTPAddr = h.srv.IMAPAddr(), h.srv.SMTPAddr()
	}
	return acc
}

// addUser adds a mail account.
func (h *harness) addUser(name string) {
	h.t.Helper()
	if h.mem != nil {
		h.mem.addUser(name)
		return
	}
	if err := h.srv.AddUser(name, name+"-pw"); err != nil {
		h.t.Fatal(err)
	}
}

// inbox is name's INBOX, oldest first, once the mail due rests.
func (h *harness) inbox(name string) []client.Message {
	h.t.Helper()
	if h.mem != nil {
		h.settle()
		msgs, err := h.mem.inbox(name)
		if err != nil {
			h.t.Fatal(err)
		}
		return msgs
	}
	msgs, err := h.account(name).Fetch(h.ctx)
	if err != nil {
		h.t.Fatal(err)
	}
	return msgs
}

// waitFor polls until cond holds; the deadline only bounds a broken test.
// In-process, the mail due rests before each look: what the test waits
// for has then happened, or will not.
func (h *harness) waitFor(what string, cond func() bool) {
	h.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for h.settle(); !cond(); h.settle() {
		if time.Now().After(deadline) {
			h.t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitMail waits until name's inbox holds at least n messages.
func (h *harness) waitMail(name string, n int) []client.Message {
	h.t.Helper()
	var msgs []client.Message
	h.waitFor(fmt.Sprintf("%d messages for %s", n, name), func() bool {
		msgs = h.inbox(name)
		return len(msgs) >= n
	})
	return msgs
}

// kind reads the message kind out of one of the service's Message-IDs:
// lexio.<table>.<seq>.<kind>.<seat>[...]@<domain>.
func kind(m client.Message) string {
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

func seqOf(m client.Message) int {
	parts := strings.Split(m.MessageID, ".")
	var n int
	if len(parts) > 2 {
		fmt.Sscanf(parts[2], "%d", &n)
	}
	return n
}

func ofKind(msgs []client.Message, k string) []client.Message {
	var out []client.Message
	for _, m := range msgs {
		if kind(m) == k {
			out = append(out, m)
		}
	}
	return out
}

// latestNotice is the newest message of the table that can be replied to.
func latestNotice(msgs []client.Message) *client.Message {
	for i := len(msgs) - 1; i >= 0; i-- {
		if k := kind(msgs[i]); k == "turn-notice" || k == "reminder" || k == "expired" {
			return &msgs[i]
		}
	}
	return nil
}

// send replies to a player's latest notice with a command, as a mail
// client would.
func (h *harness) send(name, command string) string {
	h.t.Helper()
	m := latestNotice(h.inbox(name))
	if m == nil {
		h.t.Fatalf("%s has no notice to reply to", name)
	}
	return h.replyTo(name, m, command)
}

var msgCounter struct {
	sync.Mutex
	n int
}

func (h *harness) replyTo(name string, m *client.Message, command string) string {
	h.t.Helper()
	msgCounter.Lock()
	msgCounter.n++
	id := fmt.Sprintf("reply-%d-%s@localhost", msgCounter.n, name)
	msgCounter.Unlock()
	to, raw := h.account(name).Reply(m, command, h.clock.Now(), id)
	h.submit(name, []string{to}, raw)
	return id
}

// sendRaw delivers a message as written.
func (h *harness) sendRaw(from string, to []string, raw string) {
	h.t.Helper()
	h.submit(from, to, []byte(strings.ReplaceAll(raw, "\n", "\r\n")))
}

// submit sends raw from an account to the envelope recipients, as its
// mail client would. In-process the service has handled it on return.
func (h *harness) submit(from string, to []string, raw []byte) {
	h.t.Helper()
	if h.mem == nil {
		if err := h.account(from).Send(h.ctx, to, raw); err != nil {
			h.t.Fatal(err)
		}
		return
	}
	if err := h.mem.deliver(to, raw); err != nil {
		h.t.Fatalf("client: send: %v", err)
	}
	h.settle()
}

// handled waits until the service recorded the message.
func (h *harness) handled(messageID string) store.Message {
	h.t.Helper()
	var rec *store.Message
	h.waitFor("message "+messageID+" handled", func() bool {
		err := h.store.View(h.ctx, func(tx *store.Tx) error {
			var err error
			rec, err = tx.MessageByID(messageID)
			return err
		})
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			h.t.Fatal(err)
		}
		return err == nil
	})
	return *rec
}

// outboxEmpty waits until every queued mail was sent. In-process it
// reads the outbox whether poked or not.
func (h *harness) outboxEmpty() {
	h.t.Helper()
	if h.mem != nil {
		h.mem.poked.Store(true)
	}
	h.waitFor("the outbox to drain", func() bool {
		rows, err := outbox.New(h.store).Due(h.ctx, h.clock.Now().Add(time.Hour), 1)
		if err != nil {
			h.t.Fatal(err)
		}
		return len(rows) == 0
	})
}

func (h *harness) game(name string) *engine.Game {
	h.t.Helper()
	g, err := h.svc.Game(h.ctx, name)
	if err != nil {
		h.t.Fatal(err)
	}
	return g
}
