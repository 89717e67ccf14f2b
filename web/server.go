// Package web is lexio's read-only web side (EMAIL §7): the pages that
// mail links to, server-rendered with html/template, no script, no
// cookie, no login. Every page is reached by a signed link
// (internal/weblink) bound to what it shows: a table as one player sees
// it, as spectators see it, a finished game's record, a league's page,
// and the one-click unsubscribe of RFC 8058. Anything else, and any link
// altered, is a 404 that names nothing.
//
// The package reads through a Source (the table service): it draws what
// the Source gives, with the mail's own fragments (templates.Set), and
// decides nothing about a game. Server.Listen runs the HTTP server.
package web

import (
	"context"
	"embed"
	"errors"
	"fmt"
	htmltemplate "html/template"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/lexio-mail/lexio/internal/weblink"
	"github.com/lexio-mail/lexio/templates"
	"github.com/lexio-mail/lexio/web/view"
)

// Source is what the pages read; *table.Service is one. A nil result
// with a nil error is "no such thing": the page answers 404.
type Source interface {
	// WebTable is table name as the player whose id is player sees it, or
	// as a spectator for 0.
	WebTable(ctx context.Context, name string, player int64) (*view.Table, error)
	// WebGCG is the record of a finished game.
	WebGCG(ctx context.Context, name string) ([]byte, error)
	// WebPlayerLang is a seated player's language, "" for none.
	WebPlayerLang(ctx context.Context, table string, player int64) (string, error)
}

// Leagues are the league pages (package season).
type Leagues interface {
	// WebLeague is a league's seasons; nil for no league that plays
	// seasons.
	WebLeague(ctx context.Context, name string) (*view.League, error)
}

// Unsubscriber is the one-click unsubscribe (package player).
type Unsubscriber interface {
	// WebUnsubscribe sets NOTIFY turn for the player at the table, as the
	// List-Unsubscribe address does; ok false for no such seat.
	WebUnsubscribe(ctx context.Context, table string, player int64) (lang string, ok bool, err error)
}

// DefaultPerMinute is how many requests a client address may make in a
// minute (EMAIL §7.4 asks for 60 at least) before it is answered 429.
const DefaultPerMinute = 120

// maxClients bounds the addresses the rate limit remembers.
const maxClients = 10000

// Options are a Server's dependencies; Now, Logger and PerMinute may be
// left zero.
type Options struct {
	Source       Source
	Leagues      Leagues
	Unsubscriber Unsubscriber
	Links        *weblink.Links
	Templates    *templates.Set
	// Lang is the language of the pages about nobody in particular (the
	// configuration's).
	Lang string
	// Now is the clock of the rate limit (default time.Now).
	Now       func() time.Time
	PerMinute int
	Logger    *slog.Logger
}

// Server answers the web side's requests. It is safe for concurrent use.
type Server struct {
	src     Source
	leagues Leagues
	unsub   Unsubscriber
	links   *weblink.Links
	tmpl    *templates.Set
	pages   *htmltemplate.Template
	lang    string
	limit   *limiter
	log     *slog.Logger
	mux     *http.ServeMux
}

//go:embed pages/*.tmpl static/*
var files embed.FS

// New checks the options and builds the server's pages.
func New(o Options) (*Server, error) {
	if o.Source == nil || o.Leagues == nil || o.Unsubscriber == nil || o.Links == nil || o.Templates == nil {
		return nil, errors.New("web: source, leagues, unsubscriber, links and templates are required")
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.PerMinute <= 0 {
		o.PerMinute = DefaultPerMinute
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if !o.Templates.HasLang(o.Lang) {
		o.Lang = "en"
	}
	s := &Server{src: o.Source, leagues: o.Leagues, unsub: o.Unsubscriber, links: o.Links, tmpl: o.Templates, lang: o.Lang,
		limit: newLimiter(o.PerMinute, maxClients, o.Now), log: o.Logger, mux: http.NewServeMux()}
	var err error
	s.pages, err = htmltemplate.New("pages").Option("missingkey=error").Funcs(s.funcs()).ParseFS(files, "pages/*.tmpl")
	if err != nil {
		return nil, fmt.Errorf("web: pages: %w", err)
	}
	s.mux.HandleFunc("/t/{table}/p/{player}/{mac}", s.playerPage)
	s.mux.HandleFunc("/t/{table}/p/{player}/{mac}/"+weblink.GCGFile, s.playerGCG)
	s.mux.HandleFunc("/t/{table}/s/{mac}", s.spectatorPage)
	s.mux.HandleFunc("/t/{table}/s/{mac}/"+weblink.GCGFile, s.spectatorGCG)
	s.mux.HandleFunc("/l/{league}/{mac}", s.leaguePage)
	s.mux.HandleFunc("/u/{table}/{player}/{mac}", s.unsubscribe)
	s.mux.HandleFunc("/static/lexio.css", s.stylesheet)
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.fail(w, r, s.lang, http.StatusNotFound, "web.err.notFound")
	})
	return s, nil
}

