package notice

import (
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/config"
	"github.com/lexio-mail/lexio/mailer/replytoken"
	"github.com/lexio-mail/lexio/templates"
)

func testWriter(t *testing.T) *Writer {
	t.Helper()
	cfg, err := config.Parse([]byte("[mail]\naddress = \"lexio@example.org\"\nsecret = \"0123456789abcdef0123456789abcdef\"\n[embedded]\nenabled = true\n"))
	if err != nil {
		t.Fatal(err)
	}
	tmpl, err := templates.New()
	if err != nil {
		t.Fatal(err)
	}
	w, err := New(Options{Config: cfg, Templates: tmpl, Tokens: replytoken.NewTokens([]byte("0123456789abcdef0123456789abcdef"))})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestMessageIDs: a notice's Message-ID names its table and turn, which
// NoticeSeq reads back (EMAIL §1.5), and answers to two commands in one
// turn differ; another table's or domain's id reads as none.
func TestMessageIDs(t *testing.T) {
	w := testWriter(t)
	to := Recipient{Addr: "alice@example.org", Lang: "en", TZ: time.UTC, Pos: 1}
	id := w.MessageID(Envelope{Table: "oak", Seq: 12, To: to}, templates.TurnNotice)
	if id != "<lexio.oak.12.turn-notice.1@example.org>" {
		t.Errorf("notice id %s", id)
	}
	if seq, ok := w.NoticeSeq(id, "oak"); !ok || seq != 12 {
		t.Errorf("NoticeSeq(%s) = %d, %v", id, seq, ok)
	}
	for _, other := range []string{"<lexio.elm.12.turn-notice.1@example.org>", "<lexio.oak.12.turn-notice.1@evil.test>", "<lexio.oak.x@example.org>"} {
		if _, ok := w.NoticeSeq(other, "oak"); ok {
			t.Errorf("NoticeSeq(%s) read a turn of oak", other)
		}
	}
	a := w.MessageID(Envelope{Table: "oak", Seq: 12, To: to, Reply: "<a@x>"}, templates.BoardReply)
	b := w.MessageID(Envelope{Table: "oak", Seq: 12, To: to, Reply: "<b@x>"}, templates.BoardReply)
	if a == b || !strings.HasPrefix(a, "<lexio.oak.12.board-reply.1.") {
		t.Errorf("two BOARD answers: %s and %s", a, b)
	}
}

// TestRenderThreads: a table's mail threads under the table's root and
// carries the player's reply address; an answer refers to the message it
// answers and is auto-replied; only unasked mail carries
// List-Unsubscribe (LEAGUES §5.2).
func TestRenderThreads(t *testing.T) {
	w := testWriter(t)
	now := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	to := Recipient{Addr: "alice@example.org", Lang: "en", TZ: time.UTC, Pos: 0}
	help := templates.HelpMsg{Head: w.Head("oak", to, now), Address: "lexio@example.org"}
	notice, err := w.Render(Envelope{Table: "oak", Seq: 3, To: to}, help, now)
	if err != nil {
		t.Fatal(err)
	}
	raw := string(notice.Raw)
	token := w.tokens.Token("oak", to.Addr)
	for _, want := range []string{"In-Reply-To: <lexio.oak@example.org>", "lexio+" + token + "@example.org", "List-Unsubscribe:", "Auto-Submitted: auto-generated"} {
		if !strings.Contains(raw, want) {
			t.Errorf("a table's mail lacks %q", want)
		}
	}
	answer, err := w.Render(Envelope{Table: "oak", Seq: 3, To: to, Reply: "<q@example.org>"}, help, now)
	if err != nil {
		t.Fatal(err)
	}
	raw = string(answer.Raw)
	if !strings.Contains(raw, "<q@example.org>") || !strings.Contains(raw, "Auto-Submitted: auto-replied") || strings.Contains(raw, "List-Unsubscribe:") {
		t.Errorf("an answer's headers:\n%s", raw[:strings.Index(raw, "\r\n\r\n")])
	}
}

// TestMailtoURI: an unsubscribe token goes into a mailto: URI as it is in
// the address, escaped in the subject (RFC 6068).
func TestMailtoURI(t *testing.T) {
	alice := replytoken.NewTokens([]byte("0123456789abcdef-server-secret")).Unsubscribe("t1", "Alice@Example.org")
	if got := mailtoURI("lexio@example.org", "[Lexio t1 "+alice+"]"); got != "mailto:lexio@example.org?subject=%5BLexio%20t1%20"+alice+"%5D" {
		t.Errorf("mailtoURI with a subject: %q", got)
	}
	if got := mailtoURI("lexio+"+alice+"@example.org", ""); got != "mailto:lexio+"+alice+"@example.org" {
		t.Errorf("mailtoURI: %q", got)
	}
}
