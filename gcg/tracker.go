package gcg

import (
	"fmt"
	"strings"

	"github.com/lexio-mail/lexio/engine/board"
)

// tiles counts tiles by kind: the letters A–Z, then the blank.
type tiles [27]int

const blankKind = 26

func kindOf(t byte) int {
	if t == board.BlankTile {
		return blankKind
	}
	return int(t - 'A')
}

func kindName(k int) string {
	if k == blankKind {
		return "?"
	}
	return string(rune('A' + k))
}

// countTiles counts a rack written as letters A–Z and '?' for a blank.
func countTiles(rack []byte) tiles {
	var c tiles
	for _, t := range rack {
		c[kindOf(t)]++
	}
	return c
}

// placedTiles counts the rack tiles a placement uses: '?' for a blank.
func placedTiles(ps []board.Placement) tiles {
	var c tiles
	for _, p := range ps {
		if p.Blank {
			c[blankKind]++
		} else {
			c[kindOf(p.Letter)]++
		}
	}
	return c
}

func (c tiles) size() int {
	n := 0
	for _, v := range c {
		n += v
	}
	return n
}

func (c tiles) plus(d tiles) tiles {
	for k := range c {
		c[k] += d[k]
	}
	return c
}

// minus is c less d, never below 0 of a kind.
func (c tiles) minus(d tiles) tiles {
	for k := range c {
		c[k] = max(0, c[k]-d[k])
	}
	return c
}

// value is what the tiles are worth, blanks 0 (RULES §3.1, §11.3).
func (c tiles) value() int {
	v := 0
	for k, n := range c {
		if k != blankKind {
			v += n * board.LetterValue(byte('A'+k))
		}
	}
	return v
}

// String writes the tiles in alphabetical order, blanks last.
func (c tiles) String() string {
	var b strings.Builder
	for k, v := range c {
		b.WriteString(strings.Repeat(kindName(k), v))
	}
	return b.String()
}

// hand is what a record lets us know of one player's rack without
// knowing the draws: how many tiles it holds, which of them are certain
// (the rack last shown, less what was placed or returned since) and, after
// an exchange, how many of each kind it can hold at most.
type hand struct {
	count int
	hold  tiles
	most  tiles
	line  int // the line that last showed the rack
}

// tracker follows the tiles through a record (RULES §3, §4.5, §7.1): the
// game's tiles, those on the board, the bag's size and every hand. A rack
// written on a line must be one the player can hold; the tracker says why
// not. Once a player can draw no more (the bag is empty, or they passed),
// what they hold is known exactly.
type tracker struct {
	names []string
	full  tiles // every tile of the game (RULES §3.1, §12)
	board tiles
	bag   int
	hands []hand
}

func newTracker(rules board.Rules, names []string) *tracker {
	t := &tracker{names: names, full: countTiles(board.TileSet(rules)), hands: make([]hand, len(names))}
	t.bag = t.full.size()
	for p := range t.hands {
		// RULES §3.2: the deal, in join order.
		h := &t.hands[p]
		h.count = min(board.RackSize, t.bag)
		h.most = t.full
		t.bag -= h.count
	}
	return t
}

// exact reports whether player p's rack is known tile for tile.
func (t *tracker) exact(p int) bool { return t.hands[p].hold.size() == t.hands[p].count }

// known returns player p's rack when the record determines it: known tile
// for tile, or, with the bag empty, the tiles nobody else can hold.
func (t *tracker) known(p int) (tiles, bool) {
	if t.exact(p) {
		return t.hands[p].hold, true
	}
	if t.bag > 0 {
		return tiles{}, false
	}
	for q := range t.hands {
		if q != p && !t.exact(q) {
			return tiles{}, false
		}
	}
	rest := t.full.minus(t.board).minus(t.others(p))
	return rest, rest.size() == t.hands[p].count
}

// others counts the tiles that the players other than p certainly hold.
func (t *tracker) others(p int) tiles {
	var c tiles
	for q, h := range t.hands {
		if q != p {
			c = c.plus(h.hold)
		}
	}
	return c
}

