package notice

import (
	"testing"
	"time"

	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/templates"
)

// TestBatchPanicFails: a mail whose rendering panics (a nil pointer for
// its data) fails its batch with an error; it does not end the process.
func TestBatchPanicFails(t *testing.T) {
	w := testWriter(t)
	b := w.NewBatch(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC))
	to := Recipient{Addr: "alice@localhost", Lang: "en", TZ: time.UTC, Pos: -1}
	b.Add(Envelope{To: to}, templates.HelpMsg{Address: "lexio@localhost"})
	var nilMsg *templates.HelpMsg
	b.Add(Envelope{To: to}, nilMsg)
	_, err := b.Mails()
	if err == nil {
		t.Fatal("Mails() gave no error, want the panic as one")
	}
	if store.Temporary(err) {
		t.Errorf("a panic in rendering is temporary: %v", err)
	}
}
