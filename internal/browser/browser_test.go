package browser_test

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/internal/browser"
)

// fixed is a page with a 600 px table after a paragraph: wider than a
// phone, narrower than a desktop.
const fixed = `<!DOCTYPE html>
<html><body style="margin:8px">
<p>Hello</p>
<table style="width:600px" cellspacing="0" cellpadding="0"><tr><td>wide</td></tr></table>
</body></html>`

// fluid shrinks to its viewport.
const fluid = `<!DOCTYPE html>
<html><body style="margin:8px">
<p style="max-width:600px">A paragraph that wraps at any width, with words.</p>
</body></html>`

// TestBrowser runs its parts in one browser, which starts in about 2 s.
func TestBrowser(t *testing.T) {
	b := browser.ForTest(t)
	for name, f := range map[string]func(*testing.T, *browser.Browser){
		"Overflow": testOverflow, "MediaQuery": testMediaQuery, "Screenshot": testScreenshot,
		"Load": testLoad, "OpenURL": testOpenURL, "OpenErrors": testOpenErrors, "Inks": testInks,
		"Axe": testAxe, "AXTree": testAXTree,
	} {
		t.Run(name, func(t *testing.T) { f(t, b) })
	}
}

func testOverflow(t *testing.T, b *browser.Browser) {
	for _, c := range []struct {
		name  string
		doc   string
		width int
		px    int    // by how much it passes the viewport
		path  string // the first element that passes
	}{
		{"fixed at 360", fixed, 360, 8 + 600 - 360, "body > table:nth-child(2)"},
		{"fixed at 900", fixed, 900, 0, ""},
		{"fluid at 360", fluid, 360, 0, ""},
		// A width the command line cannot give a headless window.
		{"fixed at 320", fixed, 320, 8 + 600 - 320, "body > table:nth-child(2)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := b.Open(t.Context(), browser.DataURL(c.doc), c.width)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			o, err := p.Overflow(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if o.Viewport != c.width || o.Px() != c.px {
				t.Errorf("viewport %d, %d px past; want %d, %d px past (%v)", o.Viewport, o.Px(), c.width, c.px, o)
			}
			if c.px == 0 {
				if len(o.Elements) != 0 || o.Count != 0 || o.String() != fmt.Sprintf("fits in %d px", c.width) {
					t.Errorf("%+v: %v", o, o)
				}
				return
			}
			// The body fits (its width is the viewport's); the table
			// and its cells pass, and only the table is named.
			if len(o.Elements) != 1 || o.Elements[0].Path != c.path || o.Elements[0].Right != 608 || o.Count < 3 {
				t.Errorf("elements %+v, count %d", o.Elements, o.Count)
			}
			want := fmt.Sprintf("608 px wide in %d px (%d px past): %s (to 608 px) and %d elements inside", c.width, c.px, c.path, o.Count-1)
			if o.String() != want {
				t.Errorf("String() = %q\nwant       %q", o, want)
			}
		})
	}
}

// testLoad: pages loaded in turn in one tab keep its width, and each is
// measured alone.
func testLoad(t *testing.T, b *browser.Browser) {
	p, err := b.Open(t.Context(), "about:blank", 360)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for i, doc := range []string{fixed, fluid, fixed} {
		if err := p.Load(t.Context(), browser.DataURL(doc)); err != nil {
			t.Fatal(err)
		}
		o, err := p.Overflow(t.Context())
		if want := map[string]int{fixed: 248, fluid: 0}[doc]; err != nil || o.Viewport != 360 || o.Px() != want {
			t.Errorf("page %d: %v, %v; want %d px past", i, o, err, want)
		}
	}
}

// testMediaQuery: the width set through DevTools is the one CSS media
// queries see; here a narrow screen gets a box too wide for it.
func testMediaQuery(t *testing.T, b *browser.Browser) {
	const doc = `<!DOCTYPE html>
<html><head><style>
#box { width: 300px } @media (max-width: 400px) { #box { width: 700px } }
</style></head><body style="margin:0"><div id="box">box</div></body></html>`
	for width, px := range map[int]int{360: 700 - 360, 401: 0, 900: 0} {
		p, err := b.Open(t.Context(), browser.DataURL(doc), width)
		if err != nil {
			t.Fatal(err)
		}
		o, err := p.Overflow(t.Context())
		p.Close()
		if err != nil || o.Px() != px {
			t.Errorf("at %d px: %v, %v; want %d px past", width, o, err, px)
		}
	}
}

