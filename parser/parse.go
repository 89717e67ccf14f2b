package parser

import (
	"errors"
	"strings"

	"github.com/lexio-mail/lexio/parser/mailtext"
)

// Options configure Parse: the service's address, the largest message
// read, where reply tokens are.
type Options = mailtext.Options

// Message is what Parse read from one raw message.
type Message struct {
	MessageID  string   `json:"message_id"`
	InReplyTo  string   `json:"in_reply_to,omitempty"`
	References []string `json:"references,omitempty"`
	From       string   `json:"from"` // bare address, lowercase; "" when none or several (Err says)
	FromName   string   `json:"from_name,omitempty"`
	To         []string `json:"to,omitempty"` // To and Cc, bare, lowercase
	Token      string   `json:"token"`        // as written; "" when none
	Table      string   `json:"table,omitempty"`
	Subject    string   `json:"subject"` // decoded
	// Body is what the player wrote: the text part (or the HTML part
	// turned into text) without quotes, attributions, signatures and
	// phone footers; at most 16 KiB are kept.
	Body        string   `json:"body"`
	AuthResults []string `json:"auth_results,omitempty"` // raw Authentication-Results values
	Ignored     string   `json:"ignored"`                // a mailtext.Ignore* reason, "" when not ignored
	Command     *Command `json:"command,omitempty"`
	Err         error    `json:"-"`
	Lang        string   `json:"lang,omitempty"` // language of the command's keyword: en, es, fr
	// CommandSource says where the command or the error was found:
	// "body", "subject" or "" (for header-level errors and ignored mail).
	CommandSource string `json:"source,omitempty"`
	// Line is the line of the body it was found on, counting from 1 the
	// non-blank lines the player wrote (quotes dropped); 0 when it was not
	// found in the body. A confirmation counts only on line 1 (EMAIL §1.7).
	Line int `json:"line,omitempty"`
}

// Summary is the one-line JSON form of a Message used by `lexio parse
// --json`. The first six keys are a contract checked outside the
// repository.
type Summary struct {
	MessageID string `json:"message_id"`
	From      string `json:"from"`
	Token     string `json:"token"`
	Ignored   string `json:"ignored"`
	Command   string `json:"command"` // canonical form, see Command.String
	Error     string `json:"error"`
	ErrorKind string `json:"error_kind,omitempty"`
	Subject   string `json:"subject"`
	Lang      string `json:"lang"`
	Table     string `json:"table,omitempty"`
}

// Summary returns the JSON summary of m.
func (m *Message) Summary() Summary {
	s := Summary{
		MessageID: m.MessageID,
		From:      m.From,
		Token:     m.Token,
		Ignored:   m.Ignored,
		Command:   m.Command.String(),
		Subject:   m.Subject,
		Lang:      m.Lang,
		Table:     m.Table,
	}
	if m.Err != nil {
		s.Error = m.Err.Error()
		var pe *Error
		if errors.As(m.Err, &pe) {
			s.ErrorKind = pe.Kind.String()
		}
	}
	return s
}

// Parse reads one raw RFC 5322 message: its identity, its reply token,
// whether it must be ignored (EMAIL §2.3), and its command (EMAIL §2.4,
// §3). It does no I/O and never panics: whatever goes wrong is in Err,
// an *Error.
func Parse(raw []byte, opt Options) (m *Message) {
	m = &Message{}
	defer func() {
		if r := recover(); r != nil {
			m.Command = nil
			m.Err = newError(Internal, "%v", r)
		}
	}()
	parse(m, raw, opt)
	return m
}

func parse(m *Message, raw []byte, opt Options) {
	r, err := mailtext.Read(raw, opt)
	m.setMail(r)
	if m.Ignored != "" {
		return
	}
	if err != nil {
		m.Err = mailError(err)
		return
	}
	if r.TextErr == nil {
		m.Body = r.Body
		cmd, cmdErr, line := findCommand(r.Lines)
		if cmd != nil {
			m.setCommand(cmd, "body")
			m.Line = line
			return
		}
		if cmdErr != nil {
			m.Err, m.CommandSource, m.Line = cmdErr, "body", line
			return
		}
	}
	// No command in the body: try the subject (EMAIL §2.4).
	if s := mailtext.SubjectText(m.Subject); s != "" {
		cmd, cmdErr, attempt := parseLine(s)
		if cmd != nil {
			m.setCommand(cmd, "subject")
			return
		}
		if attempt {
			m.Err, m.CommandSource = cmdErr, "subject"
			return
		}
	}
	if r.TextErr != nil {
		m.Err = mailError(r.TextErr)
		return
	}
	m.Err = &Error{Kind: NoCommand}
}

// setMail copies what mailtext read of the message but its text.
func (m *Message) setMail(r *mailtext.Mail) {
	m.MessageID, m.InReplyTo, m.References = r.MessageID, r.InReplyTo, r.References
	m.From, m.FromName, m.To = r.From, r.FromName, r.To
	m.Token, m.Table, m.Subject = r.Token, r.Table, r.Subject
	m.AuthResults, m.Ignored = r.AuthResults, r.Ignored
}

// mailKinds are the kinds of mailtext's errors as this package's.
var mailKinds = [...]ErrorKind{
	mailtext.Malformed:      Malformed,
	mailtext.HeaderTooLarge: HeaderTooLarge,
	mailtext.TooLarge:       TooLarge,
	mailtext.TooDeep:        TooDeep,
	mailtext.BadCharset:     BadCharset,
	mailtext.BinaryJunk:     BinaryJunk,
	mailtext.AmbiguousFrom:  AmbiguousFrom,
}

// mailError reports an error of mailtext as an *Error of the same kind,
// its Detail made one line of printable text.
func mailError(err error) *Error {
	var e *mailtext.Error
	if !errors.As(err, &e) || e.Kind <= 0 || int(e.Kind) >= len(mailKinds) {
		return newError(Internal, "%v", err)
	}
	return newError(mailKinds[e.Kind], "%s", e.Detail)
}

func (m *Message) setCommand(c *Command, source string) {
	m.Command, m.Lang, m.CommandSource = c, c.Language, source
}

// maxCommandLine bounds the part of a line read as a command: the
// longest command (SAY's MaxSay characters, NEW with a few addresses) is
// well within it, and what a line holds past it only makes a longer
// error, so that a megabyte-long line costs no more than a short one.
const maxCommandLine = 4 << 10

// findCommand returns the first command of the player's lines (EMAIL §3:
// only the first counts) and its line, counting the non-blank ones from
// 1. A line that is an attempt at a command but fails (a bad cell, a bad
// word …) ends the search with its error and its line. With no command
// and no attempt, the result is (nil, nil, 0).
func findCommand(lines []string) (*Command, error, int) {
	n := 0
	for _, t := range lines {
		t = mailtext.CutText(t, maxCommandLine)
		t = strings.Trim(t, "*_ ") // *bold* as text/plain renders it
		if t == "" {
			continue
		}
		n++
		c, err, attempt := parseLine(t)
		if c != nil {
			return c, nil, n
		}
		if attempt {
			return nil, err, n
		}
	}
	return nil, nil, 0
}
