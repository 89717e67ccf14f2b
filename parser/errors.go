package parser

import "fmt"

// ErrorKind says why a message yielded no command. The service chooses and
// translates its reply by kind; Detail only names the offending input.
type ErrorKind int

// The kinds of Error. Their String forms are stable (used in JSON and logs).
const (
	Internal        ErrorKind = iota // a bug in this package, recovered
	TooLarge                         // over Options.MaxBytes: not parsed (EMAIL §2.5)
	HeaderTooLarge                   // header block over the limit
	TooDeep                          // MIME parts nested too deep or too many parts
	Malformed                        // broken header or MIME structure, no From
	BadCharset                       // unknown charset with non-ASCII content
	BinaryJunk                       // NUL bytes or control characters in the text
	NoCommand                        // neither the body nor the subject holds a command
	BadCell                          // a cell off the board or unreadable (RULES §2.1)
	BadDirection                     // not ACROSS/DOWN or a synonym
	BadWord                          // a word with non-letters or broken brackets
	WordTooLong                      // a word longer than the board (13)
	BadExchange                      // EXCHANGE arguments unreadable
	BadLang                          // LANG with something other than en, es, fr
	BadVariant                       // NEW with something other than lexio, lexico
	BadTable                         // JOIN with an unusable table name
	MissingArgument                  // a command without its required arguments
	ExtraArgument                    // text after a complete command
	AmbiguousFrom                    // several From fields or mailboxes, or a group: no one sender
	BadZone                          // TZ with a name that is no IANA time zone
	BadVacation                      // VACATION days out of range or dates unreadable
	BadNotify                        // NOTIFY with something other than all, turn, digest
	BadAddress                       // NEW with a word that is no address, or one twice
	TextTooLong                      // SAY over MaxSay characters
	BadDuration                      // GIVE with a time that is not whole hours or days
	MissingNote                      // NOTE without a table or without a text
	NoteTooLong                      // NOTE over MaxNote characters (Length says how many)
	BadNote                          // NOTE with a character that is neither printable nor a space
)

var kindNames = [...]string{
	Internal:        "internal",
	TooLarge:        "too_large",
	HeaderTooLarge:  "header_too_large",
	TooDeep:         "too_deep",
	Malformed:       "malformed",
	BadCharset:      "bad_charset",
	BinaryJunk:      "binary_junk",
	NoCommand:       "no_command",
	BadCell:         "bad_cell",
	BadDirection:    "bad_direction",
	BadWord:         "bad_word",
	WordTooLong:     "word_too_long",
	BadExchange:     "bad_exchange",
	BadLang:         "bad_lang",
	BadVariant:      "bad_variant",
	BadTable:        "bad_table",
	MissingArgument: "missing_argument",
	ExtraArgument:   "extra_argument",
	AmbiguousFrom:   "ambiguous_from",
	BadZone:         "bad_zone",
	BadVacation:     "bad_vacation",
	BadNotify:       "bad_notify",
	BadAddress:      "bad_address",
	TextTooLong:     "text_too_long",
	BadDuration:     "bad_duration",
	MissingNote:     "missing_note",
	NoteTooLong:     "note_too_long",
	BadNote:         "bad_note",
}

var kindTexts = [...]string{
	Internal:        "internal error",
	TooLarge:        "message too large",
	HeaderTooLarge:  "header too large",
	TooDeep:         "MIME structure too deep",
	Malformed:       "malformed message",
	BadCharset:      "unknown charset",
	BinaryJunk:      "binary content",
	NoCommand:       "no command found",
	BadCell:         "bad cell",
	BadDirection:    "bad direction",
	BadWord:         "bad word",
	WordTooLong:     "word too long",
	BadExchange:     "bad exchange",
	BadLang:         "unknown language",
	BadVariant:      "unknown variant",
	BadTable:        "bad table name",
	MissingArgument: "missing argument",
	ExtraArgument:   "unexpected text after the command",
	AmbiguousFrom:   "ambiguous From",
	BadZone:         "unknown time zone",
	BadVacation:     "bad vacation",
	BadNotify:       "unknown notification choice",
	BadAddress:      "bad address",
	TextTooLong:     "text too long",
	BadDuration:     "bad duration",
	MissingNote:     "missing note",
	NoteTooLong:     "note too long",
	BadNote:         "unprintable character in the note",
}

// String returns the kind's stable snake_case name.
func (k ErrorKind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return fmt.Sprintf("kind(%d)", int(k))
	}
	return kindNames[k]
}

// MarshalText makes kinds appear by name in JSON.
func (k ErrorKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Error is the typed error of this package: every error Parse and
// ParseCommand report is an *Error.
type Error struct {
	Kind   ErrorKind
	Detail string // the offending input or a short explanation, English
	// Length is the length of the text, in characters, of NoteTooLong.
	Length int
}

func (e *Error) Error() string {
	text := "unknown error"
	if e.Kind >= 0 && int(e.Kind) < len(kindTexts) {
		text = kindTexts[e.Kind]
	}
	if e.Detail == "" {
		return "parser: " + text
	}
	return "parser: " + text + ": " + e.Detail
}

// Is makes errors.Is(err, ErrNoCommand) and the like match by kind.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Detail == "" && t.Kind == e.Kind
}

// newError makes an Error; its Detail, which may quote the player's
// input back to them, is one line of printable text (OneLine).
func newError(k ErrorKind, format string, args ...any) *Error {
	return &Error{Kind: k, Detail: OneLine(fmt.Sprintf(format, args...), maxDetail)}
}

// maxDetail bounds Error.Detail, in characters.
const maxDetail = 200

// Sentinels for errors.Is; each matches every *Error of its kind.
var (
	ErrTooLarge        = &Error{Kind: TooLarge}
	ErrHeaderTooLarge  = &Error{Kind: HeaderTooLarge}
	ErrTooDeep         = &Error{Kind: TooDeep}
	ErrMalformed       = &Error{Kind: Malformed}
	ErrBadCharset      = &Error{Kind: BadCharset}
	ErrBinaryJunk      = &Error{Kind: BinaryJunk}
	ErrNoCommand       = &Error{Kind: NoCommand}
	ErrBadCell         = &Error{Kind: BadCell}
	ErrBadDirection    = &Error{Kind: BadDirection}
	ErrBadWord         = &Error{Kind: BadWord}
	ErrWordTooLong     = &Error{Kind: WordTooLong}
	ErrBadExchange     = &Error{Kind: BadExchange}
	ErrBadLang         = &Error{Kind: BadLang}
	ErrBadVariant      = &Error{Kind: BadVariant}
	ErrBadTable        = &Error{Kind: BadTable}
	ErrMissingArgument = &Error{Kind: MissingArgument}
	ErrExtraArgument   = &Error{Kind: ExtraArgument}
	ErrAmbiguousFrom   = &Error{Kind: AmbiguousFrom}
	ErrBadZone         = &Error{Kind: BadZone}
	ErrBadVacation     = &Error{Kind: BadVacation}
	ErrBadNotify       = &Error{Kind: BadNotify}
	ErrBadAddress      = &Error{Kind: BadAddress}
	ErrTextTooLong     = &Error{Kind: TextTooLong}
	ErrBadDuration     = &Error{Kind: BadDuration}
	ErrMissingNote     = &Error{Kind: MissingNote}
	ErrNoteTooLong     = &Error{Kind: NoteTooLong}
	ErrBadNote         = &Error{Kind: BadNote}
)
