package movegen

import (
	"flag"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/dict"
	"github.com/lexio-mail/lexio/engine/board"
)

var big = flag.Bool("movegen.big", false, "exactness on many more positions, longer games, racks of up to 5 random tiles and every letter for a blank (minutes)")

// smallDict returns a dictionary of random words over alphabet, with the
// GADDAG built from it.
func smallDict(t testing.TB, rng *rand.Rand, alphabet string, n int) (*dict.Dict, *dict.Gaddag) {
	t.Helper()
	var words []string
	for i := range n {
		w := make([]byte, 1+rng.IntN(6))
		if i%20 == 0 {
			w = make([]byte, 7+rng.IntN(3)) // long words, for 7-tile moves
		}
		if rng.IntN(8) != 0 && len(w) == 1 {
			w = append(w, 0) // few one-letter words: they are never played
		}
		for i := range w {
			w[i] = alphabet[rng.IntN(len(alphabet))]
		}
		words = append(words, string(w))
	}
	d, _, err := dict.Build(strings.NewReader(strings.Join(words, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	gd, err := dict.BuildGaddag(d)
	if err != nil {
		t.Fatal(err)
	}
	return d, gd
}

// key names a placement by its set of tiles, in cell order.
func key(ps []board.Placement) string {
	ps = slices.Clone(ps)
	sort.Slice(ps, func(i, j int) bool {
		a, b := ps[i].Cell, ps[j].Cell
		return a.Row < b.Row || a.Row == b.Row && a.Col < b.Col
	})
	var sb strings.Builder
	for _, p := range ps {
		l := p.Letter
		if p.Blank {
			l += 'a' - 'A'
		}
		fmt.Fprintf(&sb, "%v%c ", p.Cell, l)
	}
	return sb.String()
}

func allIn(d *dict.Dict, words []board.Word) bool {
	for _, w := range words {
		if !d.Contains(w.Text) {
			return false
		}
	}
	return true
}

// bruteForce tries every placement through the engine: every line, every
// start, every number of tiles, every ordering of the rack's tiles with
// every letter for a blank among blankLetters, and keeps those Evaluate
// accepts whose words are all in d, with their score. The shape rules do
// not depend on the letters, so a set of cells Check refuses with dummy
// letters is not tried with others.
func bruteForce(b *board.Board, rack []byte, r board.Rules, d *dict.Dict, blankLetters string) map[string]int {
	found := map[string]int{}
	var counts [27]int
	for _, t := range rack {
		if t == board.BlankTile {
			counts[26]++
		} else {
			counts[t-'A']++
		}
	}
	maxTiles := min(len(rack), board.RackSize)
	for _, dir := range []board.Dir{board.Across, board.Down} {
		for row := range board.Size {
			for col := range board.Size {
				start := board.Cell{Col: col, Row: row}
				if !board.Playable(start) || !b.At(start).Empty() {
					continue
				}
				var cells []board.Cell
				for c := start; len(cells) < maxTiles && c.OnBoard() && board.Playable(c); c = c.Next(dir, 1) {
					if b.At(c).Empty() {
						cells = append(cells, c)
					}
				}
				for k := 1; k <= len(cells); k++ {
					ps := make([]board.Placement, k)
					for i := range ps {
						ps[i] = board.Placement{Cell: cells[i], Letter: 'A'}
					}
					if _, err := b.Check(ps, r); err != nil {
						continue
					}
					var assign func(i int)
					assign = func(i int) {
						if i == k {
							play, err := board.Evaluate(b, ps, r)
							if err != nil {
								panic(err) // Check accepted the cells
							}
							if allIn(d, play.Words) {
								found[key(ps)] = play.Score
							}
							return
						}
						for t := range 26 {
							if counts[t] > 0 {
								counts[t]--
								ps[i].Letter, ps[i].Blank = byte('A'+t), false
								assign(i + 1)
								counts[t]++
							}
						}
						if counts[26] > 0 {
							counts[26]--
							for _, l := range []byte(blankLetters) {
								ps[i].Letter, ps[i].Blank = l, true
								assign(i + 1)
							}
							counts[26]++
						}
					}
					assign(0)
				}
			}
		}
	}
	return found
}

// generated runs the generator and checks each move on its own: once
// only, the engine's shape, direction, words and score.
func generated(t *testing.T, gen *Generator, b *board.Board, rack []byte, r board.Rules, d *dict.Dict, buf []Move) (map[string]int, []Move) {
	t.Helper()
	moves, err := gen.Generate(b, rack, r, buf[:0])
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for i := range moves {
		m := &moves[i]
		ps := m.Placements()
		k := key(ps)
		if _, dup := out[k]; dup {
			t.Fatalf("%s generated twice on\n%s", k, b)
		}
		dir, err := b.Check(ps, r)
		if err != nil || dir != m.Dir {
			t.Fatalf("%s: Check = %v, %v; the move says %v, on\n%s", k, dir, err, m.Dir, b)
		}
		play, _ := board.Evaluate(b, ps, r)
		if play.Score != m.Score || !allIn(d, play.Words) {
			t.Fatalf("%s: score %d, Evaluate %d, words %v, on\n%s", k, m.Score, play.Score, play.WordTexts(), b)
		}
		if _, err := board.TakeTiles(rack, ps); err != nil {
			t.Fatalf("%s: not from the rack %s: %v", k, rack, err)
		}
		out[k] = m.Score
	}
	return out, moves
}

func randomRack(rng *rand.Rand, alphabet string, n int, blanks bool) []byte {
	rack := make([]byte, n)
	for i := range rack {
		rack[i] = alphabet[rng.IntN(len(alphabet))]
		if blanks && rng.IntN(10) == 0 {
			rack[i] = board.BlankTile
		}
	}
	return rack
}

// coverage counts what the random positions held.
type coverage struct {
	positions, moves, firsts, empty, sevens, withBlank int
	walls                                              int // moves with a tile beside a wall
}

// besideWall reports whether c is next to a walled corner cell.
func besideWall(c board.Cell) bool {
	for _, d := range []board.Dir{board.Across, board.Down} {
		for _, n := range []board.Cell{c.Next(d, -1), c.Next(d, 1)} {
			if n.OnBoard() && !board.Playable(n) {
				return true
			}
		}
	}
	return false
}

func (c *coverage) add(o coverage) {
	c.positions += o.positions
	c.moves += o.moves
	c.firsts += o.firsts
	c.empty += o.empty
	c.sevens += o.sevens
	c.withBlank += o.withBlank
	c.walls += o.walls
}

// RULES §2.2, §3.3, §4, §5, §12: on random positions of random games, in
// the three rule sets, the generated moves are exactly the placements the
// brute force finds through the engine, with the engine's scores.
func TestExactness(t *testing.T) {
	games, perGame, maxRack := 36, 12, 4
	if *big {
		games, perGame, maxRack = 120, 25, 5
	}
	ruleSets := []board.Rules{{Variant: board.Lexio}, {Variant: board.Lexico}, {Variant: board.Lexico, Plain: true}}
	covs := make([]coverage, games)
	t.Run("games", func(t *testing.T) {
		for game := range games {
			t.Run(fmt.Sprint(game), func(t *testing.T) {
				t.Parallel()
				r := ruleSets[game%len(ruleSets)]
				covs[game] = exactGame(t, rand.New(rand.NewPCG(1, uint64(game))), r, perGame, maxRack)
			})
		}
	})
	var c coverage
	for _, g := range covs {
		c.add(g)
	}
	t.Logf("%d positions (%d first moves, %d without a move), %d moves (%d of 7 tiles, %d with a blank, %d beside a wall)",
		c.positions, c.firsts, c.empty, c.moves, c.sevens, c.withBlank, c.walls)
	if !t.Failed() && (c.positions < 400 || c.firsts < 30 || c.sevens == 0 || c.withBlank < 100 || c.walls < 20) {
		t.Errorf("the random positions do not cover enough")
	}
}

// exactGame plays one random game with a small dictionary of its own,
// comparing the generator with the brute force at every position.
func exactGame(t *testing.T, rng *rand.Rand, r board.Rules, perGame, maxRack int) coverage {
	var c coverage
	// A few letters of different values, so that bonuses show.
	letters := []byte("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
	rng.Shuffle(len(letters), func(i, j int) { letters[i], letters[j] = letters[j], letters[i] })
	alphabet := string(letters[:3+rng.IntN(3)])
	d, gd := smallDict(t, rng, alphabet, 60+rng.IntN(300))
	// Every placed tile is in the main word, which must be a word: a
	// blank standing for a letter no word holds is never played.
	blankLetters := alphabet
	if *big {
		blankLetters = string(letters)
	}
	var longWords []string
	for w := range d.Words {
		if len(w) >= board.RackSize {
			longWords = append(longWords, w)
		}
	}
	gen := New(gd)
	var b board.Board
	var buf []Move
	for range perGame {
		n := 1 + rng.IntN(maxRack)
		rack := randomRack(rng, alphabet, n, r.Blanks())
		if rng.IntN(10) == 0 && len(longWords) > 0 {
			// A full rack: the first 7 letters of a long word, so that
			// 7-tile moves happen.
			long := longWords[rng.IntN(len(longWords))]
			rack = []byte(long[:board.RackSize])
			rng.Shuffle(len(rack), func(i, j int) { rack[i], rack[j] = rack[j], rack[i] })
		}
		want := bruteForce(&b, rack, r, d, blankLetters)
		got, ms := generated(t, gen, &b, rack, r, d, buf)
		buf = ms
		if !maps.Equal(got, want) {
			for k, s := range want {
				if g, ok := got[k]; !ok || g != s {
					t.Errorf("missing %s (%d; generated %d, %v)", k, s, g, ok)
				}
			}
			for k, s := range got {
				if _, ok := want[k]; !ok {
					t.Errorf("extra %s (%d)", k, s)
				}
			}
			t.Fatalf("%+v, rack %s, dictionary %v, on\n%s", r, rack, slices.Collect(d.Words), &b)
		}
		c.positions++
		c.moves += len(want)
		if b.Empty() {
			c.firsts++
		}
		if len(want) == 0 {
			c.empty++
		}
		for _, m := range ms {
			if m.N == board.RackSize {
				c.sevens++
			}
			for _, p := range m.Placements() {
				if p.Blank {
					c.withBlank++
					break
				}
			}
			for _, p := range m.Placements() {
				if besideWall(p.Cell) {
					c.walls++
					break
				}
			}
		}
		if len(ms) > 0 {
			m := ms[rng.IntN(len(ms))]
			if err := b.Apply(m.Placements()); err != nil {
				t.Fatal(err)
			}
		}
	}
	return c
}
