package web_test

import (
	"html"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/web"
)

// checkHeaders: the security headers are on every answer (EMAIL §7.2).
func checkHeaders(t *testing.T, what string, h http.Header) {
	t.Helper()
	csp := h.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'none'", "style-src 'self'", "frame-ancestors 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("%s: CSP %q lacks %q", what, csp, want)
		}
	}
	if strings.Contains(csp, "script-src") || strings.Contains(csp, "style-src 'self' 'unsafe-inline'") {
		t.Errorf("%s: CSP %q allows scripts or inline style elements", what, csp)
	}
	for k, v := range map[string]string{"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY"} {
		if got := h.Get(k); got != v {
			t.Errorf("%s: %s = %q, want %q", what, k, got, v)
		}
	}
}

// TestTablePages: a player's link shows the table with their rack and
// nobody else's; the spectators' link shows no rack; a league without
// spectators has no spectators' page (EMAIL §7.1).
func TestTablePages(t *testing.T) {
	f := newFixture(t)
	tables := f.startSeason()
	for _, name := range []string{"elm", tables[0].Name} {
		f.play(name)
		f.play(name)
	}
	alice, bob := f.playerID("alice@example.org"), f.playerID("bob@example.org")

	w := f.get(f.links.PlayerPath("elm", alice))
	if w.Code != http.StatusOK {
		t.Fatalf("alice's page: %d\n%s", w.Code, w.Body)
	}
	checkHeaders(t, "alice's page", w.Header())
	page := html.UnescapeString(w.Body.String())
	for _, want := range []string{"Alice's view", "The board", "Scores", "The log", "tiles left in the bag", f.rackFragment("elm", 0)} {
		if !strings.Contains(page, want) {
			t.Errorf("alice's page lacks %q", want)
		}
	}
	if strings.Contains(page, f.rackFragment("elm", 1)) || strings.Contains(page, "@example.org") {
		t.Error("alice's page shows bob's rack or an address")
	}
	if strings.Contains(page, "<script") {
		t.Error("a page holds a script")
	}
	// Every move of the game is in the log, not only the latest.
	if n := strings.Count(page, "<tr><td class=\"n\" align=\"right\">"); n < 2 {
		t.Errorf("the log has %d lines, want the 2 moves", n)
	}
	w = f.get(f.links.PlayerPath("elm", bob))
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), f.rackFragment("elm", 1)) || strings.Contains(w.Body.String(), f.rackFragment("elm", 0)) {
		t.Errorf("bob's page: %d, his rack shown %v, alice's %v", w.Code,
			strings.Contains(w.Body.String(), f.rackFragment("elm", 1)), strings.Contains(w.Body.String(), f.rackFragment("elm", 0)))
	}

	if w := f.get(f.links.SpectatorPath("elm")); w.Code != http.StatusNotFound {
		t.Errorf("the spectators' page of a league without spectators: %d", w.Code)
	}
	season := tables[0].Name
	w = f.get(f.links.SpectatorPath(season))
	if w.Code != http.StatusOK {
		t.Fatalf("spectators' page: %d\n%s", w.Code, w.Body)
	}
	page = html.UnescapeString(w.Body.String())
	if !strings.Contains(page, `<table class="b"`) {
		t.Error("the spectators' page lacks the board")
	}
	if strings.Contains(page, f.rackFragment(season, 0)) || strings.Contains(page, f.rackFragment(season, 1)) {
		t.Error("the spectators' page shows a rack before the end")
	}
	// A player of a league with spectators is given its link to share.
	w = f.get(f.links.PlayerPath(season, f.playerID(tables[0].Players[0])))
	if !strings.Contains(w.Body.String(), f.links.SpectatorPath(season)) || !strings.Contains(w.Body.String(), f.links.LeaguePath("open")) {
		t.Error("a player's page of a league with spectators links to neither its spectators' page nor its league")
	}
}

