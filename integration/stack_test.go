//go:build integration

package integration

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"github.com/lexio-mail/lexio/config"
	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/engine/enginetest"
	"github.com/lexio-mail/lexio/mailer/client"
	"github.com/lexio-mail/lexio/mailer/replytoken"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/outbox"
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/templates"
)

// stack is the running mail stack, as scripts/mailstack.sh described it
// in .mailstack/env.
var stack struct {
	root, repo               string
	smtp, submission, imap   string
	ca                       string
	tls                      *tls.Config
	lexioBin                 string
	dovecotConf, postfixLog  string
	script                   string
	secret                   string
	players                  []string
	loadPlayers              []string // the load test's, four per table
	service, serviceAddress  string
	domain, passwordSuffix   string
	dovecotLog, buildDir     string
	mailDir                  string
	stackStarted, ciRequired bool
	// oauth is where the test's token server listens; Dovecot's oauth2
	// passdb asks its introspection endpoint, as introspectClient.
	oauth                              string
	introspectClient, introspectSecret string
}

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	repo, err := filepath.Abs("..")
	if err != nil {
		panic(err)
	}
	stack.repo = repo
	stack.script = filepath.Join(repo, "scripts", "mailstack.sh")
	root := os.Getenv("MAILSTACK_ROOT")
	if root == "" {
		root = filepath.Join(repo, ".mailstack")
	}
	env, err := readEnv(filepath.Join(root, "env"))
	if err != nil {
		fmt.Fprintf(os.Stderr, "integration: no running mail stack (%v); `make test-integration` starts one (scripts/mailstack.sh start)\n", err)
		if os.Getenv("CI") != "" {
			return 1
		}
		fmt.Fprintln(os.Stderr, "integration: SKIPPED")
		return 0
	}
	stack.root = env["MAILSTACK_ROOT"]
	stack.smtp, stack.submission, stack.imap = env["MAILSTACK_SMTP"], env["MAILSTACK_SUBMISSION"], env["MAILSTACK_IMAP"]
	stack.ca = env["MAILSTACK_CA"]
	stack.domain = env["MAILSTACK_DOMAIN"]
	stack.passwordSuffix = env["MAILSTACK_PASSWORD_SUFFIX"]
	stack.oauth = env["MAILSTACK_OAUTH"]
	stack.introspectClient, stack.introspectSecret = env["MAILSTACK_OAUTH_INTROSPECT_CLIENT"], env["MAILSTACK_OAUTH_INTROSPECT_SECRET"]
	stack.dovecotConf = filepath.Join(stack.root, "dovecot", "dovecot.conf")
	stack.dovecotLog = filepath.Join(stack.root, "dovecot", "dovecot.log")
	stack.postfixLog = filepath.Join(stack.root, "postfix.log")
	stack.mailDir = filepath.Join(stack.root, "mail")
	stack.service = "lexio"
	stack.serviceAddress = "lexio@" + stack.domain
	stack.players = []string{"alice", "bob", "carol", "dave"}
	stack.loadPlayers = strings.Fields(env["MAILSTACK_LOAD_USERS"])
	stack.secret = "integration-secret-0123456789abcdef"
	pem, err := os.ReadFile(stack.ca)
	if err != nil {
		fmt.Fprintln(os.Stderr, "integration:", err)
		return 1
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		fmt.Fprintln(os.Stderr, "integration: no certificate in", stack.ca)
		return 1
	}
	// X25519 only: Go offers a post-quantum hybrid key share by default,
	// whose key generation was a quarter of the load test's own CPU, and
	// Debian's OpenSSL in Postfix and Dovecot picks X25519 anyway.
	stack.tls = &tls.Config{RootCAs: pool, ServerName: "localhost", MinVersion: tls.VersionTLS12,
		CurvePreferences: []tls.CurveID{tls.X25519, tls.CurveP256}}

	dir, err := os.MkdirTemp("", "lexio-integration-bin-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	stack.lexioBin = filepath.Join(dir, "lexio")
	// The overlay adds a pprof listener to the test binary only (see
	// testdata/pprof.go.txt); the repository's cmd/lexio is unchanged.
	overlay := filepath.Join(dir, "overlay.json")
	o, _ := json.Marshal(map[string]map[string]string{"Replace": {
		filepath.Join(repo, "cmd", "lexio", "zz_integration_pprof.go"): filepath.Join(repo, "integration", "testdata", "pprof.go.txt"),
	}})
	if err := os.WriteFile(overlay, o, 0o644); err != nil {
		panic(err)
	}
	build := exec.Command("go", "build", "-overlay", overlay, "-o", stack.lexioBin, "./cmd/lexio")
	build.Dir = repo
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "integration: go build:", err)
		return 1
	}
	return m.Run()
}

