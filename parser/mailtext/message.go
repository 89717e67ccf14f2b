package mailtext

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/emersion/go-message"
	_ "github.com/emersion/go-message/charset" // registers the charsets go-message decodes
	"github.com/emersion/go-message/mail"
)

// Limits that keep a hostile message from costing much (EMAIL §2.5).
const (
	DefaultMaxBytes = 1 << 20   // Options.MaxBytes when unset
	MaxHeaderBytes  = 256 << 10 // one header block; DKIM/ARC-heavy headers are ~20 KiB
	MaxDepth        = 12        // nesting of multipart entities
	MaxParts        = 200       // entities in one message
)

// Reasons a message is ignored (EMAIL §2.3): never answered, to prevent
// mail loops. They are stable codes, recorded as they are.
const (
	IgnoreAutoSubmitted  = "auto-submitted"  // Auto-Submitted other than "no"
	IgnoreAutoReply      = "auto-reply"      // X-Autoreply, X-Autorespond
	IgnorePrecedence     = "precedence"      // Precedence: bulk, junk, list or auto_reply
	IgnoreList           = "list"            // List-Id
	IgnoreDeliveryReport = "delivery-report" // multipart/report, message/delivery-status, Return-Path <>
	IgnoreDaemon         = "daemon-sender"   // MAILER-DAEMON, postmaster
	IgnoreNoReply        = "no-reply-sender" // no-reply, noreply, do-not-reply …
	IgnoreOwnAddress     = "own-address"     // From is Options.ServiceAddress
)

// Options configure Read.
type Options struct {
	// ServiceAddress is the service's own address, e.g. "lexio@example.org".
	// Mail from it is ignored, and the reply token is taken from the
	// plus-address of its local part ("lexio+TOKEN@…", any domain). Empty:
	// the first plus-address of any recipient gives the token.
	ServiceAddress string
	// MaxBytes is the largest message parsed (EMAIL §2.5); 0 means
	// DefaultMaxBytes. A larger one yields only its header fields and a
	// TooLarge error.
	MaxBytes int64
	// TokenInSubject says tokens live in the subject tag, for providers
	// without plus-addressing (EMAIL §1.2): "[Lexio <table> <token>]". The
	// token is then the tag's last word, and recipient addresses are not
	// looked at. The table is read from the tag either way.
	TokenInSubject bool
}

// Mail is what Read found in one raw message.
type Mail struct {
	MessageID  string
	InReplyTo  string
	References []string
	From       string // bare address, lowercase; "" when none or several (the error says)
	FromName   string
	To         []string // To and Cc, bare, lowercase
	Token      string   // as written; "" when none
	Table      string   // of the subject tag "[Lexio <table> …]"
	Subject    string   // decoded
	// AuthResults are the raw Authentication-Results values, topmost
	// first.
	AuthResults []string
	Ignored     string // an Ignore* reason, "" when not ignored
	// Text is the body's text: the first inline text/plain part, else the
	// first text/html part turned into text, at most maxText bytes.
	Text string
	// Lines are the lines of Text the player wrote: without quotes,
	// attributions, signatures and phone footers.
	Lines []string
	// Body is Lines joined, at most MaxBodyKept bytes.
	Body string
	// TextErr says why the body could not be read (an unknown charset,
	// binary junk, broken MIME); its subject may still be read.
	TextErr error
}

// Read reads one raw RFC 5322 message: its identity, its reply token,
// whether it must be ignored (EMAIL §2.3), and the lines its sender
// wrote (EMAIL §2.4). An ignored message is returned with a nil error.
// The error, an *Error, says why the message cannot be read at all: a
// header too large or broken, no one sender, a message over
// Options.MaxBytes; the Mail then holds what the header gave.
func Read(raw []byte, opt Options) (*Mail, error) {
	m := &Mail{}
	if opt.MaxBytes <= 0 {
		opt.MaxBytes = DefaultMaxBytes
	}
	raw = skipMboxLine(raw)
	if len(raw) > MaxHeaderBytes && !hasHeaderEnd(raw[:MaxHeaderBytes]) {
		return m, newError(HeaderTooLarge, "the header is over %d bytes", MaxHeaderBytes)
	}
	// The body is read only when raw is within opt.MaxBytes (below).
	ent, err := message.ReadWithOptions(bytes.NewReader(raw), &message.ReadOptions{MaxHeaderBytes: MaxHeaderBytes})
	if ent == nil {
		return m, newError(Malformed, "header: %v", err)
	}
	h := mail.Header{Header: ent.Header}
	fromErr := readHeader(m, h, opt)
	if m.Ignored = ignoreReason(h, m.From, opt.ServiceAddress); m.Ignored != "" {
		return m, nil
	}
	if fromErr != nil {
		return m, fromErr
	}
	if m.From == "" {
		return m, newError(Malformed, "no valid From address")
	}
	m.Token = findToken(h, m.Subject, opt)
	if int64(len(raw)) > opt.MaxBytes {
		return m, newError(TooLarge, "%d bytes, the limit is %d", len(raw), opt.MaxBytes)
	}

	m.Text, m.TextErr = bodyText(ent, err)
	if m.TextErr == nil {
		m.Lines = playerLines(m.Text)
		m.Body = bodyOf(m.Lines)
	}
	return m, nil
}

