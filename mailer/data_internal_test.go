package mailer

import (
	"bufio"
	"bytes"
	"net/textproto"
	"testing"
)

// TestWriteDataMatchesDotWriter: the direct path writes what textproto's
// dot writer writes, for every kind of line start and ending.
func TestWriteDataMatchesDotWriter(t *testing.T) {
	for _, raw := range []string{
		"Subject: x\r\n\r\nbody\r\n",
		".starts with a dot\r\nnext\r\n",
		"a\r\n.\r\n..two\r\n.end\r\n",
		"last line is a dot\r\n.\r\n",
		"\r\n",
		"bare\nLF\r\n",       // through the dot writer
		"no final CRLF",      // through the dot writer
		"mixed\r\n.a\nb\r\n", // through the dot writer
	} {
		var want bytes.Buffer
		tw := textproto.NewWriter(bufio.NewWriter(&want))
		dw := tw.DotWriter()
		if _, err := dw.Write([]byte(raw)); err != nil {
			t.Fatal(err)
		}
		if err := dw.Close(); err != nil {
			t.Fatal(err)
		}

		var got bytes.Buffer
		gw := textproto.NewWriter(bufio.NewWriter(&got))
		dot := gw.DotWriter()
		if err := writeData(gw.W, dot, []byte(raw)); err != nil {
			t.Fatal(err)
		}
		if err := dot.Close(); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%q:\n got %q\nwant %q", raw, got.String(), want.String())
		}
	}
}