func readEnv(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), "=")
		if ok {
			out[k] = strings.Trim(v, `"`)
		}
	}
	return out, sc.Err()
}

// script runs scripts/mailstack.sh with a command (stop-postfix, ...).
func script(t *testing.T, cmd string) {
	t.Helper()
	out, err := exec.Command("bash", stack.script, cmd).CombinedOutput()
	if err != nil {
		t.Fatalf("mailstack.sh %s: %v\n%s", cmd, err, out)
	}
}

// waitFor polls cond until it holds; timeout only bounds a broken test.
func waitFor(t *testing.T, what string, timeout time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", timeout, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// postfixQueueEmpty reports whether Postfix holds no mail.
func postfixQueueEmpty() bool {
	out, err := exec.Command("postqueue", "-j").Output()
	return err == nil && len(strings.TrimSpace(string(out))) == 0
}

// resetMail empties every mailbox once Postfix has delivered what it
// holds; each test starts from empty mailboxes.
func resetMail(t *testing.T) {
	t.Helper()
	waitFor(t, "Postfix's queue to drain", 60*time.Second, postfixQueueEmpty)
	// -A: every user of the passwd-file, the load test's players too.
	out, err := exec.Command("doveadm", "-c", stack.dovecotConf, "expunge", "-A", "mailbox", "*", "all").CombinedOutput()
	if err != nil {
		t.Fatalf("doveadm expunge -A: %v\n%s", err, out)
	}
}

// account is a player's (or the service's) mail client: it sends through
// Postfix's submission port with STARTTLS and SASL and reads its own
// Dovecot INBOX over IMAP with STARTTLS, verifying both against the test CA.
//
// Like a mail client, each account keeps the TLS sessions the servers
// give it and resumes one on its next connection.
func account(name string) client.Account {
	return client.Account{IMAPAddr: stack.imap, SMTPAddr: stack.submission,
		Username: name, Password: name + stack.passwordSuffix, Address: name + "@" + stack.domain,
		TLS: clientTLS(name), SMTPAuth: true}
}

var clientTLSConfigs sync.Map // account name -> *tls.Config

func clientTLS(name string) *tls.Config {
	if c, ok := clientTLSConfigs.Load(name); ok {
		return c.(*tls.Config)
	}
	c := stack.tls.Clone()
	c.ClientSessionCache = tls.NewLRUClientSessionCache(4)
	got, _ := clientTLSConfigs.LoadOrStore(name, c)
	return got.(*tls.Config)
}

func addr(name string) string { return name + "@" + stack.domain }

func addrs(names ...string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = addr(n)
	}
	return out
}

// tableSpec is one [[table]] of the generated configuration.
type tableSpec struct {
	name    string
	players []string
	seed    uint64
}

// daemonOpts configure a generated lexio configuration.
type daemonOpts struct {
	tables      []tableSpec
	words       []string // the dictionary, written to words.txt
	requireAuth bool
	league      string // extra keys of the league "main"
	pollEvery   string // imap.poll_interval (default 30s: IDLE does the work)
	env         []string
	// oauth2, when set, is the body of the [oauth2] section, and IMAP and
	// SMTP log in with its tokens (auth = "oauth2", no password file).
	oauth2 string
}

// daemon is one `lexio serve` process (and its restarts) on one data
// directory.
type daemon struct {
	t       *testing.T
	env     []string
	dir     string
	cfgPath string
	dbPath  string
	logPath string
	mu      sync.Mutex
	cmd     *exec.Cmd
	exited  chan struct{}
	// expectExit is set while the test kills or stops the process.
	expectExit bool
	crashed    error
	starts     int
	st         *store.Store
	svc        *table.Service
}

