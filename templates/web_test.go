package templates

import (
	"strings"
	"testing"
)

// With the web side on, a notice carries the recipient's "view in
// browser" link and the spectators' link in both parts, in every
// language (EMAIL §7.1); without them it says nothing of the web.
func TestWebLinksInMail(t *testing.T) {
	s := newSet(t)
	const view, watch = "https://lexio.example.org/t/t42/p/7/abcdefghijklmnopqrstuvwxyz", "https://lexio.example.org/t/t42/s/zyxwvutsrqponmlkjihgfedcba"
	for _, lang := range Langs() {
		n := sampleNotice("Bob", "QUARTZ?")
		n.View, n.Watch = view, watch
		r, err := s.Render(lang, n)
		if err != nil {
			t.Fatal(err)
		}
		for _, link := range []string{view, watch} {
			if !strings.Contains(r.Text, "\n"+link+"\n") {
				t.Errorf("%s: the text part has no line %s:\n%s", lang, link, r.Text)
			}
			if !strings.Contains(r.HTML, `href="`+link+`"`) {
				t.Errorf("%s: the HTML part has no link to %s", lang, link)
			}
		}
		viewWords, _ := s.Phrase(lang, "web.view", nil)
		if !strings.Contains(r.Text, viewWords) || !strings.Contains(r.HTML, viewWords) {
			t.Errorf("%s: no %q in the mail", lang, viewWords)
		}
		n.View, n.Watch = "", ""
		r, err = s.Render(lang, n)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(r.Text, viewWords) || strings.Contains(r.HTML, viewWords) || strings.Contains(r.HTML, "lexio.example.org/t/") {
			t.Errorf("%s: a mail without links speaks of them", lang)
		}
	}
}

// A fragment is the mail's own drawing: the board of a page is the
// board of the notice.
func TestFragment(t *testing.T) {
	s := newSet(t)
	n := sampleNotice("Bob", "QUARTZ?")
	board, err := s.Fragment("fr", "part.board", n.Board)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Render("fr", n)
	if err != nil {
		t.Fatal(err)
	}
	if len(board) < 1000 || !strings.Contains(r.HTML, string(board)) {
		t.Errorf("the board fragment (%d bytes) is not the notice's board", len(board))
	}
	if _, err := s.Fragment("en", "msg.help", nil); err == nil {
		t.Error("a template that is not a fragment was drawn")
	}
	if got, err := s.Phrase("es", "web.division", "A"); err != nil || got != "División A" {
		t.Errorf("Phrase = %q, %v", got, err)
	}
}
