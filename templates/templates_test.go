package templates

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/net/html"

	"github.com/lexio-mail/lexio/internal/zone"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// parsed is the Set the tests share, parsed once: parsing every template
// of every language costs most of a small test's time under -race, and a
// Set is safe for concurrent use (TestConcurrentRender).
var parsed = sync.OnceValues(New)

// newSet returns the tests' shared Set: renders through it meet boards
// other tests drew, as a daemon's do.
func newSet(t testing.TB) *Set {
	t.Helper()
	s, err := parsed()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// freshSet parses a Set of its own, for a test that needs one that has
// drawn nothing yet.
func freshSet(t testing.TB) *Set {
	t.Helper()
	s, err := New()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestGolden renders every kind in every language from the sample data and
// compares subject, text and HTML with testdata/golden/<lang>/<kind>.*.
func TestGolden(t *testing.T) {
	t.Parallel()
	s := newSet(t)
	type golden struct {
		name string
		data Mail
	}
	var cases []golden
	for _, k := range Kinds() {
		cases = append(cases, golden{k.String(), sample(k)})
	}
	for name, m := range authorSamples() {
		cases = append(cases, golden{name, m})
	}
	for _, lang := range Langs() {
		for _, c := range cases {
			t.Run(lang+"/"+c.name, func(t *testing.T) {
				r, err := s.Render(lang, c.data)
				if err != nil {
					t.Fatal(err)
				}
				base := filepath.Join("testdata", "golden", lang, c.name)
				for ext, got := range map[string]string{".subject": r.Subject + "\n", ".txt": r.Text, ".html": r.HTML} {
					path := base + ext
					if *update {
						if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
							t.Fatal(err)
						}
						if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
							t.Fatal(err)
						}
						continue
					}
					want, err := os.ReadFile(path)
					if err != nil {
						t.Fatalf("%v (run go test -update)", err)
					}
					if got != string(want) {
						t.Errorf("%s differs from the golden file (run go test -update and review the diff)\n%s", path, firstDiff(string(want), got))
					}
				}
			})
		}
	}
}

func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(wl), len(gl)) {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d:\nwant: %s\ngot:  %s", i+1, w, g)
		}
	}
	return ""
}

// TestEveryKindEveryLang checks what must hold of every message: no
// template leftovers, a subject with the tag, text lines of at most 78
// characters, and sound HTML with inline styles only.
func TestEveryKindEveryLang(t *testing.T) {
	t.Parallel()
	s := newSet(t)
	for _, lang := range Langs() {
		for _, k := range Kinds() {
			t.Run(lang+"/"+k.String(), func(t *testing.T) {
				r, err := s.Render(lang, sample(k))
				if err != nil {
					t.Fatal(err)
				}
				for part, text := range map[string]string{"subject": r.Subject, "text": r.Text, "html": r.HTML} {
					for _, bad := range []string{"<no value>", "{{", "}}", "%!", "ZgotmplZ", "<nil>", "map["} {
						if strings.Contains(text, bad) {
							t.Errorf("%s holds %q", part, bad)
						}
					}
					if !utf8.ValidString(text) {
						t.Errorf("%s is not UTF-8", part)
					}
				}
				if !strings.HasPrefix(r.Subject, "[Lexio") || strings.ContainsAny(r.Subject, "\r\n") {
					t.Errorf("subject %q", r.Subject)
				}
				checkTextLines(t, r.Text)
				checkHTML(t, r.HTML, k)
				// The mailer sends HTML as 7-bit lines of at most 998
				// octets, non-ASCII as references of up to 10: the
				// markup keeps its lines short enough for that.
				for i, line := range strings.Split(r.HTML, "\n") {
					n := 0
					for _, c := range line {
						if n++; c >= utf8.RuneSelf {
							n += 9
						}
					}
					if n > 998 {
						t.Errorf("html line %d would have %d octets: %.80q", i+1, n, line)
					}
				}
			})
		}
	}
}

func checkTextLines(t *testing.T, text string) {
	t.Helper()
	for i, line := range strings.Split(text, "\n") {
		// The unseen tiles stay on one line, however long: a program
		// reads it back.
		if n := utf8.RuneCountInString(line); n > 78 && !unseenLine.MatchString(line) {
			t.Errorf("text line %d has %d characters: %q", i+1, n, line)
		}
		if strings.ContainsRune(line, '\t') {
			t.Errorf("text line %d holds a tab", i+1)
		}
	}
}