// hasHeaderEnd tells whether b holds the empty line that ends a header.
func hasHeaderEnd(b []byte) bool {
	return bytes.Contains(b, []byte("\n\n")) || bytes.Contains(b, []byte("\n\r\n"))
}

// skipMboxLine drops an mbox "From " separator line if the message starts
// with one.
func skipMboxLine(raw []byte) []byte {
	if bytes.HasPrefix(raw, []byte("From ")) {
		if i := bytes.IndexByte(raw, '\n'); i >= 0 {
			return raw[i+1:]
		}
	}
	return raw
}

// readHeader fills m from the header. Its error is an AmbiguousFrom one
// when the From does not name exactly one mailbox; m.From is then "".
func readHeader(m *Mail, h mail.Header, opt Options) *Error {
	if id, err := h.MessageID(); err == nil && id != "" {
		m.MessageID = id
	} else {
		m.MessageID = strings.Trim(strings.TrimSpace(h.Get("Message-Id")), "<>")
	}
	if !utf8.ValidString(m.MessageID) || strings.ContainsFunc(m.MessageID, unicode.IsControl) {
		// Not text (a store may refuse it, a log garbles it): as good as
		// none, so the message is named by its content.
		m.MessageID = ""
	}
	if ids, err := h.MsgIDList("In-Reply-To"); err == nil && len(ids) > 0 {
		m.InReplyTo = ids[0]
	}
	if ids, err := h.MsgIDList("References"); err == nil {
		m.References = ids
	}
	if s, err := h.Subject(); err == nil {
		m.Subject = s
	} else {
		m.Subject = h.Get("Subject")
	}
	m.Subject = strings.Join(strings.Fields(m.Subject), " ")
	m.Table = subjectTag(m.Subject).table
	for _, key := range []string{"To", "Cc"} {
		for _, a := range addresses(h, key) {
			m.To = append(m.To, strings.ToLower(a.Address))
		}
	}
	m.AuthResults = h.Values("Authentication-Results")
	a, err := sender(h)
	if a != nil {
		m.From, m.FromName = strings.ToLower(a.Address), a.Name
	}
	return err
}

// sender reads the one mailbox of the From field (RFC 5322 §3.6.2). Two
// From fields, a list or a group leave no one to answer, and playing the
// first address would let a sender act as anyone he names beside
// himself: they are an AmbiguousFrom error. No address at all is nil,
// nil.
func sender(h mail.Header) (*mail.Address, *Error) {
	fields := h.Values("From")
	list := addresses(h, "From")
	switch {
	case len(fields) > 1:
		return nil, newError(AmbiguousFrom, "%d From fields%s", len(fields), listed(list))
	case len(fields) == 1 && isGroup(fields[0]):
		return nil, newError(AmbiguousFrom, "a group%s", listed(list))
	case len(list) > 1:
		return nil, newError(AmbiguousFrom, "%d addresses%s", len(list), listed(list))
	case len(list) == 1:
		return list[0], nil
	}
	return nil, nil
}

// listed names the first addresses of a From for an error's detail.
func listed(list []*mail.Address) string {
	const most = 4
	var names []string
	for i, a := range list {
		if i == most {
			names = append(names, "…")
			break
		}
		names = append(names, strings.ToLower(a.Address))
	}
	if len(names) == 0 {
		return ""
	}
	return ": " + strings.Join(names, ", ")
}

