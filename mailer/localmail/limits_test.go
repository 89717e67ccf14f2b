package localmail_test

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-smtp"

	"github.com/lexio-mail/lexio/mailer/localmail"
)

// message is a mail of exactly size bytes (at least 100).
func message(size int) string {
	head := "Subject: big\r\n\r\n"
	line := strings.Repeat("x", 78) + "\r\n"
	body := strings.Repeat(line, (size-len(head))/len(line)+1)
	body = body[:size-len(head)-2] + "\r\n"
	return head + body
}

// sendRaw submits raw to every address in to, without QUIT.
func sendRaw(addr string, raw string, to ...string) error {
	c, err := smtp.Dial(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	return c.SendMail("a@example.org", to, strings.NewReader(raw))
}

func count(t *testing.T, srv *localmail.Server, user, mailbox string) int {
	t.Helper()
	n, err := srv.Count(user, mailbox)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// A message over MaxMessageBytes is refused with 552 during DATA, SIZE
// says the limit in EHLO, and nothing is stored; APPEND is bounded too.
func TestOversizeMessageRefused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mail")
	opts := localmail.Options{MaxMessageBytes: 4096, Dir: dir}
	srv := start(t, opts)
	c, err := smtp.Dial(srv.SMTPAddr())
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Hello("client.example"); err != nil {
		t.Fatal(err)
	}
	if ok, size := c.Extension("SIZE"); !ok || size != "4096" {
		t.Errorf("EHLO advertises SIZE %v %q, want 4096", ok, size)
	}
	c.Close()

	if err := sendRaw(srv.SMTPAddr(), message(8000), "alice@localhost"); smtpCode(err) != 552 {
		t.Errorf("an 8000-byte message: %v, want 552", err)
	}
	if err := sendRaw(srv.SMTPAddr(), message(4000), "alice@localhost"); err != nil {
		t.Errorf("a 4000-byte message: %v", err)
	}
	if n := count(t, srv, "alice", "INBOX"); n != 1 {
		t.Errorf("INBOX holds %d messages, want the small one only", n)
	}

	ic := login(t, srv.IMAPAddr(), "alice")
	raw := message(8000)
	app := ic.Append("INBOX", int64(len(raw)), nil)
	app.Write([]byte(raw))
	app.Close()
	if _, err := app.Wait(); err == nil {
		t.Error("an 8000-byte APPEND was accepted")
	}
	ic.Logout()
	if n := count(t, srv, "alice", "INBOX"); n != 1 {
		t.Errorf("INBOX holds %d messages after the APPEND", n)
	}

	// Nothing of the refused messages reached the journal either.
	srv.Close()
	srv = start(t, opts)
	if n := count(t, srv, "alice", "INBOX"); n != 1 {
		t.Errorf("after a restart INBOX holds %d messages", n)
	}
}

// quotaOpts: a mailbox holds an empty INBOX (512) and four 3000-byte
// messages (3512 each), 14560 bytes; a fifth would make 18072.
func quotaOpts(dir string) localmail.Options {
	return localmail.Options{MailboxQuota: 16 << 10, MaxMessageBytes: 64 << 10, Dir: dir}
}

// Deliveries past a mailbox's quota are refused with 452 (552 for a
// message no mailbox may hold), by RCPT when the mailbox is full and by
// DATA when the message does not fit; the bound holds after a restart,
// and deleting mail makes room again.
func TestQuotaRefusesDelivery(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mail")
	srv := start(t, quotaOpts(dir))
	msg := message(3000)
	for i := range 4 {
		if err := sendRaw(srv.SMTPAddr(), msg, "alice@localhost"); err != nil {
			t.Fatalf("message %d: %v", i+1, err)
		}
	}
	if err := sendRaw(srv.SMTPAddr(), msg, "alice@localhost"); smtpCode(err) != 452 {
		t.Errorf("a fifth message: %v, want 452", err)
	}
	if err := sendRaw(srv.SMTPAddr(), message(20000), "lexio@localhost"); smtpCode(err) != 552 {
		t.Errorf("a message over the whole quota: %v, want 552", err)
	}
	// alice has room for a small message, not this one: lexio does not
	// get it either, the DATA is refused for both.
	if err := sendRaw(srv.SMTPAddr(), msg, "lexio@localhost", "alice@localhost"); smtpCode(err) != 452 {
		t.Errorf("to lexio and a full alice: %v, want 452", err)
	}
	if n := count(t, srv, "lexio", "INBOX"); n != 0 {
		t.Errorf("lexio got %d messages", n)
	}
	if err := sendRaw(srv.SMTPAddr(), message(1000), "alice@localhost"); err != nil {
		t.Errorf("a message that fits: %v", err)
	}
	// Now full to the byte: RCPT refuses.
	c, err := smtp.Dial(srv.SMTPAddr())
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Mail("a@example.org", nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Rcpt("alice+t1@localhost", nil); smtpCode(err) != 452 {
		t.Errorf("RCPT to a full mailbox: %v, want 452", err)
	}
	c.Close()
	if err := srv.Deliver("alice@localhost", []byte(message(1000))); !errors.Is(err, localmail.ErrOverQuota) {
		t.Errorf("Deliver to a full mailbox: %v", err)
	}
	if n := count(t, srv, "alice", "INBOX"); n != 5 {
		t.Fatalf("INBOX holds %d messages, want 5", n)
	}

	// The same bound after a restart.
	srv.Close()
	srv = start(t, quotaOpts(dir))
	if err := sendRaw(srv.SMTPAddr(), msg, "alice@localhost"); smtpCode(err) != 452 {
		t.Errorf("after a restart: %v, want 452", err)
	}
	ic := login(t, srv.IMAPAddr(), "alice")
	if _, err := ic.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if err := ic.Store(imap.UIDSetNum(1), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := ic.Expunge().Collect(); err != nil {
		t.Fatal(err)
	}
	if err := sendRaw(srv.SMTPAddr(), msg, "alice@localhost"); err != nil {
		t.Errorf("after a deletion: %v", err)
	}
}

// IMAP cannot go around the quota: APPEND, COPY and CREATE are refused
// with OVERQUOTA, a COPY that went over is taken back, and the journal
// says so.
func TestQuotaIMAP(t *testing.T) {
	for _, mode := range []string{"memory", "dir"} {
		t.Run(mode, func(t *testing.T) {
			dir := ""
			if mode == "dir" {
				dir = filepath.Join(t.TempDir(), "mail")
			}
			srv := start(t, quotaOpts(dir))
			msg := message(3000)
			for range 3 {
				if err := sendRaw(srv.SMTPAddr(), msg, "alice@localhost"); err != nil {
					t.Fatal(err)
				}
			}
			ic := login(t, srv.IMAPAddr(), "alice")
			if err := ic.Create("Archive", nil).Wait(); err != nil {
				t.Fatal(err)
			}
			if _, err := ic.Select("INBOX", nil).Wait(); err != nil {
				t.Fatal(err)
			}
			// 1024 + 3×3512 used: two copies do not fit.
			if _, err := ic.Copy(imap.UIDSetNum(1, 2), "Archive").Wait(); !isOverQuota(err) {
				t.Errorf("COPY over the quota: %v", err)
			}
			if n := count(t, srv, "alice", "Archive"); n != 0 {
				t.Errorf("Archive holds %d messages after a refused COPY", n)
			}
			if _, err := ic.Copy(imap.UIDSetNum(1), "Archive").Wait(); err != nil {
				t.Errorf("a COPY that fits: %v", err)
			}
			app := ic.Append("INBOX", int64(len(msg)), nil)
			app.Write([]byte(msg))
			app.Close()
			if _, err := app.Wait(); !isOverQuota(err) {
				t.Errorf("APPEND over the quota: %v", err)
			}
			created := 0
			for i := range 10 {
				if err := ic.Create(fmt.Sprintf("box%d", i), nil).Wait(); err != nil {
					if !isOverQuota(err) {
						t.Errorf("CREATE: %v", err)
					}
					break
				}
				created++
			}
			// 16384 - 1024 - 4×3512 = 1312: two mailboxes.
			if created != 2 {
				t.Errorf("%d mailboxes created, want 2", created)
			}
			ic.Logout()
			if mode == "memory" {
				return
			}
			before := snapshot(t, srv.IMAPAddr(), "alice")
			srv.Close()
			srv = start(t, quotaOpts(dir))
			after := snapshot(t, srv.IMAPAddr(), "alice")
			if fmt.Sprint(before) != fmt.Sprint(after) {
				t.Errorf("after a restart:\n%+v\nbefore:\n%+v", after, before)
			}
			if n := count(t, srv, "alice", "Archive"); n != 1 {
				t.Errorf("Archive holds %d messages after the restart", n)
			}
		})
	}
}

func isOverQuota(err error) bool {
	var ie *imap.Error
	return errors.As(err, &ie) && ie.Code == imap.ResponseCodeOverQuota
}

// A DATA whose body ends in a lone CR (go-smtp v0.25.1 then misses the
// final dot) and then stalls is closed at SMTPTimeout, and the server
// serves others meanwhile and after.
func TestSMTPDataStallEnds(t *testing.T) {
	const timeout = 300 * time.Millisecond
	srv := start(t, localmail.Options{SMTPTimeout: timeout})
	conn, err := net.Dial("tcp", srv.SMTPAddr())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	r := bufio.NewReader(conn)
	expect := func(code string) {
		t.Helper()
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				t.Fatalf("waiting for %s: %v", code, err)
			}
			if strings.HasPrefix(line, code+" ") {
				return
			}
			if !strings.HasPrefix(line, code+"-") {
				t.Fatalf("want %s, got %q", code, line)
			}
		}
	}
	expect("220")
	for _, step := range []struct{ cmd, code string }{
		{"EHLO client.example", "250"},
		{"MAIL FROM:<a@example.org>", "250"},
		{"RCPT TO:<alice@localhost>", "250"},
		{"DATA", "354"},
	} {
		fmt.Fprintf(conn, "%s\r\n", step.cmd)
		expect(step.code)
	}
	start := time.Now()
	if _, err := io.WriteString(conn, "Subject: stall\r\n\r\nbody\r\r\n.\r\n"); err != nil {
		t.Fatal(err)
	}
	// Another client is served while this one stalls.
	if err := send(srv, nil, "alice@localhost"); err != nil {
		t.Errorf("a second client during the stall: %v", err)
	}
	// The deadline only bounds a broken test: the server must close first.
	conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	rest, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("the stalled session is still open after %v: %v (read %q)", time.Since(start), err, rest)
	}
	if strings.Contains(string(rest), "250") {
		t.Errorf("the stalled message was accepted: %q", rest)
	}
	if err := send(srv, nil, "alice@localhost"); err != nil {
		t.Errorf("a client after the stall: %v", err)
	}
	if n := count(t, srv, "alice", "INBOX"); n != 2 {
		t.Errorf("INBOX holds %d messages, want the two others", n)
	}
}
