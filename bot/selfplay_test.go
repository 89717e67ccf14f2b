package bot

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/dict"
	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/engine/board"
)

var strength = flag.Bool("bot.strength", false, "strong against medium over 1,000 games of wfrench (a minute or two)")

// frenchPath is Debian's wfrench, which scripts/deps.sh installs for the
// tests.
const frenchPath = "/usr/share/dict/french"

type words struct {
	d  *dict.Dict
	gd *dict.Gaddag
}

// french is wfrench with its GADDAG; frenchSample every tenth word of it,
// for quicker games (more of them end blocked, without going out).
var french = sync.OnceValues(func() (words, error) { return loadFrench(1) })
var frenchSample = sync.OnceValues(func() (words, error) { return loadFrench(10) })

func loadFrench(every int) (words, error) {
	data, err := os.ReadFile(frenchPath)
	if err != nil {
		return words{}, err
	}
	lines := strings.Split(string(data), "\n")
	var kept []string
	for i := 0; i < len(lines); i += every {
		kept = append(kept, lines[i])
	}
	d, _, err := dict.Build(strings.NewReader(strings.Join(kept, "\n")))
	if err != nil {
		return words{}, err
	}
	gd, err := dict.BuildGaddag(d)
	if err != nil {
		return words{}, err
	}
	return words{d, gd}, nil
}

func mustWords(t testing.TB, load func() (words, error)) words {
	t.Helper()
	w, err := load()
	if err != nil {
		t.Fatalf("%v: the bot's tests play French (scripts/deps.sh installs wfrench)", err)
	}
	return w
}

