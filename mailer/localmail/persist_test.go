package localmail_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-smtp"

	"github.com/lexio-mail/lexio/mailer/localmail"
)

// startDir starts a server keeping its mail in dir, with alice and lexio.
// It is not closed at the end: the tests close it themselves, or not.
func startDir(t *testing.T, dir string) *localmail.Server {
	t.Helper()
	srv, err := localmail.Start(t.Context(), localmail.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"lexio", "alice"} {
		if err := srv.AddUser(u, u+"-pw"); err != nil {
			t.Fatal(err)
		}
	}
	return srv
}

func login(t *testing.T, addr, user string) *imapclient.Client {
	t.Helper()
	c, err := imapclient.DialInsecure(addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Login(user, user+"-pw").Wait(); err != nil {
		t.Fatal(err)
	}
	return c
}

// sendTo submits one message and returns once the server answered 250 to
// its DATA, without QUIT.
func sendTo(t *testing.T, addr, to, subject string) {
	t.Helper()
	c, err := smtp.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	raw := "From: a@example.org\r\nSubject: " + subject + "\r\n\r\nbody of " + subject + "\r\n"
	if err := c.SendMail("a@example.org", []string{to}, strings.NewReader(raw)); err != nil {
		t.Fatalf("send %s: %v", subject, err)
	}
}

type mailboxState struct {
	Attrs       []imap.MailboxAttr
	UIDValidity uint32
	UIDNext     imap.UID
	Messages    []messageState
}

type messageState struct {
	UID   imap.UID
	Flags []imap.Flag
	Date  time.Time
	Body  string
}

// snapshot is everything a client can see of a user's mailboxes.
func snapshot(t *testing.T, addr, user string) map[string]mailboxState {
	t.Helper()
	c := login(t, addr, user)
	defer c.Logout()
	list, err := c.List("", "*", nil).Collect()
	if err != nil {
		t.Fatal(err)
	}
	out := make(map[string]mailboxState)
	for _, l := range list {
		sel, err := c.Select(l.Mailbox, nil).Wait()
		if err != nil {
			t.Fatal(err)
		}
		st := mailboxState{Attrs: l.Attrs, UIDValidity: sel.UIDValidity, UIDNext: sel.UIDNext}
		if sel.NumMessages > 0 {
			section := &imap.FetchItemBodySection{Peek: true}
			msgs, err := c.Fetch(imap.SeqSet{{Start: 1, Stop: 0}}, &imap.FetchOptions{UID: true, Flags: true, InternalDate: true, BodySection: []*imap.FetchItemBodySection{section}}).Collect()
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range msgs {
				flags := slices.Clone(m.Flags)
				slices.Sort(flags)
				st.Messages = append(st.Messages, messageState{m.UID, flags, m.InternalDate.UTC(), string(m.FindBodySection(section))})
			}
		}
		out[l.Mailbox] = st
	}
	return out
}

// play changes alice's mailboxes every way a client can, as the daemon's
// receiver and a mail client would.
func play(t *testing.T, imapAddr, smtpAddr string) {
	t.Helper()
	for i := 1; i <= 5; i++ {
		sendTo(t, smtpAddr, "alice+t1@localhost", fmt.Sprintf("m%d", i))
	}
	c := login(t, imapAddr, "alice")
	for _, name := range []string{"Processed", "Tmp", "Gone"} {
		if err := c.Create(name, nil).Wait(); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Rename("Tmp", "Archive", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c.Delete("Gone").Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c.Subscribe("Processed").Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	// The receiver's way: \Seen, then MOVE.
	if err := c.Store(imap.UIDSetNum(1, 2), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagSeen}}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Move(imap.UIDSetNum(1, 2), "Processed").Wait(); err != nil {
		t.Fatal(err)
	}
	// A mail client's way: read without PEEK, flag (imapmemserver lowers
	// keywords), copy, delete.
	if _, err := c.Fetch(imap.SeqSetNum(1), &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{{}}}).Collect(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Store(imap.SeqSetNum(2), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagFlagged, "$Later"}}, nil).Collect(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Copy(imap.SeqSetNum(2), "Archive").Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c.Store(imap.UIDSetNum(5), &imap.StoreFlags{Op: imap.StoreFlagsSet, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Expunge().Collect(); err != nil {
		t.Fatal(err)
	}
	raw := "Subject: draft\r\n\r\nkept\r\n"
	date := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	app := c.Append("Archive", int64(len(raw)), &imap.AppendOptions{Flags: []imap.Flag{imap.FlagDraft}, Time: date})
	app.Write([]byte(raw))
	app.Close()
	if _, err := app.Wait(); err != nil {
		t.Fatal(err)
	}
	// An APPEND without a date gets the time it arrived, which must
	// survive too.
	app = c.Append("INBOX", int64(len(raw)), nil)
	app.Write([]byte(raw))
	app.Close()
	if _, err := app.Wait(); err != nil {
		t.Fatal(err)
	}
	c.Logout()
}

func wantState(t *testing.T) func(map[string]mailboxState) {
	return func(got map[string]mailboxState) {
		t.Helper()
		names := slices.Sorted(func(yield func(string) bool) {
			for n := range got {
				if !yield(n) {
					return
				}
			}
		})
		if !slices.Equal(names, []string{"Archive", "INBOX", "Processed"}) {
			t.Fatalf("mailboxes %v", names)
		}
		uids := func(box string) (u []imap.UID) {
			for _, m := range got[box].Messages {
				u = append(u, m.UID)
			}
			return u
		}
		if !slices.Equal(uids("INBOX"), []imap.UID{3, 4, 6}) || !slices.Equal(uids("Processed"), []imap.UID{1, 2}) || !slices.Equal(uids("Archive"), []imap.UID{1, 2}) {
			t.Fatalf("UIDs: INBOX %v Processed %v Archive %v", uids("INBOX"), uids("Processed"), uids("Archive"))
		}
		if f := got["INBOX"].Messages[0].Flags; !slices.Equal(f, []imap.Flag{imap.FlagSeen}) {
			t.Errorf("the message read without PEEK has flags %v", f)
		}
		if f := got["Archive"].Messages[0].Flags; !slices.Equal(f, []imap.Flag{"$later", imap.FlagFlagged}) {
			t.Errorf("the copy has flags %v", f)
		}
	}
}

// A message answered 250, and every later change by IMAP, are there after a
// restart on the same directory, with the same UIDs and UIDVALIDITY.
func TestDirKeepsMailboxesAcrossRestart(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mail")
	srv := startDir(t, dir)
	play(t, srv.IMAPAddr(), srv.SMTPAddr())
	before := snapshot(t, srv.IMAPAddr(), "alice")
	wantState(t)(before)
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(dir); err != nil {
		t.Fatal(err)
	} else if fi.Mode().Perm() != 0o700 {
		t.Errorf("the mail directory has mode %v, want 0700", fi.Mode().Perm())
	}

	srv = startDir(t, dir)
	defer srv.Close()
	after := snapshot(t, srv.IMAPAddr(), "alice")
	if !reflect.DeepEqual(before, after) {
		t.Fatalf("after the restart:\n%+v\nbefore:\n%+v", after, before)
	}
	// New mail takes the next UID, and a new mailbox a new UIDVALIDITY:
	// nothing a client recorded is named again.
	sendTo(t, srv.SMTPAddr(), "alice@localhost", "late")
	c := login(t, srv.IMAPAddr(), "alice")
	sel, err := c.Select("INBOX", nil).Wait()
	if err != nil || sel.UIDNext != before["INBOX"].UIDNext+1 || sel.UIDValidity != before["INBOX"].UIDValidity {
		t.Fatalf("INBOX after a delivery: %+v %v (before %+v)", sel, err, before["INBOX"])
	}
	if err := c.Create("Fresh", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	fresh, err := c.Select("Fresh", nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	// INBOX, Processed, Tmp (now Archive) and Gone had 1 to 4.
	if fresh.UIDValidity != 5 {
		t.Errorf("a new mailbox got UIDVALIDITY %d, want 5", fresh.UIDValidity)
	}
	if n, err := srv.Count("alice", "INBOX"); err != nil || n != 4 {
		t.Errorf("INBOX = %d (%v)", n, err)
	}
}

// childDirEnv names the directory of the server a test runs in a child
// process, to kill it.
const childDirEnv = "LOCALMAIL_TEST_CHILD_DIR"

// A kill -9 right after the 250 loses nothing: the child process serves,
// the test delivers and moves mail, kills it, and starts a server of its
// own on the directory.
func TestDirSurvivesKill(t *testing.T) {
	if dir := os.Getenv(childDirEnv); dir != "" {
		srv := startDir(t, dir)
		fmt.Printf("ready %s %s\n", srv.IMAPAddr(), srv.SMTPAddr())
		// Serve until killed, or until the parent is gone.
		bufio.NewReader(os.Stdin).ReadString('\n')
		os.Exit(1)
	}
	dir := filepath.Join(t.TempDir(), "mail")
	cmd := exec.Command(os.Args[0], "-test.run=^TestDirSurvivesKill$", "-test.count=1")
	cmd.Env = append(os.Environ(), childDirEnv+"="+dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	defer func() {
		if !killed {
			cmd.Process.Kill()
			cmd.Wait()
		}
	}()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	var imapAddr, smtpAddr string
	if _, serr := fmt.Sscanf(line, "ready %s %s", &imapAddr, &smtpAddr); err != nil || serr != nil {
		t.Fatalf("child: %q %v %v\n%s", line, err, serr, stderr.String())
	}
	play(t, imapAddr, smtpAddr)
	before := snapshot(t, imapAddr, "alice")
	wantState(t)(before)
	sendTo(t, smtpAddr, "alice@localhost", "last")
	// kill -9 after the last 250.
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	killed = true
	if err := cmd.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("the child ended with %v, not by the kill\n%s", err, stderr.String())
	}

	srv := startDir(t, dir)
	defer srv.Close()
	after := snapshot(t, srv.IMAPAddr(), "alice")
	if len(after["INBOX"].Messages) == 0 {
		t.Fatalf("after the kill INBOX is empty: %+v", after)
	}
	last := after["INBOX"].Messages[len(after["INBOX"].Messages)-1]
	if last.UID != before["INBOX"].UIDNext || !strings.Contains(last.Body, "body of last") {
		t.Fatalf("the last message: %+v (UIDNEXT was %d)", last, before["INBOX"].UIDNext)
	}
	after["INBOX"] = mailboxState{Attrs: after["INBOX"].Attrs, UIDValidity: after["INBOX"].UIDValidity, UIDNext: after["INBOX"].UIDNext - 1,
		Messages: after["INBOX"].Messages[:len(after["INBOX"].Messages)-1]}
	if !reflect.DeepEqual(before, after) {
		t.Fatalf("after the kill:\n%+v\nbefore:\n%+v", after, before)
	}
}

// A record cut short by a crash (no newline) was never answered: it is
// dropped. A damaged record before the end stops Start, and the file is
// left for a person to look at.
func TestDirJournalDamage(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mail")
	srv := startDir(t, dir)
	sendTo(t, srv.SMTPAddr(), "alice@localhost", "kept")
	srv.Close()
	path := filepath.Join(dir, "journal.jsonl")
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	torn := append(slices.Clone(good), `{"op":"append","user":"alice","mailbox":"INBOX","bo`...)
	if err := os.WriteFile(path, torn, 0o600); err != nil {
		t.Fatal(err)
	}
	srv = startDir(t, dir)
	if n, err := srv.Count("alice", "INBOX"); err != nil || n != 1 {
		t.Errorf("after a torn record INBOX = %d (%v), want 1", n, err)
	}
	srv.Close()
	if b, _ := os.ReadFile(path); !bytes.Equal(b, good) {
		t.Errorf("the torn record is still in the file:\n%s", b)
	}

	damaged := bytes.Replace(good, []byte(`"op":"user"`), []byte(`"op":"user`), 1)
	if err := os.WriteFile(path, damaged, 0o600); err != nil {
		t.Fatal(err)
	}
	if srv, err := localmail.Start(t.Context(), localmail.Options{Dir: dir}); err == nil {
		srv.Close()
		t.Fatal("a damaged journal was accepted")
	} else if !strings.Contains(err.Error(), "journal.jsonl line 1") {
		t.Errorf("the error does not name the line: %v", err)
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, damaged) {
		t.Error("Start changed a damaged journal")
	}
}

// One server at a time on a directory: a second would fork the mailboxes.
func TestDirInUse(t *testing.T) {
	dir := t.TempDir()
	srv := startDir(t, dir)
	defer srv.Close()
	if other, err := localmail.Start(t.Context(), localmail.Options{Dir: dir}); err == nil {
		other.Close()
		t.Fatal("a second server started on the same directory")
	} else if !strings.Contains(err.Error(), "in use") {
		t.Errorf("error: %v", err)
	}
}
