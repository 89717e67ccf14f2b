package parser

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/parser/mailtext"
)

// msg builds a raw message from header lines and a body.
func msg(headers, body string) []byte {
	h := strings.TrimSpace(headers)
	if !strings.Contains(strings.ToLower(h), "from:") {
		h = "From: Alice <alice@example.net>\n" + h
	}
	if !strings.Contains(strings.ToLower(h), "message-id:") {
		h += "\nMessage-ID: <m1@example.net>"
	}
	return []byte(strings.ReplaceAll(h+"\n\n"+body, "\n", "\r\n"))
}

var testOpts = Options{ServiceAddress: testService}

func TestParseTooLarge(t *testing.T) { // EMAIL §2.5
	raw := msg("To: lexio+TOK@example.org\nSubject: big", "PASS\n"+strings.Repeat("x", 3000))
	m := Parse(raw, Options{ServiceAddress: testService, MaxBytes: 2000})
	if !errors.Is(m.Err, ErrTooLarge) {
		t.Fatalf("Err = %v, want too large", m.Err)
	}
	if m.Command != nil || m.From != "alice@example.net" || m.MessageID != "m1@example.net" || m.Token != "TOK" {
		t.Errorf("a too large message keeps its identity for the notice: %+v", m)
	}
	// Under the default limit of 1 MiB the same message is read.
	if m := Parse(raw, testOpts); m.Command.String() != "PASS" {
		t.Errorf("under the limit: command %v, err %v", m.Command, m.Err)
	}
	// Over the default limit.
	big := msg("Subject: big", "PASS\n"+strings.Repeat("y", mailtext.DefaultMaxBytes))
	if m := Parse(big, testOpts); !errors.Is(m.Err, ErrTooLarge) {
		t.Errorf("over 1 MiB: Err = %v, want too large", m.Err)
	}
	// An auto-reply over the limit is ignored, not answered.
	auto := msg("Auto-Submitted: auto-replied", strings.Repeat("z", 3000))
	if m := Parse(auto, Options{MaxBytes: 2000}); m.Ignored != mailtext.IgnoreAutoSubmitted || m.Err != nil {
		t.Errorf("large auto-reply: ignored %q, err %v", m.Ignored, m.Err)
	}
}

// TestParseLargeTextUnderLimit reads a body of almost 1 MiB; the time it
// takes is measured by BenchmarkParseLarge.
func TestParseLargeTextUnderLimit(t *testing.T) {
	raw := largeMessage()
	m := Parse(raw, testOpts)
	if m.Err != nil || m.Command.String() != "PLACE H7 ACROSS CHAT" {
		t.Fatalf("command %v, err %v", m.Command, m.Err)
	}
	if len(m.Body) > mailtext.MaxBodyKept {
		t.Errorf("Body keeps %d bytes, want at most %d", len(m.Body), mailtext.MaxBodyKept)
	}
}

func largeMessage() []byte {
	var b strings.Builder
	b.WriteString("Some chatter first, and a long quote after.\n\nPLACE H7 ACROSS CHAT\n\n")
	line := "> Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod.\n"
	for b.Len() < mailtext.DefaultMaxBytes*9/10 {
		b.WriteString(line)
	}
	return msg("Subject: long", b.String())
}

func TestParseDeepNesting(t *testing.T) {
	var head, tail strings.Builder
	for i := range 40 {
		fmt.Fprintf(&head, "--b%d\nContent-Type: multipart/mixed; boundary=\"b%d\"\n\n", i, i+1)
		fmt.Fprintf(&tail, "\n--b%d--\n", 40-i)
	}
	body := head.String() + "--b40\nContent-Type: text/plain\n\nPASS\n" + tail.String() + "--b0--\n"
	raw := msg(`Content-Type: multipart/mixed; boundary="b0"`, body)
	m := Parse(raw, testOpts)
	if !errors.Is(m.Err, ErrTooDeep) {
		t.Fatalf("Err = %v, want too deep", m.Err)
	}
	if m.Command != nil {
		t.Errorf("a too deep message yields no command, got %v", m.Command)
	}
}

