package templates

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/lexio-mail/lexio/internal/browser"
)

// browserWidths are a phone's and a desktop mail reader's, in CSS px.
var browserWidths = []int{360, 900}

// browserView is a way a mail reader shows a mail: its width, whether it
// is in dark mode (prefers-color-scheme: dark) and whether it drops the
// style element of the head, as some clients do.
type browserView struct {
	name    string // in the screenshots' names: "360", "360-dark"
	width   int
	dark    bool
	noStyle bool
}

// browserViews are browserWidths, and a phone in dark mode and one that
// drops the style element: the mail must fit without it.
func browserViews() []browserView {
	var vs []browserView
	for _, w := range browserWidths {
		vs = append(vs, browserView{name: fmt.Sprint(w), width: w})
	}
	return append(vs, browserView{name: "360-dark", width: 360, dark: true}, browserView{name: "360-nostyle", width: 360, noStyle: true})
}

// inkSelector picks the text whose contrast the test checks in light and
// dark mode: the board's squares and its column and row heads, the tiles
// (every cell with a bgcolor) and the deadline box.
const inkSelector = ".b td, .b th, td[bgcolor], .d"

// minContrast is WCAG's AA contrast for text.
const minContrast = 4.5

// withoutStyle is doc without its style element.
func withoutStyle(doc string) string {
	i, j := strings.Index(doc, "<style>"), strings.Index(doc, "</style>")
	if i < 0 || j < i {
		return doc
	}
	return doc[:i] + doc[j+len("</style>"):]
}

// knownOverflow lists the mails (names of browserCases) that overflow a
// 360 px phone, in every language. For them the test logs by how much and
// passes, but it fails as soon as one fits, so that the list only shrinks
// (issue #13: nothing overflows at 360 or 900 px). Any other overflow, and
// any at 900 px, fails the test. Do not add to the list: fix the layout.
var knownOverflow = []string{}

// browserCase is a mail to render: its sample data, by lang and name.
type browserCase struct {
	lang, name string
	data       Mail
}

// browserCases are the mails the browser test renders: every kind in
// every language, the author's variants and a late game too.
func browserCases() []browserCase {
	type c = browserCase
	var cs []c
	for _, lang := range Langs() {
		for _, k := range Kinds() {
			cs = append(cs, c{lang, k.String(), sample(k)})
		}
		for name, m := range authorSamples() {
			cs = append(cs, c{lang, name, m})
		}
		cs = append(cs, c{lang, "turn-notice-late", lateNotice()}, c{lang, "game-over-late", lateGameOver()})
		linked := sample(TurnNotice).(NoticeMsg)
		linked.View, linked.Watch = "https://lexio.example.org/t/t42/p/7/abcdefghijklmnopqrstuvwxyz", "https://lexio.example.org/t/t42/s/abcdefghijklmnopqrstuvwxyz"
		cs = append(cs, c{lang, "turn-notice-web-links", linked})
	}
	slices.SortFunc(cs, func(a, b c) int { return strings.Compare(a.lang+"/"+a.name, b.lang+"/"+b.name) })
	return cs
}

