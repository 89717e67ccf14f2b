package templates

import (
	htmltemplate "html/template"
	"strings"
	"testing"
)

// The rows drawn in Go must escape text as html/template does between
// tags, or a name would read differently in the scores than elsewhere.
func TestEscapeText(t *testing.T) {
	tmpl := htmltemplate.Must(htmltemplate.New("x").Parse(`<td>{{.}}</td>`))
	for _, s := range []string{"", "Chloé", `O'Brien & "Co" <b>`, "a+b=c", "nul\x00byte", "tab\there\nline", "€ ✓ 名前"} {
		var b strings.Builder
		if err := tmpl.Execute(&b, s); err != nil {
			t.Fatal(err)
		}
		want := strings.TrimSuffix(strings.TrimPrefix(b.String(), "<td>"), "</td>")
		if got := escapeText(s); got != want {
			t.Errorf("escapeText(%q) = %q, html/template %q", s, got, want)
		}
	}
}

// A player whose name needs escaping reads the same in the scores table
// as in the greeting, both formats.
func TestScoresEscapeNames(t *testing.T) {
	s := newSet(t)
	d := sampleNotice("Alice", "QUARTZ?")
	d.State.Players[0].Name = `Al<i>ce & "Bob"+1`
	d.Head.To = d.State.Players[0].Name
	out, err := s.Render("en", TurnNotice, d)
	if err != nil {
		t.Fatal(err)
	}
	esc := `Al&lt;i&gt;ce &amp; &#34;Bob&#34;&#43;1`
	if n := strings.Count(out.HTML, esc); n < 2 {
		t.Errorf("the escaped name appears %d times in the HTML, want the greeting and the scores:\n%s", n, out.HTML)
	}
	if strings.Contains(out.HTML, "<i>") {
		t.Error("a name's markup reached the HTML unescaped")
	}
	if !strings.Contains(out.Text, `Al<i>ce & "Bob"+1 (you)`) {
		t.Errorf("the text scores lack the raw name:\n%s", out.Text)
	}
}