// isGroup tells whether an address field uses the group syntax
// ("Friends: a@x, b@y;"): a colon outside quoted strings, comments,
// angle brackets, domain literals and encoded words (some encoders leave
// a colon as it is in "=?utf-8?q?Dr.:_Ren=C3=A9e?=").
func isGroup(v string) bool {
	depth, quoted, angle, literal := 0, false, false, false
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '\\' && (quoted || depth > 0 || literal):
			i++
		case c == '=' && !quoted && depth == 0 && !literal && strings.HasPrefix(v[i:], "=?"):
			i += encodedWordLen(v[i:]) - 1
		case quoted:
			quoted = c != '"'
		case depth > 0:
			switch c {
			case '(':
				depth++
			case ')':
				depth--
			}
		case literal:
			literal = c != ']'
		case c == '"':
			quoted = true
		case c == '(':
			depth = 1
		case c == '[':
			literal = true
		case c == '<':
			angle = true
		case c == '>':
			angle = false
		case c == ':' && !angle:
			return true
		}
	}
	return false
}

// maxEncodedWord bounds the search for an encoded word's end. RFC 2047
// §2 allows 75 characters; some encoders write longer ones. Without a
// bound, a field of many "=?" starts cost their number times its length.
const maxEncodedWord = 512

// encodedWordLen is the length of the RFC 2047 encoded word
// "=?charset?e?text?=" that s starts with, or 1 when it holds none.
func encodedWordLen(s string) int {
	s = s[:min(len(s), maxEncodedWord)]
	n := 2
	for range 2 { // the charset and the encoding, each closed by '?'
		i := strings.IndexByte(s[n:], '?')
		if i < 0 {
			return 1
		}
		n += i + 1
	}
	i := strings.Index(s[n:], "?=")
	if i < 0 || strings.ContainsAny(s[:n+i], " \t") {
		return 1
	}
	return n + i + 2
}

// addresses parses an address header leniently: a list that does not
// parse as a whole is read entry by entry.
func addresses(h mail.Header, key string) []*mail.Address {
	var out []*mail.Address
	for _, v := range h.Values(key) {
		list, err := mail.ParseAddressList(v)
		if err == nil {
			out = append(out, list...)
			continue
		}
		for part := range strings.SplitSeq(v, ",") {
			if a := looseAddress(part); a != nil {
				out = append(out, a)
			}
		}
	}
	return out
}

// looseAddress reads "Name <a@b>" or "a@b" when the strict parser refused.
func looseAddress(s string) *mail.Address {
	s = strings.TrimSpace(s)
	if a, err := mail.ParseAddress(s); err == nil {
		return a
	}
	addr, name := s, ""
	if i := strings.LastIndexByte(s, '<'); i >= 0 {
		if j := strings.IndexByte(s[i:], '>'); j > 0 {
			addr, name = s[i+1:i+j], strings.Trim(strings.TrimSpace(s[:i]), `"`)
		}
	}
	addr = strings.TrimSpace(addr)
	at := strings.LastIndexByte(addr, '@')
	if at <= 0 || at == len(addr)-1 || strings.ContainsAny(addr, " \t<>,;\"") {
		return nil
	}
	return &mail.Address{Name: name, Address: addr}
}

func splitAddress(a string) (local, domain string) {
	at := strings.LastIndexByte(a, '@')
	if at < 0 {
		return a, ""
	}
	return a[:at], a[at+1:]
}

// ignoreReason applies EMAIL §2.3; the most specific reason is given.
func ignoreReason(h mail.Header, from, service string) string {
	if t, params, _ := h.ContentType(); t == "multipart/report" || t == "message/delivery-status" ||
		params["report-type"] == "delivery-status" {
		return IgnoreDeliveryReport
	}
	if strings.TrimSpace(h.Get("Return-Path")) == "<>" {
		return IgnoreDeliveryReport
	}
	if from == "" && strings.Contains(strings.ToLower(h.Get("From")), "mailer-daemon") {
		return IgnoreDaemon
	}
	local, domain := splitAddress(from)
	switch local {
	case "mailer-daemon", "postmaster":
		return IgnoreDaemon
	}
	l := strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == '.' {
			return -1
		}
		return r
	}, local)
	if strings.HasPrefix(l, "noreply") || strings.HasPrefix(l, "donotreply") || strings.HasPrefix(l, "dontreply") ||
		strings.HasSuffix(l, "noreply") {
		return IgnoreNoReply
	}
	if service != "" && from != "" {
		sl, sd := splitAddress(strings.ToLower(service))
		base, _, _ := strings.Cut(local, "+")
		if base == sl && domain == sd {
			return IgnoreOwnAddress
		}
	}
	if h.Has("List-Id") {
		return IgnoreList
	}
	if v := strings.ToLower(strings.TrimSpace(h.Get("Auto-Submitted"))); v != "" && !strings.HasPrefix(v, "no") {
		return IgnoreAutoSubmitted
	}
	if h.Has("X-Autoreply") || h.Has("X-Autorespond") || h.Has("X-Autoresponder") {
		return IgnoreAutoReply
	}
	switch strings.ToLower(strings.TrimSpace(h.Get("Precedence"))) {
	case "bulk", "junk", "list", "auto_reply":
		return IgnorePrecedence
	}
	return ""
}

