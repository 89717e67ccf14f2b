package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/mailer/localmail"
	"github.com/lexio-mail/lexio/mailer/oauth/oauthtest"
)

// connectConfig is a configuration for the mail servers at imapAddr and
// smtpAddr, without TLS, logging in as lexio; extra ends the file.
func connectConfig(t *testing.T, dir, imapAddr, smtpAddr, imapAuth, smtpAuth, extra string) string {
	t.Helper()
	secret := filepath.Join(dir, "secret")
	writeFile(t, secret, "0123456789abcdef0123456789abcdef\n", 0o600)
	path := filepath.Join(dir, "lexio.toml")
	writeFile(t, path, fmt.Sprintf(`dictionary = %q
[storage]
sqlite_path = %q
[mail]
address = "lexio@localhost"
secret_file = %q
[imap]
address = %q
tls = "none"
username = "lexio"
%s
[smtp]
address = %q
tls = "none"
username = "lexio"
%s
%s`, filepath.Join("..", "..", "gcg", "testdata", "words.txt"), filepath.Join(dir, "lexio.db"), secret,
		imapAddr, imapAuth, smtpAddr, smtpAuth, extra), 0o600)
	return path
}

// passwordFile writes the password of a login and returns its key.
func passwordFile(t *testing.T, dir, name, password string) string {
	t.Helper()
	file := filepath.Join(dir, name)
	writeFile(t, file, password+"\n", 0o600)
	return "password_file = " + quote(file)
}

func startMail(t *testing.T, opts localmail.Options) *localmail.Server {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := localmail.Start(ctx, opts)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		srv.Close()
	})
	if err := srv.AddUser("lexio", "lexio-password"); err != nil {
		t.Fatal(err)
	}
	return srv
}

func contains(t *testing.T, what, got string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("%s does not say %q:\n%s", what, w, got)
		}
	}
}

// check-config --connect logs into IMAP and SMTP as serve would, says
// what the servers offer and whether plus-addressing is needed, sends
// nothing, and names each failure.
func TestCheckConfigConnect(t *testing.T) {
	srv := startMail(t, localmail.Options{RequireSMTPAuth: true})

	if code, out, _ := lexio(t, "help", "check-config"); code != 0 || !strings.Contains(out, "[--connect]") || !strings.Contains(out, "-connect\n") {
		t.Errorf("help check-config: %d %q", code, out)
	}

	t.Run("password logins", func(t *testing.T) {
		dir := t.TempDir()
		pw := passwordFile(t, dir, "pw", "lexio-password")
		path := connectConfig(t, dir, srv.IMAPAddr(), srv.SMTPAddr(), pw, pw, "")
		code, out, errOut := lexio(t, "check-config", "--connect", "-c", path)
		if code != 0 {
			t.Fatalf("status %d, stdout %q, stderr %q", code, out, errOut)
		}
		contains(t, "stdout", out, ": ok: ",
			"imap: connected to "+srv.IMAPAddr()+" (in clear)",
			"imap: logged in as lexio (password)",
			"imap: the server offers IDLE",
			"imap: the server offers MOVE",
			`imap: mailbox "INBOX" found`,
			`imap: folder "Processed" missing: serve creates it`,
			"smtp: connected to "+srv.SMTPAddr()+" (in clear), AUTH ",
			"smtp: logged in as lexio (password); nothing sent",
			"plus-addressing: needed: replies come to lexio+<token>@localhost",
			"send one mail to lexio+test@localhost")
		if n, _ := srv.Count("lexio", "INBOX"); n != 0 {
			t.Errorf("%d mails sent", n)
		}
		// Without --connect, nothing is tried.
		if code, out, _ := lexio(t, "check-config", "-c", path); code != 0 || strings.Contains(out, "imap:") {
			t.Errorf("without --connect: status %d, stdout %q", code, out)
		}
	})

	t.Run("refused passwords", func(t *testing.T) {
		dir := t.TempDir()
		pw := passwordFile(t, dir, "pw", "wrong")
		path := connectConfig(t, dir, srv.IMAPAddr(), srv.SMTPAddr(), pw, pw, "")
		code, out, errOut := lexio(t, "check-config", "--connect", "-c", path)
		if code != 1 {
			t.Fatalf("status %d, stdout %q, stderr %q", code, out, errOut)
		}
		contains(t, "stdout", out, "imap: connected to", "smtp: connected to", "plus-addressing: needed")
		contains(t, "stderr", errOut, "2 problems", "imap: login as lexio refused: NO", "smtp: login as lexio refused: 535")
		if strings.Contains(out, "logged in") || strings.Contains(errOut, "wrong") {
			t.Errorf("stdout %q, stderr %q", out, errOut)
		}
	})

	t.Run("servers down", func(t *testing.T) {
		dir := t.TempDir()
		pw := passwordFile(t, dir, "pw", "lexio-password")
		imapAddr, smtpAddr := freeAddr(t), freeAddr(t)
		path := connectConfig(t, dir, imapAddr, smtpAddr, pw, pw, "")
		code, out, errOut := lexio(t, "check-config", "--connect", "-c", path)
		if code != 1 || strings.Contains(out, "connected") {
			t.Fatalf("status %d, stdout %q, stderr %q", code, out, errOut)
		}
		contains(t, "stderr", errOut, "imap: cannot connect to "+imapAddr, "smtp: cannot connect to "+smtpAddr)
	})

	t.Run("no MOVE", func(t *testing.T) {
		old := startMail(t, localmail.Options{NoMove: true})
		dir := t.TempDir()
		pw := passwordFile(t, dir, "pw", "lexio-password")
		path := connectConfig(t, dir, old.IMAPAddr(), old.SMTPAddr(), pw, pw, "")
		code, out, errOut := lexio(t, "check-config", "--connect", "-c", path)
		if code != 0 {
			t.Fatalf("status %d, stdout %q, stderr %q", code, out, errOut)
		}
		contains(t, "stdout", out, "imap: no MOVE")
	})

	t.Run("token in the subject", func(t *testing.T) {
		dir := t.TempDir()
		pw := passwordFile(t, dir, "pw", "lexio-password")
		path := connectConfig(t, dir, srv.IMAPAddr(), srv.SMTPAddr(), pw, pw, "")
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, path, strings.Replace(string(text), "[mail]\n", "[mail]\ntoken_in_subject = true\n", 1), 0o600)
		code, out, errOut := lexio(t, "check-config", "--connect", "-c", path)
		if code != 0 {
			t.Fatalf("status %d, stdout %q, stderr %q", code, out, errOut)
		}
		contains(t, "stdout", out, "plus-addressing: not needed")
	})

	t.Run("the built-in server", func(t *testing.T) {
		dir := t.TempDir()
		secret := filepath.Join(dir, "secret")
		writeFile(t, secret, "0123456789abcdef0123456789abcdef\n", 0o600)
		path := filepath.Join(dir, "lexio.toml")
		writeFile(t, path, testConfig(t, dir, secret, filepath.Join("..", "..", "gcg", "testdata", "words.txt"), ""), 0o600)
		code, out, errOut := lexio(t, "check-config", "--connect", "-c", path)
		if code != 0 {
			t.Fatalf("status %d, stdout %q, stderr %q", code, out, errOut)
		}
		contains(t, "stdout", out, "nothing to connect to")
	})
}

