// Package browser drives Debian's headless Chromium for tests: it loads a
// page in a tab whose viewport width is set through the DevTools protocol
// (the command line cannot go below about 500 px), measures what passes
// the viewport's right edge, takes full-page screenshots and runs
// axe-core's accessibility checks (npm's, installed in AxeDir). It starts
// the installed browser through chromedp, over a pipe: no port, no
// download.
package browser

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// ExecPath is the browser of Debian's chromium package.
const ExecPath = "/usr/bin/chromium"

// Install is the command that provides ExecPath.
const Install = "apt-get install -y chromium"

// ErrMissing is returned by Start when ExecPath is not installed.
var ErrMissing = errors.New("browser: " + ExecPath + " is missing: run '" + Install + "' (as root)")

// Height is the viewport height of every page, in CSS pixels; screenshots
// take the whole page however long it is.
const Height = 800

// Browser is one running headless Chromium; each Open is a tab of it, and
// tabs may be used from several goroutines at once.
type Browser struct {
	ctx    context.Context // chromedp's browser context
	cancel context.CancelFunc
}

// Start starts ExecPath headless with a fresh temporary profile, which
// Close removes. ctx bounds the start only: the browser runs until Close.
// Host names other than localhost do not resolve in it, so a page reaches
// 127.0.0.1 at most.
func Start(ctx context.Context) (*Browser, error) {
	if _, err := os.Stat(ExecPath); errors.Is(err, fs.ErrNotExist) {
		return nil, ErrMissing
	} else if err != nil {
		return nil, fmt.Errorf("browser: %w", err)
	}
	opts := append(slices.Clone(chromedp.DefaultExecAllocatorOptions[:]),
		chromedp.ExecPath(ExecPath),
		chromedp.DisableGPU,
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("no-pings", true),
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1"),
	)
	if os.Geteuid() == 0 {
		// Chromium's sandbox refuses to run as root (as in CI).
		opts = append(opts, chromedp.NoSandbox)
	}
	actx, acancel := chromedp.NewExecAllocator(context.WithoutCancel(ctx), opts...)
	bctx, bcancel := chromedp.NewContext(actx)
	b := &Browser{ctx: bctx, cancel: func() { bcancel(); acancel() }}
	// The first run starts the process, which then lives as long as bctx.
	if err := runBounded(ctx, bctx, b.cancel, chromedp.Steps()); err != nil {
		b.cancel()
		return nil, fmt.Errorf("browser: start %s: %w", ExecPath, err)
	}
	return b, nil
}

// Close stops the browser and waits for it to exit.
func (b *Browser) Close() error {
	err := chromedp.Cancel(b.ctx)
	b.cancel()
	if err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("browser: close: %w", err)
	}
	return nil
}

// Page is one tab, its viewport width fixed when it was opened.
type Page struct {
	ctx    context.Context // chromedp's context of the tab
	cancel context.CancelFunc
	width  int
}

// DataURL is a URL that holds the HTML document doc, for Open.
func DataURL(doc string) string {
	return "data:text/html;charset=utf-8;base64," + base64.StdEncoding.EncodeToString([]byte(doc))
}

// Open opens a tab whose viewport is width CSS pixels wide (and Height
// high, scale 1, not emulating a phone's zoom) and loads url in it, as
// Load does. Close the page when done. A tab takes longer to open than a
// page to load: load pages in turn in one tab when you can.
func (b *Browser) Open(ctx context.Context, url string, width int) (*Page, error) {
	if width <= 0 {
		return nil, fmt.Errorf("browser: viewport width %d", width)
	}
	tctx, tcancel := chromedp.NewContext(b.ctx)
	p := &Page{ctx: tctx, cancel: tcancel, width: width}
	// The viewport is set before the load, so that the page lays out and
	// evaluates its media queries at that width from the start.
	err := runBounded(ctx, tctx, tcancel, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
			Width: int64(width), Height: Height, DeviceScaleFactor: 1,
		})
		return err
	}))
	if err != nil {
		tcancel()
		return nil, fmt.Errorf("browser: open a tab at %d px: %w", width, err)
	}
	if err := p.Load(ctx, url); err != nil {
		tcancel()
		return nil, err
	}
	return p, nil
}