// TestNoRackBeforeTheEnd: at every turn of a game, no page shows a rack
// to anyone but its holder, and the spectators none; at the end every
// page shows every rack, as the game-over mail does.
func TestNoRackBeforeTheEnd(t *testing.T) {
	f := newFixture(t)
	name := f.startSeason()[0].Name
	ids := []int64{f.playerID(f.seatAddr(name, 0)), f.playerID(f.seatAddr(name, 1))}
	for turn := 0; turn < 4; turn++ {
		racks := []string{f.rackFragment(name, 0), f.rackFragment(name, 1)}
		pages := map[string]string{
			"seat 0":     f.get(f.links.PlayerPath(name, ids[0])).Body.String(),
			"seat 1":     f.get(f.links.PlayerPath(name, ids[1])).Body.String(),
			"spectators": f.get(f.links.SpectatorPath(name)).Body.String(),
		}
		for who, page := range pages {
			for p, rack := range racks {
				own := who == []string{"seat 0", "seat 1"}[p]
				if strings.Contains(page, rack) != own {
					t.Errorf("turn %d: %s's page shows seat %d's rack: %v", turn, who, p, !own)
				}
			}
		}
		// What the table service hands the spectators' page holds no
		// rack, and nobody is "you", whatever the page draws of it.
		w, err := f.views.WebTable(f.ctx, name, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(w.Notice.Rack) != 0 || w.Viewer != "" {
			t.Errorf("turn %d: the spectators' data holds a rack (%d tiles) or a viewer %q", turn, len(w.Notice.Rack), w.Viewer)
		}
		for _, pl := range w.Notice.State.Players {
			if pl.You || pl.Address != "" {
				t.Errorf("turn %d: the spectators' data has %+v", turn, pl)
			}
		}
		f.play(name)
	}
	f.send(f.seatAddr(name, f.game(name).Turn()), name, "RESIGN "+name)
	if !f.game(name).Over() {
		t.Fatal("the game did not end")
	}
	page := f.get(f.links.SpectatorPath(name)).Body.String()
	for _, want := range []string{"Racks revealed", "Final scores", "Download the game"} {
		if !strings.Contains(page, want) {
			t.Errorf("the spectators' page of the finished game lacks %q", want)
		}
	}
}

// TestGCG: a finished game's record downloads under the player's and the
// spectators' signed prefix, naming no address; before the end there is
// none.
func TestGCG(t *testing.T) {
	f := newFixture(t)
	alice := f.playerID("alice@example.org")
	f.play("elm")
	path := f.links.PlayerPath("elm", alice) + "/game.gcg"
	// A 404 of its own: not the one of an address that leads nowhere.
	nowhere := f.get("/").Body.String()
	if w := f.get(path); w.Code != http.StatusNotFound || w.Body.String() == nowhere {
		t.Errorf("the record before the end: %d\n%s", w.Code, w.Body)
	}
	f.send("bob@example.org", "elm", "RESIGN elm")
	w := f.get(path)
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "#player1 Alice") || strings.Contains(w.Body.String(), "@") {
		t.Errorf("the record: %d %q\n%s", w.Code, w.Header().Get("Content-Type"), w.Body)
	}
	checkHeaders(t, "the record", w.Header())
	if w := f.get(f.links.SpectatorPath("elm") + "/game.gcg"); w.Code != http.StatusNotFound {
		t.Errorf("the spectators' record of a league without spectators: %d", w.Code)
	}
}