// checkHTML parses the HTML and checks: no script, no external resources;
// one style element, in the head, whose rules are for the classes the body
// uses (and only polish: TestBrowserLayout checks the mail fits without
// it); tags balanced; a board of 13 rows of 13 cells where the message
// shows the board.
func checkHTML(t *testing.T, doc string, k Kind) {
	t.Helper()
	low := strings.ToLower(doc)
	for _, bad := range []string{"<script", "<link", "src=", "url(", "javascript:", "@import", "position:"} {
		if strings.Contains(low, bad) {
			t.Errorf("html holds %q", bad)
		}
	}
	if n := strings.Count(low, "<style"); n != 1 || strings.Index(low, "<style") > strings.Index(low, "</head>") {
		t.Errorf("html has %d style elements, want 1 in the head", n)
	}
	css := ""
	if i, j := strings.Index(low, "<style>"), strings.Index(low, "</style>"); i >= 0 && j > i {
		css = doc[i:j]
	}
	checkBalanced(t, doc)
	root, err := html.Parse(strings.NewReader(doc))
	if err != nil {
		t.Fatalf("html does not parse: %v", err)
	}
	var tables []*html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			if n.Data == "table" {
				tables = append(tables, n)
			}
			for _, a := range n.Attr {
				if a.Key == "id" || strings.HasPrefix(a.Key, "on") {
					t.Errorf("<%s> has attribute %s", n.Data, a.Key)
				}
				if a.Key == "class" {
					for _, c := range strings.Fields(a.Val) {
						if !strings.Contains(css, "."+c) {
							t.Errorf("<%s> has class %q, which the style element does not style", n.Data, c)
						}
					}
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	wantBoard := k == TurnNotice || k == BoardReply || k == Reminder || k == GameOver || k == HelpRules || k == SeatTaken
	boards := 0
	for _, tb := range tables {
		rows := rowsOf(tb)
		if len(rows) == 0 || cellsOf(rows[0], "th") != Size {
			continue // not a board: a board opens with its column letters
		}
		if len(rows) != Size+1 {
			t.Errorf("board has %d rows of cells, want 13", len(rows)-1)
		}
		ok := true
		for i, r := range rows[1:] {
			if n := cellsOf(r, "td"); n != Size {
				t.Errorf("board row %d has %d cells", i+1, n)
				ok = false
			}
		}
		if ok && checkBoardTable(t, tb) {
			boards++
		}
	}
	if wantBoard && boards != 1 {
		t.Errorf("found %d boards of 13 × 13 cells, want 1", boards)
	}
	if !wantBoard && boards != 0 {
		t.Errorf("found %d boards in a message without one", boards)
	}
}

// rowsOf returns the rows of a table, not those of nested tables.
func rowsOf(tb *html.Node) []*html.Node {
	var rows []*html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			switch c.Data {
			case "tr":
				rows = append(rows, c)
			case "tbody", "thead", "tfoot":
				walk(c)
			}
		}
	}
	walk(tb)
	return rows
}

func cellsOf(tr *html.Node, tag string) int {
	n := 0
	for c := tr.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.Data == tag {
			n++
		}
	}
	return n
}

// checkBalanced tokenizes the HTML and checks that every opened element is
// closed in order (void elements aside), which html.Parse would forgive.
func checkBalanced(t *testing.T, doc string) {
	t.Helper()
	void := map[string]bool{"br": true, "meta": true, "img": true, "hr": true, "link": true, "input": true}
	z := html.NewTokenizer(strings.NewReader(doc))
	var stack []string
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			if len(stack) != 0 {
				t.Errorf("unclosed elements: %v", stack)
			}
			return
		case html.StartTagToken:
			name, _ := z.TagName()
			if !void[string(name)] {
				stack = append(stack, string(name))
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			if len(stack) == 0 || stack[len(stack)-1] != string(name) {
				t.Fatalf("</%s> closes %v", name, stack)
			}
			stack = stack[:len(stack)-1]
		}
	}
}

