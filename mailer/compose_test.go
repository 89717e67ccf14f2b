package mailer_test

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"net/mail"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gomail "github.com/emersion/go-message/mail"
	"github.com/lexio-mail/lexio/mailer"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

func composeCases() map[string]mailer.Envelope {
	date := time.Date(2026, 3, 14, 9, 26, 53, 0, time.FixedZone("", 3600))
	base := mailer.Envelope{
		From:          mail.Address{Name: "Lexio", Address: "lexio@example.org"},
		To:            []mail.Address{{Name: "Alice", Address: "alice@example.org"}},
		ReplyTo:       "lexio+t1-abcdefghijklmnop@example.org",
		Subject:       "[Lexio t1] Your turn",
		Date:          date,
		MessageID:     "t1.turn12.alice@example.org",
		InReplyTo:     "<t1.turn11.alice@example.org>",
		References:    []string{"t1.start@example.org", "t1.turn11.alice@example.org"},
		AutoSubmitted: "auto-replied",
		Text:          "Your rack: A E R S T ? L\nReply with PLACE H7 ACROSS WORD.\n",
		HTML:          "<p>Your rack: <b>A E R S T ? L</b></p>\n<p>Reply with <code>PLACE H7 ACROSS WORD</code>.</p>\n",
	}
	french := base
	french.From = mail.Address{Name: "Lexio — ligue d'été", Address: "lexio@example.org"}
	french.To = []mail.Address{{Name: "Zoé Lefèvre", Address: "zoe@example.fr"}}
	french.Subject = "[Lexio t1] À vous de jouer : « ÉTÉ » vaut 12 points, partie très longue pour plier l'en-tête"
	french.Text = "Votre chevalet : É T É\n" + strings.Repeat("Une ligne assez longue pour être coupée en quoted-printable, ", 3) + "\nFin. \n"
	french.HTML = "<p>Votre chevalet&nbsp;: É T É</p>\n"
	french.AutoSubmitted = ""

	withICS := base
	withICS.Attachments = []mailer.Attachment{{
		Filename:    "deadline.ics",
		ContentType: "text/calendar; charset=utf-8; method=PUBLISH",
		Data: []byte("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//lexio//EN\r\nBEGIN:VEVENT\r\n" +
			"UID:t1.turn12@example.org\r\nDTSTART:20260317T092653Z\r\nSUMMARY:Lexio t1 deadline\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"),
	}}

	textOnly := base
	textOnly.HTML = ""
	textOnly.InReplyTo = ""
	textOnly.References = nil

	longRefs := base
	for i := 0; i < 8; i++ {
		longRefs.References = append(longRefs.References, "t1.turn"+strings.Repeat("x", i)+"@example.org")
	}

	notice := base
	notice.AutoSubmitted = "auto-generated"
	notice.ListUnsubscribe = "mailto:lexio+unsub_t1-abcdefghijklmnop@example.org"

	// The web side's one-click unsubscribe (RFC 8058) and a Feedback-ID.
	oneClick := notice
	oneClick.UnsubscribeURL = "https://lexio.example.org/u/t1/7/abcdefghijklmnopqrstuvwxyz"
	oneClick.FeedbackID = "turn-notice:t1:lexio:example.org"

	return map[string]mailer.Envelope{
		"notice":    notice,
		"one-click": oneClick,
		"reply":     base,
		"french":    french,
		"ics":       withICS,
		"text-only": textOnly,
		"long-refs": longRefs,
	}
}

func TestComposeGolden(t *testing.T) {
	for name, env := range composeCases() {
		t.Run(name, func(t *testing.T) {
			got, err := mailer.Compose(env)
			if err != nil {
				t.Fatal(err)
			}
			again, _ := mailer.Compose(env)
			if !bytes.Equal(got, again) {
				t.Fatal("two renderings differ")
			}
			path := filepath.Join("testdata", "compose", name+".eml")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("output differs from %s (run with -update after checking):\n%s", path, got)
			}
			checkWellFormed(t, got, env)
		})
	}
}

