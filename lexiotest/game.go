package lexiotest

import (
	"strings"
	"sync"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/engine/board"
	"github.com/lexio-mail/lexio/engine/enginetest"
)

// placements counts the turn-ending actions of a game.
func Turns(g *engine.Game) int {
	n := 0
	for _, a := range g.Actions() {
		switch a.Kind {
		case engine.ActPlace, engine.ActExchange, engine.ActPass, engine.ActExpire:
			n++
		}
	}
	return n
}

// FindMove returns a legal placement for player p written as a player
// would write it (through letters in parentheses, blanks in brackets), or
// "" when it finds none. It tries the longest runs of rack tiles first
// from every empty cell next to a tile.
func FindMove(g *engine.Game, p int) string {
	cmd, _ := FindPlay(g, p)
	return cmd
}

// FindPlay is FindMove with the play it found (its words and score).
func FindPlay(g *engine.Game, p int) (string, board.Play) {
	play, ok := enginetest.FindPlay(g, p, 0)
	if !ok {
		return "", board.Play{}
	}
	return enginetest.Command(play), play
}

// NextCommand chooses what the player to move does: a placement if one
// is found, else an exchange while the bag allows, else a pass.
func NextCommand(g *engine.Game, idle bool) string {
	p := g.Turn()
	if idle {
		return "PASS"
	}
	if cmd := FindMove(g, p); cmd != "" {
		return cmd
	}
	// RULES §7.1: the bag holds enough; §12: lexico wants 7 in the bag
	// (and no exchange on a first turn, which a placement always is here).
	need := len(g.Rack(p))
	if g.Rules().Variant == board.Lexico {
		need = board.RackSize
	}
	if g.BagCount() >= need {
		return "EXCHANGE ALL"
	}
	return "PASS"
}

// RackLine reads the tiles of the "Your rack" section of an English
// notice.
func RackLine(text string) string {
	_, after, ok := strings.Cut(text, "== Your rack ==")
	if !ok {
		return "(none)"
	}
	for _, l := range strings.Split(after, "\n") {
		f := strings.Fields(l)
		if len(f) > 0 && f[0] == "Tile" {
			return strings.Join(f[1:], "")
		}
	}
	return ""
}

// Emails are the accounts' addresses on localhost.
func Emails(names ...string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n + "@localhost"
	}
	return out
}

// Lexicon is a dictionary the test fills as it goes: a word is valid once
// added (RULES §8.1).
type Lexicon struct {
	mu sync.Mutex
	w  Words
}

func (l *Lexicon) Contains(s string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Contains(s)
}

// Add makes every word of a play valid.
func (l *Lexicon) Add(p board.Play) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, w := range p.Words {
		l.w = append(l.w, w.Text)
	}
}
