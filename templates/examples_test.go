package templates

import (
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/engine/board"
	"github.com/lexio-mail/lexio/parser"
)

// TestFirstPlayExamples: every placement a mail gives as an example, that
// lays its word alone (no letter through the board), is a legal first word
// on an empty board: it covers the fountain, G7 (RULES §2.3), so that a
// newcomer who copies it from the game's first notice, HELP or a refusal is
// not refused. Each language's examples, as the text part writes them.
func TestFirstPlayExamples(t *testing.T) {
	s := newSet(t)
	first := sample(TurnNotice).(NoticeMsg)
	first.Last, first.Log, first.Words, first.Board = nil, nil, nil, Board{}
	mails := map[string]Mail{
		"first notice": first,
		"help":         sample(Help),
		"help rules":   sample(HelpRules),
		"no command":   RejectedMsg{Head: sampleHead("Bob"), Reasons: []Reason{{Kind: ReasonNoCommand}}},
		"incomplete":   RejectedMsg{Head: sampleHead("Bob"), Reasons: []Reason{{Kind: ReasonMissingArg}}},
	}
	for _, lang := range Langs() {
		for name, m := range mails {
			r, err := s.Render(lang, m)
			if err != nil {
				t.Fatal(err)
			}
			found := 0
			for _, c := range placements(r.Text) {
				found++
				var b board.Board
				mv := board.Move{Start: board.Cell{Col: c.Place.Col, Row: c.Place.Row}}
				if c.Place.Dir == parser.Down {
					mv.Dir = board.Down
				}
				through := false
				for _, l := range c.Place.Letters {
					through = through || l.Through
					mv.Word = append(mv.Word, board.Letter{Char: l.Ch, Blank: l.Blank, Through: l.Through})
				}
				if through {
					continue // an example of playing through the board
				}
				ps, err := b.Resolve(mv)
				if err == nil {
					_, err = b.Check(ps, board.Rules{})
				}
				if err != nil {
					t.Errorf("%s, %s: the example %q is no first word: %v", lang, name, c, err)
				}
			}
			if found == 0 {
				t.Errorf("%s, %s: no placement among the examples", lang, name)
			}
		}
	}
}

// placements reads every PLACE or PREVIEW a text part gives as an example:
// four words in a row, a keyword, a cell, a direction and a word, read
// without the quotes around them.
func placements(text string) []*parser.Command {
	var out []*parser.Command
	words := strings.Fields(text)
	for i := range words {
		words[i] = strings.Trim(words[i], "“”«»,")
	}
	for i := 0; i+4 <= len(words); i++ {
		c, err := parser.ParseCommand(strings.Join(words[i:i+4], " "))
		if err == nil && (c.Kind == parser.KindPlace || c.Kind == parser.KindPreview) {
			out = append(out, c)
		}
	}
	return out
}
