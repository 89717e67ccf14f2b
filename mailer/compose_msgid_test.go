package mailer_test

import (
	"bytes"
	"errors"
	"net/mail"
	"slices"
	"strings"
	"testing"

	gomail "github.com/emersion/go-message/mail"
	"github.com/lexio-mail/lexio/mailer"
)

// TestComposeOddInReplyTo: an answer goes out whatever the Message-ID of
// the message it answers, and its In-Reply-To and References are
// well-formed msg-ids (RFC 5322 §3.6.4): an id that cannot be one is left
// out of both, one that is stays, as it came.
func TestComposeOddInReplyTo(t *testing.T) {
	const root = "lexio.t1@example.org"
	long := strings.Repeat("x", 900-len("@example.org")) + "@example.org" // the longest kept
	tests := []struct {
		id   string
		kept bool
	}{
		{"plain.id-1@example.org", true},
		{"<a.b+c@example.org>", true},
		{"x!#$%&'*+-/=?^_`{|}~@[192.0.2.1]", true},
		{long, true},
		{"a b@example.org", false},
		{"<<a@example.org>>", false},
		{"a@example.org> <b@example.org", false},
		{"no-at-sign", false},
		{"a@b@c", false},
		{"(comment)a@example.org", false},
		{`"quoted"@example.org`, false},
		{"a..b@example.org", false},
		{".a@example.org", false},
		{"a@", false},
		{"@example.org", false},
		{"a@[x[y]", false},
		{"a\tb@example.org", false},
		{"é@example.org", false},
		{"a\x7f@example.org", false},
		{"a\x01@example.org", false},
		{"a@exa\xffmple.org", false},
		{"x" + long, false}, // beyond maxMsgID
	}
	for _, tt := range tests {
		e := composeCases()["reply"]
		e.InReplyTo = tt.id
		e.References = []string{root, tt.id}
		raw, err := mailer.Compose(e)
		if err != nil {
			t.Errorf("%q: %v", tt.id, err)
			continue
		}
		msg, err := mail.ReadMessage(bytes.NewReader(raw))
		if err != nil {
			t.Errorf("%q: net/mail: %v", tt.id, err)
			continue
		}
		for _, line := range strings.Split(string(raw[:bytes.Index(raw, []byte("\r\n\r\n"))]), "\r\n") {
			if len(line) > 998 {
				t.Errorf("%q: a header line of %d octets", tt.id, len(line))
			}
		}
		h := gomail.HeaderFromMap(msg.Header)
		irt, err := h.MsgIDList("In-Reply-To")
		if err != nil {
			t.Errorf("%q: In-Reply-To %q: %v", tt.id, msg.Header.Get("In-Reply-To"), err)
		}
		refs, err := h.MsgIDList("References")
		if err != nil {
			t.Errorf("%q: References %q: %v", tt.id, msg.Header.Get("References"), err)
		}
		want := strings.TrimSuffix(strings.TrimPrefix(tt.id, "<"), ">")
		wantIRT, wantRefs := []string(nil), []string{root}
		if tt.kept {
			wantIRT, wantRefs = []string{want}, []string{root, want}
		}
		if !slices.Equal(irt, wantIRT) || !slices.Equal(refs, wantRefs) {
			t.Errorf("%q: In-Reply-To %q, References %q; want %q, %q", tt.id, irt, refs, wantIRT, wantRefs)
		}
	}
}

// TestComposeOwnMessageID: the Message-ID we give our own mail must be a
// msg-id; one that is not is the caller's mistake, never written.
func TestComposeOwnMessageID(t *testing.T) {
	for _, id := range []string{"a b@example.org", "no-at-sign", "<a@b>>", "é@example.org"} {
		e := composeCases()["reply"]
		e.MessageID = id
		if _, err := mailer.Compose(e); !errors.Is(err, mailer.ErrConfig) {
			t.Errorf("Message-ID %q: err %v, want ErrConfig", id, err)
		}
	}
}
