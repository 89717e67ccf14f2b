package table_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/config"
	"github.com/lexio-mail/lexio/engine/enginetest"
	"github.com/lexio-mail/lexio/inbox"
	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/lobby"
	"github.com/lexio-mail/lexio/mailer"
	"github.com/lexio-mail/lexio/player"
	"github.com/lexio-mail/lexio/season"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/templates"
)

// benchService is a service on a SQLite file, without mail servers, with
// its lobby: the benchmark calls the front door's HandleMessage as the
// receiver would.
func benchService(b *testing.B) (*table.Service, *lobby.Service, *inbox.Service, *lexiotest.Clock) {
	b.Helper()
	ctx := context.Background()
	clk := lexiotest.NewClock(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC))
	cfg, err := config.Parse([]byte(lexiotest.BaseConfig("", "")))
	if err != nil {
		b.Fatal(err)
	}
	st, err := store.Open(ctx, store.Options{Driver: store.DriverSQLite, SQLitePath: filepath.Join(b.TempDir(), "bench.db"), Now: clk.Now})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	tmpl, err := templates.New()
	if err != nil {
		b.Fatal(err)
	}
	svc, err := table.New(table.Options{Config: cfg, Store: st, Dict: enginetest.AnyWord{}, Templates: tmpl,
		Secret: []byte(lexiotest.Secret), Now: clk.Now})
	if err != nil {
		b.Fatal(err)
	}
	players, gather := player.New(svc, nil), lobby.New(svc, nil)
	seasons := season.New(svc, gather, nil)
	svc.SetSeasons(seasons)
	svc.SetVacations(players)
	front := inbox.New(svc, players, seasons, gather, nil)
	return svc, gather, front, clk
}

var benchPlayers = []string{"alice", "bob", "carol", "dave"}

// benchRaw is a fresh message from a player to their reply address.
func benchRaw(svc *table.Service, name, player, body string, n int, at time.Time) []byte {
	return []byte(fmt.Sprintf("From: %s@localhost\r\nTo: lexio+%s@localhost\r\nSubject: move\r\n"+
		"Date: %s\r\nMessage-ID: <bench-%s-%d@localhost>\r\nMIME-Version: 1.0\r\n"+
		"Content-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n",
		player, svc.Tokens().Token(name, player+"@localhost"), at.Format(time.RFC1123Z), name, n, body))
}

// BenchmarkInbound measures inbound messages handled per second end to
// end on SQLite: parse, one transaction (dedupe, the game rebuilt from its log, the new actions, the table row),
// every outgoing mail rendered into the outbox.
func BenchmarkInbound(b *testing.B) {
	// move: the moves of 4-player games, 4 mails each (a notice per
	// player, the author's opening with the acceptance); a new table when
	// a game ends.
	b.Run("move", func(b *testing.B) {
		svc, gather, front, clk := benchService(b)
		ctx := context.Background()
		done, tables := 0, 0
		for done < b.N {
			b.StopTimer()
			name := fmt.Sprintf("b%d", tables)
			tables++
			if err := gather.CreateTable(ctx, name, "main", lexiotest.Emails(benchPlayers...), uint64(tables)); err != nil {
				b.Fatal(err)
			}
			g, err := svc.Game(ctx, name)
			if err != nil {
				b.Fatal(err)
			}
			// The moves, found on a copy of the game.
			var raws [][]byte
			for !g.Over() && done+len(raws) < b.N {
				p := g.Turn()
				cmd, play := lexiotest.FindPlay(g, p)
				if cmd == "" {
					cmd = "PASS"
					err = g.Pass(p, clk.Now())
				} else {
					_, err = g.PlaceTiles(p, play.Tiles, enginetest.AnyWord{}, clk.Now())
				}
				if err != nil {
					b.Fatal(err)
				}
				raws = append(raws, benchRaw(svc, name, benchPlayers[p], cmd, len(raws), clk.Now()))
			}
			b.StartTimer()
			for _, raw := range raws {
				if err := front.HandleMessage(ctx, mailer.Inbound{Raw: raw, Mailbox: "INBOX", Size: int64(len(raw))}); err != nil {
					b.Fatal(err)
				}
			}
			done += len(raws)
			b.StopTimer()
			if got, err := svc.Game(ctx, name); err != nil || len(got.Actions()) != len(g.Actions()) {
				b.Fatalf("table %s: the service played %d actions, the copy %d (%v)", name, len(got.Actions()), len(g.Actions()), err)
			}
			b.StartTimer()
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
	})
	// board: BOARD requests, one mail each.
	b.Run("board", func(b *testing.B) {
		svc, gather, front, clk := benchService(b)
		ctx := context.Background()
		if err := gather.CreateTable(ctx, "board", "main", lexiotest.Emails(benchPlayers...), 1); err != nil {
			b.Fatal(err)
		}
		raws := make([][]byte, b.N)
		for i := range raws {
			raws[i] = benchRaw(svc, "board", benchPlayers[i%4], "BOARD", i, clk.Now())
		}
		b.ResetTimer()
		for _, raw := range raws {
			if err := front.HandleMessage(ctx, mailer.Inbound{Raw: raw, Mailbox: "INBOX", Size: int64(len(raw))}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
	})
}
