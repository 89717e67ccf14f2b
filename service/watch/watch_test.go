package watch

import (
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/mailer"
)

// The service manager hears READY=1 at the first IMAP connection only,
// RELOADING=1 and READY=1 around a reload once ready (a reload before
// that tells nothing), and STOPPING=1.
func TestReadiness(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notify")
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	w, err := Start(Options{NotifySocket: path})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.ReloadBegan()
	w.ReloadEnded()
	w.IMAP(true)
	w.IMAP(false)
	w.IMAP(true)
	w.ReloadBegan()
	w.ReloadEnded()
	w.Stopping()
	for _, want := range []string{"READY=1", "RELOADING=1", "READY=1", "STOPPING=1"} {
		buf := make([]byte, 512)
		if err := conn.SetReadDeadline(time.Now().Add(5 * time.Second)); err != nil {
			t.Fatal(err)
		}
		n, err := conn.Read(buf)
		if err != nil {
			t.Fatalf("waiting for %s: %v", want, err)
		}
		if got := string(buf[:n]); !strings.HasPrefix(got, want) {
			t.Fatalf("got %q, want %s", got, want)
		}
	}
}

// A nil Watch, and one without metrics, take every hook.
func TestNilAndOff(t *testing.T) {
	var none *Watch
	w, err := Start(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []*Watch{none, w} {
		w.IMAP(true)
		w.Handled("applied")
		w.Ran(mailer.Result{Sent: 1})
		w.Ticked(time.Second)
		w.TokenRequested(nil)
		w.ReloadBegan()
		w.ReloadEnded()
		w.Stopping()
		w.Close()
	}
}