func TestParseTooManyParts(t *testing.T) {
	var b strings.Builder
	for range mailtext.MaxParts + 5 {
		b.WriteString("--b\nContent-Type: image/png\n\nxx\n")
	}
	b.WriteString("--b\nContent-Type: text/plain\n\nPASS\n--b--\n")
	m := Parse(msg(`Content-Type: multipart/mixed; boundary="b"`, b.String()), testOpts)
	if !errors.Is(m.Err, ErrTooDeep) {
		t.Fatalf("Err = %v, want too many parts", m.Err)
	}
}

func TestParseHugeHeader(t *testing.T) {
	h := "Subject: x\nX-Junk: " + strings.Repeat("a", mailtext.MaxHeaderBytes+10)
	m := Parse(msg(h, "PASS\n"), testOpts)
	if !errors.Is(m.Err, ErrHeaderTooLarge) {
		t.Fatalf("Err = %v, want header too large", m.Err)
	}
	// Many folded lines count too.
	h = "Subject: x\nX-Junk: a" + strings.Repeat("\n b", mailtext.MaxHeaderBytes/3)
	if m := Parse(msg(h, "PASS\n"), testOpts); !errors.Is(m.Err, ErrHeaderTooLarge) {
		t.Errorf("folded: Err = %v, want header too large", m.Err)
	}
}

func TestParseJunk(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		want *Error
	}{
		{"empty", "", ErrMalformed},
		{"no header", "just some text\r\nPASS\r\n", ErrMalformed},
		{"no from", "Subject: x\r\n\r\nPASS\r\n", ErrMalformed},
		{"binary", "From: a@b.c\r\nContent-Type: text/plain\r\n\r\n\x00\x01\x02\x03PASS", ErrBinaryJunk},
		{"controls", "From: a@b.c\r\nContent-Type: text/plain\r\n\r\n\x01\x02\x03\x04\x05\x06PASS", ErrBinaryJunk},
		{"bad base64", "From: a@b.c\r\nContent-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!!****\r\n", ErrMalformed},
		{"open multipart", "From: a@b.c\r\nContent-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\nContent-Type: text/plain\r\n", ErrNoCommand},
		{"header junk", "From: a@b.c\r\n\x00\x01: x\r\n\r\nPASS", ErrMalformed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := Parse([]byte(tc.raw), testOpts)
			if !errors.Is(m.Err, tc.want) {
				t.Errorf("Err = %v, want %v", m.Err, tc.want.Kind)
			}
		})
	}
}

func TestParseCharsets(t *testing.T) {
	tests := []struct {
		name, charset, cte string
		body               []byte
		want               string
	}{
		{"latin1", "iso-8859-1", "8bit", []byte("jouer h7 bas \xe9t\xe9\n"), "PLACE H7 DOWN ETE"},
		{"latin9 oe", "iso-8859-15", "8bit", []byte("poser h7 h \xbcUF\n"), "PLACE H7 ACROSS OEUF"},
		{"cp1252", "windows-1252", "quoted-printable", []byte("=C9CHANGER =E9=E9\n"), "EXCHANGE EE"},
		{"utf-8 mislabelled latin1", "utf-8", "8bit", []byte("\xc9CHANGER TOUT\n"), "EXCHANGE ALL"},
		{"unknown charset ascii", "x-unknown", "7bit", []byte("PASS\n"), "PASS"},
		{"no charset", "", "7bit", []byte("PASS\n"), "PASS"},
		{"utf-16", "utf-16le", "base64", []byte("UABBAFMAUwAKAA==\n"), "PASS"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ct := "text/plain"
			if tc.charset != "" {
				ct += "; charset=" + tc.charset
			}
			raw := append(msg("Content-Type: "+ct+"\nContent-Transfer-Encoding: "+tc.cte, ""), tc.body...)
			m := Parse(raw, testOpts)
			if got := m.Command.String(); got != tc.want {
				t.Errorf("command %q (err %v), want %q", got, m.Err, tc.want)
			}
		})
	}
}