// TestBrowserLayout renders each of browserCases in headless Chromium in
// each of browserViews and checks that nothing passes the viewport's right
// edge (but for knownOverflow), and, on a phone in light and in dark mode,
// that the squares, the tiles and the deadline box keep a contrast of
// minContrast. Each view is a tab of one browser, and the views run side
// by side; each mail is rendered once for all of them. It keeps a
// full-page screenshot, lang-name-view.png, in the directory it logs, of
// each view that fails, and of every view when LEXIO_SCREENSHOTS names
// where to keep them (for a human look at them all: they cost more than
// the checks).
func TestBrowserLayout(t *testing.T) {
	t.Parallel()
	s := newSet(t)
	cases := browserCases()
	for _, name := range knownOverflow {
		if !slices.ContainsFunc(cases, func(c browserCase) bool { return c.name == name }) {
			t.Errorf("knownOverflow names %q, which is not a mail of browserCases", name)
		}
	}
	docs := make([]string, len(cases))
	for i, c := range cases {
		r, err := s.Render(c.lang, c.data)
		if err != nil {
			t.Fatalf("%s/%s: %v", c.lang, c.name, err)
		}
		docs[i] = r.HTML
	}
	b := browser.ForTest(t)
	dir := browser.ScreenshotDir(t, "templates")
	every := os.Getenv(browser.EnvScreenshots) != ""
	if every {
		t.Logf("screenshots in %s", dir)
	} else {
		t.Logf("screenshots of what fails in %s (set %s for every view)", dir, browser.EnvScreenshots)
	}
	var mu sync.Mutex
	var overflowing []string
	// The summary runs once every view's subtests are done.
	t.Cleanup(func() {
		slices.Sort(overflowing)
		t.Logf("%d mails overflow: %s", len(overflowing), strings.Join(overflowing, ", "))
	})
	t.Run("axe", func(t *testing.T) {
		t.Parallel()
		testAxe(t, b, cases, docs)
	})
	t.Run("names", func(t *testing.T) {
		t.Parallel()
		testBoardTree(t, b, s)
	})
	for _, v := range browserViews() {
		t.Run(v.name, func(t *testing.T) {
			t.Parallel()
			// One tab for the view, each mail written into it in turn.
			p, err := b.Open(t.Context(), "about:blank", v.width)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			if err := p.SetDark(t.Context(), v.dark); err != nil {
				t.Fatal(err)
			}
			for i, c := range cases {
				t.Run(c.lang+"/"+c.name, func(t *testing.T) {
					doc := docs[i]
					if v.noStyle {
						doc = withoutStyle(doc)
					}
					if err := show(t, p, doc); err != nil {
						t.Fatal(err)
					}
					o, err := p.Overflow(t.Context())
					if err != nil {
						t.Fatal(err)
					}
					// The screenshot is taken at the end, of a view that
					// failed (or of every view, when asked); the view
					// without style looks like the light one: none.
					shot := filepath.Join(dir, fmt.Sprintf("%s-%s-%s.png", c.lang, c.name, v.name))
					if v.noStyle {
						shot = "the light view's"
					}
					defer func() {
						if !v.noStyle && (every || t.Failed()) {
							if err := p.Screenshot(t.Context(), shot); err != nil {
								t.Error(err)
							}
						}
					}()
					known := v.width == 360 && slices.Contains(knownOverflow, c.name)
					switch {
					case o.Px() > 0 && known:
						t.Logf("overflows, as knownOverflow says: %v", o)
					case o.Px() > 0:
						t.Errorf("overflows: %v (see %s)", o, shot)
					case known:
						t.Errorf("fits now: delete %q from knownOverflow", c.name)
					}
					if o.Px() > 0 {
						mu.Lock()
						overflowing = append(overflowing, fmt.Sprintf("%s/%s@%s +%d px", c.lang, c.name, v.name, o.Px()))
						mu.Unlock()
					}
					if v.width != 360 || v.noStyle {
						return
					}
					inks, err := p.Inks(t.Context(), inkSelector)
					if err != nil {
						t.Fatal(err)
					}
					if strings.Contains(doc, `class="b"`) && len(inks) == 0 {
						t.Errorf("found no text in %q, on a board", inkSelector)
					}
					for _, in := range inks {
						if k := browser.Contrast(in.Color, in.Background); k < minContrast {
							t.Errorf("%q in %s: %v on %v, contrast %.2f, want %.1f (see %s)", in.Text, in.Path, in.Color, in.Background, k, minContrast, shot)
						}
					}
				})
			}
		})
	}
}

// show makes doc the document of the tab p, parsed as a load of it would
// be (its doctype, so standards mode, included). Writing it into the
// page keeps the tab's renderer, where each load of a data: URL starts
// a new renderer process, which costs more than the rest of the checks.
func show(t *testing.T, p *browser.Page, doc string) error {
	q, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	mode, err := p.Eval(t.Context(), `(() => { document.open(); document.write(`+string(q)+`); document.close(); return document.compatMode; })()`)
	if err != nil {
		return err
	}
	if mode != "CSS1Compat" {
		return fmt.Errorf("the mail is laid out in %s, not in standards mode", mode)
	}
	return nil
}

// axeOthers are the mails that testAxe checks in the languages other
// than English, which differ from it in words only: the notices with a
// board, whose cells' names are translated.
var axeOthers = []string{"turn-notice", "game-over"}

// testAxe runs axe-core on each mail in English and on axeOthers in every
// language, in a phone's tab in light mode: issue #28 wants no serious or
// critical violation in any. A mail with a board takes axe-core about
// 100 ms (its 169 cells), one without 20 ms.
func testAxe(t *testing.T, b *browser.Browser, cases []browserCase, docs []string) {
	a := browser.AxeForTest(t)
	p, err := b.Open(t.Context(), "about:blank", 360)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for i, c := range cases {
		if c.lang != "en" && !slices.Contains(axeOthers, c.name) {
			continue
		}
		if err := show(t, p, docs[i]); err != nil {
			t.Fatal(err)
		}
		vs, err := p.Axe(t.Context(), a)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vs {
			t.Errorf("%s/%s: %v", c.lang, c.name, v)
		}
	}
}