// checkWellFormed reads the message back with go-message and checks that
// every header field and body survives, each text part in UTF-8.
func checkWellFormed(t *testing.T, raw []byte, env mailer.Envelope) {
	t.Helper()
	// 7-bit CRLF lines: the bodies' (quoted-printable, base64) within 76
	// characters, the header's within RFC 5322's 998 (go-message folds at
	// blanks, and an encoded subject's words have none).
	body := false
	for i, line := range strings.Split(string(raw), "\r\n") {
		if strings.ContainsAny(line, "\r\n") {
			t.Fatalf("line %d has a bare line break", i+1)
		}
		body = body || line == ""
		if len(line) > 998 || body && len(line) > 76 {
			t.Errorf("line %d has %d characters: %q", i+1, len(line), line)
		}
		for _, c := range []byte(line) {
			if c >= 0x80 || c == 0 {
				t.Fatalf("line %d is not 7-bit: %q", i+1, line)
			}
		}
	}
	r, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	subject, err := r.Header.Subject()
	if err != nil || subject != env.Subject {
		t.Errorf("subject = %q (%v), want %q", subject, err, env.Subject)
	}
	from, err := r.Header.AddressList("From")
	if err != nil || len(from) != 1 || from[0].Name != env.From.Name || from[0].Address != env.From.Address {
		t.Errorf("from = %v (%v)", from, err)
	}
	to, err := r.Header.AddressList("To")
	if err != nil || len(to) != len(env.To) {
		t.Errorf("to = %v (%v)", to, err)
	}
	for i := range min(len(to), len(env.To)) {
		if to[i].Name != env.To[i].Name || to[i].Address != env.To[i].Address {
			t.Errorf("to[%d] = %v, want %v", i, to[i], env.To[i])
		}
	}
	replyTo, err := r.Header.AddressList("Reply-To")
	if err != nil || (env.ReplyTo == "") != (len(replyTo) == 0) || len(replyTo) > 0 && replyTo[0].Address != env.ReplyTo {
		t.Errorf("reply-to = %v (%v), want %q", replyTo, err, env.ReplyTo)
	}
	if date, err := r.Header.Date(); err != nil || !date.Equal(env.Date) {
		t.Errorf("date = %v (%v), want %v", date, err, env.Date)
	}
	if id, _ := r.Header.MessageID(); id != strings.Trim(env.MessageID, "<>") {
		t.Errorf("message-id = %q", id)
	}
	inReplyTo, _ := r.Header.MsgIDList("In-Reply-To")
	if want := strings.Trim(env.InReplyTo, "<>"); (want == "") != (len(inReplyTo) == 0) || len(inReplyTo) > 0 && inReplyTo[0] != want {
		t.Errorf("in-reply-to = %v, want %q", inReplyTo, want)
	}
	refs, _ := r.Header.MsgIDList("References")
	if len(refs) != len(env.References) {
		t.Errorf("references = %v, want %d", refs, len(env.References))
	}
	for i := range min(len(refs), len(env.References)) {
		if refs[i] != strings.Trim(env.References[i], "<>") {
			t.Errorf("references[%d] = %q, want %q", i, refs[i], env.References[i])
		}
	}
	if got := r.Header.Get("Auto-Submitted"); got != env.AutoSubmitted {
		t.Errorf("auto-submitted = %q, want %q", got, env.AutoSubmitted)
	}
	wantUnsub := ""
	if env.ListUnsubscribe != "" {
		wantUnsub = "<" + env.ListUnsubscribe + ">"
		if env.UnsubscribeURL != "" {
			wantUnsub = "<" + env.UnsubscribeURL + ">, " + wantUnsub
		}
	}
	if got := r.Header.Get("List-Unsubscribe"); got != wantUnsub {
		t.Errorf("list-unsubscribe = %q, want %q", got, wantUnsub)
	}
	wantPost := ""
	if strings.HasPrefix(env.UnsubscribeURL, "https://") {
		wantPost = "List-Unsubscribe=One-Click"
	}
	if got := r.Header.Get("List-Unsubscribe-Post"); got != wantPost {
		t.Errorf("list-unsubscribe-post = %q, want %q", got, wantPost)
	}
	if got := r.Header.Get("Feedback-ID"); got != env.FeedbackID {
		t.Errorf("feedback-id = %q, want %q", got, env.FeedbackID)
	}
	if got := r.Header.Get("MIME-Version"); got != "1.0" {
		t.Errorf("mime-version = %q", got)
	}
	var texts, htmls, attachments int
	for {
		p, err := r.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(p.Body)
		switch h := p.Header.(type) {
		case *gomail.InlineHeader:
			ct, params, _ := h.ContentType()
			if params["charset"] != "utf-8" {
				t.Errorf("%s charset %q", ct, params["charset"])
			}
			want := env.Text
			if ct == "text/html" {
				want = env.HTML
				htmls++
			} else {
				texts++
			}
			if !strings.HasSuffix(want, "\n") {
				want += "\n" // a part ends with a line end
			}
			if got := strings.ReplaceAll(string(body), "\r\n", "\n"); got != strings.ReplaceAll(want, "\r\n", "\n") {
				t.Errorf("%s body = %q, want %q", ct, got, want)
			}
		case *gomail.AttachmentHeader:
			name, _ := h.Filename()
			attachments++
			if a := env.Attachments[attachments-1]; name != a.Filename || !bytes.Equal(body, a.Data) {
				t.Errorf("attachment %q differs", name)
			}
			if ct, _, _ := h.ContentType(); ct != "text/calendar" {
				t.Errorf("attachment type %q", ct)
			}
		}
	}
	if (env.Text != "") != (texts == 1) || (env.HTML != "") != (htmls == 1) || attachments != len(env.Attachments) {
		t.Errorf("parts: %d text, %d html, %d attachments", texts, htmls, attachments)
	}
}