func TestIgnoreReasons(t *testing.T) { // EMAIL §2.3
	tests := []struct {
		headers, want string
	}{
		{"Auto-Submitted: auto-replied", mailtext.IgnoreAutoSubmitted},
		{"Auto-Submitted: auto-generated", mailtext.IgnoreAutoSubmitted},
		{"Auto-Submitted: no", ""},
		{"Auto-Submitted: No", ""},
		{"X-Autoreply: yes", mailtext.IgnoreAutoReply},
		{"X-Autorespond: yes", mailtext.IgnoreAutoReply},
		{"Precedence: bulk", mailtext.IgnorePrecedence},
		{"Precedence: junk", mailtext.IgnorePrecedence},
		{"Precedence: list", mailtext.IgnorePrecedence},
		{"Precedence: first-class", ""},
		{"List-Id: <club.example.net>", mailtext.IgnoreList},
		{"Content-Type: multipart/report; report-type=delivery-status; boundary=x", mailtext.IgnoreDeliveryReport},
		{"Content-Type: message/delivery-status", mailtext.IgnoreDeliveryReport},
		{"Return-Path: <>", mailtext.IgnoreDeliveryReport},
		{"From: MAILER-DAEMON@mx.example.net (Mail Delivery System)", mailtext.IgnoreDaemon},
		{"From: Mail Delivery Subsystem <mailer-daemon@googlemail.com>", mailtext.IgnoreDaemon},
		{"From: MAILER-DAEMON", mailtext.IgnoreDaemon},
		{"From: postmaster@example.net", mailtext.IgnoreDaemon},
		{"From: no-reply@example.com", mailtext.IgnoreNoReply},
		{"From: NoReply <noreply@example.com>", mailtext.IgnoreNoReply},
		{"From: do_not_reply@example.com", mailtext.IgnoreNoReply},
		{"From: alerts-noreply@example.com", mailtext.IgnoreNoReply},
		{"From: Lexio <LEXIO@example.org>", mailtext.IgnoreOwnAddress},
		{"From: lexio+T42@example.org", mailtext.IgnoreOwnAddress},
		{"From: lexio@other.example", ""},
		{"From: Norah <norah@example.com>", ""},
	}
	for _, tc := range tests {
		t.Run(tc.headers, func(t *testing.T) {
			m := Parse(msg(tc.headers, "PASS\n"), testOpts)
			if m.Ignored != tc.want {
				t.Errorf("Ignored = %q, want %q", m.Ignored, tc.want)
			}
			if tc.want != "" && (m.Command != nil || m.Err != nil) {
				t.Errorf("an ignored message has no command and no error: %v, %v", m.Command, m.Err)
			}
			if tc.want == "" && m.Command.String() != "PASS" {
				t.Errorf("not ignored: command %v, err %v", m.Command, m.Err)
			}
		})
	}
}