// TestNoOtherRack: a player's rack reaches that player only (EMAIL §1.4).
// Structurally, no data type but GameOverMsg holds more than the
// recipient's Rack; and rendering two players' notices with distinctive
// racks shows each rack in its owner's mail only.
func TestNoOtherRack(t *testing.T) {
	rackType := reflect.TypeFor[Rack]()
	for _, k := range Kinds() {
		typ := reflect.TypeOf(sample(k))
		for i := range typ.NumField() {
			f := typ.Field(i)
			if f.Type == rackType && f.Name != "Rack" {
				t.Errorf("%s: field %s holds a rack that is not the recipient's", typ, f.Name)
			}
			if f.Type.Kind() == reflect.Slice && f.Type.Elem().Kind() == reflect.Struct && typ != reflect.TypeFor[GameOverMsg]() {
				for j := range f.Type.Elem().NumField() {
					if f.Type.Elem().Field(j).Type == rackType {
						t.Errorf("%s: %s holds racks of several players", typ, f.Name)
					}
				}
			}
		}
	}

	s := newSet(t)
	alice := sampleNotice("Alice", "WKYJXQZ")
	bob := sampleNotice("Bob", "EEAIOUS")
	for _, lang := range Langs() {
		ra, err := s.Render(lang, alice)
		if err != nil {
			t.Fatal(err)
		}
		rb, err := s.Render(lang, bob)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			mail, own, other string
		}{{ra.Text + ra.HTML, "W  K  Y  J  X  Q  Z", "E  E  A  I  O  U  S"}, {rb.Text + rb.HTML, "E  E  A  I  O  U  S", "W  K  Y  J  X  Q  Z"}} {
			if !strings.Contains(c.mail, c.own) {
				t.Errorf("%s: the recipient's rack %q is missing", lang, c.own)
			}
			if strings.Contains(c.mail, c.other) {
				t.Errorf("%s: another player's rack %q appears", lang, c.other)
			}
		}
		// In HTML the rack's tiles are cells; the distinctive W K Y J
		// sequence must not occur in Bob's mail in any form.
		if strings.Contains(rb.HTML, ">W<span") || strings.Contains(rb.HTML, ">K<span") {
			t.Errorf("%s: Alice's tiles appear in Bob's HTML", lang)
		}
	}
}

// TestMailKinds: each kind's sample data says that kind, so that every
// kind has a data type of its own; no data renders none, and a pointer to
// the data renders as the data does.
func TestMailKinds(t *testing.T) {
	for _, k := range Kinds() {
		if got := KindOf(sample(k)); got != k {
			t.Errorf("%s: the sample data (%T) says %s", k, sample(k), got)
		}
	}
	s := newSet(t)
	if _, err := s.Render("en", nil); err == nil {
		t.Error("no data rendered")
	}
	h := sample(Help).(HelpMsg)
	byValue, err := s.Render("en", h)
	if err != nil {
		t.Fatal(err)
	}
	if byPointer, err := s.Render("en", &h); err != nil || byPointer != byValue {
		t.Errorf("pointer data: %v, or renders otherwise", err)
	}
}

func TestFallbackLang(t *testing.T) {
	s := newSet(t)
	en, err := s.Render("en", sample(Help))
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"", "de", "EN-gb", "xx"} {
		r, err := s.Render(lang, sample(Help))
		if err != nil {
			t.Fatal(err)
		}
		if r != en {
			t.Errorf("lang %q does not fall back to en", lang)
		}
	}
	fr, _ := s.Render("fr", sample(Help))
	es, _ := s.Render("es", sample(Help))
	if fr.Text == en.Text || es.Text == en.Text || fr.Text == es.Text {
		t.Error("languages render alike")
	}
}

