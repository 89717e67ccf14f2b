package movegen

import (
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/dict"
	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/engine/board"
)

// frenchPath is Debian's wfrench list; the benchmarks skip, saying so,
// where it is not installed.
const frenchPath = "/usr/share/dict/french"

var french = sync.OnceValues(func() (*dict.Dict, *dict.Gaddag) {
	d, _, err := dict.Open(frenchPath)
	if err != nil {
		return nil, nil
	}
	gd, err := dict.BuildGaddag(d)
	if err != nil {
		return nil, nil
	}
	return d, gd
})

func frenchGaddag(tb testing.TB) (*dict.Dict, *dict.Gaddag) {
	tb.Helper()
	if _, err := os.Stat(frenchPath); err != nil {
		tb.Skipf("%s not found: apt-get install wfrench to run the benchmarks on the French list", frenchPath)
	}
	d, gd := french()
	if gd == nil {
		tb.Fatalf("cannot build the GADDAG of %s", frenchPath)
	}
	return d, gd
}

// position is a board and the rack of the player on turn.
type position struct {
	board board.Board
	rack  []byte
	rules board.Rules
}

// midGames plays games with the real bag and wfrench, each player taking
// the best move the generator finds (exchanging all when there is none),
// and keeps the positions after the 4th to the 12th placement: boards of
// about 15 to 50 tiles.
func midGames(tb testing.TB, d *dict.Dict, gd *dict.Gaddag, games int) []position {
	var out []position
	gen := New(gd)
	var buf []Move
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	for seed := range games {
		r := board.Rules{Variant: board.Lexio}
		if seed%2 == 1 {
			r.Variant = board.Lexico
		}
		g, err := engine.New(engine.Config{Rules: r, Players: 2, Seed: uint64(seed), Start: t0})
		if err != nil {
			tb.Fatal(err)
		}
		for placed := 0; placed < 12 && !g.Over(); {
			p := g.Turn()
			b := g.Board()
			rack := g.Rack(p)
			if placed >= 4 {
				out = append(out, position{board: b, rack: rack, rules: r})
			}
			buf, err = gen.Generate(&b, rack, r, buf[:0])
			if err != nil {
				tb.Fatal(err)
			}
			if len(buf) == 0 {
				if err := g.Pass(p, t0); err != nil {
					tb.Fatal(err)
				}
				continue
			}
			best := buf[0]
			for _, m := range buf {
				if m.Score > best.Score {
					best = m
				}
			}
			if _, err := g.PlaceTiles(p, best.Placements(), d, t0); err != nil {
				tb.Fatal(err)
			}
			placed++
		}
	}
	return out
}

// BenchmarkGenerate: every move of a set of mid-game positions (lexio and
// lexico, wfrench), one position per iteration; no allocation once the
// move slice has grown. "all" holds every position, "no-blank" and
// "blank" those whose rack holds no blank or at least one (a blank
// multiplies the moves). "all-warm" generates each position of "all" ten
// times in a row: the states it reads are then in the cache and its
// branches known to the processor, which "all" (a new position each
// time, as in play) measures too; it is a diagnostic, not the target.
func BenchmarkGenerate(b *testing.B) {
	d, gd := frenchGaddag(b)
	all := midGames(b, d, gd, 20)
	var blank, plain []position
	for _, p := range all {
		if slices.Contains(p.rack, board.BlankTile) {
			blank = append(blank, p)
		} else {
			plain = append(plain, p)
		}
	}
	for _, set := range []struct {
		name   string
		ps     []position
		repeat int
	}{{"all", all, 1}, {"no-blank", plain, 1}, {"blank", blank, 1}, {"all-warm", all, 10}} {
		b.Run(set.name, func(b *testing.B) { benchGenerate(b, gd, set.ps, set.repeat) })
	}
}

// benchGenerate generates each position of ps repeat times in a row.
func benchGenerate(b *testing.B, gd *dict.Gaddag, ps []position, repeat int) {
	gen := New(gd)
	var buf []Move
	for _, p := range ps { // warm up: the slice grows to the largest position
		buf, _ = gen.Generate(&p.board, p.rack, p.rules, buf[:0])
	}
	b.ReportAllocs()
	moves := 0
	i := 0
	for b.Loop() {
		p := &ps[i/repeat%len(ps)]
		i++
		var err error
		if buf, err = gen.Generate(&p.board, p.rack, p.rules, buf[:0]); err != nil {
			b.Fatal(err)
		}
		moves += len(buf)
	}
	b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
	b.ReportMetric(float64(moves)/float64(i), "moves/position")
	b.ReportMetric(float64(len(ps)), "positions")
}
