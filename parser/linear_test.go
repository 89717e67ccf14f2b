package parser

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/parser/mailtext"
)

// repeatTo repeats unit after prefix until the text is about n bytes long
// once msg has turned its line ends into CRLF, then adds suffix.
func repeatTo(n int, prefix, unit, suffix string) string {
	crlf := func(s string) int { return len(s) + strings.Count(s, "\n") }
	var b strings.Builder
	b.WriteString(prefix)
	for size := crlf(prefix) + crlf(suffix); size+crlf(unit) <= n; size += crlf(unit) {
		b.WriteString(unit)
	}
	b.WriteString(suffix)
	return b.String()
}

// hostileShape builds one hostile message of about n bytes.
type hostileShape struct {
	name  string
	build func(n int) []byte
	// perByte, when set, replaces TestParseAllocLinear's bound of 32
	// bytes allocated a byte of the message.
	perByte int
	// full: TestParseAllocLinear reads the shape at 1 MiB, not 256 KiB.
	full bool
}

func htmlShape(name, prefix, unit, suffix string) hostileShape {
	return hostileShape{name: name, build: func(n int) []byte {
		return msg("Content-Type: text/html; charset=utf-8", repeatTo(n-200, prefix, unit, suffix))
	}}
}

func plainShape(name, prefix, unit, suffix string) hostileShape {
	return hostileShape{name: name, build: func(n int) []byte {
		return msg("Subject: x", repeatTo(n-200, prefix, unit, suffix))
	}}
}

// headerShape puts the repeated units in one header field, within the
// header limit.
func headerShape(name, field, unit string) hostileShape {
	return hostileShape{name: name, build: func(n int) []byte {
		n = min(n, mailtext.MaxHeaderBytes-1024)
		return msg(repeatTo(n, field+": ", unit, ""), "Hello\n")
	}}
}

// blockquoteBomb is an HTML-only body of nested <blockquote>s, each
// with a line of text: without a cap on quote depth its text grows with
// the square of its size.
func blockquoteBomb(n int) []byte {
	return msg("Content-Type: text/html; charset=utf-8", repeatTo(n-200, "<html><body>", "<blockquote>PASS\n", "</body></html>"))
}

func fullSize(s hostileShape) hostileShape {
	s.full = true
	return s
}

var hostileShapes = []hostileShape{
	{name: "blockquote bomb", build: blockquoteBomb, full: true},
	fullSize(htmlShape("gmail quote divs", "", `<div class="gmail_quote">Play nice `, "")),
	fullSize(htmlShape("nested tables", "", "<table><tr><td>a", "")),
	fullSize(htmlShape("nested lists", "", "<ul><li>a<ol><li>b", "")),
	fullSize(htmlShape("unclosed tags", "", "<b><i><span><font><div>", "PASS")),
	fullSize(htmlShape("huge attribute", `<div class="`, "gmail_quot ", `">PASS</div>`)),
	htmlShape("many attributes", "<div", ` id=gmail_quot class="x"`, ">PASS</div>"),
	htmlShape("many short attributes", "<div", " a", ">PASS</div>"),
	htmlShape("many short tags", "", "<a>", "PASS"),
	htmlShape("deep pre", strings.Repeat("<blockquote>", 20)+"<pre>", "a\n", "</pre>"),
	htmlShape("line breaks", "PASS", "a<br><br>", ""),
	htmlShape("unclosed script", "PASS<script>", "<blockquote>x", ""),
	htmlShape("entities", "PASS<p>", "&nGt;&NotEqualTilde;&amp;", ""),
	plainShape("short lines", "", "a\n", "PASS\n"),
	plainShape("blank lines", "PASS\n", "\n \n", ""),
	plainShape("header block lookalikes", "", "From: x\n\n\n\n", "PASS\n"),
	plainShape("attributions", "", "On Monday Bob wrote:\n\n> x\n", "PASS\n"),
	plainShape("keyword prose", "", "Play nice and help everyone\n", "PASS\n"),
	{name: "invitations", build: func(n int) []byte { // NEW a1@b.c a2@b.c …: each compared with the others
		var b strings.Builder
		b.WriteString("NEW")
		for i := 0; b.Len() < n-300; i++ {
			fmt.Fprintf(&b, " a%d@b.c", i)
		}
		return msg("Subject: x", b.String()+"\nPASS\n")
	}},
	{name: "flowed quotes", build: func(n int) []byte {
		return msg("Content-Type: text/plain; format=flowed", repeatTo(n-200, "", ">>>>>>>>>>>>>>>>>>>> x \n", "\nPASS\n"))
	}},
	headerShape("subject tags", "Subject", "[lexio ]"),
	headerShape("encoded word starts", "From", "=?a"),
	headerShape("encoded words", "Subject", "=?utf-8?q?=C3=A9?= "),
	headerShape("folded subject", "Subject", "[lexio x]\n "),
	// To and Cc are read twice, for the recipients and for the token; the
	// header is at most mailtext.MaxHeaderBytes.
	{name: "many recipients", build: headerShape("", "To", "a@b.c, ").build, perByte: 64},
	headerShape("references", "References", "<a@b> "),
}