// TestEveryReason renders every reason kind in every language, and checks
// that none falls back to the generic sentence and that unknown words are
// all named (RULES §6.1) while a reserve-empty refusal names none (§6.3).
func TestEveryReason(t *testing.T) {
	t.Parallel()
	s := newSet(t)
	for _, lang := range Langs() {
		other, err := s.Render(lang, RejectedMsg{Head: sampleHead("Bob"), Reasons: []Reason{{Kind: "no-such-kind"}}})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(other.Text, "no-such-kind") {
			t.Errorf("%s: an unknown reason kind is not named:\n%s", lang, other.Text)
		}
		generic := strings.SplitN(strings.Split(other.Text, "- ")[1], "(", 2)[0]
		for _, rk := range ReasonKinds() {
			m := RejectedMsg{Head: sampleHead("Bob"), Command: "PLACE H7 ACROSS CHAT", Reasons: []Reason{{
				Kind: rk, Cells: []Pos{pos("H7"), pos("I7")}, Letters: "X?", Words: []string{"CHATX", "XA"},
				Slots: []int{8}, Need: 7, Have: 3, Detail: "ZZ9"}}}
			if rk == ReasonReserveEmpty {
				m.Reasons[0].Words = nil
				m.Probe = &Probe{Left: 0, Max: 10, Next: sampleNow.Add(15 * time.Second)}
			}
			r, err := s.Render(lang, m)
			if err != nil {
				t.Fatalf("%s %s: %v", lang, rk, err)
			}
			if strings.Contains(r.Text, generic) {
				t.Errorf("%s %s: no sentence of its own", lang, rk)
			}
			if rk == ReasonUnknownWords && (!strings.Contains(r.Text, "CHATX") || !strings.Contains(r.Text, "XA")) {
				t.Errorf("%s: not every unknown word is named:\n%s", lang, r.Text)
			}
			if rk == ReasonReserveEmpty && !strings.Contains(r.Text, "0 ") {
				t.Errorf("%s: reserve-empty does not show the reserve:\n%s", lang, r.Text)
			}
			checkTextLines(t, r.Text)
		}
	}
}

func TestRelative(t *testing.T) {
	now := time.Date(2026, 3, 4, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		d          time.Duration
		en, es, fr string
	}{
		{2*24*time.Hour + 3*time.Hour + 4*time.Minute, "in 2 days 3 h", "en 2 días 3 h", "dans 2 jours 3 h"},
		{24 * time.Hour, "in 1 day", "en 1 día", "dans 1 jour"},
		{3*time.Hour + 20*time.Minute, "in 3 h 20 min", "en 3 h 20 min", "dans 3 h 20 min"},
		{2 * time.Hour, "in 2 h", "en 2 h", "dans 2 h"},
		{45 * time.Minute, "in 45 min", "en 45 min", "dans 45 min"},
		{59*time.Minute + 50*time.Second, "in 1 h", "en 1 h", "dans 1 h"},
		{30 * time.Second, "in less than a minute", "en menos de un minuto", "dans moins d’une minute"},
		{0, "in less than a minute", "en menos de un minuto", "dans moins d’une minute"},
		{-2 * time.Hour, "2 h ago", "hace 2 h", "il y a 2 h"},
		{-(3*24*time.Hour + time.Hour), "3 days 1 h ago", "hace 3 días 1 h", "il y a 3 jours 1 h"},
	}
	for _, tc := range tests {
		for lang, want := range map[string]string{"en": tc.en, "es": tc.es, "fr": tc.fr} {
			if got := newLang(lang).rel(now, now.Add(tc.d)); got != want {
				t.Errorf("%s rel(%v) = %q, want %q", lang, tc.d, got, want)
			}
		}
	}
}

func TestWhen(t *testing.T) {
	at := time.Date(2026, 3, 1, 15, 4, 0, 0, time.UTC)
	tz := time.FixedZone("CET", 3600)
	for lang, want := range map[string]string{
		"en": "Sunday 1 March 2026 at 16:04 CET",
		"es": "domingo 1 de marzo de 2026 a las 16:04 CET",
		"fr": "dimanche 1er mars 2026 à 16:04 CET",
	} {
		if got := newLang(lang).when(tz, at); got != want {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
	if got := newLang("en").when(nil, at); got != "Sunday 1 March 2026 at 15:04 UTC" {
		t.Errorf("nil zone: %q", got)
	}
	if got := newLang("en").when(time.FixedZone("", 5*3600+1800), at); !strings.HasSuffix(got, "20:34 UTC+5:30") {
		t.Errorf("unnamed zone: %q", got)
	}
	// A real zone: its abbreviation in winter and summer; an offset where
	// the tz database has only a number ("-03").
	load := func(name string) *time.Location {
		loc, err := zone.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		return loc
	}
	summer := time.Date(2026, 7, 1, 15, 4, 0, 0, time.UTC)
	for _, tc := range []struct {
		tz   string
		at   time.Time
		want string
	}{
		{"Europe/Paris", at, "Sunday 1 March 2026 at 16:04 CET"},
		{"Europe/Paris", summer, "Wednesday 1 July 2026 at 17:04 CEST"},
		{"America/Sao_Paulo", summer, "Wednesday 1 July 2026 at 12:04 UTC−3"},
	} {
		if got := newLang("en").when(load(tc.tz), tc.at); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.tz, got, tc.want)
		}
	}
}

