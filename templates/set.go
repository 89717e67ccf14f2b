// Package templates renders every mail lexio sends, in English, Spanish and
// French, as text/plain and text/html, from plain data structs.
//
// The templates are embedded: layout/ holds one base layout per format,
// shared/ the structure of each message and the partials (board, rack,
// scores, log), and each language folder (en/, es/, fr/) only words: one
// block per phrase, used by both formats. The package knows nothing of the
// engine or the store; the table service fills the data types below.
package templates

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	htmltemplate "html/template"
	"io"
	"io/fs"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"
	texttemplate "text/template"
	"time"

	"github.com/lexio-mail/lexio/templates/tidy"
)

//go:embed layout shared en es fr
var files embed.FS

// Rendered is one message ready to send.
type Rendered struct {
	Subject string
	Text    string
	HTML    string
}

// Set holds every template, parsed once. It is safe for concurrent use.
type Set struct {
	langs map[string]*langSet
}

type langSet struct {
	l       *lang
	subject *texttemplate.Template
	text    map[Kind]*texttemplate.Template
	html    map[Kind]*htmltemplate.Template
}

// New parses every template of every language. An error names the template.
func New() (*Set, error) {
	s := &Set{langs: make(map[string]*langSet)}
	var ref []string
	for _, code := range Langs() {
		ls, err := parseLang(code)
		if err != nil {
			return nil, err
		}
		names := phraseNames(ls.subject)
		if ref == nil {
			ref = names
		} else if d := diff(ref, names); d != "" {
			return nil, fmt.Errorf("templates: %s/: phrases differ from en/: %s", code, d)
		}
		s.langs[code] = ls
	}
	return s, nil
}

func parseLang(code string) (*langSet, error) {
	l := newLang(code)
	tr := &translator{}
	funcs := funcMap(l)
	funcs["t"] = tr.t
	funcs["has"] = tr.has
	funcs["tor"] = tr.tor
	// "board" and "replyHelp" draw part.board and part.reply once for the
	// notices that show them (below); the text and the HTML set they draw
	// with are known once parsed.
	var text *texttemplate.Template
	var html *htmltemplate.Template
	textBoards, htmlBoards := newBoardCache(), newBoardCache()
	htmlFuncs := maps.Clone(funcs)
	funcs["board"] = func(b Board) (string, error) {
		return textBoards.draw(b, func() (string, error) { return execute(text, "part.board", b) })
	}
	htmlFuncs["board"] = func(b Board) (htmltemplate.HTML, error) {
		out, err := htmlBoards.draw(b, func() (string, error) { return execute(html, "part.board", b) })
		return htmltemplate.HTML(out), err
	}
	// The reply help takes no data: each format draws it once.
	textReply := sync.OnceValues(func() (string, error) { return execute(text, "part.reply", nil) })
	htmlReply := sync.OnceValues(func() (string, error) { return execute(html, "part.reply", nil) })
	funcs["replyHelp"] = textReply
	funcs["whole"] = func() string { return tidy.Whole } // the text's line that is never wrapped
	htmlFuncs["replyHelp"] = func() (htmltemplate.HTML, error) {
		out, err := htmlReply()
		return htmltemplate.HTML(out), err
	}
	wordFiles, err := fs.Glob(files, code+"/*.tmpl")
	if err != nil || len(wordFiles) == 0 {
		return nil, fmt.Errorf("templates: no templates for %s: %v", code, err)
	}
	textFiles := append([]string{"layout/base.txt.tmpl", "shared/*.txt.tmpl"}, wordFiles...)
	htmlFiles := []string{"layout/base.html.tmpl", "shared/*.html.tmpl"}

	text, err = texttemplate.New("root").Option("missingkey=error").Funcs(funcs).ParseFS(files, textFiles...)
	if err != nil {
		return nil, fmt.Errorf("templates: parse %s text: %w", code, err)
	}
	html, err = htmltemplate.New("root").Option("missingkey=error").Funcs(htmlFuncs).ParseFS(files, htmlFiles...)
	if err != nil {
		return nil, fmt.Errorf("templates: parse %s html: %w", code, err)
	}
	tr.set = text
	// A phrase without data says the same every time: say it once here.
	tr.fixed = make(map[string]string)
	for _, name := range phraseNames(text) {
		if out, err := execute(text, name, nil); err == nil {
			tr.fixed[name] = out
		}
	}
	ls := &langSet{l: l, subject: text,
		text: make(map[Kind]*texttemplate.Template), html: make(map[Kind]*htmltemplate.Template)}
	for _, k := range Kinds() {
		for _, name := range []string{"msg." + k.String(), k.String() + ".subject"} {
			if text.Lookup(name) == nil {
				return nil, fmt.Errorf("templates: %s: text template %q is missing", code, name)
			}
		}
		if html.Lookup("msg."+k.String()) == nil {
			return nil, fmt.Errorf("templates: html template %q is missing", "msg."+k.String())
		}
		body := `{{define "body"}}{{template "msg.` + k.String() + `" .}}{{end}}`
		t, err := text.Clone()
		if err == nil {
			_, err = t.Parse(body)
		}
		if err != nil {
			return nil, fmt.Errorf("templates: %s text %s: %w", code, k, err)
		}
		h, err := html.Clone()
		if err == nil {
			_, err = h.Parse(body)
		}
		if err != nil {
			return nil, fmt.Errorf("templates: %s html %s: %w", code, k, err)
		}
		ls.text[k], ls.html[k] = t, h
	}
	return ls, nil
}

