package mailer

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net/mail"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Envelope is everything Compose needs for one message. Times and
// identifiers are passed in, so the output depends on nothing else.
type Envelope struct {
	From mail.Address // with display name
	To   []mail.Address
	// ReplyTo is the personal reply address (local+token@domain); empty
	// leaves the header out.
	ReplyTo   string
	Subject   string
	Date      time.Time
	MessageID string // "<id@domain>"; the brackets are added when missing
	// InReplyTo and References thread the message (EMAIL §4.4).
	InReplyTo  string
	References []string
	// AutoSubmitted, when set, is the Auto-Submitted header value, e.g.
	// "auto-replied" for answers to commands, "auto-generated" for
	// reminders (RFC 3834).
	AutoSubmitted string
	// Text and HTML are the two alternatives; at least one is required.
	// Lines may end in "\n"; the output has CRLF.
	Text, HTML  string
	Attachments []Attachment
}

// Attachment is a file sent after the alternatives, e.g. an .ics
// invitation with ContentType "text/calendar; charset=utf-8; method=PUBLISH".
type Attachment struct {
	Filename    string
	ContentType string
	Data        []byte
}

// Compose renders e as a complete RFC 5322 message with CRLF line endings:
// multipart/alternative (text/plain and text/html, UTF-8; the text in
// quoted-printable, the HTML as 7-bit lines or in base64), wrapped in multipart/mixed when there are attachments
// (base64). Boundaries are derived from the Message-ID, so the same
// envelope always gives the same bytes.
func Compose(e Envelope) ([]byte, error) {
	if err := e.check(); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	// Once, at about the final size: a notice is ~40 KB, and doubling up
	// to it from nothing allocated five times as much.
	size := 2048 + len(e.HTML) + len(e.HTML)/32 + len(e.Text) + len(e.Text)/8
	for _, a := range e.Attachments {
		size += 512 + len(a.Data)*4/3 + len(a.Data)/38
	}
	b.Grow(size)
	writeHeader(&b, "Date", e.Date.Format(time.RFC1123Z))
	writeHeader(&b, "From", e.From.String())
	to := make([]string, len(e.To))
	for i, a := range e.To {
		to[i] = a.String()
	}
	writeHeader(&b, "To", strings.Join(to, ", "))
	if e.ReplyTo != "" {
		writeHeader(&b, "Reply-To", (&mail.Address{Address: e.ReplyTo}).String())
	}
	writeHeader(&b, "Subject", encodeSubject(e.Subject))
	writeHeader(&b, "Message-ID", angle(e.MessageID))
	if e.InReplyTo != "" {
		writeHeader(&b, "In-Reply-To", angle(e.InReplyTo))
	}
	if len(e.References) > 0 {
		refs := make([]string, len(e.References))
		for i, r := range e.References {
			refs[i] = angle(r)
		}
		writeHeader(&b, "References", strings.Join(refs, " "))
	}
	if e.AutoSubmitted != "" {
		writeHeader(&b, "Auto-Submitted", e.AutoSubmitted)
	}
	writeHeader(&b, "MIME-Version", "1.0")

	seed := sha256.Sum256([]byte("lexio\x00" + angle(e.MessageID)))
	altBoundary := "lexio-alt-" + hex.EncodeToString(seed[:12])
	mixedBoundary := "lexio-mix-" + hex.EncodeToString(seed[12:24])

	body := func(b *bytes.Buffer) {
		switch {
		case e.Text != "" && e.HTML != "":
			writeHeader(b, "Content-Type", mime.FormatMediaType("multipart/alternative", map[string]string{"boundary": altBoundary}))
			b.WriteString("\r\n")
			b.WriteString("--" + altBoundary + "\r\n")
			writeTextPart(b, "text/plain", e.Text)
			// The CRLF before a delimiter belongs to the delimiter.
			b.WriteString("\r\n--" + altBoundary + "\r\n")
			writeTextPart(b, "text/html", e.HTML)
			b.WriteString("\r\n--" + altBoundary + "--\r\n")
		case e.HTML != "":
			writeTextPart(b, "text/html", e.HTML)
		default:
			writeTextPart(b, "text/plain", e.Text)
		}
	}
	if len(e.Attachments) == 0 {
		body(&b)
		return b.Bytes(), nil
	}
	writeHeader(&b, "Content-Type", mime.FormatMediaType("multipart/mixed", map[string]string{"boundary": mixedBoundary}))
	b.WriteString("\r\n")
	b.WriteString("--" + mixedBoundary + "\r\n")
	body(&b)
	for _, a := range e.Attachments {
		b.WriteString("\r\n--" + mixedBoundary + "\r\n")
		writeHeader(&b, "Content-Type", a.ContentType)
		writeHeader(&b, "Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": a.Filename}))
		writeHeader(&b, "Content-Transfer-Encoding", "base64")
		b.WriteString("\r\n")
		writeBase64(&b, a.Data)
	}
	b.WriteString("\r\n--" + mixedBoundary + "--\r\n")
	return b.Bytes(), nil
}