// findToken reads the reply token: the subject tag's last word when
// opt.TokenInSubject, else the plus-address of the service's local part
// (or of any recipient when no service address is set) in To, Cc,
// Delivered-To or X-Original-To, in that order.
func findToken(h mail.Header, subject string, opt Options) string {
	if opt.TokenInSubject {
		return subjectTag(subject).token
	}
	service, _ := splitAddress(strings.ToLower(opt.ServiceAddress))
	for _, key := range []string{"To", "Cc", "Delivered-To", "X-Original-To"} {
		for _, a := range addresses(h, key) {
			local, _ := splitAddress(a.Address)
			base, token, ok := strings.Cut(local, "+")
			if !ok || !validToken(token) {
				continue
			}
			if service == "" || strings.EqualFold(base, service) {
				return token
			}
		}
	}
	return ""
}

func validToken(t string) bool {
	if t == "" || len(t) > 128 {
		return false
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '=' || c == '.') {
			return false
		}
	}
	return true
}

type tag struct{ table, token string }

// subjectTag reads "[Lexio <table>]" or "[Lexio <table> <token>]" anywhere
// in the subject (EMAIL §1.2), case-insensitive.
func subjectTag(subject string) tag {
	i := indexFold(subject, "[lexio ")
	if i < 0 {
		return tag{}
	}
	rest := subject[i+len("[lexio "):]
	j := strings.IndexByte(rest, ']')
	if j < 0 {
		return tag{}
	}
	f := strings.Fields(rest[:j])
	switch len(f) {
	case 0:
		return tag{}
	case 1:
		return tag{table: f[0]}
	}
	t := tag{table: f[0]}
	if validToken(f[len(f)-1]) {
		t.token = f[len(f)-1]
	}
	return t
}

func indexFold(s, lowerSub string) int {
	n := len(lowerSub)
	for i := 0; i+n <= len(s); i++ {
		if strings.EqualFold(s[i:i+n], lowerSub) {
			return i
		}
	}
	return -1
}

// SubjectText strips reply and forward prefixes (repeated) and the
// [Lexio …] tags from a subject, leaving what may be a command. It reads
// the subject once: a subject of many tags no longer costs their number
// times its length.
func SubjectText(s string) string {
	s = withoutTags(s)
	for {
		s = strings.TrimSpace(s)
		p := replyPrefix(s)
		if p == 0 {
			return s
		}
		s = s[p:]
	}
}

// withoutTags replaces each [Lexio …] tag of s by a space.
func withoutTags(s string) string {
	var b strings.Builder
	for {
		i := indexFold(s, "[lexio ")
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i:], ']')
		if j < 0 {
			break
		}
		b.WriteString(s[:i])
		b.WriteByte(' ')
		s = s[i+j+1:]
	}
	if b.Len() == 0 {
		return s
	}
	b.WriteString(s)
	return b.String()
}

// replyPrefix returns the length of a leading "Re:", "Fwd:", "AW:", "SV:",
// "TR:", "RV:" … prefix (with an optional "[2]" or "(2)" counter), or 0.
// A full-width colon (Chinese and Japanese clients) counts as a colon.
func replyPrefix(s string) int {
	colon := strings.IndexAny(s, ":：")
	if colon <= 0 || colon > 12 {
		return 0
	}
	word := strings.TrimSpace(s[:colon])
	if k := strings.IndexAny(word, "[("); k > 0 {
		word = strings.TrimSpace(word[:k])
	}
	switch strings.ToUpper(word) {
	case "RE", "RES", "FW", "FWD", "AW", "WG", "SV", "VS", "TR", "RV", "REF", "ENC", "ANTW", "R", "I", "RIF":
		if strings.HasPrefix(s[colon:], "：") {
			return colon + len("：")
		}
		return colon + 1
	}
	return 0
}