// translator renders a language's phrases by name for both formats: the
// HTML templates receive them as text, and escape them.
type translator struct {
	set   *texttemplate.Template
	fixed map[string]string // the phrases as said without data; read-only
}

func (tr *translator) t(name string, data ...any) (string, error) {
	var d any
	if len(data) > 0 {
		d = data[0]
	}
	if out, ok := tr.fixed[name]; ok && d == nil {
		return out, nil
	}
	return execute(tr.set, name, d)
}

// execute renders the template name of set for data.
func execute(set interface {
	ExecuteTemplate(io.Writer, string, any) error
}, name string, data any) (string, error) {
	b := buffers.Get().(*bytes.Buffer)
	defer buffers.Put(b)
	b.Reset()
	if err := set.ExecuteTemplate(b, name, data); err != nil {
		return "", err
	}
	return b.String(), nil
}

func (tr *translator) has(name string) bool { return tr.set.Lookup(name) != nil }

// tor renders name, or fallback when the language has no such phrase.
func (tr *translator) tor(name, fallback string, data any) (string, error) {
	if !tr.has(name) {
		name = fallback
	}
	return tr.t(name, data)
}

// phraseNames lists the templates a language folder defines.
func phraseNames(t *texttemplate.Template) []string {
	var names []string
	for _, x := range t.Templates() {
		if !strings.HasPrefix(x.Name(), "msg.") && !strings.HasPrefix(x.Name(), "part.") &&
			!strings.HasPrefix(x.Name(), "base.") && !strings.HasSuffix(x.Name(), ".tmpl") && x.Name() != "root" {
			names = append(names, x.Name())
		}
	}
	slices.Sort(names)
	return names
}

func diff(a, b []string) string {
	var out []string
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); !ok {
			out = append(out, "missing "+x)
		}
	}
	for _, x := range b {
		if _, ok := slices.BinarySearch(a, x); !ok {
			out = append(out, "extra "+x)
		}
	}
	return strings.Join(out, ", ")
}

// Render writes the message m is the data of, in lang ("en", "es", "fr";
// anything else falls back to English).
func (s *Set) Render(lang string, m Mail) (Rendered, error) {
	if m == nil {
		return Rendered{}, errors.New("templates: render: no message")
	}
	kind := m.kind()
	ls, ok := s.langs[lang]
	if !ok {
		ls = s.langs["en"]
	}
	head := m.head()

	buf := buffers.Get().(*bytes.Buffer)
	defer buffers.Put(buf)
	buf.Reset()
	if err := ls.subject.ExecuteTemplate(buf, kind.String()+".subject", m); err != nil {
		return Rendered{}, fmt.Errorf("templates: render %s %s subject: %w", ls.l.code, kind, err)
	}
	var out Rendered
	out.Subject = subjectTag(head) + " " + strings.Join(strings.Fields(buf.String()), " ")

	buf.Reset()
	if err := ls.text[kind].ExecuteTemplate(buf, "base.txt", m); err != nil {
		return Rendered{}, fmt.Errorf("templates: render %s %s text: %w", ls.l.code, kind, err)
	}
	out.Text = tidy.Text(buf.String(), 78)

	buf.Reset()
	if err := ls.html[kind].ExecuteTemplate(buf, "base.html", m); err != nil {
		return Rendered{}, fmt.Errorf("templates: render %s %s html: %w", ls.l.code, kind, err)
	}
	out.HTML = string(tidy.HTML(buf.Bytes()))
	return out, nil
}