func TestComposeRejects(t *testing.T) {
	ok := composeCases()["reply"]
	tests := []struct {
		name    string
		mutate  func(e *mailer.Envelope)
		wantErr error
	}{
		{"subject with line break", func(e *mailer.Envelope) { e.Subject = "hi\r\nBcc: victim@example.org" }, mailer.ErrHeaderInjection},
		{"name with line break", func(e *mailer.Envelope) { e.To[0].Name = "A\nB" }, mailer.ErrHeaderInjection},
		{"reference with line break", func(e *mailer.Envelope) { e.References = []string{"a@b\r\nX: y"} }, mailer.ErrHeaderInjection},
		{"no message id", func(e *mailer.Envelope) { e.MessageID = "" }, mailer.ErrConfig},
		{"no date", func(e *mailer.Envelope) { e.Date = time.Time{} }, mailer.ErrConfig},
		{"no recipient", func(e *mailer.Envelope) { e.To = nil }, mailer.ErrConfig},
		{"no body", func(e *mailer.Envelope) { e.Text, e.HTML = "", "" }, mailer.ErrConfig},
		{"list-unsubscribe with line break", func(e *mailer.Envelope) { e.ListUnsubscribe = "mailto:a@b\r\nBcc: v@x" }, mailer.ErrHeaderInjection},
		{"list-unsubscribe not mailto", func(e *mailer.Envelope) { e.ListUnsubscribe = "https://example.org/u" }, mailer.ErrConfig},
		{"unsubscribe URL not http", func(e *mailer.Envelope) {
			e.ListUnsubscribe, e.UnsubscribeURL = "mailto:a@b", "javascript:alert(1)"
		}, mailer.ErrConfig},
		{"unsubscribe URL without a mailto", func(e *mailer.Envelope) { e.UnsubscribeURL = "https://example.org/u" }, mailer.ErrConfig},
		{"unsubscribe URL with line break", func(e *mailer.Envelope) {
			e.ListUnsubscribe, e.UnsubscribeURL = "mailto:a@b", "https://x/\r\nBcc: v@x"
		}, mailer.ErrHeaderInjection},
		{"feedback id with line break", func(e *mailer.Envelope) { e.FeedbackID = "a:b\r\nBcc: v@x" }, mailer.ErrHeaderInjection},
		{"attachment without type", func(e *mailer.Envelope) { e.Attachments = []mailer.Attachment{{Filename: "x"}} }, mailer.ErrConfig},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := ok
			e.To = append([]mail.Address(nil), ok.To...)
			tt.mutate(&e)
			if _, err := mailer.Compose(e); !errors.Is(err, tt.wantErr) {
				t.Errorf("err = %v, want %v", err, tt.wantErr)
			}
		})
	}
}