// Load loads url in the page's tab and waits for its load event.
func (p *Page) Load(ctx context.Context, url string) error {
	if err := runBounded(ctx, p.ctx, nil, chromedp.Navigate(url)); err != nil {
		return fmt.Errorf("browser: load %.60s at %d px: %w", url, p.width, err)
	}
	return nil
}

// Close closes the tab.
func (p *Page) Close() { p.cancel() }

// Width is the viewport width the page was opened with.
func (p *Page) Width() int { return p.width }

// Overflow is what of a page passes the right edge of its viewport.
type Overflow struct {
	Viewport    int // the viewport's width, CSS px
	ScrollWidth int // the document's scroll width, CSS px
	// Elements are the outermost elements whose right edge passes the
	// viewport (their descendants that also do are left out), at most
	// MaxElements of them, in document order; Count is all that pass.
	Elements []Element
	Count    int
}

// MaxElements bounds Overflow.Elements.
const MaxElements = 10

// Element is an element that passes the viewport.
type Element struct {
	Path  string  // e.g. "body > table:nth-child(2) > tbody > tr:nth-child(1)"
	Right float64 // its right edge, CSS px from the document's left
}

// Px is by how many CSS pixels the page passes the viewport: 0 when it
// fits.
func (o Overflow) Px() int {
	right := float64(o.ScrollWidth)
	for _, e := range o.Elements {
		right = max(right, e.Right)
	}
	return max(0, int(math.Ceil(right))-o.Viewport)
}

// String sums o up in a line, e.g. "fits in 360 px" or "624 px wide in
// 360 px (264 px past): body > table (to 612 px), …".
func (o Overflow) String() string {
	if o.Px() == 0 {
		return fmt.Sprintf("fits in %d px", o.Viewport)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d px wide in %d px (%d px past)", o.Viewport+o.Px(), o.Viewport, o.Px())
	for i, e := range o.Elements {
		sep := ", "
		if i == 0 {
			sep = ": "
		}
		fmt.Fprintf(&b, "%s%s (to %.0f px)", sep, e.Path, e.Right)
	}
	if n := o.Count - len(o.Elements); n > 0 {
		fmt.Fprintf(&b, " and %d elements inside", n)
	}
	return b.String()
}

// overflowJS measures the page. An element passes when its box ends more
// than half a pixel to the right of the viewport; empty boxes do not. An
// element that a parent with overflow:hidden clips counts all the same:
// mail clients differ in what they clip.
const overflowJS = `(() => {
	const vw = document.documentElement.clientWidth;
	const de = document.documentElement, body = document.body;
	const sw = Math.max(de.scrollWidth, body ? body.scrollWidth : 0);
	const right = el => {
		const r = el.getBoundingClientRect();
		return r.width > 0 || r.height > 0 ? r.right + window.scrollX : 0;
	};
	const passes = el => el && el !== de && right(el) > vw + 0.5;
	const path = el => {
		const parts = [];
		for (; el && el !== de; el = el.parentElement) {
			let s = el.localName;
			if (el.id) { parts.unshift(s + "#" + el.id); break; }
			const p = el.parentElement;
			if (p && p !== de && p.children.length > 1) {
				s += ":nth-child(" + (Array.prototype.indexOf.call(p.children, el) + 1) + ")";
			}
			parts.unshift(s);
		}
		return parts.join(" > ");
	};
	const out = [];
	let count = 0;
	for (const el of document.querySelectorAll("body, body *")) {
		if (!passes(el)) continue;
		count++;
		if (!passes(el.parentElement) && out.length < ` + "MAX" + `) {
			out.push({path: path(el), right: right(el)});
		}
	}
	return {viewport: vw, scrollWidth: sw, elements: out, count: count};
})()`

// Overflow measures what of the page passes its viewport's right edge.
func (p *Page) Overflow(ctx context.Context) (Overflow, error) {
	type element struct {
		Path  string  `json:"path"`
		Right float64 `json:"right"`
	}
	type result struct {
		Viewport    int       `json:"viewport"`
		ScrollWidth int       `json:"scrollWidth"`
		Elements    []element `json:"elements"`
		Count       int       `json:"count"`
	}
	js := strings.Replace(overflowJS, "MAX", fmt.Sprint(MaxElements), 1)
	var r result
	err := runBounded(ctx, p.ctx, nil, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		var err error
		r, err = chromedp.Evaluate[result](js)(ctx, t)
		return err
	}))
	if err != nil {
		return Overflow{}, fmt.Errorf("browser: measure overflow: %w", err)
	}
	o := Overflow{Viewport: r.Viewport, ScrollWidth: r.ScrollWidth, Count: r.Count}
	for _, e := range r.Elements {
		o.Elements = append(o.Elements, Element(e))
	}
	return o, nil
}

