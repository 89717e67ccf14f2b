package notice

import (
	"testing"
	"time"

	"github.com/lexio-mail/lexio/config"
	"github.com/lexio-mail/lexio/mailer"
	"github.com/lexio-mail/lexio/templates"
)

// TestBatchPanicFails: a mail whose rendering panics (a nil pointer for
// its data) fails its batch with an error; it does not end the process.
func TestBatchPanicFails(t *testing.T) {
	cfg, err := config.Parse([]byte("[mail]\naddress = \"lexio@localhost\"\nsecret = \"0123456789abcdef0123456789abcdef\"\n[embedded]\nenabled = true\n"))
	if err != nil {
		t.Fatal(err)
	}
	tmpl, err := templates.New()
	if err != nil {
		t.Fatal(err)
	}
	w, err := New(Options{Config: cfg, Templates: tmpl, Tokens: mailer.NewTokens([]byte("0123456789abcdef0123456789abcdef"))})
	if err != nil {
		t.Fatal(err)
	}
	b := w.NewBatch(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC))
	to := Recipient{Addr: "alice@localhost", Lang: "en", TZ: time.UTC, Pos: -1}
	b.Add(Envelope{To: to}, templates.HelpMsg{Address: "lexio@localhost"})
	var nilMsg *templates.HelpMsg
	b.Add(Envelope{To: to}, nilMsg)
	_, err = b.Mails()
	if err == nil {
		t.Fatal("Mails() gave no error, want the panic as one")
	}
	if Temporary(err) {
		t.Errorf("a panic in rendering is temporary: %v", err)
	}
}
