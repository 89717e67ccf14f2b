package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/mailer/client"
	"github.com/lexio-mail/lexio/mailer/localmail"
	"github.com/lexio-mail/lexio/mailer/oauth/oauthtest"
)

// TestServeOAuth2: with auth = "oauth2" for IMAP and SMTP, the daemon logs
// into a mail server that accepts only tokens, fetched from the [oauth2]
// token endpoint with the client credentials grant (RFC 6749 §4.4), and
// answers a player's mail.
func TestServeOAuth2(t *testing.T) {
	ts := oauthtest.New(t, "lexio-app", "app-secret")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv, err := localmail.Start(ctx, localmail.Options{RequireSMTPAuth: true, CheckToken: ts.Check})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	for _, u := range []string{"alice", "lexio"} {
		// The service's password is one nobody knows: only a token logs in.
		if err := srv.AddUser(u, u+"-"+strings.Repeat("x", 20)); err != nil {
			t.Fatal(err)
		}
	}

	dir := t.TempDir()
	path, secret, clientSecret := filepath.Join(dir, "lexio.toml"), filepath.Join(dir, "secret"), filepath.Join(dir, "client-secret")
	writeFile(t, secret, "0123456789abcdef0123456789abcdef\n", 0o600)
	writeFile(t, clientSecret, "app-secret\n", 0o600)
	words := filepath.Join("..", "..", "gcg", "testdata", "words.txt")
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
auth = "oauth2"
[smtp]
address = %q
tls = "none"
username = "lexio"
auth = "oauth2"
[oauth2]
token_url = %q
client_id = "lexio-app"
client_secret_file = %q
grant = "client_credentials"
scope = "mail"
`, words, filepath.Join(dir, "lexio.db"), secret, srv.IMAPAddr(), srv.SMTPAddr(), ts.URL, clientSecret), 0o600)

	out, errOut := &syncBuffer{}, &syncBuffer{}
	e := &env{stdin: strings.NewReader(""), stdout: out, stderr: errOut, getenv: func(string) string { return "" }}
	done := make(chan error, 1)
	go func() { done <- serveWith(ctx, e, path, nil, make(chan os.Signal)) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	}()
	waitLog(t, errOut, "lexio serving", 1)

	alice := client.Account{IMAPAddr: srv.IMAPAddr(), SMTPAddr: srv.SMTPAddr(), Username: "alice",
		Password: "alice-" + strings.Repeat("x", 20), Address: "alice@localhost", SMTPAuth: true}
	raw := alice.Message("lexio@localhost", "help", "HELP", time.Now(), "help-1@localhost")
	if err := alice.Send(ctx, []string{"lexio@localhost"}, raw); err != nil {
		t.Fatal(err)
	}
	got, err := alice.Await(ctx, 0, 20*time.Second)
	if err != nil || len(got) == 0 {
		t.Fatalf("no answer to HELP: %v\n%s", err, errOut.String())
	}
	if n := ts.Issued(); n != 1 {
		t.Errorf("%d tokens fetched, want one for both logins", n)
	}
	if strings.Contains(errOut.String(), oauthtest.Token(1)) || strings.Contains(errOut.String(), "app-secret") {
		t.Errorf("a token or the secret reached the log:\n%s", errOut.String())
	}
}