// testScreenshot: the PNG holds the whole page, what passes the viewport
// and what is below it.
func testScreenshot(t *testing.T, b *browser.Browser) {
	doc := strings.Replace(fixed, "<p>Hello</p>", `<div style="height:2000px">tall</div>`, 1)
	for _, c := range []struct {
		width, wide int  // the viewport's width and the screenshot's
		edge        bool // a red line marks the viewport's edge
		count       int  // elements that pass: table, tbody, tr, td
	}{{360, 608, true, 4}, {900, 900, false, 0}} {
		p, err := b.Open(t.Context(), browser.DataURL(doc), c.width)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		path := filepath.Join(t.TempDir(), "page.png")
		if err := p.Screenshot(t.Context(), path); err != nil {
			t.Fatal(err)
		}
		img := decode(t, path)
		if b := img.Bounds(); b.Dx() != c.wide || b.Dy() < 2000 {
			t.Errorf("at %d px the screenshot is %dx%d, want %d wide and at least 2000 high", c.width, b.Dx(), b.Dy(), c.wide)
		}
		red := 0
		for y := range img.Bounds().Dy() {
			if r, g, b, _ := img.At(c.width-1, y).RGBA(); r == 0xffff && g == 0 && b == 0 {
				red++
			}
		}
		if edge := red > 500; edge != c.edge {
			t.Errorf("at %d px, %d red pixels at x=%d", c.width, red, c.width-1)
		}
		// Taking it did not lay the page out again at another width, and
		// the line is gone.
		o, err := p.Overflow(t.Context())
		if want := c.wide - c.width; err != nil || o.Viewport != c.width || o.Px() != want || o.Count != c.count {
			t.Errorf("after the screenshot: %v, %v; want %d px past", o, err, want)
		}
	}
}

// testOpenURL loads a page over HTTP from 127.0.0.1, as the web pages'
// tests will.
func testOpenURL(t *testing.T, b *browser.Browser) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, fixed)
	}))
	defer srv.Close()
	p, err := b.Open(t.Context(), srv.URL+"/page", 1200)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	o, err := p.Overflow(t.Context())
	if err != nil || o.Viewport != 1200 || o.Px() != 0 {
		t.Errorf("%v, %v", o, err)
	}
	// Nothing but this machine resolves: the browser reaches no other.
	for _, url := range []string{"http://example.org/", "http://192.0.2.1/"} {
		p, err := b.Open(t.Context(), url, 900)
		if err == nil {
			p.Close()
			t.Errorf("%s loaded", url)
		} else if !strings.Contains(err.Error(), "ERR_NAME_NOT_RESOLVED") {
			t.Errorf("%s: %v", url, err)
		}
	}
}

func testOpenErrors(t *testing.T, b *browser.Browser) {
	if _, err := b.Open(t.Context(), browser.DataURL(fixed), 0); err == nil {
		t.Error("width 0 opened")
	}
	if _, err := b.Open(t.Context(), "http://127.0.0.1:1/", 360); err == nil || !strings.Contains(err.Error(), "browser: load http://127.0.0.1:1/ at 360 px") {
		t.Errorf("a closed port: %v", err)
	}
}

func decode(t *testing.T, path string) image.Image {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img
}

// testInks: the colours read are those drawn, the background an
// ancestor's where the element has none, and SetDark switches the media
// queries of prefers-color-scheme.
func testInks(t *testing.T, b *browser.Browser) {
	const doc = `<!DOCTYPE html>
<html><head><style>
@media (prefers-color-scheme: dark) { .x { background-color: #000000 !important; color: #ffffff !important } }
</style></head><body style="background-color:#ffffff">
<div class="x" style="background-color:#fff6d6;color:#222222"><span>deadline</span></div>
<p class="x"></p>
</body></html>`
	p, err := b.Open(t.Context(), "about:blank", 360)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, dark := range []bool{false, true} {
		if err := p.SetDark(t.Context(), dark); err != nil {
			t.Fatal(err)
		}
		if err := p.Load(t.Context(), browser.DataURL(doc)); err != nil {
			t.Fatal(err)
		}
		inks, err := p.Inks(t.Context(), ".x, .x span")
		if err != nil {
			t.Fatal(err)
		}
		want := []browser.Ink{
			{Path: "body > div:nth-child(1)", Text: "deadline", Color: browser.RGB{R: 0x22, G: 0x22, B: 0x22}, Background: browser.RGB{R: 0xff, G: 0xf6, B: 0xd6}},
			{Path: "body > div:nth-child(1) > span", Text: "deadline", Color: browser.RGB{R: 0x22, G: 0x22, B: 0x22}, Background: browser.RGB{R: 0xff, G: 0xf6, B: 0xd6}},
		}
		if dark {
			for i := range want {
				want[i].Color, want[i].Background = browser.RGB{R: 255, G: 255, B: 255}, browser.RGB{}
			}
		}
		if fmt.Sprint(inks) != fmt.Sprint(want) {
			t.Errorf("dark %v: inks %v, want %v (the empty p left out)", dark, inks, want)
		}
	}
}

