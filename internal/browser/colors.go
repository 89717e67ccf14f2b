package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// SetDark makes the page's tab report prefers-color-scheme: dark to its
// media queries (false: light), as a mail reader in dark mode does, and
// waits for the page to restyle. It holds until changed, across loads.
func (p *Page) SetDark(ctx context.Context, dark bool) error {
	scheme := "light"
	if dark {
		scheme = "dark"
	}
	err := runBounded(ctx, p.ctx, nil, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
		})
		return err
	}))
	if err != nil {
		return fmt.Errorf("browser: emulate prefers-color-scheme: %s: %w", scheme, err)
	}
	return nil
}

// RGB is an opaque colour, each channel 0 to 255.
type RGB struct{ R, G, B float64 }

// String is the colour in CSS's hex notation.
func (c RGB) String() string {
	return fmt.Sprintf("#%02x%02x%02x", int(c.R), int(c.G), int(c.B))
}

// luminance is WCAG 2's relative luminance of c.
func (c RGB) luminance() float64 {
	lin := func(v float64) float64 {
		v /= 255
		if v <= 0.04045 {
			return v / 12.92
		}
		return math.Pow((v+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.R) + 0.7152*lin(c.G) + 0.0722*lin(c.B)
}

// Contrast is WCAG 2's contrast ratio of two colours, 1 to 21; text wants
// 4.5 or more.
func Contrast(a, b RGB) float64 {
	la, lb := a.luminance(), b.luminance()
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// Ink is the text of an element as the page draws it.
type Ink struct {
	Path       string // as Element.Path
	Text       string // its text, trimmed
	Color      RGB    // its computed colour
	Background RGB    // the first opaque background of it or an ancestor
}

// colorsJS lists the elements that match SELECTOR and hold text, with
// their colour and the background behind them: an element's own, or the
// nearest ancestor's that is not transparent (white if none is).
const colorsJS = `(() => {
	const rgb = s => {
		const m = s.match(/[\d.]+/g) || [];
		return {r: +m[0] || 0, g: +m[1] || 0, b: +m[2] || 0, a: m.length > 3 ? +m[3] : 1};
	};
	const path = el => {
		const parts = [];
		for (; el && el !== document.documentElement; el = el.parentElement) {
			const p = el.parentElement;
			let s = el.localName;
			if (p && p !== document.documentElement && p.children.length > 1) {
				s += ":nth-child(" + (Array.prototype.indexOf.call(p.children, el) + 1) + ")";
			}
			parts.unshift(s);
		}
		return parts.join(" > ");
	};
	const out = [];
	for (const el of document.querySelectorAll(SELECTOR)) {
		const text = el.textContent.replace(/\s+/g, " ").trim();
		if (text === "") continue;
		let bg = {r: 255, g: 255, b: 255, a: 1};
		for (let e = el; e; e = e.parentElement) {
			const c = rgb(getComputedStyle(e).backgroundColor);
			if (c.a > 0) { bg = c; break; }
		}
		out.push({path: path(el), text: text, color: rgb(getComputedStyle(el).color), background: bg});
	}
	return out;
})()`

// Inks returns the elements that match the CSS selector and hold text,
// in document order, with the colours they are drawn in.
func (p *Page) Inks(ctx context.Context, selector string) ([]Ink, error) {
	type color struct{ R, G, B float64 }
	type ink struct {
		Path       string `json:"path"`
		Text       string `json:"text"`
		Color      color  `json:"color"`
		Background color  `json:"background"`
	}
	sel, err := jsString(selector)
	if err != nil {
		return nil, err
	}
	var r []ink
	err = runBounded(ctx, p.ctx, nil, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		var err error
		r, err = chromedp.Evaluate[[]ink](strings.Replace(colorsJS, "SELECTOR", sel, 1))(ctx, t)
		return err
	}))
	if err != nil {
		return nil, fmt.Errorf("browser: read the colours of %q: %w", selector, err)
	}
	out := make([]Ink, len(r))
	for i, e := range r {
		out[i] = Ink{Path: e.Path, Text: e.Text, Color: RGB(e.Color), Background: RGB(e.Background)}
	}
	return out, nil
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) (string, error) {
	b, err := json.Marshal(s)
	if err != nil {
		return "", fmt.Errorf("browser: %w", err)
	}
	return string(b), nil
}