func TestToken(t *testing.T) { // EMAIL §1.2
	tests := []struct {
		name, headers string
		opt           Options
		want          string
	}{
		{"to", "To: lexio+ABC@example.org", testOpts, "ABC"},
		{"to with name", `To: "Lexio" <lexio+ABC@example.org>`, testOpts, "ABC"},
		{"case of local part", "To: LEXIO+ABC@example.org", testOpts, "ABC"},
		{"other domain", "To: lexio+ABC@mail.example.org", testOpts, "ABC"},
		{"cc", "To: bob@example.net\nCc: lexio+ABC@example.org", testOpts, "ABC"},
		{"delivered-to", "To: lexio@example.org\nDelivered-To: lexio+ABC@example.org", testOpts, "ABC"},
		{"x-original-to", "To: undisclosed-recipients:;\nX-Original-To: lexio+ABC@example.org", testOpts, "ABC"},
		{"service wins over first", "To: bob+x@example.net, lexio+ABC@example.org", testOpts, "ABC"},
		{"other plus only", "To: bob+x@example.net", testOpts, ""},
		{"no service: first plus", "To: bob@example.net, game+XYZ@example.org", Options{}, "XYZ"},
		{"none", "To: lexio@example.org", testOpts, ""},
		{"junk token", "To: lexio+a<b@example.org", testOpts, ""},
		{"subject tag", "To: lexio@example.org\nSubject: Re: [Lexio t42 ABC] Your turn", Options{ServiceAddress: testService, TokenInSubject: true}, "ABC"},
		{"subject tag without token", "To: lexio+XYZ@example.org\nSubject: Re: [Lexio t42] Your turn", Options{ServiceAddress: testService, TokenInSubject: true}, ""},
		{"subject tag ignored by default", "To: lexio+XYZ@example.org\nSubject: Re: [Lexio t42 ABC] Your turn", testOpts, "XYZ"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := Parse(msg(tc.headers, "PASS\n"), tc.opt)
			if m.Token != tc.want {
				t.Errorf("Token = %q, want %q", m.Token, tc.want)
			}
		})
	}
}

func TestSubjectFallback(t *testing.T) { // EMAIL §2.4
	// No command in the body: the subject's is taken.
	m := Parse(msg("Subject: Re: [Lexio t42] board", "Thanks!\n"), testOpts)
	if m.Command.String() != "BOARD" || m.CommandSource != "subject" {
		t.Errorf("command %v from %q, want BOARD from the subject", m.Command, m.CommandSource)
	}
	// A failed attempt in the body wins over the subject.
	m = Parse(msg("Subject: Re: PASS", "PLACE Z9 ACROSS CHAT\n"), testOpts)
	if !errors.Is(m.Err, ErrBadCell) || m.CommandSource != "body" {
		t.Errorf("err %v from %q, want a bad cell from the body", m.Err, m.CommandSource)
	}
	// A failed attempt in the subject is reported.
	m = Parse(msg("Subject: LANG de", ""), testOpts)
	if !errors.Is(m.Err, ErrBadLang) {
		t.Errorf("err %v, want bad lang", m.Err)
	}
	// Prose in the subject is no command.
	m = Parse(msg("Subject: Help me please", "hi\n"), testOpts)
	if !errors.Is(m.Err, ErrNoCommand) {
		t.Errorf("err %v, want no command", m.Err)
	}
}

// TestCommandLine: Line counts the non-blank lines the player wrote, so
// that the service can tell a command on the first line of a reply from
// one below the player's own words (EMAIL §1.7); quotes and attributions
// are not the player's lines, and the subject is no line of the body.
func TestCommandLine(t *testing.T) {
	tests := []struct {
		name, subject, body string
		line                int
		source              string
	}{
		{"first", "Re: Was it you?", "CONFIRM\n", 1, "body"},
		{"after blank lines", "Re: Was it you?", "\n  \n**\nCONFIRM\nthanks\n", 1, "body"},
		{"below a quote", "Re: Was it you?", "On Monday, lexio wrote:\n> Hello Bob,\n> CONFIRM\n\nCONFIRM\n", 1, "body"},
		{"below prose", "Re: Was it you?", "Hello Bob,\n\nA message asked me:\nCONFIRM\n", 3, "body"},
		{"an error's line", "Re: hi", "hi\nPLACE Z9 ACROSS CHAT\n", 2, "body"},
		{"in the subject", "CONFIRM", "thanks\n", 0, "subject"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := Parse(msg("Subject: "+tc.subject, tc.body), testOpts)
			if m.Line != tc.line || m.CommandSource != tc.source {
				t.Errorf("line %d from the %q, want %d from the %q (command %v, error %v)",
					m.Line, m.CommandSource, tc.line, tc.source, m.Command, m.Err)
			}
		})
	}
}

