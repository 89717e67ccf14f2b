package lexiotest

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-message/mail"
	"github.com/lexio-mail/lexio/mailer/client"
	"github.com/lexio-mail/lexio/templates/noticetest"
)

// Entry is the calendar entry a mail carries.
type Entry struct {
	Method, UID, Summary, Attendee string
	Seq                            int
	Stamp, End                     time.Time // End: zero in a cancel
}

// CalendarOf reads the text/calendar part of a received mail, nil if it
// has none. The part's method= parameter must say the METHOD inside, and
// the object must read back strictly (noticetest.ParseICS).
func CalendarOf(t *testing.T, m client.Message) *Entry {
	t.Helper()
	r, err := mail.CreateReader(bytes.NewReader(m.Raw))
	if err != nil {
		t.Fatalf("%s: %v", m.MessageID, err)
	}
	defer r.Close()
	var found *Entry
	for {
		p, err := r.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", m.MessageID, err)
		}
		ct, params, _ := mime.ParseMediaType(p.Header.Get("Content-Type"))
		if ct != "text/calendar" {
			continue
		}
		if found != nil {
			t.Fatalf("%s: two calendar parts", m.MessageID)
		}
		body, err := io.ReadAll(p.Body)
		if err != nil {
			t.Fatal(err)
		}
		c, err := noticetest.ParseICS(body)
		if err != nil {
			t.Fatalf("%s: %v in\n%s", m.MessageID, err, body)
		}
		ev := c.Sub("VEVENT")
		if ev == nil {
			t.Fatalf("%s: no VEVENT in\n%s", m.MessageID, body)
		}
		e := &Entry{Method: c.Get("METHOD"), UID: ev.Get("UID"), Summary: ev.Get("SUMMARY"), Attendee: ev.Get("ATTENDEE")}
		if !strings.EqualFold(params["method"], e.Method) {
			t.Errorf("%s: Content-Type method=%q, METHOD:%s", m.MessageID, params["method"], e.Method)
		}
		if e.Seq, err = strconv.Atoi(ev.Get("SEQUENCE")); err != nil {
			t.Errorf("%s: SEQUENCE %q", m.MessageID, ev.Get("SEQUENCE"))
		}
		const stamp = "20060102T150405Z"
		if e.Stamp, err = time.Parse(stamp, ev.Get("DTSTAMP")); err != nil {
			t.Errorf("%s: DTSTAMP: %v", m.MessageID, err)
		}
		if ev.Get("ORGANIZER") != "mailto:lexio@localhost" {
			t.Errorf("%s: ORGANIZER %q", m.MessageID, ev.Get("ORGANIZER"))
		}
		switch e.Method {
		case "REQUEST":
			if e.End, err = time.Parse(stamp, ev.Get("DTEND")); err != nil {
				t.Errorf("%s: DTEND: %v", m.MessageID, err)
			}
		case "CANCEL":
			if ev.Get("STATUS") != "CANCELLED" {
				t.Errorf("%s: a cancel with STATUS %q", m.MessageID, ev.Get("STATUS"))
			}
		default:
			t.Errorf("%s: METHOD %q", m.MessageID, e.Method)
		}
		found = e
	}
	return found
}

// last is name's newest message of kind k with its calendar entry.
func (h *Harness) LastEntry(name, k string) (client.Message, *Entry) {
	h.T.Helper()
	m := h.LastOf(name, k)
	return m, CalendarOf(h.T, m)
}