// TestComposeReadsBack: what a reader decodes is what was composed, for
// the bodies that need care on the way: non-ASCII text and HTML (as UTF-8,
// not as character references), a line longer than SMTP's 998 octets,
// lines that start with "." or "From " or "--" like a boundary, CRLF line
// ends, a body without a final line end; and a non-ASCII name and
// subject, encoded by go-message.
func TestComposeReadsBack(t *testing.T) {
	base := composeCases()["reply"]
	base.From.Name = "Lexio — ligue d'été"
	base.To = []mail.Address{{Name: "Zoé Lefèvre, « la reine »", Address: "zoe@example.fr"}}
	base.Subject = "[Lexio t1] À vous de jouer : « ÉTÉ » vaut 12 points, partie très longue pour plier l'en-tête ✓"
	for _, c := range []struct{ name, text, html string }{
		{"accents", "Été ✓ 😀\n", "<p title=\"Chloé\">Été ✓ 😀</p>\n"},
		{"long line", strings.Repeat("mot ", 400) + "\n", "<p>" + strings.Repeat("x", 1200) + "</p>\n"},
		{"long line of accents", strings.Repeat("é", 600) + "\n", "<p>" + strings.Repeat("é", 600) + "</p>\n"},
		{"dots", ".\n..two\n.end\nlast\n.", "<p>\n.\n.x</p>\n"},
		{"from", "From me\nFrom: you\n", "From the board\n<p>From</p>\n"},
		{"boundary-like", "--lexio-alt-0000\n--\n", "<p>a\n--lexio-alt-0000--\n</p>\n"},
		{"crlf", "one\r\ntwo\r\n", "<p>one</p>\r\n<p>two</p>\r\n"},
		{"equals and blanks", "a = b \nend\t\n", "<td style=\"width:34px\">=</td> \n"},
		{"text only", "Été\n", ""},
		{"html only", "", "<p>Été</p>\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			env := base
			env.Text, env.HTML = c.text, c.html
			raw, err := mailer.Compose(env)
			if err != nil {
				t.Fatal(err)
			}
			checkWellFormed(t, raw, env)
		})
	}
}

// TestComposeNoticeSize: a late-game notice (~40 KB of HTML) stays well
// under 60 KB once encoded.
func TestComposeNoticeSize(t *testing.T) {
	env := noticeEnvelope()
	raw, err := mailer.Compose(env)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(env.Text) + len(env.HTML); n < 40<<10 {
		t.Fatalf("the notice has only %d bytes of text and HTML", n)
	}
	if len(raw) > 50<<10 {
		t.Errorf("a notice of %d bytes of text and HTML composes into %d bytes", len(env.Text)+len(env.HTML), len(raw))
	}
	checkWellFormed(t, raw, env)
}

// noticeEnvelope is a late-game turn notice as the templates write it: a
// 13×13 board with a styled cell per line, a log, a short text.
func noticeEnvelope() mailer.Envelope {
	env := composeCases()["ics"]
	var h strings.Builder
	h.WriteString("<!DOCTYPE html>\n<html lang=\"fr\">\n<body style=\"margin:0;padding:0;background-color:#efeae0;\">\n")
	h.WriteString("<p style=\"margin:0 0 12px 0;\">Bonjour Zoé, c’est à vous : la partie se termine jeudi 5 mars à 09:00 UTC.</p>\n")
	h.WriteString("<table role=\"presentation\" cellpadding=\"0\" cellspacing=\"2\" border=\"0\" align=\"center\" style=\"margin:0 auto;\">\n")
	for row := range 13 {
		h.WriteString("<tr><th style=\"height:34px;padding:0 4px 0 0;text-align:right;font-size:11px;color:#888888;\">" + strings.Repeat("1", row%2+1) + "</th>\n")
		for col := range 13 {
			h.WriteString("<td width=\"34\" height=\"34\" align=\"center\" valign=\"middle\" style=\"background-color:#f3c96b;color:#222222;font-size:17px;font-weight:bold;\">")
			h.WriteString(string(rune('A'+(row+col)%26)) + "<sub style=\"font-size:9px;font-weight:normal\">1</sub></td>\n")
		}
		h.WriteString("</tr>\n")
	}
	h.WriteString("</table>\n")
	for i := range 40 {
		h.WriteString("<tr><td style=\"padding:2px 8px;color:#555555;\">" + strings.Repeat("É", i%3) + " Carol a joué EENLVDI en C1 vers le bas : 199 points.</td></tr>\n")
	}
	h.WriteString("</body>\n</html>\n")
	env.HTML = h.String()
	env.Text = strings.Repeat("Carol a joué EENLVDI en C1 vers le bas : 199 points, avec 30 de bonus.\n", 50)
	return env
}
