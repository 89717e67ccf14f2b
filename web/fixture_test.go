package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/config"
	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/engine/enginetest"
	"github.com/lexio-mail/lexio/inbox"
	"github.com/lexio-mail/lexio/internal/weblink"
	"github.com/lexio-mail/lexio/lobby"
	"github.com/lexio-mail/lexio/mailer"
	"github.com/lexio-mail/lexio/player"
	"github.com/lexio-mail/lexio/season"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/outbox"
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/table/tableview"
	"github.com/lexio-mail/lexio/templates"
	"github.com/lexio-mail/lexio/web"
)

const secret = "0123456789abcdef0123456789abcdef"

// fixtureConfig has a league with spectators and seasons ("open", its
// division A of three players: three 2-player tables), and one without
// either ("quiet"), whose table elm alice opens against bob.
const fixtureConfig = `
language = "en"
[mail]
address = "lexio@example.org"
replies_per_hour = 100
[embedded]
enabled = true
[web]
listen = "127.0.0.1:0"
base_url = "https://lexio.example.org"
[[league]]
name = "open"
spectators = true
table_size = 2
[[league.division]]
name = "A"
players = ["alice@example.org", "bob@example.org", "carol@example.org"]
[[league]]
name = "quiet"
[[table]]
name = "elm"
league = "quiet"
players = ["alice@example.org", "bob@example.org"]
seed = 7
`

// clock is the injected time.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// fixture is the table service on a real SQLite file, and the web server
// in front of it.
type fixture struct {
	t     testing.TB
	ctx   context.Context
	clock *clock
	store *store.Store
	svc   *table.Service
	// views are the tables' pages.
	views *tableview.Service
	// players own the one-click unsubscribe.
	players *player.Service
	// seasons own the league pages.
	seasons *season.Service
	// front is the mail front door.
	front  *inbox.Service
	links  *weblink.Links
	tmpl   *templates.Set
	server *web.Server
	seq    int
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	cfg, err := config.Parse([]byte(fixtureConfig))
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, ctx: context.Background(), clock: &clock{t: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)}}
	f.store, err = store.Open(f.ctx, store.Options{Driver: store.DriverSQLite, SQLitePath: filepath.Join(t.TempDir(), "lexio.db"), Now: f.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.store.Close() })
	if f.tmpl, err = templates.New(); err != nil {
		t.Fatal(err)
	}
	f.links = weblink.New(cfg.Web.BaseURL, []byte(secret))
	f.svc, err = table.New(table.Options{Config: cfg, Store: f.store, Dict: enginetest.AnyWord{}, Templates: f.tmpl,
		Secret: []byte(secret), Now: f.clock.Now, Links: f.links})
	if err != nil {
		t.Fatal(err)
	}
	gather := lobby.New(f.svc, nil)
	f.players, f.seasons = player.New(f.svc, nil), season.New(f.svc, gather, nil)
	f.svc.SetSeasons(f.seasons)
	f.svc.SetVacations(f.players)
	f.front = inbox.New(f.svc, f.players, f.seasons, gather, nil)
	f.views = tableview.New(f.svc, nil)
	if err := gather.EnsureTables(f.ctx); err != nil {
		t.Fatal(err)
	}
	f.server, err = web.New(web.Options{Source: f.views, Leagues: f.seasons, Unsubscriber: f.players, Links: f.links, Templates: f.tmpl, Lang: "en", Now: f.clock.Now, PerMinute: 60})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// send hands the service a message from addr through its token for
// table.
func (f *fixture) send(addr, tableName, body string) {
	f.t.Helper()
	f.seq++
	token := f.svc.Tokens().Token(tableName, addr)
	raw := fmt.Sprintf("From: <%s>\r\nTo: <lexio+%s@example.org>\r\nSubject: move\r\nMessage-ID: <m%d@test.example>\r\nDate: %s\r\n\r\n%s\r\n",
		addr, token, f.seq, f.clock.Now().Format(time.RFC1123Z), body)
	if err := f.front.HandleMessage(f.ctx, mailer.Inbound{Raw: []byte(raw), Size: int64(len(raw))}); err != nil {
		f.t.Fatal(err)
	}
}