// TestRefused: `/`, unsigned paths and links altered, or moved to another
// table, player or kind, answer 404 and name nothing (EMAIL §7.2).
func TestRefused(t *testing.T) {
	f := newFixture(t)
	tables := f.startSeason()
	f.play("elm")
	alice := f.playerID("alice@example.org")
	good := f.links.PlayerPath("elm", alice)
	mac := good[strings.LastIndexByte(good, '/')+1:]
	altered := []byte(mac)
	altered[3] = map[bool]byte{true: 'b', false: 'a'}[altered[3] == 'a']
	spect := f.links.SpectatorPath(tables[0].Name)
	for _, path := range []string{
		"/", "/t/elm", "/t/elm/p/1", "/t/elm/s", "/l/open", "/static/",
		strings.TrimSuffix(good, mac) + string(altered),
		strings.Replace(good, "/elm/", "/"+tables[0].Name+"/", 1),
		strings.Replace(good, "/p/"+itoa(alice)+"/", "/p/"+itoa(f.playerID("bob@example.org"))+"/", 1),
		good + "/more",
		"/t/" + tables[0].Name + "/s/" + mac, // a player's mac as a spectators'
		"/l/open/" + spect[strings.LastIndexByte(spect, '/')+1:],
		"/u/elm/" + itoa(alice) + "/" + mac, // a page's mac as an unsubscribe's
		f.links.LeaguePath("quiet"),         // signed, but a league without seasons
		f.links.PlayerPath("gone", alice),   // signed, for no table
	} {
		w := f.get(path)
		if w.Code != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", path, w.Code)
		}
		checkHeaders(t, path, w.Header())
		// Every such address gets the same page, which tells nothing of
		// what it was near.
		body := w.Body.String()
		if body != f.get("/").Body.String() || !strings.Contains(body, "<p") {
			t.Errorf("%s: the 404 is not the one page of an address that leads nowhere:\n%s", path, body)
		}
		for _, name := range []string{"elm", "Alice", "alice", tables[0].Name, "Bob"} {
			if strings.Contains(body, name) {
				t.Errorf("%s: the 404 names %q", path, name)
			}
		}
	}
	if w := f.do(http.MethodPost, good, ""); w.Code != http.StatusMethodNotAllowed || w.Body.String() == f.get("/").Body.String() {
		t.Errorf("a POST to a page: %d", w.Code)
	}
	if w := f.get("/static/lexio.css"); w.Code != http.StatusOK || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/css") {
		t.Errorf("the stylesheet: %d %q", w.Code, w.Header().Get("Content-Type"))
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// TestUnsubscribe: the one-click URL's GET is a form that changes
// nothing; its POST, without a cookie, sets NOTIFY turn as the
// List-Unsubscribe address does, confirmed by mail, and answers 200 with
// a page of its own (EMAIL §7.3, RFC 8058).
func TestUnsubscribe(t *testing.T) {
	f := newFixture(t)
	alice := f.playerID("alice@example.org")
	path := f.links.UnsubscribePath("elm", alice)
	f.outbox()
	w := f.get(path)
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `method="post"`) || !strings.Contains(w.Body.String(), `action="`+path+`"`) {
		t.Fatalf("GET: %d\n%s", w.Code, w.Body)
	}
	checkHeaders(t, "the form", w.Header())
	if m := f.seatNotify("elm", "alice@example.org"); m != "" {
		t.Fatalf("the GET set NOTIFY %q", m)
	}
	if ms := f.outbox(); len(ms) != 0 {
		t.Errorf("the GET sent %d mails", len(ms))
	}
	w = f.do(http.MethodPost, path, "")
	if w.Code != http.StatusOK || w.Header().Get("Location") != "" || w.Header().Get("Set-Cookie") != "" {
		t.Fatalf("POST: %d, Location %q, Set-Cookie %q", w.Code, w.Header().Get("Location"), w.Header().Get("Set-Cookie"))
	}
	// It names the table and the command it amounts to, and asks no more.
	if b := w.Body.String(); !strings.Contains(b, "elm") || !strings.Contains(b, "NOTIFY turn") || strings.Contains(b, `method="post"`) {
		t.Errorf("the POST's page does not say what it did:\n%s", w.Body)
	}
	if m := f.seatNotify("elm", "alice@example.org"); m != table.NotifyTurn {
		t.Errorf("after the POST alice's seat has NOTIFY %q, want turn", m)
	}
	if m := f.seatNotify("elm", "bob@example.org"); m != "" {
		t.Errorf("bob's seat has NOTIFY %q", m)
	}
	ms := f.outbox()
	if len(ms) != 1 || ms[0].To[0] != "alice@example.org" || !strings.Contains(string(ms[0].Raw), "NOTIFY") {
		t.Errorf("the confirmation: %d mails", len(ms))
	}
	// Bob's link cannot unsubscribe alice, nor a link of another table.
	if w := f.do(http.MethodPost, strings.Replace(path, "/"+itoa(alice)+"/", "/"+itoa(f.playerID("bob@example.org"))+"/", 1), ""); w.Code != http.StatusNotFound {
		t.Errorf("an altered unsubscribe link: %d", w.Code)
	}
}