// cellName is a board cell's accessible name: its coordinate, then what
// is on it.
var cellName = regexp.MustCompile(`^([A-M](?:1[0-3]|[1-9])): \S`)

// testBoardTree reads a turn notice's accessibility tree, as Chromium
// gives it to a screen reader, in each language: one table named as the
// language names the board, the letters A–M its column heads and 1–13
// its row heads, its 169 cells each named by its coordinate, row by row;
// and, of the mail's other tables, only the scores are a table.
func testBoardTree(t *testing.T, b *browser.Browser, s *Set) {
	p, err := b.Open(t.Context(), "about:blank", 360)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, lang := range Langs() {
		r, err := s.Render(lang, sample(TurnNotice))
		if err != nil {
			t.Fatal(err)
		}
		if err := show(t, p, r.HTML); err != nil {
			t.Fatal(err)
		}
		root, err := p.AXTree(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		name, err := s.Phrase(lang, "board.name", nil)
		if err != nil {
			t.Fatal(err)
		}
		tables := root.Find(func(n *browser.AXNode) bool { return n.Role == "table" })
		var boards []*browser.AXNode
		for _, tb := range tables {
			if tb.Name == name {
				boards = append(boards, tb)
			}
		}
		if len(tables) != 3 || len(boards) != 1 {
			t.Errorf("%s: %d tables, %d named %q; want the board, the scores and the rack", lang, len(tables), len(boards), name)
			continue
		}
		checkRackNames(t, s, lang, tables)
		heads := func(role string) []string {
			var out []string
			for _, n := range boards[0].Find(func(n *browser.AXNode) bool { return n.Role == role }) {
				out = append(out, n.Name)
			}
			return out
		}
		var cols, rows []string
		for i := range Size {
			cols, rows = append(cols, string(rune('A'+i))), append(rows, fmt.Sprint(i+1))
		}
		if got := heads("columnheader"); !slices.Equal(got, cols) {
			t.Errorf("%s: column heads %q", lang, got)
		}
		if got := heads("rowheader"); !slices.Equal(got, rows) {
			t.Errorf("%s: row heads %q", lang, got)
		}
		var at []string
		for _, n := range heads("cell") {
			if n == "" {
				continue // the corner
			}
			m := cellName.FindStringSubmatch(n)
			if m == nil {
				t.Errorf("%s: a cell is named %q", lang, n)
				continue
			}
			at = append(at, m[1])
		}
		var want []string
		for r := range Size {
			for c := range Size {
				want = append(want, Pos{Row: r, Col: c}.String())
			}
		}
		if !slices.Equal(at, want) {
			t.Errorf("%s: the cells are named at %q, want %q", lang, at, want)
		}
	}
}

// checkRackNames: one of the tables is the recipient's rack, its slots the
// column heads and each tile named by its letter and value ("Q, 8
// points"), a blank by what it is.
func checkRackNames(t *testing.T, s *Set, lang string, tables []*browser.AXNode) {
	t.Helper()
	var slots, want []string
	for _, tl := range sample(TurnNotice).(NoticeMsg).Rack {
		slots = append(slots, fmt.Sprint(tl.Slot))
		var name string
		var err error
		if tl.Blank {
			name, err = s.Phrase(lang, "legend.blank", nil)
		} else {
			name, err = s.Phrase(lang, "points", tl.Value)
			name = string(rune(tl.Letter)) + ", " + name
		}
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, name)
	}
	for _, tb := range tables {
		var heads, cells []string
		for _, n := range tb.Find(func(n *browser.AXNode) bool { return n.Role == "columnheader" }) {
			heads = append(heads, n.Name)
		}
		if !slices.Equal(heads, slots) {
			continue
		}
		for _, n := range tb.Find(func(n *browser.AXNode) bool { return n.Role == "cell" }) {
			cells = append(cells, n.Name)
		}
		if !slices.Equal(cells, want) {
			t.Errorf("%s: the rack's tiles are named %q, want %q", lang, cells, want)
		}
		return
	}
	t.Errorf("%s: no table is headed by the rack's slots %q", lang, slots)
}