// ServeHTTP puts the security headers on every answer, then applies the
// rate limit, then routes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	// No script, no frame, nothing fetched but our own stylesheet. The
	// mail's fragments carry their styles in attributes (mail clients
	// want them inline): style-src-attr lets those apply; default-src
	// 'none' keeps any style from fetching anything.
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; style-src-attr 'unsafe-inline'; "+
		"img-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer") // a signed URL never leaves in a Referer
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cache-Control", "no-store")
	if ok, wait := s.limit.allow(clientAddr(r)); !ok {
		h.Set("Retry-After", strconv.Itoa(wait))
		s.fail(w, r, s.lang, http.StatusTooManyRequests, "web.err.tooMany", wait)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// clientAddr is the address a request came from: the peer's, or, when
// the peer is this machine (the reverse proxy in front), the last address
// of X-Forwarded-For, which that proxy added.
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		if xff := r.Header.Values("X-Forwarded-For"); len(xff) > 0 {
			hops := strings.Split(xff[len(xff)-1], ",")
			if last := strings.TrimSpace(hops[len(hops)-1]); last != "" {
				return last
			}
		}
	}
	return host
}

// readOnly answers false, with a 405 page, to anything but GET and HEAD.
func (s *Server) readOnly(w http.ResponseWriter, r *http.Request, lang string) bool {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return true
	}
	w.Header().Set("Allow", "GET, HEAD")
	s.fail(w, r, lang, http.StatusMethodNotAllowed, "web.err.method")
	return false
}

func (s *Server) playerPage(w http.ResponseWriter, r *http.Request) {
	name, id, ok := s.player(r)
	if !ok {
		s.notFound(w, r)
		return
	}
	s.tablePage(w, r, name, id)
}

func (s *Server) spectatorPage(w http.ResponseWriter, r *http.Request) {
	name, ok := s.spectator(r)
	if !ok {
		s.notFound(w, r)
		return
	}
	s.tablePage(w, r, name, 0)
}

// player checks a player link's segments.
func (s *Server) player(r *http.Request) (string, int64, bool) {
	name := r.PathValue("table")
	id, ok := s.links.VerifyPlayer(name, r.PathValue("player"), r.PathValue("mac"))
	return name, id, ok
}

// spectator checks a spectator link's segments.
func (s *Server) spectator(r *http.Request) (string, bool) {
	name := r.PathValue("table")
	return name, s.links.VerifySpectator(name, r.PathValue("mac"))
}

// tablePage is table name for player id, or for spectators (0): a
// spectators' link of a league without spectators shows nothing.
func (s *Server) tablePage(w http.ResponseWriter, r *http.Request, name string, id int64) {
	t, err := s.src.WebTable(r.Context(), name, id)
	switch {
	case err != nil:
		s.internal(w, r, s.lang, err)
		return
	case t == nil || id == 0 && !t.Spectators:
		s.notFound(w, r)
		return
	}
	if !s.readOnly(w, r, t.Lang) {
		return
	}
	data := tablePage{Table: t, Lang: t.Lang}
	base := r.URL.EscapedPath()
	if t.Over {
		data.GCG = base + "/" + weblink.GCGFile
	}
	if t.Seasons {
		data.LeagueURL = s.links.LeaguePath(t.League)
	}
	if id != 0 && t.Spectators {
		data.WatchURL = s.links.SpectatorPath(t.Name)
	}
	s.render(w, r, http.StatusOK, "table", data)
}

// tablePage is the data of the table page.
type tablePage struct {
	*view.Table
	Lang string
	// GCG, LeagueURL and WatchURL are paths on this server, "" for none.
	GCG, LeagueURL, WatchURL string
}

func (s *Server) playerGCG(w http.ResponseWriter, r *http.Request) {
	name, _, ok := s.player(r)
	if !ok {
		s.notFound(w, r)
		return
	}
	s.gcg(w, r, name, false)
}

func (s *Server) spectatorGCG(w http.ResponseWriter, r *http.Request) {
	name, ok := s.spectator(r)
	if !ok {
		s.notFound(w, r)
		return
	}
	s.gcg(w, r, name, true)
}

// gcg sends a finished game's record; a spectators' link, only where the
// league has spectators.
func (s *Server) gcg(w http.ResponseWriter, r *http.Request, name string, spectator bool) {
	if !s.readOnly(w, r, s.lang) {
		return
	}
	if spectator {
		t, err := s.src.WebTable(r.Context(), name, 0)
		if err != nil {
			s.internal(w, r, s.lang, err)
			return
		}
		if t == nil || !t.Spectators {
			s.notFound(w, r)
			return
		}
	}
	rec, err := s.src.WebGCG(r.Context(), name)
	switch {
	case err != nil:
		s.internal(w, r, s.lang, err)
	case rec == nil:
		s.fail(w, r, s.lang, http.StatusNotFound, "web.err.noRecord")
	default:
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Content-Disposition", `attachment; filename="lexio-`+name+`.gcg"`)
		w.Write(rec)
	}
}