// With auth = "oauth2", check-config --connect asks the token endpoint
// once and logs in with its token; a client the endpoint refuses is
// named in its words, once, and the logins say they were not tried.
func TestCheckConfigConnectOAuth2(t *testing.T) {
	ts := oauthtest.New(t, "lexio-app", "app-secret")
	srv := startMail(t, localmail.Options{RequireSMTPAuth: true, CheckToken: ts.Check})

	for _, tc := range []struct {
		name, secret string
		code         int
		out, errOut  []string
	}{
		{"a good client", "app-secret", 0, []string{"oauth2: the token endpoint gave client lexio-app a token",
			"imap: logged in as lexio (OAuth2 token, XOAUTH2)", "smtp: logged in as lexio (OAuth2 token, XOAUTH2); nothing sent"}, nil},
		{"a refused client", "not-the-secret", 1, []string{"imap: connected to", "smtp: connected to"},
			[]string{"3 problems", "oauth2: the token endpoint refused client lexio-app: invalid_client",
				"imap: no login as lexio without an OAuth2 token", "smtp: no login as lexio without an OAuth2 token"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			clientSecret := filepath.Join(dir, "client-secret")
			writeFile(t, clientSecret, tc.secret+"\n", 0o600)
			path := connectConfig(t, dir, srv.IMAPAddr(), srv.SMTPAddr(), `auth = "oauth2"`, `auth = "oauth2"`, fmt.Sprintf(`[oauth2]
token_url = %q
client_id = "lexio-app"
client_secret_file = %q
grant = "client_credentials"
scope = "mail"
`, ts.URL, clientSecret))
			code, out, errOut := lexio(t, "check-config", "--connect", "-c", path)
			if code != tc.code {
				t.Fatalf("status %d, stdout %q, stderr %q", code, out, errOut)
			}
			contains(t, "stdout", out, tc.out...)
			contains(t, "stderr", errOut, tc.errOut...)
			if strings.Count(errOut, "invalid_client") > 1 {
				t.Errorf("the refusal is named more than once:\n%s", errOut)
			}
			for _, secret := range []string{tc.secret, "tok-"} {
				if strings.Contains(out+errOut, secret) {
					t.Errorf("%q is shown:\n%s\n%s", secret, out, errOut)
				}
			}
		})
	}
}