func (e *Envelope) check() error {
	if e.From.Address == "" || len(e.To) == 0 {
		return fmt.Errorf("mailer: compose: %w: need From and To", ErrConfig)
	}
	if e.MessageID == "" || e.Date.IsZero() {
		return fmt.Errorf("mailer: compose: %w: need Message-ID and Date", ErrConfig)
	}
	if e.Text == "" && e.HTML == "" {
		return fmt.Errorf("mailer: compose: %w: need a text or an HTML body", ErrConfig)
	}
	fields := []string{e.From.Name, e.From.Address, e.ReplyTo, e.Subject, e.MessageID, e.InReplyTo, e.AutoSubmitted}
	for _, a := range e.To {
		fields = append(fields, a.Name, a.Address)
	}
	fields = append(fields, e.References...)
	for _, a := range e.Attachments {
		if a.ContentType == "" || a.Filename == "" {
			return fmt.Errorf("mailer: compose: %w: attachment needs a file name and a content type", ErrConfig)
		}
		if _, _, err := mime.ParseMediaType(a.ContentType); err != nil {
			return fmt.Errorf("mailer: compose: attachment content type %q: %w", a.ContentType, err)
		}
		fields = append(fields, a.Filename, a.ContentType)
	}
	for _, f := range fields {
		if strings.ContainsAny(f, "\r\n\x00") {
			return fmt.Errorf("mailer: compose: %w: %q", ErrHeaderInjection, f)
		}
	}
	for _, id := range append([]string{e.MessageID, e.InReplyTo}, e.References...) {
		if strings.ContainsAny(id, " \t") {
			return fmt.Errorf("mailer: compose: %w: message id %q has blanks", ErrConfig, id)
		}
	}
	return nil
}

// writeTextPart writes a text part: text/plain in quoted-printable, which
// stays readable in the raw message; text/html as plain 7-bit lines when
// it can be (see sevenBitHTML: no encoding, the shortest form), else in
// base64, which is shorter than quoted-printable for markup full of '='.
func writeTextPart(b *bytes.Buffer, mediaType, text string) {
	writeHeader(b, "Content-Type", mediaType+"; charset=utf-8")
	text = strings.ReplaceAll(text, "\r\n", "\n")
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	if mediaType == "text/html" {
		if seven, ok := sevenBitHTML(text); ok {
			writeHeader(b, "Content-Transfer-Encoding", "7bit")
			b.WriteString("\r\n")
			for rest := seven; rest != ""; {
				n := strings.IndexByte(rest, '\n') // there is one at the end
				b.WriteString(rest[:n])
				b.WriteString("\r\n")
				rest = rest[n+1:]
			}
			return
		}
		writeHeader(b, "Content-Transfer-Encoding", "base64")
		b.WriteString("\r\n")
		writeBase64(b, []byte(strings.ReplaceAll(text, "\n", "\r\n")))
		return
	}
	writeHeader(b, "Content-Transfer-Encoding", "quoted-printable")
	b.WriteString("\r\n")
	w := quotedprintable.NewWriter(b)
	_, _ = w.Write([]byte(text)) // a bytes.Buffer does not fail
	_ = w.Close()
}

// maxLine is RFC 5322's limit on a line, without its CRLF.
const maxLine = 998