func writeConfig(t *testing.T, dir string, o daemonOpts) string {
	t.Helper()
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "secret"), []byte(stack.secret), 0o600))
	must(os.WriteFile(filepath.Join(dir, "password"), []byte(stack.service+stack.passwordSuffix+"\n"), 0o600))
	must(os.WriteFile(filepath.Join(dir, "words.txt"), []byte(strings.Join(o.words, "\n")+"\n"), 0o644))
	if o.pollEvery == "" {
		o.pollEvery = "30s"
	}
	login := fmt.Sprintf("password_file = %q", filepath.Join(dir, "password"))
	if o.oauth2 != "" {
		login = `auth = "oauth2"`
	}
	var b strings.Builder
	fmt.Fprintf(&b, `data_dir = %q
dictionary = %q
language = "en"
log_level = "debug"

[storage]
driver = "sqlite"
sqlite_path = %q

[mail]
address = %q
name = "Lexio"
require_auth = %v
auth_serv_id = "mx.localhost"
secret_file = %q
error_replies_per_hour = 10000
replies_per_hour = 10000
# The reply bounds have tests of their own: here every answer goes.
unproven_answers_per_day = 10000
unproven_answers_total_per_day = 100000
outsider_mails_per_day = 100000

[imap]
address = %q
tls = "starttls"
ca_file = %q
username = %q
%s
mailbox = "INBOX"
processed_mailbox = "Processed"
poll_interval = %q
idle = true

[smtp]
address = %q
tls = "starttls"
ca_file = %q
username = %q
%s
max_attempts = 100
max_age = "2h"

[[league]]
name = "main"
variant = "lexio"
turn_time = "72h"
reminders = ["24h", "2h"]
away_grace = "2h"
%s
`, dir, filepath.Join(dir, "words.txt"), filepath.Join(dir, "lexio.db"),
		stack.serviceAddress, o.requireAuth, filepath.Join(dir, "secret"),
		stack.imap, stack.ca, stack.service, login, o.pollEvery,
		stack.submission, stack.ca, stack.service, login, o.league)
	if o.oauth2 != "" {
		fmt.Fprintf(&b, "\n[oauth2]\n%s", o.oauth2)
	}
	for _, tb := range o.tables {
		fmt.Fprintf(&b, "\n[[table]]\nname = %q\nleague = \"main\"\nplayers = [", tb.name)
		for i, p := range addrs(tb.players...) {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%q", p)
		}
		fmt.Fprintf(&b, "]\nseed = %d\n", tb.seed)
	}
	path := filepath.Join(dir, "lexio.toml")
	must(os.WriteFile(path, []byte(b.String()), 0o600))
	if _, err := config.Load(path); err != nil {
		t.Fatalf("generated configuration: %v\n%s", err, b.String())
	}
	return path
}

// startDaemon writes the configuration, starts `lexio serve` and waits
// until it serves. Cleanup stops it (and fails the test if it crashed).
func startDaemon(t *testing.T, o daemonOpts) *daemon {
	t.Helper()
	dir := t.TempDir()
	d := &daemon{t: t, env: o.env, dir: dir, dbPath: filepath.Join(dir, "lexio.db"), logPath: filepath.Join(dir, "lexio.log")}
	d.cfgPath = writeConfig(t, dir, o)
	t.Cleanup(func() {
		d.stop()
		if d.st != nil {
			d.st.Close()
		}
		if t.Failed() {
			b, _ := os.ReadFile(d.logPath)
			lines := strings.Split(string(b), "\n")
			if len(lines) > 60 {
				lines = lines[len(lines)-60:]
			}
			t.Logf("daemon log (last lines of %s):\n%s", d.logPath, strings.Join(lines, "\n"))
		}
	})
	d.start()
	return d
}

func (d *daemon) start() {
	d.t.Helper()
	logf, err := os.OpenFile(d.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		d.t.Fatal(err)
	}
	fmt.Fprintf(logf, "=== start %d at %s\n", d.starts+1, time.Now().Format(time.RFC3339Nano))
	before := d.countLog("lexio serving")
	cmd := exec.Command(stack.lexioBin, "serve", "-c", d.cfgPath)
	cmd.Stdout, cmd.Stderr = logf, logf
	// GOGC=400, as doc/performance.md advises for a daemon (a few MB of
	// live heap, ~1 MB allocated a move), unless the environment says.
	cmd.Env = append(os.Environ(), d.env...)
	if os.Getenv("GOGC") == "" {
		cmd.Env = append(cmd.Env, "GOGC=400")
	}
	// The daemon dies with the test process, even a killed one: a daemon
	// left over would read the next test's mail.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		logf.Close()
		d.t.Fatal(err)
	}
	exited := make(chan struct{})
	d.mu.Lock()
	d.cmd, d.exited, d.expectExit = cmd, exited, false
	d.starts++
	d.mu.Unlock()
	go func() {
		err := cmd.Wait()
		logf.Close()
		d.mu.Lock()
		if !d.expectExit && d.crashed == nil {
			d.crashed = fmt.Errorf("lexio serve exited by itself: %v", err)
		}
		d.mu.Unlock()
		close(exited)
	}()
	waitFor(d.t, "lexio serve to start", 30*time.Second, func() bool {
		d.checkAlive()
		return d.countLog("lexio serving") > before
	})
	if d.st == nil {
		st, err := store.Open(context.Background(), store.Options{Driver: store.DriverSQLite, SQLitePath: d.dbPath})
		if err != nil {
			d.t.Fatal(err)
		}
		cfg, err := config.Load(d.cfgPath)
		if err != nil {
			d.t.Fatal(err)
		}
		tmpl, err := templates.New()
		if err != nil {
			d.t.Fatal(err)
		}
		svc, err := table.New(table.Options{Config: cfg, Store: st, Dict: enginetest.AnyWord{}, Templates: tmpl, Secret: []byte(stack.secret)})
		if err != nil {
			d.t.Fatal(err)
		}
		d.st, d.svc = st, svc
	}
}