// textGrid is the text board of a BOARD reply drawing b: its 14 lines.
func textGrid(t *testing.T, s *Set, b Board) string {
	t.Helper()
	d := sampleNotice("Bob", "QUARTZ?")
	d.Board = b
	r, err := s.Render("en", BoardMsg(d))
	if err != nil {
		t.Fatal(err)
	}
	_, grid, ok := strings.Cut(r.Text, "== The board ==\n\n")
	lines := strings.SplitN(grid, "\n", Size+2)
	if !ok || len(lines) < Size+2 {
		t.Fatalf("no board in:\n%s", r.Text)
	}
	return strings.Join(lines[:Size+1], "\n")
}

// TestGrid checks the text board against RULES §2.4's layout, drawn with
// the text board's signs (never letters: = - " ' + for TW DW TL DL cross).
func TestGrid(t *testing.T) {
	s := newSet(t)
	var b Board
	layout(&b)
	const want = `     A  B  C  D  E  F  G  H  I  J  K  L  M
  1  #  #  .  =  .  .  .  .  .  =  .  #  #
  2  #  #  -  .  .  "  .  "  .  .  -  #  #
  3  .  -  .  .  .  .  .  .  .  .  .  -  .
  4  =  .  .  .  .  '  .  '  .  .  .  .  =
  5  .  .  .  .  .  .  .  .  .  .  .  .  .
  6  .  "  .  '  .  +  .  +  .  '  .  "  .
  7  .  .  .  .  .  .  *  .  .  .  .  .  .
  8  .  "  .  '  .  +  .  +  .  '  .  "  .
  9  .  .  .  .  .  .  .  .  .  .  .  .  .
 10  =  .  .  .  .  '  .  '  .  .  .  .  =
 11  .  -  .  .  .  .  .  .  .  .  .  -  .
 12  #  #  -  .  .  "  .  "  .  .  -  #  #
 13  #  #  .  =  .  .  .  .  .  =  .  #  #`
	got := textGrid(t, s, b)
	norm := func(s string) string {
		var out []string
		for l := range strings.SplitSeq(s, "\n") {
			out = append(out, strings.TrimRight(l, " "))
		}
		return strings.Join(out, "\n")
	}
	if norm(got) != want { // RULES §2.4
		t.Errorf("empty board:\n%s\nwant:\n%s", got, want)
	}
	word(&b, "F7", false, "CHaT", true)
	line := strings.Split(textGrid(t, s, b), "\n")[7]
	if !strings.Contains(line, "[C][H][a][T]") {
		t.Errorf("last move with a blank: %q", line)
	}
}

