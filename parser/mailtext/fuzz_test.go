package mailtext

import "testing"

// FuzzHTMLToText checks the bound of htmlToText on arbitrary HTML: its
// text is never longer than the HTML, nor than maxText.
func FuzzHTMLToText(f *testing.F) {
	f.Add(repeatTo(16<<10, "<html><body>", "<blockquote>PASS\n", "</body></html>"))
	f.Add(`<div class="gmail_quote"><div class="gmail_quote"><pre>a` + "\n" + `b</pre><br><br>&nGt;`)
	f.Add("<table><tr><td><ul><li>PASS<b><i>x<script>y")
	f.Add(`<p>PLACE&nbsp;H7 ACROSS CH&#65;T</p><blockquote>BOARD</blockquote>after`)
	f.Fuzz(func(t *testing.T, s string) {
		if text := htmlToText(s); len(text) > len(s) || len(text) > maxText {
			t.Fatalf("%d bytes of text from %d bytes of HTML", len(text), len(s))
		}
	})
}
