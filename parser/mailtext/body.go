package mailtext

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/emersion/go-message"
	"golang.org/x/text/encoding/charmap"
)

// maxText bounds the text of a body, plain or from HTML, that the command
// search reads, whatever Options.MaxBytes allows: commands are on the
// first lines, and what follows a megabyte of text is not read.
const maxText = 1 << 20

// errFound stops the walk once a text/plain part has been read.
var errFound = errors.New("mailtext: found")

// walker finds the text to read in a MIME tree (EMAIL §2.4): the first
// inline text/plain part, else the first inline text/html part.
type walker struct {
	parts       int
	plain, html string
	havePlain   bool
	haveHTML    bool
}

// bodyText returns the message's text, decoded and, for HTML, turned into
// text; "" with a nil error when the message holds no text part.
func bodyText(root *message.Entity, rootErr error) (string, error) {
	var w walker
	if err := w.walk(root, rootErr, 0); err != nil && err != errFound {
		return "", err
	}
	switch {
	case w.havePlain:
		return CutText(w.plain, maxText), nil
	case w.haveHTML:
		return htmlToText(w.html), nil
	}
	return "", nil
}

func (w *walker) walk(e *message.Entity, entErr error, depth int) error {
	w.parts++
	if depth > MaxDepth {
		return newError(TooDeep, "MIME parts nested more than %d deep", MaxDepth)
	}
	if w.parts > MaxParts {
		return newError(TooDeep, "more than %d MIME parts", MaxParts)
	}
	if mr := e.MultipartReader(); mr != nil {
		for {
			p, err := mr.NextPart()
			if err == io.EOF {
				return nil
			}
			if err != nil && (p == nil || !(message.IsUnknownCharset(err) || message.IsUnknownEncoding(err))) {
				if w.havePlain || w.haveHTML {
					return nil // a broken tail after the text we need
				}
				return newError(Malformed, "MIME: %v", err)
			}
			if err := w.walk(p, err, depth+1); err != nil {
				return err
			}
		}
	}
	if disp, _, _ := e.Header.ContentDisposition(); disp == "attachment" {
		return nil
	}
	t, params, ctErr := e.Header.ContentType()
	if ctErr != nil && t == "" {
		t = "text/plain" // RFC 2045 §5.2: an unreadable Content-Type defaults to text/plain
	}
	switch {
	case t == "" || t == "text/plain":
		if w.havePlain {
			return nil
		}
		s, err := readText(e, entErr, params["charset"])
		if err != nil {
			return err
		}
		if params["format"] == "flowed" {
			s = unflow(s, strings.EqualFold(params["delsp"], "yes"))
		}
		w.plain, w.havePlain = s, true
		return errFound
	case t == "text/html":
		if w.haveHTML {
			return nil
		}
		s, err := readText(e, entErr, params["charset"])
		if err != nil {
			return err
		}
		w.html, w.haveHTML = s, true
	}
	return nil
}

// readText reads a text part already decoded by go-message and checks it
// is text: no NUL, few control characters, valid UTF-8 (bytes that are not
// are read as Windows-1252, the usual mislabelling).
func readText(e *message.Entity, entErr error, charset string) (string, error) {
	b, err := io.ReadAll(e.Body)
	if err == io.ErrUnexpectedEOF {
		err = nil // a part cut short (no closing boundary): read what came
	}
	if err != nil {
		return "", newError(Malformed, "reading the text: %v", err)
	}
	if entErr != nil && message.IsUnknownCharset(entErr) && !isASCII(b) {
		return "", newError(BadCharset, "%q", charset)
	}
	if bytes.IndexByte(b, 0) >= 0 {
		return "", newError(BinaryJunk, "the text holds NUL bytes")
	}
	if !utf8.Valid(b) {
		if b2, err := charmap.Windows1252.NewDecoder().Bytes(b); err == nil {
			b = b2
		}
	}
	ctl := 0
	for _, c := range b {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' {
			ctl++
		}
	}
	if ctl > 0 && ctl*50 > len(b) {
		return "", newError(BinaryJunk, "the text holds %d control characters", ctl)
	}
	return string(b), nil
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// unflow undoes format=flowed (RFC 3676): a line ending in a space joins
// the next line of the same quote depth; space-stuffing is removed; with
// DelSp=yes the joining space is dropped. Quote depth is kept as '>'.
func unflow(s string, delsp bool) string {
	var b strings.Builder
	b.Grow(len(s))
	open, openDepth := false, 0
	for line := range strings.SplitSeq(s, "\n") {
		line = strings.TrimSuffix(line, "\r")
		depth := 0
		for depth < len(line) && line[depth] == '>' {
			depth++
		}
		content := line[depth:]
		content = strings.TrimPrefix(content, " ")
		if open && depth != openDepth {
			b.WriteByte('\n')
			open = false
		}
		if !open {
			if depth > 0 {
				b.WriteString(strings.Repeat(">", depth))
				b.WriteByte(' ')
			}
		}
		flowed := content != "-- " && strings.HasSuffix(content, " ")
		if flowed && delsp {
			content = content[:len(content)-1]
		}
		b.WriteString(content)
		if flowed {
			open, openDepth = true, depth
		} else {
			b.WriteByte('\n')
			open = false
		}
	}
	return b.String()
}

// CutText cuts s to at most n bytes: after its last whole line within
// them, or at a rune boundary when the first line is longer.
func CutText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if i := strings.LastIndexByte(s[:n], '\n'); i >= 0 {
		return s[:i+1]
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
