package mailer_test

import (
	"bytes"
	"errors"
	"flag"
	"html"
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

	return map[string]mailer.Envelope{
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

// checkWellFormed reads the message back with go-message and checks the
// headers and bodies survive.
func checkWellFormed(t *testing.T, raw []byte, env mailer.Envelope) {
	t.Helper()
	// Every line within RFC 5322's 998 octets, 7-bit; the header's and
	// the encoded parts' within 78 (7-bit HTML keeps its own lines).
	sevenBit := false
	for i, line := range strings.Split(string(raw), "\r\n") {
		if strings.Contains(line, "\n") || strings.Contains(line, "\r") {
			t.Fatalf("line %d has a bare line break", i+1)
		}
		if strings.EqualFold(line, "Content-Transfer-Encoding: 7bit") {
			sevenBit = true
		} else if strings.HasPrefix(line, "--lexio-") {
			sevenBit = false
		}
		if len(line) > 998 || len(line) > 78 && !sevenBit {
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
	if id, _ := r.Header.MessageID(); "<"+id+">" != "<"+strings.Trim(env.MessageID, "<>")+">" {
		t.Errorf("message-id = %q", id)
	}
	refs, _ := r.Header.MsgIDList("References")
	if len(refs) != len(env.References) {
		t.Errorf("references = %v, want %d", refs, len(env.References))
	}
	if got := r.Header.Get("Auto-Submitted"); got != env.AutoSubmitted {
		t.Errorf("auto-submitted = %q, want %q", got, env.AutoSubmitted)
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
			ct, _, _ := h.ContentType()
			want := env.Text
			if ct == "text/html" {
				want = env.HTML
				htmls++
			} else {
				texts++
			}
			got := strings.ReplaceAll(string(body), "\r\n", "\n")
			if ct == "text/html" {
				// Characters may have become references: the same HTML.
				got, want = html.UnescapeString(got), html.UnescapeString(want)
			}
			if got != want {
				t.Errorf("%s body = %q, want %q", ct, got, want)
			}
		case *gomail.AttachmentHeader:
			name, _ := h.Filename()
			attachments++
			if a := env.Attachments[attachments-1]; name != a.Filename || !bytes.Equal(body, a.Data) {
				t.Errorf("attachment %q differs", name)
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

// TestComposeHTMLTransfer: HTML goes as 7-bit lines, its non-ASCII as
// character references, unless a line would be too long or the text
// could not travel so: then base64, the same HTML once decoded.
func TestComposeHTMLTransfer(t *testing.T) {
	base := composeCases()["french"]
	for _, c := range []struct {
		name, html, cte string
	}{
		{"plain", "<p>Plateau</p>\n", "7bit"},
		{"accents", "<p title=\"Chloé\">Été ✓ 😀</p>\n", "7bit"},
		{"long line", "<p>" + strings.Repeat("x", 1200) + "</p>\n", "base64"},
		{"long after references", "<p>" + strings.Repeat("é", 200) + "</p>\n", "base64"},
		{"nul", "<p>a\x00b</p>\n", "base64"},
		{"bare cr", "<p>a\rb</p>\n", "base64"},
		{"boundary-like line", "<p>a\n--lexio-alt-0000\n</p>\n", "base64"},
		{"invalid utf-8", "<p>a\xffb</p>\n", "base64"},
	} {
		t.Run(c.name, func(t *testing.T) {
			env := base
			env.HTML = c.html
			raw, err := mailer.Compose(env)
			if err != nil {
				t.Fatal(err)
			}
			_, html, _ := strings.Cut(string(raw), "Content-Type: text/html; charset=utf-8\r\n")
			if want := "Content-Transfer-Encoding: " + c.cte + "\r\n"; !strings.HasPrefix(html, want) {
				t.Fatalf("html part starts %q, want %q", html[:min(60, len(html))], want)
			}
			if c.name != "invalid utf-8" {
				checkWellFormed(t, raw, env)
			}
		})
	}
}
