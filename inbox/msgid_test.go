package inbox_test

import (
	"bytes"
	"fmt"
	"net/mail"
	"slices"
	"strings"
	"testing"

	gomail "github.com/emersion/go-message/mail"
	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/mailer/client"
)

// TestOddMessageIDAnswered: a message whose Message-ID holds blanks,
// extra angle brackets or other odd characters, or none that is text, or
// one longer than a header line, is handled and answered like any other
// (EMAIL §2.2), and the answer's Message-ID, In-Reply-To and References
// are well-formed msg-ids (RFC 5322 §3.6.4): the odd id is left out of
// them, a well-formed one is answered to. A Message-ID over 998 octets is
// recorded (by its hash, which the store finds it by).
func TestOddMessageIDAnswered(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{})
	const name = "odd"
	if err := h.Lobby.CreateTable(h.Ctx, name, "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.WaitMail("alice", 1)
	root := "lexio." + name + "@" + h.Domain
	// A header line holds no id over 998 octets, but a folded one does.
	long := "<" + strings.TrimSpace(strings.Repeat("long words\n ", 120)) + "@" + h.Domain + ">"
	tests := []struct {
		header string
		record string // the id recorded, "" where it is not checked
		answer string // the In-Reply-To of the answer, "" for none
		plain  bool   // HELP to the plain address, else BOARD through the table
	}{
		{"<a b@localhost>", "a b@localhost", "", false},
		{"<a c@localhost>", "a c@localhost", "", true},
		{"<<double@localhost>>", "double@localhost", "double@localhost", false},
		{`<odd>ch"ar(s)@localhost>`, `odd>ch"ar(s)@localhost`, "", false},
		{`<odd>ch"ar(s)2@localhost>`, `odd>ch"ar(s)2@localhost`, "", true},
		{"no-brackets-no-at", "no-brackets-no-at", "", false},
		{"<lit@[127.0.0.1]>", "lit@[127.0.0.1]", "lit@[127.0.0.1]", false},
		{"<tab\there@localhost>", "", "", false},
		{"<\xff\xfe@localhost>", "", "", false},
		{long, strings.Trim(strings.ReplaceAll(long, "\n", ""), "<>"), "", false},
	}
	for _, tt := range tests {
		to, body, k := "lexio+"+h.Token(name, "alice")+"@"+h.Domain, "BOARD", "board-reply"
		if tt.plain {
			to, body, k = "lexio@"+h.Domain, "HELP", "help"
		}
		n := len(h.Inbox("alice"))
		h.SendRaw("alice", []string{to}, "From: alice@"+h.Domain+"\nTo: "+to+"\nSubject: hello\nDate: "+
			h.Clock.Now().Format("Mon, 02 Jan 2006 15:04:05 -0700")+"\nMessage-ID: "+tt.header+"\nMIME-Version: 1.0\n"+
			"Content-Type: text/plain; charset=utf-8\n\n"+body+"\n")
		if tt.record != "" {
			h.Handled(tt.record)
		}
		msgs := h.WaitMail("alice", n+1)
		answer := msgs[len(msgs)-1]
		what := fmt.Sprintf("%q to %s", tt.header, to)
		if got := lexiotest.Kind(answer); got != k {
			t.Errorf("%s: answered with %q", what, got)
		}
		// Every answer is of the table, alice's one: its thread first.
		refs := []string{root}
		if tt.answer != "" {
			refs = append(refs, tt.answer)
		}
		checkIDs(t, what, answer, tt.answer, refs)
	}
}

// checkIDs checks that the message's ids parse, that its In-Reply-To is
// irt ("" for none) and its References refs.
func checkIDs(t *testing.T, what string, m client.Message, irt string, refs []string) {
	t.Helper()
	msg, err := mail.ReadMessage(bytes.NewReader(m.Raw))
	if err != nil {
		t.Errorf("%s: the answer does not parse: %v", what, err)
		return
	}
	h := gomail.HeaderFromMap(msg.Header)
	if id, err := h.MessageID(); err != nil || id == "" {
		t.Errorf("%s: Message-ID %q: %v", what, msg.Header.Get("Message-Id"), err)
	}
	gotIRT, err := h.MsgIDList("In-Reply-To")
	if err != nil {
		t.Errorf("%s: In-Reply-To %q: %v", what, msg.Header.Get("In-Reply-To"), err)
	}
	got, err := h.MsgIDList("References")
	if err != nil {
		t.Errorf("%s: References %q: %v", what, msg.Header.Get("References"), err)
	}
	var wantIRT []string
	if irt != "" {
		wantIRT = []string{irt}
	}
	if !slices.Equal(got, refs) || !slices.Equal(gotIRT, wantIRT) {
		t.Errorf("%s: In-Reply-To %q, References %q; want %q, %q", what, gotIRT, got, wantIRT, refs)
	}
}