// sevenBitHTML rewrites html (LF line ends) as 7-bit text that means the
// same to any HTML reader: each non-ASCII character becomes a numeric
// character reference (&#233;), valid in text and attribute values alike
// (lexio's markup has no script or style element). ok is false when the
// result cannot travel as 7bit: a line over 998 octets, a NUL or a bare
// CR, invalid UTF-8, or a line that looks like a MIME boundary.
func sevenBitHTML(html string) (string, bool) {
	if strings.HasPrefix(html, "--") || strings.Contains(html, "\n--") || strings.ContainsAny(html, "\x00\r") {
		return "", false
	}
	out := html
	if i := firstNonASCII(html); i >= 0 {
		var b strings.Builder
		b.Grow(len(html) + 512)
		start := 0
		for i < len(html) {
			if html[i] < utf8.RuneSelf {
				n := firstNonASCII(html[i:])
				if n < 0 {
					break
				}
				i += n
			}
			b.WriteString(html[start:i])
			r, size := utf8.DecodeRuneInString(html[i:])
			if r == utf8.RuneError && size <= 1 {
				return "", false
			}
			b.WriteString("&#")
			b.WriteString(strconv.Itoa(int(r)))
			b.WriteByte(';')
			i += size
			start = i
		}
		b.WriteString(html[start:])
		out = b.String()
	}
	for rest := out; rest != ""; {
		n := strings.IndexByte(rest, '\n')
		if n < 0 {
			n = len(rest)
		}
		if n > maxLine {
			return "", false
		}
		rest = rest[min(n+1, len(rest)):]
	}
	return out, true
}

// firstNonASCII returns the index of the first byte of s over 0x7f, or -1;
// eight bytes at a time.
func firstNonASCII(s string) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if binary.LittleEndian.Uint64([]byte(s[i:i+8]))&0x8080808080808080 != 0 {
			break
		}
	}
	for ; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return i
		}
	}
	return -1
}

// writeBase64 writes data in base64 lines of 76 characters.
func writeBase64(b *bytes.Buffer, data []byte) {
	enc := base64.StdEncoding.EncodeToString(data)
	for len(enc) > 76 {
		b.WriteString(enc[:76])
		b.WriteString("\r\n")
		enc = enc[76:]
	}
	if enc != "" {
		b.WriteString(enc)
		b.WriteString("\r\n")
	}
}

// encodeSubject leaves printable ASCII alone and otherwise writes the whole
// subject as Q encoded-words (RFC 2047) of at most 66 characters, whole
// UTF-8 sequences each, so that a folded Subject stays within 78 columns.
func encodeSubject(s string) string {
	plain := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x7f || (s[i] < 0x20 && s[i] != '\t') {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	const prefix, suffix, limit = "=?utf-8?q?", "?=", 66
	var words []string
	var w strings.Builder
	for _, r := range s {
		var enc strings.Builder
		var buf [4]byte
		for _, c := range buf[:utf8.EncodeRune(buf[:], r)] {
			switch {
			case c == ' ':
				enc.WriteByte('_')
			case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', strings.IndexByte("!*+-/", c) >= 0:
				enc.WriteByte(c)
			default:
				fmt.Fprintf(&enc, "=%02X", c)
			}
		}
		if w.Len() > 0 && len(prefix)+w.Len()+enc.Len()+len(suffix) > limit {
			words = append(words, prefix+w.String()+suffix)
			w.Reset()
		}
		w.WriteString(enc.String())
	}
	if w.Len() > 0 {
		words = append(words, prefix+w.String()+suffix)
	}
	return strings.Join(words, " ")
}

func angle(id string) string {
	id = strings.TrimSpace(id)
	if !strings.HasPrefix(id, "<") {
		id = "<" + id
	}
	if !strings.HasSuffix(id, ">") {
		id += ">"
	}
	return id
}

// writeHeader writes "Name: value" folded at blanks so that lines stay
// within 78 characters where the value allows it; unfolding gives the value
// back unchanged.
func writeHeader(b *bytes.Buffer, name, value string) {
	line := name + ":"
	rest := " " + value
	for len(line)+len(rest) > 78 {
		// Break before the last blank that keeps this line short, or else
		// the first blank at all.
		cut := -1
		for i := 1; i < len(rest); i++ {
			if rest[i] == ' ' || rest[i] == '\t' {
				if len(line)+i > 78 && cut > 0 {
					break
				}
				cut = i
			}
		}
		if cut <= 0 {
			break
		}
		b.WriteString(line + rest[:cut] + "\r\n")
		line, rest = "", rest[cut:]
	}
	b.WriteString(line + rest + "\r\n")
}
