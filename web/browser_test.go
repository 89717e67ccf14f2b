package web_test

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/internal/browser"
)

// TestBrowserPages renders every kind of page in headless Chromium at a
// phone's and a desktop's width: nothing passes the right edge, and the
// page shows what it should (a page that the CSP or a template broke
// would show nothing of it).
func TestBrowserPages(t *testing.T) {
	b := browser.ForTest(t)
	f := newFixture(t)
	tables := f.startSeason()
	mid, done := tables[0].Name, tables[1].Name
	for range 3 {
		f.play(mid)
		f.play("elm")
	}
	f.play(done)
	f.send(f.seatAddr(done, f.game(done).Turn()), done, "RESIGN "+done)
	srv := httptest.NewServer(f.server)
	defer srv.Close()
	alice := f.playerID("alice@example.org")
	pages := []struct {
		name, path string
		want       []string
	}{
		{"player", f.links.PlayerPath("elm", alice), []string{"Alice's view", "The board", "Your rack", "The log"}},
		{"spectators", f.links.SpectatorPath(mid), []string{"Spectators' view", "The board", "Scores"}},
		{"finished", f.links.SpectatorPath(done), []string{"Final scores", "Racks revealed", "Download the game"}},
		{"league", f.links.LeaguePath("open"), []string{"League open", "Division A", "Results"}},
		{"unsubscribe", f.links.UnsubscribePath("elm", alice), []string{"Only my turns"}},
		{"not-found", "/", []string{"There is no page at this address"}},
	}
	dir := browser.ScreenshotDir(t, "web")
	for _, width := range []int{360, 1200} {
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		p, err := b.Open(ctx, srv.URL+"/", width)
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		for _, pg := range pages {
			if err := p.Load(ctx, srv.URL+pg.path); err != nil {
				t.Fatal(err)
			}
			o, err := p.Overflow(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if o.Px() > 0 {
				t.Errorf("%s at %d px: %s", pg.name, width, o)
			}
			text := pageText(t, ctx, p)
			for _, w := range pg.want {
				if !strings.Contains(text, w) {
					t.Errorf("%s at %d px shows no %q", pg.name, width, w)
				}
			}
			// The stylesheet applied: the header has its green.
			if bg := headerColour(t, ctx, p); bg != "rgb(47, 93, 58)" {
				t.Errorf("%s at %d px: the header's background is %q: the stylesheet did not apply", pg.name, width, bg)
			}
			if err := p.Screenshot(ctx, filepath.Join(dir, pg.name+"-"+itoa(int64(width))+".png")); err != nil {
				t.Fatal(err)
			}
		}
		p.Close()
		cancel()
	}
	// axe-core on each page, at a phone's width (issue #28: no serious or
	// critical violation on any web page).
	t.Run("axe", func(t *testing.T) {
		a := browser.AxeForTest(t)
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		defer cancel()
		p, err := b.Open(ctx, srv.URL+"/", 360)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		for _, pg := range pages {
			if err := p.Load(ctx, srv.URL+pg.path); err != nil {
				t.Fatal(err)
			}
			vs, err := p.Axe(ctx, a)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range vs {
				t.Errorf("%s: %v", pg.name, v)
			}
		}
	})
}

// pageText is the text the page shows.
func pageText(t *testing.T, ctx context.Context, p *browser.Page) string {
	t.Helper()
	s, err := p.Eval(ctx, "document.body.innerText")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func headerColour(t *testing.T, ctx context.Context, p *browser.Page) string {
	t.Helper()
	s, err := p.Eval(ctx, "getComputedStyle(document.querySelector('header')).backgroundColor")
	if err != nil {
		t.Fatal(err)
	}
	return s
}
