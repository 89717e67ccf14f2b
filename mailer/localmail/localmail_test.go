package localmail_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/lexio-mail/lexio/mailer/localmail"
)

func start(t *testing.T, opts localmail.Options) *localmail.Server {
	t.Helper()
	srv, err := localmail.Start(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	for _, u := range []string{"lexio", "alice"} {
		if err := srv.AddUser(u, u+"-pw"); err != nil {
			t.Fatal(err)
		}
	}
	return srv
}

func send(srv *localmail.Server, auth sasl.Client, to ...string) error {
	c, err := smtp.Dial(srv.SMTPAddr())
	if err != nil {
		return err
	}
	defer c.Close()
	if auth != nil {
		if err := c.Auth(auth); err != nil {
			return err
		}
	}
	raw := "From: a@example.org\r\nSubject: hi\r\n\r\nbody\r\n"
	if err := c.SendMail("a@example.org", to, strings.NewReader(raw)); err != nil {
		return err
	}
	return c.Quit()
}

func smtpCode(err error) int {
	var se *smtp.SMTPError
	if errors.As(err, &se) {
		return se.Code
	}
	return 0
}

func TestDeliveryAndPlusAddressing(t *testing.T) {
	srv := start(t, localmail.Options{})
	tests := []struct {
		to       string
		wantCode int // 0: delivered
		user     string
	}{
		{"lexio@localhost", 0, "lexio"},
		{"lexio+t1-abcdef@localhost", 0, "lexio"},
		{"LEXIO+T1@LocalHost", 0, "lexio"},
		{"alice@localhost", 0, "alice"},
		{"bob@localhost", 550, ""},
		{"lexio@example.org", 550, ""},
	}
	want := map[string]int{}
	for _, tt := range tests {
		err := send(srv, nil, tt.to)
		if got := smtpCode(err); got != tt.wantCode || (tt.wantCode == 0 && err != nil) {
			t.Errorf("send to %s: err %v, want code %d", tt.to, err, tt.wantCode)
		}
		if tt.user != "" {
			want[tt.user]++
		}
	}
	for user, n := range want {
		if got, err := srv.Count(user, "INBOX"); err != nil || got != n {
			t.Errorf("%s INBOX = %d (%v), want %d", user, got, err, n)
		}
	}
}

func TestSMTPAuth(t *testing.T) {
	srv := start(t, localmail.Options{RequireSMTPAuth: true})
	if err := send(srv, nil, "lexio@localhost"); smtpCode(err) != 530 {
		t.Errorf("unauthenticated submission: %v, want 530", err)
	}
	if err := send(srv, sasl.NewPlainClient("", "alice", "wrong"), "lexio@localhost"); smtpCode(err) != 535 {
		t.Errorf("bad password: %v, want 535", err)
	}
	if err := send(srv, sasl.NewPlainClient("", "alice", "alice-pw"), "lexio@localhost"); err != nil {
		t.Errorf("authenticated submission: %v", err)
	}
	if n, _ := srv.Count("lexio", "INBOX"); n != 1 {
		t.Errorf("INBOX = %d, want 1", n)
	}
}

func TestIMAPCapabilitiesAndLogin(t *testing.T) {
	tests := []struct {
		name     string
		opts     localmail.Options
		wantMove bool
	}{
		{"default", localmail.Options{}, true},
		{"no move", localmail.Options{NoMove: true}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := start(t, tt.opts)
			if err := srv.Deliver("lexio+x@localhost", []byte("Subject: x\r\n\r\nx\r\n")); err != nil {
				t.Fatal(err)
			}
			c, err := imapclient.DialInsecure(srv.IMAPAddr(), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if err := c.Login("lexio", "wrong").Wait(); err == nil {
				t.Error("login with a wrong password accepted")
			}
			if err := c.Login("lexio", "lexio-pw").Wait(); err != nil {
				t.Fatal(err)
			}
			caps := c.Caps()
			if !caps.Has(imap.CapIdle) {
				t.Error("no IDLE")
			}
			if caps.Has(imap.CapMove) != tt.wantMove {
				t.Errorf("MOVE = %v, want %v", caps.Has(imap.CapMove), tt.wantMove)
			}
			sel, err := c.Select("INBOX", nil).Wait()
			if err != nil {
				t.Fatal(err)
			}
			if sel.NumMessages != 1 {
				t.Errorf("INBOX has %d messages", sel.NumMessages)
			}
			msgs, err := c.Fetch(imap.SeqSetNum(1), &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
			if err != nil || len(msgs) != 1 {
				t.Fatalf("fetch: %v", err)
			}
			if got := msgs[0].FindBodySection(&imap.FetchItemBodySection{Peek: true}); !bytes.Equal(got, []byte("Subject: x\r\n\r\nx\r\n")) {
				t.Errorf("stored %q", got)
			}
		})
	}
}

func TestStopStartIMAPKeepsMail(t *testing.T) {
	srv := start(t, localmail.Options{})
	addr := srv.IMAPAddr()
	if err := srv.Deliver("alice@localhost", []byte("Subject: x\r\n\r\nx\r\n")); err != nil {
		t.Fatal(err)
	}
	srv.StopIMAP()
	if c, err := imapclient.DialInsecure(addr, nil); err == nil {
		c.Close()
		t.Fatal("IMAP still listening after StopIMAP")
	}
	if err := srv.StartIMAP(context.Background()); err != nil {
		t.Fatal(err)
	}
	if srv.IMAPAddr() != addr {
		t.Errorf("address changed: %s -> %s", addr, srv.IMAPAddr())
	}
	if n, err := srv.Count("alice", "INBOX"); err != nil || n != 1 {
		t.Errorf("INBOX = %d (%v) after restart", n, err)
	}
}

func TestAddUserRejects(t *testing.T) {
	srv := start(t, localmail.Options{})
	for _, name := range []string{"", "lexio", "a+b", "a@b"} {
		if err := srv.AddUser(name, "x"); err == nil {
			t.Errorf("AddUser(%q) accepted", name)
		}
	}
}
