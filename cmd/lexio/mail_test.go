package main

import (
	"strings"
	"testing"
	"time"
)

// `lexio mail read --html` prints the HTML part alone, so that
// `> page.html` saves a page a browser opens; without --html the headers
// and the text part are shown.
func TestMailReadHTMLIsThePageAlone(t *testing.T) {
	path, _ := serveTest(t, "", "[[table]]\nname = \"t1\"\nplayers = [\"alice@localhost\", \"bob@localhost\"]\n")
	text := waitFor(t, "alice's notice", time.Now().Add(20*time.Second), newestMail(t, path, "alice@localhost"), "It is your turn")
	if !strings.HasPrefix(text, "Message 1 of 1\nFrom: ") {
		t.Errorf("the text view lost its headers:\n%s", text)
	}
	code, page, stderr := lexio(t, "mail", "read", "--as", "alice@localhost", "-c", path, "--html")
	if code != 0 {
		t.Fatalf("--html: status %d: %s", code, stderr)
	}
	if !strings.HasPrefix(page, "<!DOCTYPE html>") || !strings.HasSuffix(strings.TrimSpace(page), "</html>") {
		t.Errorf("--html is not a page alone:\n%.300s\n...\n%s", page, page[max(0, len(page)-100):])
	}
	if strings.Contains(page, "Subject: ") || strings.Contains(page, "Message 1 of 1") {
		t.Errorf("--html prints headers:\n%.300s", page)
	}
}

// TestMailReadEscapes: a mail whose subject and text hold an escape
// sequence, a lone CR and a bidi override is read with them escaped, in
// the list and in the message, never raw to the terminal; but raw with
// --raw, which asks for the message as delivered.
func TestMailReadEscapes(t *testing.T) {
	path, errOut := serveTest(t, "", "")
	waitLog(t, errOut, "lexio serving", 1)
	body := "hi \x1b[2J\u202eevil\rRESIGN t1"
	if code, _, stderr := lexio(t, "mail", "send", "--as", "bob@localhost", "--to", "alice@localhost", "--wait", "0", "-c", path, body); code != 0 {
		t.Fatalf("mail send: %d %s", code, stderr)
	}
	deadline := time.Now().Add(20 * time.Second)
	text := waitFor(t, "bob's mail", deadline, newestMail(t, path, "alice@localhost"), "From: bob@localhost")
	_, list, _ := lexio(t, "mail", "read", "--as", "alice@localhost", "-c", path, "--list")
	for _, out := range []string{text, list} {
		if strings.ContainsAny(out, "\x1b\r\u202e") {
			t.Errorf("mail read prints a control character raw:\n%q", out)
		}
		if !strings.Contains(out, `\x1b[2J\u202eevil`) {
			t.Errorf("mail read lacks the escaped text:\n%s", out)
		}
	}
	if !strings.Contains(text, `\x1b[2J\u202eevil\rRESIGN t1`) {
		t.Errorf("the text is not shown escaped:\n%s", text)
	}

	// --raw is the message as delivered, byte for byte (#34): what the
	// server keeps, escapes and CRLFs as they came; --list gives its size.
	c, err := mailConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	acc, err := account(c, "alice@localhost")
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := acc.Fetch(t.Context())
	if err != nil || len(msgs) != 1 {
		t.Fatalf("alice's mail: %d messages, %v", len(msgs), err)
	}
	for _, args := range [][]string{{"--raw"}, {"--raw", "-n", "1"}} {
		code, raw, errOut := lexio(t, append([]string{"mail", "read", "--as", "alice@localhost", "-c", path}, args...)...)
		if code != 0 || raw != string(msgs[0].Raw) {
			t.Errorf("%v: %d %s: not the message as delivered:\n%q\nwant\n%q", args, code, errOut, raw, msgs[0].Raw)
		}
		if !strings.Contains(raw, "From: bob@localhost\r\n") || !strings.Contains(raw, "\x1b[2J\u202eevil\rRESIGN t1") {
			t.Errorf("%v: the headers or the body are not raw:\n%q", args, raw)
		}
	}
	if size := byteSize(int64(len(msgs[0].Raw))); msgs[0].Size != int64(len(msgs[0].Raw)) || !strings.Contains(list, "  "+size+"  ") {
		t.Errorf("the list lacks the size %d (%s):\n%s", msgs[0].Size, size, list)
	}
	if code, _, errOut := lexio(t, "mail", "read", "--as", "alice@localhost", "-c", path, "--raw", "--html"); code != 2 || !strings.Contains(errOut, "--raw prints one message whole") {
		t.Errorf("--raw --html: %d %q", code, errOut)
	}
}