func TestHeaders(t *testing.T) {
	raw := msg(`From: =?ISO-8859-1?Q?Ren=E9e_Dupr=E9?= <Renee.Dupre@Example.FR>
To: Lexio <lexio+T1@example.org>, Bob <bob@example.net>
Cc: carol@example.net
Subject: =?UTF-8?Q?Re=3A_=5BLexio_t1=5D_=C3=A0_vous?=
Message-ID: <abc@example.fr>
In-Reply-To: <t1.turn3@lexio.example.org>
References: <t1.start@lexio.example.org>
 <t1.turn3@lexio.example.org>
Authentication-Results: mx.example.org; dkim=pass header.d=example.fr
Authentication-Results: mx.example.org; dmarc=pass header.from=example.fr`, "PASS\n")
	m := Parse(raw, testOpts)
	if m.From != "renee.dupre@example.fr" || m.FromName != "Renée Dupré" {
		t.Errorf("From %q name %q", m.From, m.FromName)
	}
	if m.Subject != "Re: [Lexio t1] à vous" || m.Table != "t1" {
		t.Errorf("Subject %q table %q", m.Subject, m.Table)
	}
	if m.MessageID != "abc@example.fr" || m.InReplyTo != "t1.turn3@lexio.example.org" ||
		len(m.References) != 2 || m.References[1] != "t1.turn3@lexio.example.org" {
		t.Errorf("ids %q %q %q", m.MessageID, m.InReplyTo, m.References)
	}
	if strings.Join(m.To, ",") != "lexio+t1@example.org,bob@example.net,carol@example.net" {
		t.Errorf("To %q", m.To)
	}
	if len(m.AuthResults) != 2 || !strings.Contains(m.AuthResults[1], "dmarc=pass") {
		t.Errorf("AuthResults %q", m.AuthResults)
	}
}

func TestParseMboxLine(t *testing.T) {
	raw := append([]byte("From alice@example.net Mon Jun  3 10:31:07 2024\r\n"), msg("Subject: x", "PASS\n")...)
	if m := Parse(raw, testOpts); m.Command.String() != "PASS" {
		t.Errorf("command %v, err %v", m.Command, m.Err)
	}
}

func BenchmarkParseGmailReply(b *testing.B) {
	raw, err := os.ReadFile(filepath.Join("testdata", "corpus", "gmail-top-posted-en.eml"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if m := Parse(raw, testOpts); m.Command == nil {
			b.Fatal(m.Err)
		}
	}
}

// BenchmarkParseLarge measures messages of about 1 MiB, the default limit:
// a long quote, HTML nested deep, and prose whose every line starts with
// a keyword (each line is parsed).
func BenchmarkParseLarge(b *testing.B) {
	fill := func(prefix, unit, suffix string) string {
		var s strings.Builder
		s.WriteString(prefix)
		for s.Len() < mailtext.DefaultMaxBytes*9/10 {
			s.WriteString(unit)
		}
		s.WriteString(suffix)
		return s.String()
	}
	cases := []struct {
		name string
		raw  []byte
	}{
		{"quote", largeMessage()},
		{"html", msg("Content-Type: text/html", fill("", "<div><span>Play nice</span>", "<p>PASS</p>"))},
		{"keyword prose", msg("Subject: x", fill("", "Play nice and help everyone\n", "PASS\n"))},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(tc.raw)))
			b.ReportAllocs()
			for b.Loop() {
				if m := Parse(tc.raw, testOpts); m.Command == nil {
					b.Fatal(m.Err)
				}
			}
		})
	}
}

func BenchmarkParseCommand(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseCommand("Poser 7H bas C(HA)[T]é"); err != nil {
			b.Fatal(err)
		}
	}
}

