package mailtext

import "fmt"

// Kind says why a message could not be read.
type Kind int

// The kinds of Error.
const (
	Malformed      Kind = iota + 1 // broken header or MIME structure, no From
	HeaderTooLarge                 // header block over MaxHeaderBytes
	TooLarge                       // over Options.MaxBytes: not read (EMAIL §2.5)
	TooDeep                        // MIME parts nested too deep or too many parts
	BadCharset                     // unknown charset with non-ASCII content
	BinaryJunk                     // NUL bytes or control characters in the text
	AmbiguousFrom                  // several From fields or mailboxes, or a group: no one sender
)

// Error is the error of Read and Mail.TextErr. Its Detail names the
// offending input as the message wrote it: whoever shows it makes it
// printable.
type Error struct {
	Kind   Kind
	Detail string
}

func (e *Error) Error() string { return "mailtext: " + e.Detail }

func newError(k Kind, format string, args ...any) *Error {
	return &Error{Kind: k, Detail: fmt.Sprintf(format, args...)}
}
