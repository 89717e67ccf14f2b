package parser

import "testing"

// TestOddMessageID: a Message-ID with blanks, extra brackets or other odd
// characters still names its message (the service's once-only key, EMAIL
// §2.2), as it came, and the message is read as any other; one that is
// not text (a control character, bytes that are not UTF-8) is as good as
// none: "", and the service names the message by its content.
func TestOddMessageID(t *testing.T) {
	tests := []struct{ header, want string }{
		{"<a@example.net>", "a@example.net"},
		{"<a b@example.net>", "a b@example.net"},
		{"<<a@example.net>>", "a@example.net"},
		{"a@example.net", "a@example.net"},
		{"<a@example.net> <b@example.net>", "a@example.net"},
		{"(comment) <a@example.net> trailing", "a@example.net"},
		{"<a@example.net", "a@example.net"},
		{"<[x]@y>", "[x]@y"},
		{"<é@example.net>", "é@example.net"},
		{"<a@exa\n mple.net>", "a@exa mple.net"}, // folded (msg writes CRLF)
		{"<>", ""},
		{"<a\x00b@example.net>", ""},
		{"<a\x01b@example.net>", ""},
		{"<a\tb@example.net>", ""},
		{"<a\x7f@example.net>", ""},
		{"<a\xff@example.net>", ""},
		{"a@exa\xc3mple.net", ""},
	}
	for _, tt := range tests {
		m := Parse(msg("Message-ID: "+tt.header, "PASS"), Options{})
		if m.MessageID != tt.want {
			t.Errorf("Message-ID: %q: read %q, want %q", tt.header, m.MessageID, tt.want)
		}
		if m.Err != nil || m.Command == nil || m.Command.Kind != KindPass || m.From != "alice@example.net" {
			t.Errorf("Message-ID: %q: the message is not read: %v %v", tt.header, m.Command, m.Err)
		}
	}
}