// checkAlive fails the test when the daemon exited unasked.
func (d *daemon) checkAlive() {
	d.t.Helper()
	d.mu.Lock()
	err := d.crashed
	d.mu.Unlock()
	if err != nil {
		d.t.Fatal(err)
	}
}

// kill9 kills the daemon with SIGKILL and waits for it to be gone.
func (d *daemon) kill9() {
	d.mu.Lock()
	cmd, exited := d.cmd, d.exited
	d.expectExit = true
	d.mu.Unlock()
	if cmd == nil {
		return
	}
	cmd.Process.Signal(syscall.SIGKILL)
	<-exited
}

// stop ends the daemon with SIGTERM (SIGKILL after 20 s).
func (d *daemon) stop() {
	d.mu.Lock()
	cmd, exited := d.cmd, d.exited
	d.expectExit = true
	d.mu.Unlock()
	if cmd == nil {
		return
	}
	select {
	case <-exited:
		return
	default:
	}
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(20 * time.Second):
		d.t.Errorf("lexio serve did not stop within 20 s of SIGTERM; killed")
		cmd.Process.Signal(syscall.SIGKILL)
		<-exited
	}
}

func (d *daemon) logText() string {
	b, _ := os.ReadFile(d.logPath)
	return string(b)
}

func (d *daemon) countLog(s string) int { return strings.Count(d.logText(), s) }

// logged waits for a log line holding every one of subs.
func (d *daemon) logged(what string, subs ...string) {
	d.t.Helper()
	waitFor(d.t, "a log line: "+what, 20*time.Second, func() bool {
		for _, l := range strings.Split(d.logText(), "\n") {
			ok := true
			for _, s := range subs {
				if !strings.Contains(l, s) {
					ok = false
					break
				}
			}
			if ok {
				return true
			}
		}
		return false
	})
}

// game reads a table's game from the daemon's SQLite file (WAL lets the
// test read while the daemon writes).
func (d *daemon) game(name string) *engine.Game {
	d.t.Helper()
	var g *engine.Game
	var err error
	for range 50 {
		if g, err = d.svc.Game(context.Background(), name); err == nil {
			return g
		}
		time.Sleep(100 * time.Millisecond)
	}
	d.t.Fatalf("game %s: %v", name, err)
	return nil
}

// message waits until the daemon recorded a message and returns the
// record.
func (d *daemon) message(id string, timeout time.Duration) store.Message {
	d.t.Helper()
	var rec *store.Message
	waitFor(d.t, "message "+id+" to be handled", timeout, func() bool {
		d.checkAlive()
		err := d.st.View(context.Background(), func(tx *store.Tx) error {
			var err error
			rec, err = tx.MessageByID(id)
			return err
		})
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			d.t.Logf("reading message %s: %v", id, err)
		}
		return err == nil
	})
	return *rec
}

// outboxEmpty waits until the dispatcher sent every queued mail.
func (d *daemon) outboxEmpty(timeout time.Duration) {
	d.t.Helper()
	waitFor(d.t, "the outbox to drain", timeout, func() bool {
		d.checkAlive()
		rows, err := outbox.New(d.st).Due(context.Background(), time.Now().Add(24*time.Hour), 1)
		return err == nil && len(rows) == 0
	})
}

func token(tableName, player string) string {
	return replytoken.NewTokens([]byte(stack.secret)).Token(tableName, addr(player))
}

func replyAddress(tableName, player string) string {
	return replytoken.ReplyAddress(stack.service, stack.domain, token(tableName, player))
}

// mailbox reads one user's INBOX over IMAP with STARTTLS, keeping the
// connection and fetching only what is new; it reconnects when the
// server went away (a Dovecot restart).
type mailbox struct {
	name string
	c    *imapclient.Client
	next imap.UID
	msgs []client.Message
}

func newMailbox(name string) *mailbox { return &mailbox{name: name, next: 1} }

