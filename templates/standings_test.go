package templates

import (
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// standingsTable finds the standings' table in a mail: the one whose
// first row heads its first column "#". Nil when there is none.
func standingsTable(t *testing.T, doc string) *html.Node {
	t.Helper()
	root, err := html.Parse(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	var found *html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "table" {
			if rows := rowsOf(n); len(rows) > 0 {
				if cells := cellNodes(rows[0]); len(cells) > 0 && cells[0].Data == "th" && nodeText(cells[0]) == "#" {
					if found != nil {
						t.Error("two standings tables")
					}
					found = n
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	return found
}

func cellNodes(tr *html.Node) []*html.Node {
	var out []*html.Node
	for c := tr.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && (c.Data == "td" || c.Data == "th") {
			out = append(out, c)
		}
	}
	return out
}

func nodeText(n *html.Node) string {
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		switch {
		case n.Type == html.TextNode:
			b.WriteString(n.Data)
		case n.Type == html.ElementNode && n.Data == "br":
			b.WriteString(" ")
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return strings.Join(strings.Fields(b.String()), " ")
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// TestStandingsTable: the standings (LEAGUES §9.1) are a table with a
// header row and one row per line, in rank order, each with the line's
// figures; the recipient's row alone is in bold and says so; the rating
// column is there only when the league rates its games. The text part
// has a line per player in the same order, the recipient's marked. The
// same holds in the game-over mail of a league table, and a game-over
// mail without standings has no such table.
func TestStandingsTable(t *testing.T) {
	t.Parallel()
	s := newSet(t)
	you := map[string]string{"en": "(you)", "es": "(tú)", "fr": "(vous)"}
	for _, lang := range Langs() {
		for _, rated := range []bool{true, false} {
			st := sampleStandings()
			st.Rated = rated
			msgs := map[string]Mail{
				"standings": StandingsMsg{Head: Head{To: "Bob", Now: sampleNow, TZ: sampleTZ}, Standings: st},
				"game-over": func() GameOverMsg { g := sample(GameOver).(GameOverMsg); g.Standings = &st; return g }(),
			}
			for name, m := range msgs {
				t.Run(lang+"/"+name+"/rated="+strconv.FormatBool(rated), func(t *testing.T) {
					r, err := s.Render(lang, m)
					if err != nil {
						t.Fatal(err)
					}
					checkStandingsHTML(t, r.HTML, st, you[lang])
					checkStandingsText(t, r.Text, st, you[lang])
				})
			}
		}
		r, err := s.Render(lang, sample(GameOver))
		if err != nil {
			t.Fatal(err)
		}
		if standingsTable(t, r.HTML) != nil {
			t.Errorf("%s: a game-over mail without standings shows a standings table", lang)
		}
	}
}

func checkStandingsHTML(t *testing.T, doc string, st Standings, you string) {
	t.Helper()
	tb := standingsTable(t, doc)
	if tb == nil {
		t.Fatal("no standings table")
	}
	rows := rowsOf(tb)
	if len(rows) != len(st.Lines)+1 {
		t.Fatalf("%d rows, want a header and %d lines", len(rows), len(st.Lines))
	}
	cols := 7
	if st.Rated {
		cols = 8
	}
	if head := cellNodes(rows[0]); len(head) != cols {
		t.Errorf("header has %d cells, want %d (rated %v)", len(head), cols, st.Rated)
	}
	for i, l := range st.Lines {
		cells := cellNodes(rows[i+1])
		if len(cells) != cols {
			t.Fatalf("row %d has %d cells, want %d", i+1, len(cells), cols)
		}
		wantName := l.Name
		if l.You {
			wantName += " " + you
		}
		want := []string{strconv.Itoa(l.Rank), wantName, strconv.Itoa(l.Played),
			strconv.Itoa(l.Won) + "-" + strconv.Itoa(l.Tied) + "-" + strconv.Itoa(l.Lost),
			strconv.Itoa(l.Points), spreadText(l.Spread), strconv.Itoa(l.PointsFor)}
		if st.Rated {
			want = append(want, strconv.Itoa(int(l.Rating+0.5))+" ±"+strconv.Itoa(int(l.RD+0.5)))
		}
		for j, w := range want {
			if got := nodeText(cells[j]); got != w {
				t.Errorf("row %d, cell %d: %q, want %q", i+1, j+1, got, w)
			}
		}
		bold := strings.Contains(attr(rows[i+1], "style"), "font-weight:bold")
		if bold != l.You {
			t.Errorf("row %d (%s): bold %v, want %v", i+1, l.Name, bold, l.You)
		}
	}
}

func spreadText(n int) string {
	if n > 0 {
		return "+" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

func checkStandingsText(t *testing.T, text string, st Standings, you string) {
	t.Helper()
	lines := strings.Split(text, "\n")
	at := 0
	for _, l := range st.Lines {
		found := false
		for ; at < len(lines); at++ {
			f := strings.Fields(lines[at])
			if len(f) > 1 && f[0] == strconv.Itoa(l.Rank) && strings.HasPrefix(strings.TrimSpace(lines[at])[len(f[0]):], "  "+l.Name) {
				found = true
				break
			}
		}
		if !found {
			t.Fatalf("no line for %d. %s after the previous one in:\n%s", l.Rank, l.Name, text)
		}
		line := lines[at]
		if strings.Contains(line, you) != l.You {
			t.Errorf("line %q: marked %v, want %v", line, !l.You, l.You)
		}
		if strings.Contains(line, "±") != st.Rated {
			t.Errorf("line %q: rating shown %v, want %v", line, !st.Rated, st.Rated)
		}
		if !strings.Contains(line, " "+spreadText(l.Spread)+" ") {
			t.Errorf("line %q: no spread %s", line, spreadText(l.Spread))
		}
	}
}
