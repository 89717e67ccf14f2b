// Package client is the player's side of a mailbox: read the messages of
// one's INBOX over IMAP and send a message over SMTP, as a mail client
// would: a command as a reply to the service's newest message, and the
// wait for its answer. `lexio mail read|send` and the end-to-end tests use
// it. It knows nothing of games.
package client

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-message/mail"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	_ "github.com/emersion/go-message/charset" // charsets of received mail
)

// Account is one mailbox and the way to send from it.
type Account struct {
	IMAPAddr, SMTPAddr string
	Username, Password string
	// Address is the From address of what the account sends.
	Address string
	// TLS is the config for STARTTLS on both sides; nil means plain
	// connections (loopback only).
	TLS *tls.Config
	// SMTPAuth logs in to the SMTP server before sending.
	SMTPAuth bool
}

// Message is one received message.
type Message struct {
	UID uint32
	// Raw is the message as the server keeps it, headers and body.
	Raw []byte
	// Size is the server's RFC822.SIZE of the message (the length of Raw
	// when read from bytes).
	Size       int64
	MessageID  string
	InReplyTo  string
	References []string
	From       string
	ReplyTo    string
	Subject    string
	Date       time.Time
	Text, HTML string
	// Attachments names the attached files.
	Attachments []string
	Seen        bool
}

// Header returns a header field of the raw message.
func (m *Message) Header(name string) string {
	r, err := mail.CreateReader(bytes.NewReader(m.Raw))
	if err != nil {
		return ""
	}
	defer r.Close()
	return r.Header.Get(name)
}

func (a Account) dialIMAP() (*imapclient.Client, error) {
	var c *imapclient.Client
	var err error
	if a.TLS != nil {
		c, err = imapclient.DialStartTLS(a.IMAPAddr, &imapclient.Options{TLSConfig: a.TLS})
	} else {
		c, err = imapclient.DialInsecure(a.IMAPAddr, nil)
	}
	if err != nil {
		return nil, fmt.Errorf("client: imap %s: %w", a.IMAPAddr, err)
	}
	if err := c.Login(a.Username, a.Password).Wait(); err != nil {
		c.Close()
		return nil, fmt.Errorf("client: imap login %s: %w", a.Username, err)
	}
	return c, nil
}

// Fetch returns every message of INBOX in UID order, each with its raw
// bytes and its size as the server gives them, without changing their
// flags.
func (a Account) Fetch(ctx context.Context) ([]Message, error) {
	c, err := a.dialIMAP()
	if err != nil {
		return nil, err
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	sel, err := c.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		return nil, fmt.Errorf("client: select: %w", err)
	}
	if sel.NumMessages == 0 {
		return nil, c.Logout().Wait()
	}
	var set imap.UIDSet
	set.AddRange(1, 0)
	msgs, err := c.Fetch(set, &imap.FetchOptions{
		UID: true, Flags: true, RFC822Size: true,
		BodySection: []*imap.FetchItemBodySection{{Peek: true}},
	}).Collect()
	if err != nil {
		return nil, fmt.Errorf("client: fetch: %w", err)
	}
	out := make([]Message, 0, len(msgs))
	for _, fm := range msgs {
		var raw []byte
		for _, b := range fm.BodySection {
			raw = b.Bytes
		}
		m, err := Read(raw)
		if err != nil {
			return nil, err
		}
		m.UID = uint32(fm.UID)
		if fm.RFC822Size > 0 {
			m.Size = fm.RFC822Size
		}
		for _, f := range fm.Flags {
			if f == imap.FlagSeen {
				m.Seen = true
			}
		}
		out = append(out, *m)
	}
	return out, c.Logout().Wait()
}

// Read parses a raw message into its header fields and text parts.
func Read(raw []byte) (*Message, error) {
	r, err := mail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("client: read message: %w", err)
	}
	defer r.Close()
	m := &Message{Raw: raw, Size: int64(len(raw))}
	h := r.Header
	m.MessageID, _ = h.MessageID()
	if ids, err := h.MsgIDList("In-Reply-To"); err == nil && len(ids) > 0 {
		m.InReplyTo = ids[0]
	}
	m.References, _ = h.MsgIDList("References")
	if from, err := h.AddressList("From"); err == nil && len(from) > 0 {
		m.From = from[0].Address
	}
	if rt, err := h.AddressList("Reply-To"); err == nil && len(rt) > 0 {
		m.ReplyTo = rt[0].Address
	}
	m.Subject, _ = h.Subject()
	m.Date, _ = h.Date()
	for {
		p, err := r.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("client: read part: %w", err)
		}
		switch ph := p.Header.(type) {
		case *mail.InlineHeader:
			ct, _, _ := ph.ContentType()
			b, err := io.ReadAll(p.Body)
			if err != nil {
				return nil, fmt.Errorf("client: read part: %w", err)
			}
			switch ct {
			case "text/plain":
				m.Text = string(b)
			case "text/html":
				m.HTML = string(b)
			}
		case *mail.AttachmentHeader:
			name, _ := ph.Filename()
			m.Attachments = append(m.Attachments, name)
		}
	}
	return m, nil
}