// game is the game at table name.
func (f *fixture) game(name string) *engine.Game {
	f.t.Helper()
	g, err := f.svc.Game(f.ctx, name)
	if err != nil || g == nil {
		f.t.Fatalf("game %s: %v", name, err)
	}
	return g
}

// play has the player whose turn it is at name place a few tiles.
func (f *fixture) play(name string) {
	f.t.Helper()
	g := f.game(name)
	p := g.Turn()
	play, ok := enginetest.FindPlay(g, p, 3)
	if !ok {
		f.t.Fatalf("%s: no play for seat %d", name, p)
	}
	f.send(f.seatAddr(name, p), name, enginetest.Command(play))
	if got := len(f.game(name).Actions()); got <= len(g.Actions()) {
		f.t.Fatalf("%s: the move was not played", name)
	}
	f.clock.Add(time.Minute)
}

// seatAddr is the address at seat p of table name.
func (f *fixture) seatAddr(name string, p int) string {
	f.t.Helper()
	sum, err := f.views.Show(f.ctx, name)
	if err != nil {
		f.t.Fatal(err)
	}
	return sum.Players[p]
}

// playerID is the store's id of addr.
func (f *fixture) playerID(addr string) int64 {
	f.t.Helper()
	var id int64
	err := f.store.View(f.ctx, func(tx *store.Tx) error {
		p, err := tx.PlayerByAddress(addr)
		if err == nil {
			id = p.ID
		}
		return err
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return id
}

// seatNotify is the NOTIFY choice of addr's seat at table name.
func (f *fixture) seatNotify(name, addr string) string {
	f.t.Helper()
	var mode string
	err := f.store.View(f.ctx, func(tx *store.Tx) error {
		row, err := tx.TableByName(name)
		if err != nil {
			return err
		}
		seats, err := tx.Seats(row.ID)
		for _, st := range seats {
			if st.Player.Address == addr {
				mode = st.Notify
			}
		}
		return err
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return mode
}

// outbox returns the mails queued since the last call, and marks them sent.
func (f *fixture) outbox() []store.OutboxMail {
	f.t.Helper()
	ms, err := outbox.New(f.store).Due(f.ctx, f.clock.Now().Add(time.Hour), 1000)
	if err != nil {
		f.t.Fatal(err)
	}
	var ids []int64
	for _, m := range ms {
		ids = append(ids, m.ID)
	}
	if err := outbox.New(f.store).Sent(f.ctx, ids, f.clock.Now()); err != nil {
		f.t.Fatal(err)
	}
	return ms
}

// get requests path from remote (an address of the client's).
func (f *fixture) do(method, path, remote string) *httptest.ResponseRecorder {
	f.t.Helper()
	r := httptest.NewRequest(method, path, nil)
	if remote != "" {
		r.RemoteAddr = remote
	}
	w := httptest.NewRecorder()
	f.server.ServeHTTP(w, r)
	return w
}

func (f *fixture) get(path string) *httptest.ResponseRecorder {
	return f.do(http.MethodGet, path, "")
}

// rackFragment is the rack of seat p at table name as the pages draw it.
func (f *fixture) rackFragment(name string, p int) string {
	f.t.Helper()
	v, err := f.game(name).View(p, f.clock.Now())
	if err != nil {
		f.t.Fatal(err)
	}
	rack := make(templates.Rack, len(v.Rack))
	for i, t := range v.Rack {
		rack[i] = templates.RackTile{Slot: t.Slot, Value: t.Value}
		if t.Letter == "?" {
			rack[i].Blank = true
		} else {
			rack[i].Letter = t.Letter[0]
		}
	}
	frag, err := f.tmpl.Fragment("en", "part.rack", rack)
	if err != nil {
		f.t.Fatal(err)
	}
	return strings.TrimSpace(string(frag))
}

// startSeason starts the open league's first season and returns its
// tables.
func (f *fixture) startSeason() []season.SeasonTable {
	f.t.Helper()
	s, err := f.seasons.StartSeason(f.ctx, "open")
	if err != nil {
		f.t.Fatal(err)
	}
	return s.Tables
}
