package web_test

import (
	"bytes"
	"io"
	"net/mail"
	"strings"
	"testing"

	gomail "github.com/emersion/go-message/mail"
)

// parts returns a mail's headers and its text and HTML parts.
func parts(t *testing.T, raw []byte) (mail.Header, string, string) {
	t.Helper()
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	r, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var text, html string
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(p.Body)
		if h, ok := p.Header.(*gomail.InlineHeader); ok {
			ct, _, _ := h.ContentType()
			switch ct {
			case "text/plain":
				text = string(b)
			case "text/html":
				html = string(b)
			}
		}
	}
	return m.Header, text, html
}

// TestNoticeLinks: with [web] on, every notice carries the player's own
// link in both parts, the spectators' link where the league allows them,
// List-Unsubscribe with the one-click URL and List-Unsubscribe-Post; every
// mail carries a Feedback-ID (EMAIL §7.1, RFC 8058).
func TestNoticeLinks(t *testing.T) {
	f := newFixture(t)
	f.outbox()
	name := f.startSeason()[0].Name
	f.play(name)
	ms := f.outbox()
	if len(ms) == 0 {
		t.Fatal("no mail")
	}
	for _, m := range ms {
		to := m.To[0]
		h, text, html := parts(t, m.Raw)
		if !strings.HasSuffix(h.Get("Feedback-Id"), ":lexio:example.org") {
			t.Errorf("mail to %s: Feedback-ID %q", to, h.Get("Feedback-Id"))
		}
		if !strings.Contains(h.Get("Subject"), name) {
			continue // the season's other tables
		}
		view := f.links.Player(name, f.playerID(to))
		watch := f.links.Spectator(name)
		for _, link := range []string{view, watch} {
			if !strings.Contains(text, link) || !strings.Contains(html, `href="`+link+`"`) {
				t.Errorf("mail to %s (%s): %s not in both parts", to, h.Get("Subject"), link)
			}
		}
		for _, other := range []string{"alice@example.org", "bob@example.org", "carol@example.org"} {
			if other != to && strings.Contains(text+html, f.links.PlayerPath(name, f.playerID(other))) {
				t.Errorf("mail to %s holds %s's link", to, other)
			}
		}
		if u := h.Get("List-Unsubscribe"); u != "" {
			if !strings.HasPrefix(u, "<"+f.links.Unsubscribe(name, f.playerID(to))+">, <mailto:") ||
				h.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" {
				t.Errorf("mail to %s: List-Unsubscribe %q, -Post %q", to, u, h.Get("List-Unsubscribe-Post"))
			}
		}
	}
	// The quiet league has no spectators: its notices link only to the
	// player's page.
	f.play("elm")
	for _, m := range f.outbox() {
		_, text, _ := parts(t, m.Raw)
		if !strings.Contains(text, "/t/elm/p/") || strings.Contains(text, "/t/elm/s/") {
			t.Errorf("a notice of elm to %s: player link %v, spectators' link %v", m.To[0],
				strings.Contains(text, "/t/elm/p/"), strings.Contains(text, "/t/elm/s/"))
		}
	}
}