// Send submits a message from the account to the given addresses.
func (a Account) Send(ctx context.Context, to []string, raw []byte) error {
	d := net.Dialer{Timeout: 10 * time.Second}
	conn, err := d.DialContext(ctx, "tcp", a.SMTPAddr)
	if err != nil {
		return fmt.Errorf("client: smtp %s: %w", a.SMTPAddr, err)
	}
	var c *smtp.Client
	if a.TLS != nil {
		c, err = smtp.NewClientStartTLS(conn, a.TLS)
		if err != nil {
			return fmt.Errorf("client: smtp starttls: %w", err)
		}
	} else {
		c = smtp.NewClient(conn)
	}
	defer c.Close()
	if a.SMTPAuth {
		if err := c.Auth(sasl.NewPlainClient("", a.Username, a.Password)); err != nil {
			return fmt.Errorf("client: smtp auth: %w", err)
		}
	}
	if err := c.SendMail(a.Address, to, bytes.NewReader(raw)); err != nil {
		return fmt.Errorf("client: send: %w", err)
	}
	return c.Quit()
}

// Reply writes a plain-text reply to m from the account, as a mail client
// does: to its Reply-To (else From), with In-Reply-To and References, the
// subject prefixed "Re: ", and the original quoted below the body.
func (a Account) Reply(m *Message, body string, now time.Time, messageID string) (to string, raw []byte) {
	to = m.ReplyTo
	if to == "" {
		to = m.From
	}
	subject := m.Subject
	if !strings.HasPrefix(strings.ToLower(subject), "re:") {
		subject = "Re: " + subject
	}
	refs := append(append([]string(nil), m.References...), m.MessageID)
	var quote strings.Builder
	fmt.Fprintf(&quote, "%s\n\nOn %s, %s wrote:\n", body, m.Date.Format("Mon, 2 Jan 2006 at 15:04"), m.From)
	for _, l := range strings.Split(strings.TrimRight(m.Text, "\r\n"), "\n") {
		quote.WriteString("> " + strings.TrimRight(l, "\r") + "\n")
	}
	return to, a.compose(to, subject, quote.String(), now, messageID, m.MessageID, refs)
}

// Message writes a new plain-text message from the account, as a mail
// client does for a fresh mail.
func (a Account) Message(to, subject, body string, now time.Time, messageID string) []byte {
	return a.compose(to, subject, body, now, messageID, "", nil)
}

func (a Account) compose(to, subject, body string, now time.Time, messageID, inReplyTo string, refs []string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s\r\nTo: %s\r\nSubject: %s\r\nDate: %s\r\nMessage-ID: <%s>\r\n", a.Address, to, mime(subject), now.Format(time.RFC1123Z), messageID)
	if inReplyTo != "" {
		fmt.Fprintf(&b, "In-Reply-To: <%s>\r\nReferences: <%s>\r\n", inReplyTo, strings.Join(refs, "> <"))
	}
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n")
	b.WriteString(strings.ReplaceAll(strings.ReplaceAll(body, "\r\n", "\n"), "\n", "\r\n"))
	b.WriteString("\r\n")
	return []byte(b.String())
}

// mime encodes a header value as an encoded-word when it is not ASCII.
func mime(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return "=?utf-8?q?" + qEncode(s) + "?="
		}
	}
	return s
}

func qEncode(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ':
			b.WriteByte('_')
		case c >= 0x80 || c == '=' || c == '?' || c == '_' || c < 0x20:
			fmt.Fprintf(&b, "=%02X", c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// Command writes body, a player's command, as a mail client would: with
// to "", a reply to the newest message of inbox from the service's
// address, else a new message to it; else a new message to to. subject
// is a new message's.
func (a Account) Command(inbox []Message, service, to, subject, body string, now time.Time, messageID string) (rcpt string, raw []byte) {
	if to == "" {
		for i := len(inbox) - 1; i >= 0; i-- {
			m := inbox[i]
			if m.From == service {
				return a.Reply(&m, body, now, messageID)
			}
		}
		to = service
	}
	return to, a.Message(to, subject, body, now, messageID)
}

// Await waits up to wait for mail beyond the first have messages of
// INBOX, and returns the new messages, or none when none came in time.
// The rest of the first one's batch (one transaction's mail) follows at
// once: it reads until a look finds nothing new. It returns ctx.Err()
// when ctx ends first.
func (a Account) Await(ctx context.Context, have int, wait time.Duration) ([]Message, error) {
	deadline := time.Now().Add(wait)
	for time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
		after, err := a.Fetch(ctx)
		if err != nil {
			return nil, err
		}
		if len(after) > have {
			for n := 0; n != len(after) && time.Now().Before(deadline); {
				n = len(after)
				time.Sleep(200 * time.Millisecond)
				if after, err = a.Fetch(ctx); err != nil {
					return nil, err
				}
			}
			return after[have:], nil
		}
	}
	return nil, nil
}
