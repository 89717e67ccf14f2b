package engine

import (
	"math/rand/v2"

	"github.com/lexio-mail/lexio/engine/board"
)

// bag is the face-down pool of tiles. Its order is decided by a PCG source
// seeded from the table's seed; the bag is never serialised on its own: a
// game is rebuilt from its seed and actions, which replays every draw.
type bag struct {
	tiles []byte
	rng   *rand.Rand
}

func newBag(r board.Rules, seed uint64) *bag {
	b := &bag{
		tiles: board.TileSet(r),
		rng:   rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
	}
	b.shuffle()
	return b
}

func (b *bag) shuffle() {
	b.rng.Shuffle(len(b.tiles), func(i, j int) { b.tiles[i], b.tiles[j] = b.tiles[j], b.tiles[i] })
}

// draw takes up to n tiles from the bag, appending them to dst in draw order.
func (b *bag) draw(dst []byte, n int) []byte {
	n = min(n, len(b.tiles))
	for range n {
		last := len(b.tiles) - 1
		dst = append(dst, b.tiles[last])
		b.tiles = b.tiles[:last]
	}
	return dst
}

// putBack returns tiles to the bag and shuffles it (RULES §7.1).
func (b *bag) putBack(tiles []byte) {
	b.tiles = append(b.tiles, tiles...)
	b.shuffle()
}

// rackValue is what the tiles of a rack are worth (blanks 0, RULES §11.3).
func rackValue(rack []byte) int {
	v := 0
	for _, t := range rack {
		v += board.TileValue(t)
	}
	return v
}