// byteSize writes a message's size as mail clients list it.
func TestByteSize(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KB", 12697: "12.4 KB", 3 << 20: "3.0 MB"} {
		if got := byteSize(n); got != want {
			t.Errorf("byteSize(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestMailUnknownUser: --as an address that is no user of the built-in
// server is refused before any login, naming its users (#34); before,
// mail send tried to log in and printed the IMAP server's refusal.
func TestMailUnknownUser(t *testing.T) {
	_, cfg := adminConfig(t, "")
	want := "--as nobody@localhost: not a mailbox of the built-in server; its users are alice@localhost, bob@localhost"
	for _, args := range [][]string{
		{"mail", "send", "--as", "nobody@localhost", "-c", cfg, "PASS"},
		{"mail", "read", "--as", "Nobody@localhost", "-c", cfg},
		{"mail", "read", "--as", "lexio@localhost", "-c", cfg, "--list"},
	} {
		code, _, errOut := lexio(t, args...)
		w := strings.Replace(want, "nobody", strings.ToLower(strings.TrimSuffix(args[3], "@localhost")), 1)
		if code != 2 || !strings.Contains(errOut, w) || strings.Contains(errOut, "imap") {
			t.Errorf("%v: %d %q, want 2 and %q", args, code, errOut, w)
		}
	}
}

// TestMailSendChoosesTable: with notices of several tables, mail send
// without --table answers the table where it is the sender's turn, not
// the newest mail's (#34: carol's move went to the wrong table and came
// back "not your turn"); their turn at several tables, or at none, is a
// usage error naming them for --table. Its hints name the program as it
// was run.
func TestMailSendChoosesTable(t *testing.T) {
	path, _ := serveTest(t, "", "[[table]]\nname = \"t1\"\nplayers = [\"alice@localhost\", \"bob@localhost\"]\n"+
		"[[table]]\nname = \"t2\"\nplayers = [\"bob@localhost\", \"alice@localhost\"]\n")
	c, err := mailConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	tablesOf := func(who string) func() string {
		acc, err := account(c, who)
		if err != nil {
			t.Fatal(err)
		}
		return func() string {
			msgs, err := acc.Fetch(t.Context())
			if err != nil {
				return err.Error()
			}
			return strings.Join(mailTables(msgs, c.Mail.Address), " ")
		}
	}
	deadline := time.Now().Add(20 * time.Second)
	waitFor(t, "alice's notices", deadline, tablesOf("alice@localhost"), "t1", "t2")
	waitFor(t, "bob's notices", deadline, tablesOf("bob@localhost"), "t1", "t2")
	send := func(as string, args ...string) (int, string, string) {
		t.Helper()
		return lexioAs(t, "bin/lexio", append([]string{"mail", "send", "--as", as, "-c", path, "--wait", "10s"}, args...)...)
	}

	// alice passes at t1: bob's turn at both tables.
	code, out, stderr := send("alice@localhost", "--table", "t1", "PASS")
	if code != 0 || !strings.Contains(out, "read it with: bin/lexio mail read --as alice@localhost") {
		t.Fatalf("alice at t1: %d %q %q", code, out, stderr)
	}
	code, out, stderr = send("bob@localhost", "PASS")
	if code != 2 || !strings.Contains(stderr, "it is your turn at 2 tables: say which, with --table t") ||
		!strings.Contains(stderr, "--table t1") || !strings.Contains(stderr, "--table t2") || strings.Contains(out, "sent to") {
		t.Fatalf("bob's turn at both: %d %q %q", code, out, stderr)
	}
	// bob passes at t2; his newest mail is t2's, his turn is at t1.
	if code, out, stderr = send("bob@localhost", "--table", "t2", "PASS"); code != 0 {
		t.Fatalf("bob at t2: %d %q %q", code, out, stderr)
	}
	if got := tablesOf("bob@localhost")(); !strings.HasPrefix(got, "t2 ") {
		t.Fatalf("bob's newest notice is not t2's: %s", got)
	}
	code, out, stderr = send("bob@localhost", "PASS")
	if code != 0 || !strings.Contains(out, "table t1: it is your turn there") || !strings.Contains(out, "sent to lexio+t1-") {
		t.Fatalf("bob's turn at t1: %d %q %q", code, out, stderr)
	}
	if code, out, _ := lexio(t, "table", "show", "-c", path, "t1"); code != 0 || !strings.Contains(out, "moves 2\n") {
		t.Errorf("bob's pass did not reach t1:\n%s", out)
	}
	// alice's turn at both: bob's move is ambiguous.
	code, out, stderr = send("bob@localhost", "PASS")
	if code != 2 || !strings.Contains(stderr, "your mail holds notices of 2 tables (t1, t2), and it is your turn at none: say which, with --table t1 or --table t2") {
		t.Errorf("bob's turn at none: %d %q %q", code, out, stderr)
	}
	// A command that is no move answers the newest mail, as a mail
	// client's reply would: a CONFIRM its "Was it you?", a JOIN its
	// invitation, here a SAY t1's notice.
	newest := strings.Fields(tablesOf("bob@localhost")())[0]
	code, out, stderr = send("bob@localhost", "SAY hello")
	if code != 0 || !strings.Contains(out, "sent to lexio+"+newest+"-") || strings.Contains(out, "it is your turn there") {
		t.Errorf("bob's SAY: %d %q %q", code, out, stderr)
	}
}