func TestContrast(t *testing.T) {
	white, black := browser.RGB{R: 255, G: 255, B: 255}, browser.RGB{}
	grey := browser.RGB{R: 0x77, G: 0x77, B: 0x77}
	for _, c := range []struct {
		a, b browser.RGB
		want float64
	}{
		{white, black, 21}, {black, white, 21}, {white, white, 1}, {grey, white, 4.48},
	} {
		if got := browser.Contrast(c.a, c.b); got < c.want-0.01 || got > c.want+0.01 {
			t.Errorf("Contrast(%v, %v) = %.3f, want %.2f", c.a, c.b, got, c.want)
		}
	}
}

// testAxe: axe-core finds what a page breaks, serious and critical only,
// on a page whose Content-Security-Policy forbids every script, and runs
// again in a page it was injected into.
func testAxe(t *testing.T, b *browser.Browser) {
	a := browser.AxeForTest(t)
	// No lang (serious), an image with no alt (critical), a link with no
	// name (serious); no main landmark and no h1 are moderate: left out.
	const bad = `<!DOCTYPE html>
<html><head><title>bad</title></head><body>
<img src="data:," width="10" height="10"><a href="/x"></a><p>text</p>
</body></html>`
	const good = `<!DOCTYPE html>
<html lang="en"><head><title>good</title></head><body><main><h1>Good</h1>
<img src="data:," width="10" height="10" alt="a dot"><a href="/x">a link</a>
<table><caption>Board</caption><tr><td></td><th scope="col">A</th></tr><tr><th scope="row">1</th><td aria-label="A1: empty">&nbsp;</td></tr></table>
</main></body></html>`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", "default-src 'none'; img-src data:")
		fmt.Fprint(w, map[string]string{"/bad": bad, "/good": good}[r.URL.Path])
	}))
	defer srv.Close()
	p, err := b.Open(t.Context(), srv.URL+"/bad", 900)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for range 2 {
		vs, err := p.Axe(t.Context(), a)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, v := range vs {
			ids = append(ids, v.ID)
			if v.Count < 1 || len(v.Targets) != v.Count || v.Help == "" || !strings.HasPrefix(v.HelpURL, "https://") {
				t.Errorf("%+v", v)
			}
			if v.Impact != "serious" && v.Impact != "critical" {
				t.Errorf("%s: impact %s", v, v.Impact)
			}
		}
		slices.Sort(ids)
		if want := []string{"html-has-lang", "image-alt", "link-name"}; !slices.Equal(ids, want) {
			t.Errorf("violations %v, want %v: %v", ids, want, vs)
		}
	}
	if err := p.Load(t.Context(), srv.URL+"/good"); err != nil {
		t.Fatal(err)
	}
	if vs, err := p.Axe(t.Context(), a); err != nil || len(vs) != 0 {
		t.Errorf("a good page: %v, %v", vs, err)
	}
}

// testAXTree: the accessibility tree gives a data table's heads and its
// cells' names, and nothing of a layout table but its text.
func testAXTree(t *testing.T, b *browser.Browser) {
	const doc = `<!DOCTYPE html>
<html lang="en"><head><title>t</title></head><body>
<table role="presentation"><tr><td>layout</td></tr></table>
<table aria-label="Board"><tr><td></td><th scope="col">A</th></tr><tr><th scope="row">1</th><td aria-label="A1: empty">&nbsp;</td></tr></table>
</body></html>`
	p, err := b.Open(t.Context(), browser.DataURL(doc), 360)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	root, err := p.AXTree(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range root.Find(func(n *browser.AXNode) bool {
		return slices.Contains([]string{"table", "row", "cell", "columnheader", "rowheader", "StaticText"}, n.Role)
	}) {
		got = append(got, n.Role+":"+n.Name)
	}
	want := []string{"StaticText:layout", "table:Board", "row:", "cell:", "columnheader:A", "StaticText:A",
		"row:", "rowheader:1", "StaticText:1", "cell:A1: empty", "StaticText:\u00a0"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("tree %q\nwant %q", got, want)
	}
}