// TestParseAllocLinear parses each hostile shape at 64 KiB and at 1 MiB
// (the shapes not marked full at 256 KiB, to save time; a header is at
// most mailtext.MaxHeaderBytes)
// and bounds what Parse allocates: 32 bytes a byte of the message, plus
// 512 bytes a line of its text (the command search reads every line and
// tries most as a command). Issue 25's blockquote bomb allocated 1000
// times its 64 KiB and gigabytes at 175 KB; a subject of many tags 4000
// times. The time is bounded by BenchmarkParseHostile.
func TestParseAllocLinear(t *testing.T) {
	const perLine = 512
	for _, shape := range hostileShapes {
		perByte := 32
		if shape.perByte > 0 {
			perByte = shape.perByte
		}
		big := 256 << 10
		if shape.full {
			big = mailtext.DefaultMaxBytes - 1024
		}
		for _, n := range []int{64 << 10, big} {
			raw := shape.build(n)
			ok := t.Run(fmt.Sprintf("%s/%d", shape.name, n), func(t *testing.T) {
				var m *Message
				alloc := allocated(func() { m = Parse(raw, testOpts) })
				if errors.Is(m.Err, ErrTooLarge) || errors.Is(m.Err, ErrHeaderTooLarge) {
					t.Fatalf("%d bytes: %v", len(raw), m.Err)
				}
				lines := textLines(raw)
				if bound := uint64(perByte*len(raw) + perLine*lines); alloc > bound {
					t.Errorf("%d bytes allocated for a message of %d bytes and %d lines of text: over %d (%.0f× the message)",
						alloc, len(raw), lines, bound, float64(alloc)/float64(len(raw)))
				}
			})
			if !ok {
				break // the larger size would take too long
			}
		}
	}
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// BenchmarkParseHostile parses each hostile shape at 1 MiB. It fails when
// a message takes more than 10 µs a byte (10 s for 1 MiB, leaving room
// for a loaded machine), far above what each shape takes.
func BenchmarkParseHostile(b *testing.B) {
	for _, shape := range hostileShapes {
		raw := shape.build(mailtext.DefaultMaxBytes - 1024)
		b.Run(shape.name, func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			b.ReportAllocs()
			for b.Loop() {
				Parse(raw, testOpts)
			}
			if perByte := b.Elapsed().Nanoseconds() / int64(b.N) / int64(len(raw)); perByte > 10000 {
				b.Fatalf("%d ns a byte, want under 10000", perByte)
			}
		})
	}
}

// textLines counts the lines of the text the command search reads in raw.
func textLines(raw []byte) int {
	m, _ := mailtext.Read(raw, testOpts)
	return strings.Count(m.Text, "\n")
}

// TestLongCommandLine: a line is read as a command up to maxCommandLine
// bytes; a SAY that long is still too long.
func TestLongCommandLine(t *testing.T) {
	c, err, _ := findCommand([]string{"SAY " + strings.Repeat("é", 10<<10)})
	if c != nil || !errors.Is(err, ErrTextTooLong) {
		t.Errorf("long SAY: %v, %v; want text too long", c, err)
	}
	c, err, _ = findCommand([]string{"PASS" + strings.Repeat(" ", 10<<10), "BOARD"})
	if err != nil || c == nil || c.Kind != KindPass {
		t.Errorf("PASS and spaces: %v, %v", c, err)
	}
}