// check says why player p cannot hold rack, or nil if they can.
func (t *tracker) check(p int, rack []byte) error {
	h := t.hands[p]
	name := t.names[p]
	c := countTiles(rack)
	if len(rack) != h.count {
		why := "RULES §3.2, §4.5: a rack is refilled to 7 while the bag has tiles"
		if t.bag == 0 {
			why = "the bag is empty"
		}
		return fmt.Errorf("the rack %s has %d tiles, but %s holds %d (%s)", rack, len(rack), name, h.count, why)
	}
	if c[blankKind] > 0 && t.full[blankKind] == 0 {
		return fmt.Errorf("the rack %s holds a blank, and plain lexico has none (RULES §12)", rack)
	}
	others := t.others(p)
	for k, n := range c {
		if n+t.board[k]+others[k] <= t.full[k] {
			continue
		}
		var where []string
		if t.board[k] > 0 {
			where = append(where, fmt.Sprintf("%d on the board", t.board[k]))
		}
		for q, o := range t.hands {
			if q != p && o.hold[k] > 0 {
				where = append(where, fmt.Sprintf("%d held by %s since line %d", o.hold[k], t.names[q], o.line))
			}
		}
		all := ""
		if len(where) > 0 {
			all = ", " + strings.Join(where, " and ")
		}
		return fmt.Errorf("the rack %s holds %d %s, but the game has %d %s in all%s (RULES §3.1)", rack, n, kindName(k), t.full[k], kindName(k), all)
	}
	if lack := h.hold.minus(c); lack.size() > 0 {
		if t.exact(p) {
			return fmt.Errorf("%s holds exactly %s since line %d (no tile drawn since), not %s", name, h.hold, h.line, rack)
		}
		return fmt.Errorf("%s kept %s at line %d, but the rack %s lacks %s (RULES §4.5)", name, h.hold, h.line, rack, lack)
	}
	if extra := c.minus(h.most); extra.size() > 0 {
		return fmt.Errorf("the rack %s holds %s, which %s could not draw at the exchange of line %d: the tiles returned go back after the draw (RULES §7.1)", rack, extra, name, h.line)
	}
	return nil
}

// show records that player p holds rack, as written at line. After a
// failed check it takes the record's word for it.
func (t *tracker) show(p int, rack []byte, line int) {
	c := countTiles(rack)
	t.hands[p] = hand{count: len(rack), hold: c, most: c, line: line}
}

// place moves player p's placed tiles to the board and refills the rack
// from the bag (RULES §4.5).
func (t *tracker) place(p int, placed tiles) {
	h := &t.hands[p]
	h.hold = h.hold.minus(placed)
	h.count -= placed.size()
	t.board = t.board.plus(placed)
	drawn := min(board.RackSize-h.count, t.bag)
	t.bag -= drawn
	h.count += drawn
	h.most = h.hold
	if drawn > 0 {
		h.most = t.full
	}
}

// giveBack returns player p's whole rack to the bag: they resigned with
// others still in (LEAGUES §2.2).
func (t *tracker) giveBack(p int) {
	h := &t.hands[p]
	t.bag += h.count
	*h = hand{line: h.line}
}

// exchange returns player p's tiles to the bag after drawing as many: the
// rack keeps the rest and holds none of the returned tiles nor any tile
// that was out of the bag (RULES §7.1). returned is empty when the record
// gives only how many were exchanged: nothing is certain then.
func (t *tracker) exchange(p int, returned tiles) {
	h := &t.hands[p]
	if returned.size() == 0 {
		h.hold, h.most = tiles{}, t.full
		return
	}
	h.hold = h.hold.minus(returned)
	// Out of the bag at the draw: the board, the other racks' known
	// tiles, and this rack's own, the returned included.
	out := t.board.plus(t.others(p)).plus(returned)
	h.most = t.full.minus(out)
	for k := range h.most {
		h.most[k] = max(h.most[k], h.hold[k])
	}
}