// playGame plays a game to its end, seat p at levels[p], every action
// through the engine as a player's would go: a placement the engine
// refuses (shape, rack, unknown word) fails the test.
func playGame(t testing.TB, w words, r board.Rules, levels []Level, seed uint64) *engine.Game {
	t.Helper()
	at := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	g, err := engine.New(engine.Config{Rules: r, Players: len(levels), Seed: seed, Start: at})
	if err != nil {
		t.Fatal(err)
	}
	bots := make([]*Bot, len(levels))
	for i := range bots {
		bots[i] = New(w.gd)
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	for turn := 0; !g.Over(); turn++ {
		if turn > 400 {
			t.Fatalf("seed %d: the game has not ended after %d turns", seed, turn)
		}
		at = at.Add(time.Minute)
		p := g.Turn()
		ev, err := g.View(p, at)
		if err != nil {
			t.Fatal(err)
		}
		a, err := bots[p].Choose(ViewOf(ev), levels[p], rng)
		if err != nil {
			t.Fatalf("seed %d turn %d: %v", seed, turn, err)
		}
		if a.Player != p {
			t.Fatalf("seed %d turn %d: action for player %d, the turn is %d's", seed, turn, a.Player, p)
		}
		if err := play(g, a, w.d, at); err != nil {
			t.Fatalf("seed %d turn %d, %s at %s with %q: %v (%+v) on\n%s", seed, turn, a.Kind, levels[p], g.Rack(p), err, a, ev.Board.String())
		}
	}
	return g
}

// The property: over 1,000 random games (every level, rule set
// and number of players) the bot never plays an illegal move: playGame
// fails at the first action the engine refuses.
func TestNeverIllegal(t *testing.T) {
	w := mustWords(t, frenchSample)
	rng := rand.New(rand.NewPCG(1, 1000))
	rules := []board.Rules{{Variant: board.Lexio}, {Variant: board.Lexico}, {Variant: board.Lexico, Plain: true}}
	kinds := map[engine.ActionKind]int{}
	ends := map[engine.EndReason]int{}
	for game := range 1000 {
		r := rules[game%len(rules)]
		players := 2
		if r.Variant == board.Lexio {
			players = 2 + rng.IntN(3)
		}
		levels := make([]Level, players)
		for i := range levels {
			levels[i] = Levels()[rng.IntN(3)]
		}
		g := playGame(t, w, r, levels, uint64(game))
		for _, a := range g.Actions() {
			kinds[a.Kind]++
		}
		ends[g.Result().Reason]++
	}
	t.Logf("actions %v, ends %v", kinds, ends)
	if kinds[engine.ActPlace] == 0 || kinds[engine.ActExchange] == 0 || kinds[engine.ActPass] == 0 {
		t.Errorf("the games did not try every kind of action and end: %v, %v", kinds, ends)
	}
}

// match plays strong against medium on games seeds, alternating who
// begins and the variant, and returns strong's share of the games (a tie
// half) with the half-width of its 95 % confidence interval.
func match(t *testing.T, w words, games int) (rate, ci float64) {
	won := 0.0
	for game := range games {
		r := board.Rules{Variant: board.Lexio}
		if game/2%2 == 1 {
			r.Variant = board.Lexico
		}
		levels, strong := []Level{Strong, Medium}, 0
		if game%2 == 1 {
			levels, strong = []Level{Medium, Strong}, 1
		}
		res := playGame(t, w, r, levels, uint64(game)).Result()
		switch s, m := res.Scores[strong], res.Scores[1-strong]; {
		case s > m:
			won++
		case s == m:
			won += 0.5
		}
	}
	rate = won / float64(games)
	return rate, 1.96 * math.Sqrt(rate*(1-rate)/float64(games))
}

// Strong beats medium in at least 55 % of the games (the bar):
// over 1,000 games of wfrench with -bot.strength (60.2 % ± 3.0 % when
// written), over 200 of the tenth of wfrench otherwise (60.5 % ± 6.8 %).
func TestStrongBeatsMedium(t *testing.T) {
	w, games := mustWords(t, frenchSample), 200
	if *strength {
		w, games = mustWords(t, french), 1000
	}
	rate, ci := match(t, w, games)
	t.Logf("strong beats medium in %.1f %% of %d games (95 %% confidence interval ±%.1f %%)", 100*rate, games, 100*ci)
	if rate < 0.55 {
		t.Errorf("strong won %.1f %% of %d games against medium, want 55 %% or more", 100*rate, games)
	}
}

// BenchmarkChoose: one choice per iteration, at each level, over the
// positions of 10 games of wfrench between two medium bots (their
// endgames included).
func BenchmarkChoose(b *testing.B) {
	w := mustWords(b, french)
	var views []View
	for seed := range 10 {
		at := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
		g, err := engine.New(engine.Config{Rules: board.Rules{Variant: board.Lexio}, Players: 2, Seed: uint64(seed), Start: at})
		if err != nil {
			b.Fatal(err)
		}
		bot := New(w.gd)
		for !g.Over() {
			p := g.Turn()
			ev, _ := g.View(p, at)
			v := ViewOf(ev)
			views = append(views, v)
			a, err := bot.Choose(v, Medium, nil)
			if err != nil {
				b.Fatal(err)
			}
			if err := play(g, a, w.d, at); err != nil {
				b.Fatal(err)
			}
		}
	}
	for _, level := range Levels() {
		b.Run(string(level), func(b *testing.B) {
			bot := New(w.gd)
			rng := rand.New(rand.NewPCG(1, 1))
			i := 0
			for b.Loop() {
				if _, err := bot.Choose(views[i%len(views)], level, rng); err != nil {
					b.Fatal(err)
				}
				i++
			}
			b.ReportMetric(float64(len(views)), "positions")
		})
	}
}

// play makes the computer's action a in g.
func play(g *engine.Game, a engine.Action, d engine.Dictionary, at time.Time) error {
	var err error
	switch a.Kind {
	case engine.ActPlace:
		_, err = g.PlaceTiles(a.Player, a.Tiles, d, at)
	case engine.ActExchange:
		_, err = g.Exchange(a.Player, engine.Selection{Slots: a.Slots}, at)
	case engine.ActPass:
		err = g.Pass(a.Player, at)
	default:
		err = fmt.Errorf("action %q", a.Kind)
	}
	return err
}