// edgeJS draws, over a page wider than its viewport, a dashed red line
// where the viewport ends; undoEdgeJS removes it. The line is positioned
// absolutely, past nothing, so the layout does not change.
const (
	edgeJS = `(() => {
	const de = document.documentElement, vw = de.clientWidth;
	if (de.scrollWidth <= vw || !document.body) return;
	const d = document.createElement("div");
	d.id = "lexio-browser-edge";
	d.style.cssText = "position:absolute;top:0;left:" + (vw - 2) + "px;width:0;height:" + de.scrollHeight +
		"px;border-left:2px dashed #ff0000;z-index:2147483647;pointer-events:none;margin:0;padding:0";
	document.body.appendChild(d);
})()`
	undoEdgeJS = `document.getElementById("lexio-browser-edge")?.remove()`
)

// Screenshot writes a PNG of the whole page, as wide as what it lays out
// and as long as it is, to the file path. When the page is wider than the
// viewport, a dashed red line marks the viewport's right edge: what is
// right of it is what the reader cannot see without scrolling sideways.
func (p *Page) Screenshot(ctx context.Context, path string) error {
	var png []byte
	err := runBounded(ctx, p.ctx, nil, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := chromedp.Evaluate[chromedp.Void](edgeJS)(ctx, t); err != nil {
			return err
		}
		defer chromedp.Evaluate[chromedp.Void](undoEdgeJS)(ctx, t)
		m, err := cdp.Call(ctx, t, page.GetLayoutMetrics, cdp.Empty{})
		if err != nil {
			return err
		}
		w, h := float64(p.width), float64(Height)
		if s := m.CSSContentSize; s != nil {
			w, h = max(w, math.Ceil(s.Width)), max(h, math.Ceil(s.Height))
		}
		yes := true
		r, err := cdp.Call(ctx, t, page.CaptureScreenshot, page.CaptureScreenshotParams{
			Format:                page.CaptureScreenshotFormatPng,
			Clip:                  &page.Viewport{Width: w, Height: h, Scale: 1},
			CaptureBeyondViewport: &yes,
			FromSurface:           &yes,
		})
		png = r.Data
		return err
	}))
	if err != nil {
		return fmt.Errorf("browser: screenshot: %w", err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		return fmt.Errorf("browser: screenshot: %w", err)
	}
	return nil
}

// runBounded runs a on the chromedp context cctx, giving up when ctx ends:
// then it calls stop (which ends cctx: the first run on a chromedp
// context binds the browser or tab to that context, so it cannot be a
// shorter-lived one) or, when stop is nil, runs on a child of cctx that
// ctx's end cancels.
func runBounded(ctx, cctx context.Context, stop context.CancelFunc, a chromedp.Action[chromedp.Void]) error {
	if stop == nil {
		var cancel context.CancelFunc
		cctx, cancel = context.WithCancel(cctx)
		defer cancel()
		stop = cancel
	}
	unhook := context.AfterFunc(ctx, stop)
	_, err := chromedp.Run(cctx, a)
	if !unhook() && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// Eval evaluates the JavaScript expression js in the page (through the
// DevTools protocol, which no Content-Security-Policy of the page
// forbids) and returns its value as a string, e.g. the text the page
// shows: document.body.innerText.
func (p *Page) Eval(ctx context.Context, js string) (string, error) {
	var s string
	err := runBounded(ctx, p.ctx, nil, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		var err error
		s, err = chromedp.Evaluate[string](js)(ctx, t)
		return err
	}))
	if err != nil {
		return "", fmt.Errorf("browser: eval: %w", err)
	}
	return s, nil
}
