package templates

import (
	"html"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// unseenLine is the shape of the unseen tiles' line of a text notice:
// "Unseen tiles (N): AAAA B CC ... ??" with the label in the reader's
// language.
var unseenLine = regexp.MustCompile(`^(\S[^:()]*) \((\d+)\):((?: [A-Z]+)*(?: \?+)?)$`)

// unseenLabels are the labels of the line in each language.
var unseenLabels = map[string]string{"en": "Unseen tiles", "es": "Fichas no vistas", "fr": "Jetons non vus"}

// checkUnseen checks the one unseen line of a text notice against u: its
// label, its count, its groups in alphabetical order, the blanks last.
func checkUnseen(t *testing.T, lang, text string, u Unseen) {
	t.Helper()
	var found []string
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, unseenLabels[lang]+" (") {
			found = append(found, l)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%s: %d unseen lines, want 1: %q", lang, len(found), found)
	}
	m := unseenLine.FindStringSubmatch(found[0])
	if m == nil {
		t.Fatalf("%s: unseen line out of shape: %q", lang, found[0])
	}
	groups := strings.Fields(m[3])
	n, letters := 0, ""
	for i, g := range groups {
		n += len(g)
		if strings.Trim(g, g[:1]) != "" {
			t.Errorf("%s: group %q holds two letters: %q", lang, g, found[0])
		}
		if g[0] == '?' && i != len(groups)-1 {
			t.Errorf("%s: blanks not last: %q", lang, found[0])
		}
		if g[0] != '?' && i > 0 && g[0] <= letters[len(letters)-1] {
			t.Errorf("%s: %q out of order: %q", lang, g, found[0])
		}
		letters += g[:1]
	}
	if m[1] != unseenLabels[lang] || m[2] != strconv.Itoa(n) || n != u.Tiles || strings.Join(groups, " ") != strings.Join(u.Groups, " ") {
		t.Errorf("%s: unseen line %q, want %d tiles %q", lang, found[0], u.Tiles, u.Groups)
	}
}

// TestUnseenShape: a turn notice, a BOARD reply and a reminder hold the
// unseen tiles on one line of the text part in its exact shape, the
// vowels and consonants beside it, and the HTML part the same; once the
// bag is empty, what each opponent holds.
func TestUnseenShape(t *testing.T) {
	s := newSet(t)
	kinds := map[string]string{"en": "Vowels 35, consonants 48.", "es": "Vocales 35, consonantes 48.", "fr": "Voyelles 35, consonnes 48."}
	holds := map[string]string{"en": "Chloé holds 2 tiles.", "es": "Chloé tiene 2 fichas.", "fr": "Chloé a 2 jetons."}
	for _, lang := range Langs() {
		for _, m := range []Mail{sample(TurnNotice), sample(BoardReply), sample(Reminder)} {
			r, err := s.Render(lang, m)
			if err != nil {
				t.Fatal(err)
			}
			u := sample(TurnNotice).(NoticeMsg).Unseen
			checkUnseen(t, lang, r.Text, u)
			if !strings.Contains(r.Text, "\n"+kinds[lang]+"\n") || !strings.Contains(r.HTML, ">"+kinds[lang]+"<") {
				t.Errorf("%s %s: no %q", lang, m.kind(), kinds[lang])
			}
			want := unseenLabels[lang] + " (83): " + strings.Join(u.Groups, " ")
			if !strings.Contains(html.UnescapeString(r.HTML), ">"+want+"<") {
				t.Errorf("%s %s: the HTML part has no %q", lang, m.kind(), want)
			}
			if strings.Contains(r.Text, holds[lang]) {
				t.Errorf("%s: what Chloé holds told with tiles in the bag", lang)
			}
		}
		e := authorSamples()["turn-notice-endgame"].(NoticeMsg)
		r, err := s.Render(lang, e)
		if err != nil {
			t.Fatal(err)
		}
		checkUnseen(t, lang, r.Text, e.Unseen)
		if !strings.Contains(r.Text, "\n"+holds[lang]+"\n") || !strings.Contains(r.HTML, ">"+holds[lang]+"<") {
			t.Errorf("%s: no %q once the bag is empty", lang, holds[lang])
		}
		if lang == "en" && strings.Contains(r.Text, "Bob holds") {
			t.Errorf("the recipient told what they hold")
		}
	}
}