// buffers are the rendering buffers, reused: a notice's HTML is 30–40
// KB, and growing a fresh buffer to it for every message costs more than
// the rest of its allocations.
var buffers = sync.Pool{New: func() any {
	b := new(bytes.Buffer)
	b.Grow(64 << 10)
	return b
}}

func subjectTag(h Head) string {
	switch {
	case h.Tag != "":
		return h.Tag
	case h.Table != "":
		return "[Lexio " + h.Table + "]"
	}
	return "[Lexio]"
}

// funcMap is the functions templates call, bound to a language.
func funcMap(l *lang) map[string]any {
	return map[string]any{
		"rel":  l.rel,
		"when": l.when,
		"date": l.dateOnly,
		"span": l.span,
		"past": func(now, t time.Time) bool { return t.Before(now) },
		"pl":   l.plural,
		"list": l.list,
		"cells": func(ps []Pos) string {
			xs := make([]string, len(ps))
			for i, p := range ps {
				xs[i] = p.String()
			}
			return l.list(xs)
		},
		"slots": func(ns []int) string {
			xs := make([]string, len(ns))
			for i, n := range ns {
				xs[i] = fmt.Sprint(n)
			}
			return l.list(xs)
		},
		"words": func(ws []string) string { return l.list(ws) },
		"letters": func(s string) string {
			xs := make([]string, 0, len(s))
			for _, r := range s {
				xs = append(xs, string(r))
			}
			return l.list(xs)
		},
		"wordList": func(ws []Word) string {
			xs := make([]string, len(ws))
			for i, w := range ws {
				xs[i] = w.Word
			}
			return l.list(xs)
		},
		"squares": func(b Board) *[Size][Size]square { return squares(&b, &l.labels) },
		"legend":  func() []square { return legend(&l.labels) },
		"tile":    tileText,
		"signed":  func(n int) string { return fmt.Sprintf("%+d", n) },
		"pad":     padRight,
		"elide":   elide,
		"widest":  widest,
		"names":   shownNames,
		"add":     func(a, b int) int { return a + b },
		"args":    args,
		"lower":   strings.ToLower,
		"upper":   strings.ToUpper,
		"lang":    func() string { return l.code },
		"size":    l.size,
		"hours":   func(n int) string { return l.span(time.Duration(n) * time.Hour) }, // as span: "1 day 12 h"
		"lines": func(s string) []string {
			var out []string
			for l := range strings.SplitSeq(s, "\n") {
				if l = strings.TrimSpace(l); l != "" {
					out = append(out, l)
				}
			}
			return out
		},
		"split2": func(s string) []string {
			a, b, _ := strings.Cut(s, "|")
			return []string{strings.TrimSpace(a), strings.TrimSpace(b)}
		},
		"cols": func() []string {
			cs := make([]string, Size)
			for i := range cs {
				cs[i] = string(rune('A' + i))
			}
			return cs
		},
		"rackLetters": func(r Rack) string {
			xs := make([]string, len(r))
			for i, t := range r {
				xs[i] = tileText(t)
			}
			return strings.Join(xs, " ")
		},
		// spread writes a standings spread with its sign, 0 without.
		"spread": func(n int) string {
			if n == 0 {
				return "0"
			}
			return fmt.Sprintf("%+d", n)
		},
		// round rounds a rating or its deviation to a whole number,
		// halves away from zero.
		"round": func(x float64) int { return int(math.Round(x)) },
		// splitList reads a comma-separated Reason.Detail into its items.
		"splitList": func(s string) []string {
			var out []string
			for x := range strings.SplitSeq(s, ",") {
				if x = strings.TrimSpace(x); x != "" {
					out = append(out, x)
				}
			}
			return out
		},
	}
}

// tileText is a rack tile as players write it: its letter, or ? for a blank.
func tileText(t RackTile) string {
	if t.Blank || t.Letter == 0 {
		return "?"
	}
	return string(upper(t.Letter))
}

// args builds a map from key, value pairs, to pass several values to a
// template: {{template "x" (args "N" 3 "Who" .Name)}}.
func args(kv ...any) (map[string]any, error) {
	if len(kv)%2 != 0 {
		return nil, errors.New("templates: args wants key, value pairs")
	}
	m := make(map[string]any, len(kv)/2)
	for i := 0; i < len(kv); i += 2 {
		k, ok := kv[i].(string)
		if !ok {
			return nil, fmt.Errorf("templates: args key %v is not a string", kv[i])
		}
		m[k] = kv[i+1]
	}
	return m, nil
}