// TestRateLimit: a client address may make 60 requests in a minute;
// the next gets 429 with Retry-After, until the clock moves; other
// addresses are not held back (EMAIL §7.4).
func TestRateLimit(t *testing.T) {
	f := newFixture(t)
	var nowhere string // the 404's page, which the 429's is not
	for i := range 60 {
		w := f.do(http.MethodGet, "/", "192.0.2.1:1234")
		if w.Code != http.StatusNotFound {
			t.Fatalf("request %d: %d", i+1, w.Code)
		}
		nowhere = w.Body.String()
	}
	w := f.do(http.MethodGet, "/", "192.0.2.1:1235")
	if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "1" || w.Body.String() == nowhere {
		t.Fatalf("request 61: %d, Retry-After %q\n%s", w.Code, w.Header().Get("Retry-After"), w.Body)
	}
	checkHeaders(t, "the 429", w.Header())
	if w := f.do(http.MethodGet, "/", "192.0.2.2:1234"); w.Code != http.StatusNotFound {
		t.Errorf("another address: %d", w.Code)
	}
	f.clock.Add(time.Second)
	if w := f.do(http.MethodGet, "/", "192.0.2.1:1234"); w.Code != http.StatusNotFound {
		t.Errorf("a second later: %d", w.Code)
	}
	// Behind the reverse proxy the client is the address it forwards.
	for range 61 {
		f.do(http.MethodGet, "/", "127.0.0.1:5000")
	}
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.RemoteAddr, r.Header["X-Forwarded-For"] = "127.0.0.1:5001", []string{"198.51.100.7"}
	w = httptest.NewRecorder()
	f.server.ServeHTTP(w, r)
	if w.Code != http.StatusNotFound {
		t.Errorf("a forwarded client behind a busy proxy: %d", w.Code)
	}
}

// TestLeaguePage: the league's signed page shows the current season's
// divisions, standings, results and ratings.
func TestLeaguePage(t *testing.T) {
	f := newFixture(t)
	tables := f.startSeason()
	first := tables[0]
	f.play(first.Name)
	f.send(f.seatAddr(first.Name, f.game(first.Name).Turn()), first.Name, "RESIGN "+first.Name)
	w := f.get(f.links.LeaguePath("open"))
	if w.Code != http.StatusOK {
		t.Fatalf("league page: %d\n%s", w.Code, w.Body)
	}
	checkHeaders(t, "the league page", w.Header())
	page := w.Body.String()
	for _, want := range []string{"League open", "Season 1", "Division A", "Results", "Alice", "Bob", "Carol", "1–0–0", "0–0–1", "1500"} {
		if !strings.Contains(page, want) {
			t.Errorf("the league page lacks %q", want)
		}
	}
	if strings.Contains(page, "@example.org") {
		t.Error("the league page shows an address")
	}
}

// BenchmarkTablePage serves a mid-game table page to its player (the
// store read, the game rebuilt from its log, the page drawn).
func BenchmarkTablePage(b *testing.B) {
	f := newFixture(b)
	for range 6 {
		f.play("elm")
	}
	path := f.links.PlayerPath("elm", f.playerID("alice@example.org"))
	// Without the rate limit, which would refuse one address so often.
	srv, err := web.New(web.Options{Source: f.views, Leagues: f.seasons, Unsubscriber: f.players, Links: f.links, Templates: f.tmpl, Lang: "en", Now: f.clock.Now, PerMinute: 1 << 30})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	// On a shared machine the wall time says more of the load than of
	// the page: the process's CPU time per page is reported beside it.
	start := cpuTime(b)
	for b.Loop() {
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
		if w.Code != http.StatusOK {
			b.Fatalf("%d", w.Code)
		}
	}
	b.ReportMetric(float64(cpuTime(b)-start)/float64(b.N), "cpu-ns/op")
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime(b *testing.B) time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		b.Fatal(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
