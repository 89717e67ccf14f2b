package parser

import (
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// htmlToText turns an HTML body into text for the command search (EMAIL
// §2.4): block elements break lines, <blockquote> and the quote containers
// of Gmail, Yahoo, Outlook and Thunderbird come out as '>' lines, and a
// Gmail signature as well, so that playerLines drops them; scripts, styles
// and the head are skipped.
func htmlToText(s string) string {
	z := html.NewTokenizer(strings.NewReader(s))
	var b strings.Builder
	b.Grow(len(s) / 2)
	quote, skip, pre := 0, 0, 0
	var divs []bool // per open <div>: did it open a quote?
	lineStart := true
	newline := func() {
		if !lineStart {
			b.WriteByte('\n')
			lineStart = true
		}
	}
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return b.String()
		case html.TextToken:
			if skip > 0 {
				continue
			}
			text := string(z.Text())
			if pre == 0 {
				text = collapseSpace(text)
			}
			for i, part := range strings.Split(text, "\n") {
				if i > 0 {
					b.WriteByte('\n')
					lineStart = true
				}
				if lineStart {
					if pre == 0 {
						part = strings.TrimLeftFunc(part, unicode.IsSpace)
					}
					if part == "" {
						continue
					}
					for range quote {
						b.WriteString("> ")
					}
					lineStart = false
				}
				b.WriteString(part)
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			a := atom.Lookup(name)
			switch a {
			case atom.Script, atom.Style, atom.Head, atom.Title, atom.Template:
				if tt == html.StartTagToken {
					skip++
				}
			case atom.Br:
				lineStart = false // a <br> always breaks, even an empty line
				b.WriteByte('\n')
				lineStart = true
			case atom.Blockquote:
				newline()
				quote++
			case atom.Div:
				newline()
				q := hasAttr && isQuoteContainer(z)
				if tt == html.StartTagToken {
					divs = append(divs, q)
					if q {
						quote++
					}
				}
			case atom.Pre:
				newline()
				if tt == html.StartTagToken {
					pre++
				}
			case atom.P, atom.Tr, atom.Li, atom.Table, atom.Hr, atom.H1, atom.H2, atom.H3,
				atom.H4, atom.H5, atom.H6, atom.Ul, atom.Ol, atom.Dl, atom.Dt, atom.Dd, atom.Section, atom.Article,
				atom.Header, atom.Footer:
				newline()
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			switch atom.Lookup(name) {
			case atom.Script, atom.Style, atom.Head, atom.Title, atom.Template:
				if skip > 0 {
					skip--
				}
			case atom.Blockquote:
				newline()
				if quote > 0 {
					quote--
				}
			case atom.Div:
				newline()
				if n := len(divs); n > 0 {
					if divs[n-1] && quote > 0 {
						quote--
					}
					divs = divs[:n-1]
				}
			case atom.Pre:
				newline()
				if pre > 0 {
					pre--
				}
			case atom.P, atom.Tr, atom.Li, atom.Table, atom.H1, atom.H2, atom.H3,
				atom.H4, atom.H5, atom.H6, atom.Ul, atom.Ol, atom.Dl, atom.Section, atom.Article,
				atom.Header, atom.Footer:
				newline()
			}
		}
	}
}

// isQuoteContainer reads the current tag's attributes for the classes and
// ids mail clients give to quoted text and signatures.
func isQuoteContainer(z *html.Tokenizer) bool {
	for {
		key, val, more := z.TagAttr()
		k := string(key)
		if k == "class" || k == "id" {
			v := string(val)
			for _, marker := range []string{"gmail_quote", "gmail_signature", "yahoo_quoted", "protonmail_quote",
				"moz-cite-prefix", "moz-signature"} {
				if strings.Contains(v, marker) {
					return true
				}
			}
		}
		if !more {
			return false
		}
	}
}

// collapseSpace folds runs of white space (NBSP included) to one space.
func collapseSpace(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	if space {
		b.WriteByte(' ')
	}
	return b.String()
}