func BenchmarkRenderTurnNotice(b *testing.B) {
	s := newSet(b)
	d := sample(TurnNotice)
	for b.Loop() {
		if _, err := s.Render("fr", d); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkNew(b *testing.B) {
	for b.Loop() {
		if _, err := New(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestConcurrentRender: one Set serves every goroutine (run with -race).
func TestConcurrentRender(t *testing.T) {
	s := newSet(t)
	want, err := s.Render("es", sample(TurnNotice))
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 8)
	for i := range 8 {
		go func() {
			var err error
			for j := range 5 {
				k := Kinds()[(i+j)%len(Kinds())]
				if _, err = s.Render(Langs()[i%3], sample(k)); err != nil {
					break
				}
			}
			if err == nil {
				var r Rendered
				if r, err = s.Render("es", sample(TurnNotice)); err == nil && r != want {
					err = errors.New("concurrent render differs")
				}
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestRejectedWithoutPosition: a refused play from a log that did not
// record where it was played says nothing of a cell (it is not A1).
func TestRejectedWithoutPosition(t *testing.T) {
	s := newSet(t)
	for _, lang := range Langs() {
		r, err := s.Render(lang, LogMsg{Head: sampleHead("Bob"), Log: []LogLine{
			{Kind: LogRejected, Player: "Bob", NoPos: true, Words: []Word{{"QUEUX", 0}}}}})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(r.Text, "QUEUX") || strings.Contains(r.Text, "A1") {
			t.Errorf("%s: %s", lang, r.Text)
		}
	}
}

// A player whose name needs escaping reads the same in the scores table
// as in the greeting, both formats.
func TestScoresEscapeNames(t *testing.T) {
	s := newSet(t)
	d := sampleNotice("Alice", "QUARTZ?")
	d.State.Players[0].Name = `Al<i>ce & "Bob"+1`
	d.Head.To = d.State.Players[0].Name
	out, err := s.Render("en", d)
	if err != nil {
		t.Fatal(err)
	}
	esc := `Al&lt;i&gt;ce &amp; &#34;Bob&#34;&#43;1`
	if n := strings.Count(out.HTML, esc); n < 2 {
		t.Errorf("the escaped name appears %d times in the HTML, want the greeting and the scores:\n%s", n, out.HTML)
	}
	if strings.Contains(out.HTML, "<i>") {
		t.Error("a name's markup reached the HTML unescaped")
	}
	if !strings.Contains(out.Text, `Al<i>ce & "Bob"+1 (you)`) {
		t.Errorf("the text scores lack the raw name:\n%s", out.Text)
	}
}

// TestBoardCacheFollowsData: notices of different boards rendered in
// turn, as a busy daemon does, each equal a render on a fresh set (one
// per board, which draws that board alone, in every language).
func TestBoardCacheFollowsData(t *testing.T) {
	t.Parallel()
	s := freshSet(t)
	a := sample(TurnNotice).(NoticeMsg)
	b := a
	b.Board.Cells[6][6] = Cell{Kind: Plain, Letter: 'Z', Value: 10}
	c := a
	c.Board.Cells[7][4].Last = !c.Board.Cells[7][4].Last
	d := a
	d.Board.Cells[7][4].Blank = !d.Board.Cells[7][4].Blank
	boards := []NoticeMsg{a, b, c, d}
	want := make([]map[string]Rendered, len(boards))
	for i, m := range boards {
		fresh := freshSet(t)
		want[i] = make(map[string]Rendered)
		for _, lang := range Langs() {
			r, err := fresh.Render(lang, m)
			if err != nil {
				t.Fatal(err)
			}
			want[i][lang] = r
		}
	}
	for _, lang := range Langs() {
		for i := range 2 * len(boards) {
			got, err := s.Render(lang, boards[i%len(boards)])
			if err != nil {
				t.Fatal(err)
			}
			if got != want[i%len(boards)][lang] {
				t.Errorf("%s notice %d differs from a fresh render", lang, i)
			}
		}
		x, _ := s.Render(lang, a)
		for i, m := range boards[1:] {
			if y, _ := s.Render(lang, m); x.HTML == y.HTML || x.Text == y.Text {
				t.Errorf("%s: board %d rendered as the first", lang, i+1)
			}
		}
	}
}

// BenchmarkRenderMove renders the four turn notices of a move, as the
// table does: each move a new board (drawn once, see boardCache) and log.
func BenchmarkRenderMove(b *testing.B) {
	s := newSet(b)
	base := sample(TurnNotice).(NoticeMsg)
	i := 0
	for b.Loop() {
		i++
		m := base
		m.Board.Cells[i%Size][(i/Size)%Size].Letter = byte('A' + i%26)
		m.Board.Cells[(i/(Size*Size))%Size][i%Size].Value = i
		m.Log = append([]LogLine(nil), base.Log...)
		m.Log[len(m.Log)-1].Score = i
		for _, p := range []string{"Alice", "Bob", "Chloé", "Dan"} {
			d := m
			d.Head.To = p
			if _, err := s.Render("en", d); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// TestConfirmCommandWhole: a confirmation (EMAIL §1.7) quotes its
// command on a line of its own that is never wrapped, however long: in
// the text part a quoted line, in the HTML part a blockquote. A forged
// "SAY xxx… CONFIRM xxx…" wrapped left CONFIRM alone on a line, which a
// reply sending the text back unquoted confirmed (#35).
func TestConfirmCommandWhole(t *testing.T) {
	t.Parallel()
	s := newSet(t)
	x := strings.Repeat("x", 80)
	for _, lang := range Langs() {
		cmd := "SAY " + x + " CONFIRM " + x + " " + strings.Repeat("CONFIRM ", 60) + "y"
		r, err := s.Render(lang, ConfirmMsg{Head: sampleHead("Bob"), Command: cmd, Expires: sampleNow.Add(24 * time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		var quoted int
		for l := range strings.SplitSeq(r.Text, "\n") {
			switch {
			case l == "> "+cmd:
				quoted++
			case strings.Contains(l, x) || strings.HasPrefix(l, "CONFIRM"):
				t.Errorf("%s: the command is cut, or its keyword heads a line: %q", lang, l)
			}
		}
		if quoted != 1 {
			t.Errorf("%s: the command is not quoted whole on one line:\n%s", lang, r.Text)
		}
		if !strings.Contains(r.HTML, "overflow-wrap:anywhere;\">"+cmd+"</blockquote>") {
			t.Errorf("%s: the HTML part does not quote the command in a blockquote:\n%s", lang, r.HTML)
		}
	}
}

// quotingReasons are the reasons whose Detail is the sender's own words,
// shown below the sentence (Reason.Quote).
var quotingReasons = []ReasonKind{ReasonConfirmUsed, ReasonConfirmExpired, ReasonExtraArg, ReasonBadVacation, ReasonBadDuration}

// TestRefusalQuotesWhole: a refusal quotes the command it refuses, and
// the sender's words a reason names (a confirmation's stored command
// when it was used or expired, arguments it could not read), each whole
// on a line of its own, never inside a wrapped sentence: a forged
// "SAY xxx… CONFIRM xxx…" wrapped there left CONFIRM heading a line that
// an echo sends back (#35). The other reasons quote nothing below.
func TestRefusalQuotesWhole(t *testing.T) {
	t.Parallel()
	s := newSet(t)
	x := strings.Repeat("x", 80)
	cmd := "SAY " + x + " CONFIRM " + x + " " + strings.Repeat("CONFIRM ", 60) + "y"
	for _, lang := range Langs() {
		for _, rk := range quotingReasons {
			r, err := s.Render(lang, RejectedMsg{Head: sampleHead("Bob"), Command: cmd, Reasons: []Reason{{Kind: rk, Detail: cmd}}})
			if err != nil {
				t.Fatal(err)
			}
			var quoted int
			for l := range strings.SplitSeq(r.Text, "\n") {
				switch {
				case l == "> "+cmd:
					quoted++
				case strings.Contains(l, x) || strings.HasPrefix(l, "CONFIRM"):
					t.Errorf("%s %s: the command is cut, or its keyword heads a line: %q", lang, rk, l)
				}
			}
			if quoted != 2 {
				t.Errorf("%s %s: the command and the reason's words are not each quoted whole on a line:\n%s", lang, rk, r.Text)
			}
			if n := strings.Count(r.HTML, "overflow-wrap:anywhere;\">"+cmd+"</blockquote>"); n != 2 {
				t.Errorf("%s %s: the HTML part quotes the sender's words in %d blockquotes, want 2:\n%s", lang, rk, n, r.HTML)
			}
		}
	}
	for _, rk := range ReasonKinds() {
		q := Reason{Kind: rk, Detail: "t42"}.Quote()
		if want := slices.Contains(quotingReasons, rk); (q != "") != want {
			t.Errorf("%s: Quote %q, want a quote %v", rk, q, want)
		}
	}
}

// TestSaidEscaped: a player's SAY reaches the others as written in the
// text part, quoted, and escaped in the HTML part, where no markup of
// theirs survives (LEAGUES §5.3).
func TestSaidEscaped(t *testing.T) {
	s := newSet(t)
	text := "<script>alert(1)</script> & <a href=\"x\">co</a>\nPASS"
	for _, lang := range Langs() {
		r, err := s.Render(lang, SaidMsg{Head: sampleHead("Bob"), From: "Alice", Text: text})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(r.Text, "> <script>alert(1)</script> & <a href=\"x\">co</a>\n> PASS\n") {
			t.Errorf("%s text part:\n%s", lang, r.Text)
		}
		if !strings.Contains(r.HTML, "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;a href=&#34;x&#34;&gt;co&lt;/a&gt;") ||
			strings.Contains(r.HTML, "<script") || strings.Contains(r.HTML, "<a href") {
			t.Errorf("%s HTML part not escaped:\n%s", lang, r.HTML)
		}
		if strings.Contains(r.Subject, "<") || !strings.Contains(r.Subject, "Alice") {
			t.Errorf("%s subject %q", lang, r.Subject)
		}
	}
}

// ReasonKinds lists every ReasonKind the templates write a sentence for.
func ReasonKinds() []ReasonKind {
	return []ReasonKind{
		ReasonNoTiles, ReasonTooManyTiles, ReasonOffBoard, ReasonWalled, ReasonOccupied,
		ReasonDuplicateCell, ReasonBadLetter, ReasonMismatch, ReasonNotThrough,
		ReasonNotInLine, ReasonGap, ReasonNotTouching, ReasonFirstNotCentre,
		ReasonFirstTooShort, ReasonNotOnRack, ReasonUnknownWords, ReasonReserveEmpty,
		ReasonNotYourTurn, ReasonGameOver, ReasonExchangeNotAllowed, ReasonBagTooSmall,
		ReasonBadSlot, ReasonStale, ReasonNotAPlayer, ReasonBadToken, ReasonNotAuth,
		ReasonConfirmUsed, ReasonConfirmExpired, ReasonConfirmLine,
		ReasonNoSuchTable, ReasonTableFull, ReasonAlreadyStarted, ReasonTooFewPlayers,
		ReasonNotOwner, ReasonAlreadySeated, ReasonNoOpening, ReasonNoLeague, ReasonResigned, ReasonNotYourTable, ReasonStillRunning, ReasonRematchExists, ReasonNoTableToJoin, ReasonNotAtTable, ReasonWhichTable, ReasonNoCommand, ReasonBadCell,
		ReasonBadDirection, ReasonBadWord, ReasonWordTooLong, ReasonBadExchange,
		ReasonBadLang, ReasonBadVariant, ReasonBadTable, ReasonBadZone, ReasonBadVacation, ReasonBadNotify,
		ReasonBadAddress, ReasonSayTooLong, ReasonMissingNote, ReasonNoteTooLong, ReasonBadNote, ReasonMissingArg,
		ReasonExtraArg, ReasonTooLarge, ReasonUnreadable, ReasonBadCharset, ReasonBinary,
		ReasonVacationDays, ReasonVacationOverlap, ReasonVacationPast, ReasonVacationFar, ReasonNoVacation,
		ReasonNotInvited, ReasonNoInvitation, ReasonSeveralInvites, ReasonInviteDeclined,
		ReasonInviteExpired, ReasonInviteWithdrawn, ReasonTooManyInvites, ReasonSelfInvite,
		ReasonNotYetSeated, ReasonInvitesWaiting,
		ReasonUnfitAddress, ReasonRefusesInvite, ReasonInvitedOften, ReasonDeclinedYou,
		ReasonInvitesToday, ReasonOutsiderMail, ReasonOutsiderDomain, ReasonOpenTables,
		ReasonSayLimit, ReasonSayWhere,
		ReasonNoSuchLeague, ReasonNoSignup, ReasonNotInLeague, ReasonWhichLeague, ReasonAlreadySignedUp,
		ReasonGiveOwnTurn, ReasonGiveComputer, ReasonGiveRange, ReasonGiveCap, ReasonGiveStale, ReasonBadDuration,
	}
}

// TestNotYourTurn: a move refused as not the author's turn never adds
// that the turn is still theirs (#34), and names each table where it is,
// one or several; any other refusal keeps the sentence.
func TestNotYourTurn(t *testing.T) {
	t.Parallel()
	s := newSet(t)
	still := map[string]string{"en": "it still is", "es": "lo sigue siendo", "fr": "ça l’est toujours"}
	for _, lang := range Langs() {
		for _, tables := range [][]string{nil, {"t42"}, {"t42", "tab"}} {
			m := RejectedMsg{Head: sampleHead("Bob"), Command: "PASS", Reasons: []Reason{{Kind: ReasonNotYourTurn, Detail: "Alice"}}, YourTurn: tables}
			r, err := s.Render(lang, m)
			if err != nil {
				t.Fatal(err)
			}
			for _, part := range []string{r.Text, r.HTML} {
				if strings.Contains(part, still[lang]) {
					t.Errorf("%s %q: not your turn, yet %q:\n%s", lang, tables, still[lang], part)
				}
				for _, name := range tables {
					if !strings.Contains(part, name) {
						t.Errorf("%s: %q not named:\n%s", lang, name, part)
					}
				}
			}
			checkTextLines(t, r.Text)
		}
		r, err := s.Render(lang, RejectedMsg{Head: sampleHead("Bob"), Command: "PASS", Reasons: []Reason{{Kind: ReasonGap}}})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(r.Text, still[lang]) || !strings.Contains(r.HTML, still[lang]) {
			t.Errorf("%s: another refusal lost %q:\n%s", lang, still[lang], r.Text)
		}
	}
}
