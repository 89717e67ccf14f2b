package mailtext

import (
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// maxQuoteDepth is the most "> " prefixes a line of text from HTML gets:
// a deeper quote is prefixed as one this deep. Without it, N nested
// <blockquote>s would make text of N².
const maxQuoteDepth = 8

// htmlToText turns an HTML body into text for the command search (EMAIL
// §2.4): block elements break lines, <blockquote> and the quote containers
// of Gmail, Yahoo, Outlook and Thunderbird come out as '>' lines, and a
// Gmail signature as well, so that playerLines drops them; scripts, styles
// and the head are skipped.
//
// Its cost is linear in s: one pass of x/net/html's tokenizer (no tree),
// quotes prefixed at most maxQuoteDepth deep, and a text never longer
// than s itself nor than maxText: the reading stops there, and the line
// it cut is dropped (commands are on the first lines). Only hostile HTML
// comes near that: tags make HTML longer than its text.
func htmlToText(s string) string {
	limit := min(len(s), maxText)
	z := html.NewTokenizer(strings.NewReader(s))
	var b strings.Builder
	b.Grow(min(len(s)/2, limit))
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
		if b.Len() > limit {
			return CutText(b.String(), limit)
		}
		switch tt {
		case html.ErrorToken:
			return CutText(b.String(), limit)
		case html.TextToken:
			if skip > 0 {
				continue
			}
			text := string(z.Text())
			if pre == 0 {
				text = collapseSpace(text)
			}
			first := true
			for part := range strings.SplitSeq(text, "\n") {
				if b.Len() > limit {
					break // one text token may hold many lines
				}
				if !first {
					b.WriteByte('\n')
					lineStart = true
				}
				first = false
				if lineStart {
					if pre == 0 {
						part = strings.TrimLeftFunc(part, unicode.IsSpace)
					}
					if part == "" {
						continue
					}
					for range min(quote, maxQuoteDepth) {
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