func (m *mailbox) close() {
	if m.c != nil {
		m.c.Close()
		m.c = nil
	}
}

// poll fetches new messages; it returns every message so far.
func (m *mailbox) poll() ([]client.Message, error) {
	if m.c == nil {
		c, err := imapclient.DialStartTLS(stack.imap, &imapclient.Options{TLSConfig: stack.tls})
		if err != nil {
			return m.msgs, err
		}
		if err := c.Login(m.name, m.name+stack.passwordSuffix).Wait(); err != nil {
			c.Close()
			return m.msgs, err
		}
		m.c = c
	}
	// A fresh SELECT each time: the simplest way to see new mail.
	sel, err := m.c.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		m.close()
		return m.msgs, err
	}
	if sel.NumMessages == 0 || (sel.UIDNext != 0 && sel.UIDNext <= m.next) {
		return m.msgs, nil
	}
	var set imap.UIDSet
	set.AddRange(m.next, 0)
	fetched, err := m.c.Fetch(set, &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
	if err != nil {
		m.close()
		return m.msgs, err
	}
	for _, fm := range fetched {
		if fm.UID < m.next {
			continue // "n:*" always returns the last message
		}
		var raw []byte
		for _, b := range fm.BodySection {
			raw = b.Bytes
		}
		msg, err := client.Read(raw)
		if err != nil {
			return m.msgs, fmt.Errorf("%s: message %d: %w", m.name, fm.UID, err)
		}
		msg.UID = uint32(fm.UID)
		m.msgs = append(m.msgs, *msg)
		m.next = fm.UID + 1
	}
	return m.msgs, nil
}

// mustPoll is poll that fails the test on an error.
func (m *mailbox) mustPoll(t *testing.T) []client.Message {
	t.Helper()
	msgs, err := m.poll()
	if err != nil {
		t.Fatalf("mailbox %s: %v", m.name, err)
	}
	return msgs
}

// mailboxes are the players' mailboxes, closed at the end of the test.
func mailboxes(t *testing.T, names ...string) map[string]*mailbox {
	out := map[string]*mailbox{}
	for _, n := range names {
		out[n] = newMailbox(n)
	}
	t.Cleanup(func() {
		for _, m := range out {
			m.close()
		}
	})
	return out
}

// send submits raw (LF or CRLF line ends) from account through Postfix.
func send(t *testing.T, from string, to []string, raw string) {
	t.Helper()
	raw = strings.ReplaceAll(strings.ReplaceAll(raw, "\r\n", "\n"), "\n", "\r\n")
	var err error
	for range 3 {
		if err = account(from).Send(context.Background(), to, []byte(raw)); err == nil {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("send from %s: %v", from, err)
}

var msgSeq struct {
	sync.Mutex
	n int
}

// newMessageID returns a unique Message-ID (without brackets).
func newMessageID(who string) string {
	msgSeq.Lock()
	defer msgSeq.Unlock()
	msgSeq.n++
	return fmt.Sprintf("it-%d-%d-%s@%s", time.Now().UnixNano(), msgSeq.n, who, stack.domain)
}

// mail is a message written by a test.
type mail struct {
	From, To, Subject, ID string
	Headers               []string
	Body                  string
}

// sendMail submits m from account and returns its Message-ID.
func sendMail(t *testing.T, account string, m mail) string {
	t.Helper()
	if m.From == "" {
		m.From = addr(account)
	}
	if m.To == "" {
		m.To = stack.serviceAddress
	}
	if m.Subject == "" {
		m.Subject = "lexio"
	}
	if m.ID == "" {
		m.ID = newMessageID(account)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s\nTo: %s\nSubject: %s\nDate: %s\nMessage-ID: <%s>\n", m.From, m.To, m.Subject, time.Now().Format(time.RFC1123Z), m.ID)
	for _, h := range m.Headers {
		b.WriteString(h + "\n")
	}
	if !strings.Contains(strings.ToLower(strings.Join(m.Headers, "\n")), "content-type:") {
		b.WriteString("MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n")
	}
	b.WriteString("\n" + m.Body + "\n")
	send(t, account, []string{m.To}, b.String())
	return m.ID
}

type messageRecord = store.Message

// record reads a message's record without waiting; ok is false while
// the daemon has not handled it.
func (d *daemon) record(id string) (messageRecord, bool) {
	var rec *store.Message
	err := d.st.View(context.Background(), func(tx *store.Tx) error {
		var err error
		rec, err = tx.MessageByID(id)
		return err
	})
	if err != nil {
		return messageRecord{}, false
	}
	return *rec, true
}
