package mailer

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"mime"
	"net/mail"
	"strings"
	"time"

	"github.com/emersion/go-message"
	gomessage "github.com/emersion/go-message/mail"
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
	// InReplyTo and References thread the message (EMAIL §4.4); an id
	// among them that is not a msg-id (an inbound one may be anything) is
	// left out.
	InReplyTo  string
	References []string
	// AutoSubmitted, when set, is the Auto-Submitted header value, e.g.
	// "auto-replied" for answers to commands, "auto-generated" for
	// reminders (RFC 3834).
	AutoSubmitted string
	// ListUnsubscribe, when set, is the mailto: URI of the List-Unsubscribe
	// header (RFC 2369), written in angle brackets.
	ListUnsubscribe string
	// UnsubscribeURL, when set with ListUnsubscribe, is the web side's
	// one-click unsubscribe URL (RFC 8058): List-Unsubscribe carries it
	// first, before the mailto: URI, and an https URL adds
	// List-Unsubscribe-Post: List-Unsubscribe=One-Click (RFC 8058 asks
	// for HTTPS; a plain http URL, as in the demo, is listed only).
	UnsubscribeURL string
	// FeedbackID, when set, is the Feedback-ID header that mailbox
	// providers group their complaint reports by.
	FeedbackID string
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

// Compose renders e as a complete RFC 5322 message with CRLF line endings,
// written by go-message: multipart/alternative (text/plain and text/html,
// UTF-8, both in quoted-printable), wrapped in multipart/mixed when there
// are attachments (base64). Boundaries are derived from the Message-ID, so
// the same envelope always gives the same bytes.
func Compose(e Envelope) ([]byte, error) {
	if err := e.check(); err != nil {
		return nil, err
	}
	seed := sha256.Sum256([]byte("lexio\x00" + angle(e.MessageID)))
	altBoundary := "lexio-alt-" + hex.EncodeToString(seed[:12])
	mixedBoundary := "lexio-mix-" + hex.EncodeToString(seed[12:24])

	var b bytes.Buffer
	// Once, at about the final size: a notice is ~45 KB, and doubling up
	// to it from nothing allocates several times as much.
	size := 2048 + len(e.HTML) + len(e.HTML)/8 + len(e.Text) + len(e.Text)/8
	for _, a := range e.Attachments {
		size += 512 + len(a.Data)*4/3 + len(a.Data)/38
	}
	b.Grow(size)
	h := gomessage.Header{Header: e.alternativesHeader(altBoundary)}
	if len(e.Attachments) > 0 {
		h = gomessage.Header{}
		h.SetContentType("multipart/mixed", map[string]string{"boundary": mixedBoundary})
	}
	e.addFields(&h)
	w, err := message.CreateWriter(&b, h.Header)
	if err == nil {
		if len(e.Attachments) == 0 {
			err = e.writeAlternatives(w)
		} else {
			err = e.writeMixed(w, altBoundary)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("mailer: compose: %w", err)
	}
	return b.Bytes(), nil
}

// addFields adds the message's header fields above those of h (its
// Content-Type). go-message writes the field added last first, so they are
// added from the bottom up.
func (e *Envelope) addFields(h *gomessage.Header) {
	h.Set("MIME-Version", "1.0")
	if e.ListUnsubscribe != "" {
		v := angle(e.ListUnsubscribe)
		if e.UnsubscribeURL != "" {
			v = angle(e.UnsubscribeURL) + ", " + v
			if strings.HasPrefix(e.UnsubscribeURL, "https://") {
				h.Set("List-Unsubscribe-Post", "List-Unsubscribe=One-Click")
			}
		}
		h.Set("List-Unsubscribe", v)
	}
	if e.FeedbackID != "" {
		h.Set("Feedback-ID", e.FeedbackID)
	}
	if e.AutoSubmitted != "" {
		h.Set("Auto-Submitted", e.AutoSubmitted)
	}
	// An id that is not a msg-id (an inbound one with blanks, brackets,
	// no "@"…) is left out rather than written malformed.
	var refs []string
	for _, r := range e.References {
		if msgID(r) {
			refs = append(refs, bare(r))
		}
	}
	h.SetMsgIDList("References", refs)
	if msgID(e.InReplyTo) {
		h.SetMsgIDList("In-Reply-To", []string{bare(e.InReplyTo)})
	}
	h.SetMessageID(bare(e.MessageID))
	h.SetSubject(e.Subject)
	if e.ReplyTo != "" {
		h.SetAddressList("Reply-To", []*mail.Address{{Address: e.ReplyTo}})
	}
	to := make([]*mail.Address, len(e.To))
	for i := range e.To {
		to[i] = &e.To[i]
	}
	h.SetAddressList("To", to)
	h.SetAddressList("From", []*mail.Address{&e.From})
	h.SetDate(e.Date)
}

// alternativesHeader is the header of the entity that holds the text and
// the HTML: multipart/alternative, or the part of the one there is.
func (e *Envelope) alternativesHeader(boundary string) message.Header {
	switch {
	case e.Text == "":
		return textHeader("text/html")
	case e.HTML == "":
		return textHeader("text/plain")
	}
	var h message.Header
	h.SetContentType("multipart/alternative", map[string]string{"boundary": boundary})
	return h
}

// textHeader is the header of a text part: UTF-8 in quoted-printable,
// which go-message's writer encodes (long lines folded, line ends CRLF).
func textHeader(mediaType string) message.Header {
	var h message.Header
	h.Set("Content-Transfer-Encoding", "quoted-printable")
	h.SetContentType(mediaType, map[string]string{"charset": "utf-8"})
	return h
}

// writeAlternatives writes the text and the HTML into w, an entity with
// the alternativesHeader, and closes it.
func (e *Envelope) writeAlternatives(w *message.Writer) error {
	if e.Text == "" || e.HTML == "" {
		return writeText(w, e.Text+e.HTML) // the one there is
	}
	for _, p := range []struct{ mediaType, body string }{{"text/plain", e.Text}, {"text/html", e.HTML}} {
		pw, err := w.CreatePart(textHeader(p.mediaType))
		if err != nil {
			return err
		}
		if err := writeText(pw, p.body); err != nil {
			return err
		}
	}
	return w.Close()
}

// writeMixed writes the alternatives and then the attachments as the
// parts of w, a multipart/mixed entity, and closes it.
func (e *Envelope) writeMixed(w *message.Writer, altBoundary string) error {
	aw, err := w.CreatePart(e.alternativesHeader(altBoundary))
	if err != nil {
		return err
	}
	if err := e.writeAlternatives(aw); err != nil {
		return err
	}
	for _, a := range e.Attachments {
		var h message.Header
		h.Set("Content-Transfer-Encoding", "base64")
		h.SetContentDisposition("attachment", map[string]string{"filename": a.Filename})
		h.Set("Content-Type", a.ContentType)
		pw, err := w.CreatePart(h)
		if err != nil {
			return err
		}
		if err := writeBody(pw, a.Data); err != nil {
			return err
		}
	}
	return w.Close()
}

// writeBody writes body into w, which encodes it, and closes w.
func writeBody(w *message.Writer, body []byte) error {
	if _, err := w.Write(body); err != nil {
		_ = w.Close()
		return err
	}
	return w.Close()
}

// writeText writes a text part's body into w and closes w; the body ends
// with a line end.
func writeText(w *message.Writer, text string) error {
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return writeBody(w, []byte(text))
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
	fields := []string{e.From.Name, e.From.Address, e.ReplyTo, e.Subject, e.MessageID, e.InReplyTo, e.AutoSubmitted, e.ListUnsubscribe, e.UnsubscribeURL, e.FeedbackID}
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
	if u := e.ListUnsubscribe; u != "" && (!strings.HasPrefix(u, "mailto:") || strings.ContainsAny(u, " \t<>")) {
		return fmt.Errorf("mailer: compose: %w: List-Unsubscribe %q is not a mailto: URI", ErrConfig, u)
	}
	if u := e.UnsubscribeURL; u != "" && (e.ListUnsubscribe == "" || !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://") || strings.ContainsAny(u, " \t<>,")) {
		return fmt.Errorf("mailer: compose: %w: unsubscribe URL %q is not an http(s) URL beside a mailto: URI", ErrConfig, u)
	}
	if strings.ContainsAny(e.FeedbackID, " \t") {
		return fmt.Errorf("mailer: compose: %w: Feedback-ID %q has blanks", ErrConfig, e.FeedbackID)
	}
	if !msgID(e.MessageID) {
		return fmt.Errorf("mailer: compose: %w: message id %q is not a msg-id", ErrConfig, e.MessageID)
	}
	return nil
}

// maxMsgID bounds an id we write: with its brackets and the field's name
// it fits a line's 998 octets (RFC 5322 §2.1.1), where go-message would
// otherwise fold it, and break it, in the middle.
const maxMsgID = 900

// msgID reports whether id, in its angle brackets or without, is a
// msg-id as RFC 5322 §3.6.4 has us write one: dot-atom-text "@", then
// dot-atom-text or a no-fold-literal ("[" dtext "]"), in ASCII, and no
// longer than maxMsgID.
func msgID(id string) bool {
	id = bare(id)
	left, right, ok := strings.Cut(id, "@")
	if !ok || len(id) > maxMsgID || !dotAtom(left) {
		return false
	}
	if lit, ok := strings.CutPrefix(right, "["); ok {
		lit, ok = strings.CutSuffix(lit, "]")
		return ok && !strings.ContainsFunc(lit, func(r rune) bool { return r < '!' || r > '~' || r == '[' || r == ']' || r == '\\' })
	}
	return dotAtom(right)
}

// dotAtom reports whether s is an RFC 5322 dot-atom-text: atoms of atext
// joined by single dots.
func dotAtom(s string) bool {
	for _, atom := range strings.Split(s, ".") {
		if atom == "" || strings.ContainsFunc(atom, func(r rune) bool {
			return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune("!#$%&'*+-/=?^_`{|}~", r))
		}) {
			return false
		}
	}
	return true
}

// bare returns a message id without its angle brackets.
func bare(id string) string {
	return strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(id), "<"), ">")
}

// angle returns a message id in angle brackets.
func angle(id string) string { return "<" + bare(id) + ">" }
