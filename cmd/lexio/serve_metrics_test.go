package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// notifySocket listens, as systemd does for Type=notify, on a unixgram
// socket in dir and hands each datagram's states on the channel.
func notifySocket(t *testing.T, dir string) (string, <-chan string) {
	t.Helper()
	path := filepath.Join(dir, "notify")
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	states := make(chan string, 16)
	go func() {
		defer close(states)
		buf := make([]byte, 4096)
		for {
			n, err := conn.Read(buf)
			if err != nil {
				return
			}
			states <- string(buf[:n])
		}
	}()
	return path, states
}

// nextState waits for the next datagram and checks that it starts with
// want.
func nextState(t *testing.T, states <-chan string, want string) {
	t.Helper()
	select {
	case got := <-states:
		if !strings.HasPrefix(got, want) {
			t.Fatalf("the service manager was told %q, want %q", got, want)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("the service manager was not told %q", want)
	}
}

// get fetches url and returns its status and body.
func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

// TestServeMetricsAndReadiness: with [metrics] listen and NOTIFY_SOCKET,
// serve tells the service manager READY=1 once the store is open and IMAP
// connected, RELOADING=1 then READY=1 around a reload, STOPPING=1 at the
// stop; /healthz answers 200 and /metrics counts the mail handled and
// sent, the tables by status and the outbox.
func TestServeMetricsAndReadiness(t *testing.T) {
	dir := t.TempDir()
	path, secret := filepath.Join(dir, "lexio.toml"), filepath.Join(dir, "secret")
	words := filepath.Join("..", "..", "gcg", "testdata", "words.txt")
	writeFile(t, secret, "0123456789abcdef0123456789abcdef\n", 0o600)
	listen := freeAddr(t)
	good := testConfig(t, dir, secret, words, "[metrics]\nlisten = \""+listen+"\"\n"+
		"[[table]]\nname = \"t1\"\nplayers = [\"alice@localhost\", \"bob@localhost\"]\n")
	writeFile(t, path, good, 0o600)
	socket, states := notifySocket(t, dir)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errOut := &syncBuffer{}
	e := &env{stdin: strings.NewReader(""), stdout: &syncBuffer{}, stderr: errOut, getenv: func(name string) string {
		if name == "NOTIFY_SOCKET" {
			return socket
		}
		return ""
	}}
	reload := make(chan os.Signal, 1)
	done := make(chan error, 1)
	go func() { done <- serveWith(ctx, e, path, nil, reload) }()

	nextState(t, states, "READY=1")
	if !strings.Contains(errOut.String(), "mailer: imap connected") {
		t.Errorf("READY=1 before IMAP connected:\n%s", errOut.String())
	}
	base := "http://" + listen
	if code, body := get(t, base+"/healthz"); code != http.StatusOK || body != "ok\n" {
		t.Errorf("/healthz: %d %q", code, body)
	}

	code, sent, stderr := lexio(t, "mail", "send", "--as", "alice@localhost", "-c", path, "--to", "lexio@localhost", "--wait", "15s", "HELP")
	if code != 0 || !strings.Contains(sent, "new mail:") {
		t.Fatalf("HELP was not answered: %d\n%s%s\n%s", code, sent, stderr, errOut.String())
	}
	// The counts follow the handling and the sending, which end after the
	// answer arrived.
	want := []*regexp.Regexp{
		regexp.MustCompile(`(?m)^lexio_messages_handled_total\{outcome="applied"\} 1$`),
		regexp.MustCompile(`(?m)^lexio_messages_handled_total\{outcome="rejected"\} 0$`),
		regexp.MustCompile(`(?m)^lexio_mail_sent_total [1-9][0-9]*$`),
		regexp.MustCompile(`(?m)^lexio_mail_deferred_total 0$`),
		regexp.MustCompile(`(?m)^lexio_tables\{status="playing"\} 1$`),
		regexp.MustCompile(`(?m)^lexio_tables\{status="open"\} 0$`),
		regexp.MustCompile(`(?m)^lexio_outbox_depth 0$`),
		regexp.MustCompile(`(?m)^lexio_outbox_oldest_age_seconds 0$`),
		regexp.MustCompile(`(?m)^lexio_imap_connected 1$`),
		regexp.MustCompile(`(?m)^lexio_tick_duration_seconds_count [1-9][0-9]*$`),
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		_, body := get(t, base+"/metrics")
		var missing []string
		for _, re := range want {
			if !re.MatchString(body) {
				missing = append(missing, re.String())
			}
		}
		if len(missing) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/metrics lacks %v:\n%s", missing, body)
		}
		time.Sleep(20 * time.Millisecond)
	}

	reload <- syscall.SIGHUP
	nextState(t, states, "RELOADING=1")
	nextState(t, states, "READY=1")
	waitLog(t, errOut, "lexio serving", 2)

	cancel()
	nextState(t, states, "STOPPING=1")
	if err := <-done; err != nil {
		t.Fatalf("serve: %v", err)
	}
	if _, err := http.Get(base + "/healthz"); err == nil {
		t.Error("the metrics still answer after serve returned")
	}
}
