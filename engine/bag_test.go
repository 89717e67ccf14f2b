package engine

import (
	"testing"

	"github.com/lexio-mail/lexio/engine/board"
)

func TestBagSeeded(t *testing.T) {
	draw := func(seed uint64) string {
		b := newBag(board.Rules{}, seed)
		return string(b.draw(nil, 20))
	}
	if a, b := draw(1), draw(1); a != b {
		t.Error("same seed, different draws")
	}
	if draw(1) == draw(2) {
		t.Error("different seeds, same draws")
	}
}

func TestRulesValidate(t *testing.T) {
	for _, tc := range []struct {
		c  Config
		ok bool
	}{
		{Config{Players: 2}, true},
		{Config{Players: 4}, true},
		{Config{Players: 1}, false},
		{Config{Players: 5}, false},
		{Config{Rules: board.Rules{Variant: board.Lexico}, Players: 2}, true},
		{Config{Rules: board.Rules{Variant: board.Lexico}, Players: 3}, false}, // RULES §12: two players
		{Config{Rules: board.Rules{Variant: board.Lexico, Plain: true}, Players: 2}, true},
		{Config{Rules: board.Rules{Plain: true}, Players: 2}, false},
		{Config{Rules: board.Rules{Variant: "scrabble"}, Players: 2}, false},
	} {
		_, err := New(tc.c)
		if (err == nil) != tc.ok {
			t.Errorf("New(%+v): %v, want ok=%v", tc.c, err, tc.ok)
		}
	}
}