func (s *Server) leaguePage(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("league")
	if !s.links.VerifyLeague(name, r.PathValue("mac")) {
		s.notFound(w, r)
		return
	}
	if !s.readOnly(w, r, s.lang) {
		return
	}
	l, err := s.leagues.WebLeague(r.Context(), name)
	switch {
	case err != nil:
		s.internal(w, r, s.lang, err)
	case l == nil:
		s.notFound(w, r)
	default:
		s.render(w, r, http.StatusOK, "league", leaguePage{League: l, Lang: l.Lang})
	}
}

// leaguePage is the data of the league page.
type leaguePage struct {
	*view.League
	Lang string
}

// unsubscribe is the one-click unsubscribe (RFC 8058, EMAIL §7.3): a GET
// shows a form that changes nothing until it is sent; the POST, with no
// cookie and no login (the link is the authority), sets NOTIFY turn and
// answers 200 with a page of its own.
func (s *Server) unsubscribe(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("table")
	id, ok := s.links.VerifyUnsubscribe(name, r.PathValue("player"), r.PathValue("mac"))
	if !ok {
		s.notFound(w, r)
		return
	}
	lang, err := s.src.WebPlayerLang(r.Context(), name, id)
	if err != nil {
		s.internal(w, r, s.lang, err)
		return
	}
	if lang == "" {
		s.notFound(w, r)
		return
	}
	data := unsubPage{Lang: lang, Table: name, Action: r.URL.EscapedPath()}
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		s.render(w, r, http.StatusOK, "unsubscribe", data)
	case http.MethodPost:
		lang, ok, err := s.unsub.WebUnsubscribe(r.Context(), name, id)
		switch {
		case err != nil:
			s.internal(w, r, data.Lang, err)
		case !ok:
			s.notFound(w, r)
		default:
			data.Lang, data.Done = lang, true
			s.render(w, r, http.StatusOK, "unsubscribe", data)
		}
	default:
		w.Header().Set("Allow", "GET, HEAD, POST")
		s.fail(w, r, lang, http.StatusMethodNotAllowed, "web.err.method")
	}
}

// unsubPage is the data of the unsubscribe page.
type unsubPage struct {
	Lang, Table, Action string
	Done                bool
}

func (s *Server) stylesheet(w http.ResponseWriter, r *http.Request) {
	if !s.readOnly(w, r, s.lang) {
		return
	}
	css, err := files.ReadFile("static/lexio.css")
	if err != nil {
		s.internal(w, r, s.lang, err)
		return
	}
	w.Header().Set("Content-Type", "text/css; charset=utf-8")
	w.Header().Set("Cache-Control", "public, max-age=3600")
	w.Write(css)
}

func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	s.fail(w, r, s.lang, http.StatusNotFound, "web.err.notFound")
}

// internal answers 500 and logs err, which the page does not show.
func (s *Server) internal(w http.ResponseWriter, r *http.Request, lang string, err error) {
	s.log.Error("web request failed", "path", r.URL.Path, "err", err)
	s.fail(w, r, lang, http.StatusInternalServerError, "web.err.internal")
}

// fail answers status with an error page that says phrase (with data).
func (s *Server) fail(w http.ResponseWriter, r *http.Request, lang string, status int, phrase string, data ...any) {
	var d any
	if len(data) > 0 {
		d = data[0]
	}
	msg, err := s.tmpl.Phrase(lang, phrase, d)
	if err != nil {
		s.log.Error("web error page", "phrase", phrase, "err", err)
		msg = http.StatusText(status)
	}
	s.render(w, r, status, "error", errorPage{Lang: lang, Message: msg})
}

// errorPage is the data of an error page.
type errorPage struct {
	Lang, Message string
}

// render writes page name with data, as status.
func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, name string, data any) {
	var b strings.Builder
	if err := s.pages.ExecuteTemplate(&b, name, data); err != nil {
		s.log.Error("web page failed to render", "page", name, "path", r.URL.Path, "err", err)
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprintln(w, "Something went wrong on our side; nothing was changed. Try again in a few minutes.")
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write([]byte(b.String()))
	}
}

// funcs are the pages' functions: the mail's fragments and phrases, in
// the language each call names.
func (s *Server) funcs() htmltemplate.FuncMap {
	return htmltemplate.FuncMap{
		"frag": s.tmpl.Fragment,
		"t": func(lang, name string, data ...any) (string, error) {
			var d any
			if len(data) > 0 {
				d = data[0]
			}
			return s.tmpl.Phrase(lang, name, d)
		},
		"signed": func(n int) string { return fmt.Sprintf("%+d", n) },
		"rating": func(r float64) string { return strconv.FormatFloat(r, 'f', 0, 64) },
		"add":    func(a, b int) int { return a + b },
		// chrome is what the page around the content needs.
		"chrome": func(lang, title string, wide bool) map[string]any {
			return map[string]any{"Lang": lang, "Title": title, "Wide": wide}
		},
		"args": func(kv ...any) (map[string]any, error) {
			if len(kv)%2 != 0 {
				return nil, errors.New("web: args wants key, value pairs")
			}
			m := make(map[string]any, len(kv)/2)
			for i := 0; i < len(kv); i += 2 {
				k, ok := kv[i].(string)
				if !ok {
					return nil, fmt.Errorf("web: args key %v is not a string", kv[i])
				}
				m[k] = kv[i+1]
			}
			return m, nil
		},
	}
}
