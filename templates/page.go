package templates

import (
	"fmt"
	htmltemplate "html/template"

	"github.com/lexio-mail/lexio/templates/tidy"
)

// This file lends the mail's drawing to the web side's pages (EMAIL §7):
// a page shows the board, the scores and the log as the mail draws them,
// in the reader's language, and says its own words from the language
// folders' web.* phrases.

// Fragments the web side may draw, with the data each takes.
var fragments = map[string]bool{
	"part.turn":       true, // NoticeMsg: whose turn, and the deadline
	"part.board":      true, // Board
	"part.scores":     true, // Table: scores, tiles held, the bag
	"part.clocks":     true, // NoticeMsg: time banks, vacations
	"part.rack":       true, // Rack: the viewer's own, under its heading
	"part.unseen":     true, // NoticeMsg: the tiles the viewer has not seen
	"part.lastmove":   true, // NoticeMsg: the last move in words
	"part.boardwords": true, // NoticeMsg: the board's words
	"part.note":       true, // NoticeMsg: the viewer's own note
	"part.log":        true, // []LogLine
	"part.h":          true, // string: a heading
	"msg.game-over":   true, // GameOverMsg: the result, the revealed racks, board and log
}

// Fragment draws one of the mail's HTML parts (see fragments) in lang
// ("en", "es", "fr"; anything else is English) for a web page.
func (s *Set) Fragment(lang, name string, data any) (htmltemplate.HTML, error) {
	if !fragments[name] {
		return "", fmt.Errorf("templates: %q is not a fragment", name)
	}
	ls := s.lang(lang)
	tmpl := name
	if name == "part.board" {
		tmpl = "frag.board" // drawn once per board, as in the mail
	}
	out, err := execute(ls.html[TurnNotice], tmpl, data)
	if err != nil {
		return "", fmt.Errorf("templates: fragment %s %s: %w", ls.l.code, name, err)
	}
	return htmltemplate.HTML(tidy.HTML([]byte(out))), nil
}

// Phrase says the phrase name in lang, as plain text for a page (which
// escapes it), with data as the phrase's dot.
func (s *Set) Phrase(lang, name string, data any) (string, error) {
	ls := s.lang(lang)
	out, err := execute(ls.subject, name, data)
	if err != nil {
		return "", fmt.Errorf("templates: phrase %s %s: %w", ls.l.code, name, err)
	}
	return out, nil
}

// lang is the set of a language, English for any other code.
func (s *Set) lang(code string) *langSet {
	if ls, ok := s.langs[code]; ok {
		return ls
	}
	return s.langs["en"]
}

// HasLang reports whether code is a language the templates speak.
func (s *Set) HasLang(code string) bool {
	_, ok := s.langs[code]
	return ok
}
