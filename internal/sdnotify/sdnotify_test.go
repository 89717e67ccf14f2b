package sdnotify

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// listen opens a notify socket as the service manager does and returns
// a function reading the next datagram.
func listen(t *testing.T, name string) func() string {
	t.Helper()
	c, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: name, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return func() string {
		t.Helper()
		buf := make([]byte, 4096)
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		n, err := c.Read(buf)
		if err != nil {
			t.Fatal(err)
		}
		return string(buf[:n])
	}
}

func TestStates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notify")
	next := listen(t, path)
	n := New(path)
	if !n.On() {
		t.Fatal("a Notifier with a socket is off")
	}

	if err := n.Ready(); err != nil {
		t.Fatal(err)
	}
	if got := next(); got != "READY=1\n" {
		t.Errorf("Ready sent %q", got)
	}

	if err := n.Reloading(); err != nil {
		t.Fatal(err)
	}
	got := next()
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if lines[0] != "RELOADING=1" {
		t.Errorf("Reloading sent %q", got)
	}
	if runtime.GOOS == "linux" {
		var usec int64
		if len(lines) != 2 {
			t.Fatalf("Reloading sent %q, want RELOADING=1 and MONOTONIC_USEC", got)
		}
		if _, err := fmt.Sscanf(lines[1], "MONOTONIC_USEC=%d", &usec); err != nil || usec <= 0 {
			t.Errorf("Reloading sent %q: no monotonic time", got)
		}
	}
	if err := n.Ready(); err != nil {
		t.Fatal(err)
	}
	if got := next(); got != "READY=1\n" {
		t.Errorf("Ready after a reload sent %q", got)
	}

	if err := n.Status("connected\nto IMAP"); err != nil {
		t.Fatal(err)
	}
	if got := next(); got != "STATUS=connected to IMAP\n" {
		t.Errorf("Status sent %q", got)
	}

	if err := n.Stopping(); err != nil {
		t.Fatal(err)
	}
	if got := next(); got != "STOPPING=1\n" {
		t.Errorf("Stopping sent %q", got)
	}
}

func TestAbstractSocket(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("abstract sockets are Linux's")
	}
	name := fmt.Sprintf("@lexio-sdnotify-test-%d-%d", os.Getpid(), time.Now().UnixNano())
	next := listen(t, name)
	if err := New(name).Ready(); err != nil {
		t.Fatal(err)
	}
	if got := next(); got != "READY=1\n" {
		t.Errorf("Ready sent %q", got)
	}
}

func TestUnsetIsNoop(t *testing.T) {
	for _, n := range []*Notifier{New(""), nil, {}} {
		if n.On() {
			t.Error("a Notifier without a socket is on")
		}
		for _, send := range []func() error{n.Ready, n.Reloading, n.Stopping} {
			if err := send(); err != nil {
				t.Errorf("no socket: %v", err)
			}
		}
	}
}

func TestErrors(t *testing.T) {
	if err := New("relative/notify").Ready(); err == nil {
		t.Error("a relative socket path was accepted")
	}
	// A socket nobody listens on: the error names it, and says why.
	missing := filepath.Join(t.TempDir(), "gone")
	err := New(missing).Ready()
	if err == nil || !strings.Contains(err.Error(), "sdnotify") {
		t.Errorf("no listener: %v", err)
	}
}