// TestOneFrom: a message must name one sender. Two From fields, a list or
// a group are an AmbiguousFrom error with no From: answering or playing
// the first address would let a sender act as whoever he names.
func TestOneFrom(t *testing.T) {
	tests := []struct {
		name, headers string
		want          string // From, or "" for an AmbiguousFrom error
		detail        string
	}{
		{"two From fields", "From: Alice <alice@example.net>\nFrom: eve@example.com", "", "2 From fields: alice@example.net, eve@example.com"},
		{"the same From twice", "From: alice@example.net\nFrom: alice@example.net", "", "2 From fields"},
		{"a list", "From: alice@example.net, Eve <eve@example.com>", "", "2 addresses: alice@example.net, eve@example.com"},
		{"a list the strict parser refuses", "From: alice@example.net, Eve, Smith <eve@example.com>", "", "2 addresses"},
		{"a group", "From: Friends: alice@example.net, eve@example.com;", "", "a group: alice@example.net, eve@example.com"},
		{"a group of one", "From: Friends: alice@example.net;", "", "a group: alice@example.net"},
		{"an empty group", "From: undisclosed-recipients:;", "", "a group"},
		{"a colon in a quoted name", `From: "Smith, Alice: home" <alice@example.net>`, "alice@example.net", ""},
		{"a colon in a comment", "From: alice@example.net (Alice: at home)", "alice@example.net", ""},
		{"an encoded name", "From: =?utf-8?q?Ren=C3=A9e?= <Renee@Example.FR>", "renee@example.fr", ""},
		{"a colon in an encoded name", "From: =?utf-8?q?Dr.:_Ren=C3=A9e?= <renee@example.fr>", "renee@example.fr", ""},
		{"a group named by an encoded word", "From: =?utf-8?q?Amis?=: renee@example.fr, eve@example.com;", "", "a group"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := Parse(msg(tc.headers, "PASS\n"), testOpts)
			if tc.want != "" {
				if m.From != tc.want || m.Err != nil || m.Command.String() != "PASS" {
					t.Errorf("From %q, err %v, command %v: want %q and PASS", m.From, m.Err, m.Command, tc.want)
				}
				return
			}
			if !errors.Is(m.Err, ErrAmbiguousFrom) || m.From != "" || m.Command != nil {
				t.Fatalf("From %q, err %v, command %v: want an ambiguous From and no sender", m.From, m.Err, m.Command)
			}
			if !strings.Contains(m.Err.Error(), tc.detail) {
				t.Errorf("error %q, want it to hold %q", m.Err, tc.detail)
			}
			if s := m.Summary(); s.ErrorKind != "ambiguous_from" || s.From != "" || s.Command != "" {
				t.Errorf("summary %+v, want error kind ambiguous_from and no from", s)
			}
		})
	}
	// A message that must be ignored stays ignored (EMAIL §2.3).
	m := Parse(msg("From: MAILER-DAEMON@mx.example.net, bob@example.net", "PASS\n"), testOpts)
	if m.Ignored != mailtext.IgnoreDaemon || m.Err != nil {
		t.Errorf("a daemon among two From addresses: ignored %q, err %v", m.Ignored, m.Err)
	}
}

// TestAuthResultsOrder: Authentication-Results are kept as written,
// topmost first, which require_auth depends on (RFC 8601 §5).
func TestAuthResultsOrder(t *testing.T) {
	m := Parse(msg("Authentication-Results: mx.example.org; dkim=none\n"+
		"Received: from mail.example.net by mx.example.org\n"+
		"Authentication-Results: mx.example.org; dkim=pass header.d=example.net\n"+
		"Authentication-Results: other.example; dmarc=pass header.from=example.net", "PASS\n"), testOpts)
	want := []string{"mx.example.org; dkim=none", "mx.example.org; dkim=pass header.d=example.net", "other.example; dmarc=pass header.from=example.net"}
	if strings.Join(m.AuthResults, "|") != strings.Join(want, "|") {
		t.Errorf("AuthResults %q, want %q", m.AuthResults, want)
	}
}
