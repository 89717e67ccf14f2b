package templates

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
)

// emptySign is what the text board draws on an empty cell of each kind.
var emptySign = map[CellKind]string{
	Plain: ".", Wall: "#", Fountain: "*", TW: "=", DW: "-", TL: `"`, DL: "'", Cross: "+",
}

// randomBoard is the board's layout with about a third of its playable
// cells holding a random tile, one in five a blank, one in ten of the
// last move.
func randomBoard(rng *rand.Rand) Board {
	var b Board
	layout(&b)
	for r := range Size {
		for c := range Size {
			cell := &b.Cells[r][c]
			if cell.Kind == Wall || rng.IntN(3) != 0 {
				continue
			}
			cell.Letter = byte('A' + rng.IntN(26))
			cell.Blank = rng.IntN(5) == 0
			cell.Last = rng.IntN(10) == 0
		}
	}
	return b
}

// readGrid parses the text board that follows header in text: Size rows,
// each its number then three columns a cell, as part.board draws them.
// It returns each cell's three columns.
func readGrid(t *testing.T, text, header string) [Size][Size]string {
	t.Helper()
	_, rest, ok := strings.Cut(text, header)
	if !ok {
		t.Fatalf("no %q in:\n%s", header, text)
	}
	lines := strings.Split(rest, "\n")
	if len(lines) < Size+2 {
		t.Fatalf("board cut short:\n%s", rest)
	}
	var out [Size][Size]string
	for r := range Size {
		line := []rune(lines[r+1]) // lines[0] is the column letters
		line = append(line, []rune(strings.Repeat(" ", 4+3*Size))...)
		for c := range Size {
			out[r][c] = string(line[4+3*c : 7+3*c])
		}
	}
	return out
}

// TestTextBoardLettersAreTheTiles: in the text board of a notice and of
// the game-over mail, in every language, every letter is exactly the tile
// on its cell (uppercase, lowercase for a blank, in brackets for the last
// move), and an empty cell shows its kind's sign, never a letter.
func TestTextBoardLettersAreTheTiles(t *testing.T) {
	t.Parallel()
	s := newSet(t)
	rng := rand.New(rand.NewPCG(13, 2026))
	headers := map[string]string{"en": "== The board ==\n\n", "es": "== El tablero ==\n\n", "fr": "== Le plateau ==\n\n"}
	for round := range 20 {
		b := randomBoard(rng)
		notice := sampleNotice("Bob", "QUARTZ?")
		notice.Board = b
		over := sample(GameOver).(GameOverMsg)
		over.Board = b
		for _, lang := range Langs() {
			for _, data := range []Mail{notice, over} {
				kind := KindOf(data)
				r, err := s.Render(lang, data)
				if err != nil {
					t.Fatal(err)
				}
				grid := readGrid(t, r.Text, headers[lang])
				for row := range Size {
					for col := range Size {
						cell, got := b.Cells[row][col], grid[row][col]
						want := " " + emptySign[cell.Kind] + " "
						if cell.Letter != 0 {
							l := string(rune(cell.Letter))
							if cell.Blank {
								l = strings.ToLower(l)
							}
							want = " " + l + " "
							if cell.Last {
								want = "[" + l + "]"
							}
						} else if strings.ContainsFunc(got, unicode.IsLetter) {
							t.Errorf("round %d %s %s: a letter %q on the empty %s cell %s", round, lang, kind, got, cell.Kind, Pos{Row: row, Col: col})
							continue
						}
						if got != want {
							t.Errorf("round %d %s %s: cell %s shows %q, want %q", round, lang, kind, Pos{Row: row, Col: col}, got, want)
						}
					}
				}
			}
		}
	}
}

// tableAfter is the block of lines that follows the line heading in text,
// up to the first blank line, with the blank line after the heading
// skipped.
func tableAfter(t *testing.T, text, heading string) []string {
	t.Helper()
	_, rest, ok := strings.Cut(text, heading+"\n")
	if !ok {
		t.Fatalf("no %q in:\n%s", heading, text)
	}
	rest = strings.TrimPrefix(rest, "\n")
	block, _, _ := strings.Cut(rest, "\n\n")
	return strings.Split(block, "\n")
}

// checkColumns fails unless every line of a table is as wide as the
// first, in columns of a monospaced font (right-aligned numbers end
// every row), once trim is cut off its end.
func checkColumns(t *testing.T, what string, lines []string, trim string) {
	t.Helper()
	if len(lines) < 2 {
		t.Fatalf("%s: not a table: %q", what, lines)
	}
	want := textWidth(strings.TrimSuffix(lines[0], trim))
	for _, l := range lines[1:] {
		if got := textWidth(strings.TrimSuffix(l, trim)); got != want {
			t.Errorf("%s: %q is %d columns wide, the table %d:\n%s", what, l, got, want, strings.Join(lines, "\n"))
		}
	}
}

// TestTextColumnsLineUp: the text tables (words of a move, scores, final
// scores, revealed racks) keep their columns with accented names and
// labels, long ones, and accents written as combining marks.
func TestTextColumnsLineUp(t *testing.T) {
	t.Parallel()
	s := newSet(t)
	names := []string{"Éléonore", "Chloe\u0301 Ñúñez-Garçon", "François-Xavier de La Fontaine"}
	heads := map[string][3]string{ // h.scores, h.final, h.revealed
		"en": {"== Scores ==", "== Final scores ==", "== Racks revealed =="},
		"es": {"== Puntuaciones ==", "== Puntuaciones finales ==", "== Atriles descubiertos =="},
		"fr": {"== Scores ==", "== Scores finaux ==", "== Chevalets dévoilés =="},
	}
	words := []Word{{"QUARTZ", 40}, {"ZÉ", 11}, {"CHLOÉ", 9}}
	for _, lang := range Langs() {
		move := LogLine{Turn: 5, Kind: LogPlace, Player: names[0], Pos: pos("D9"), Words: words, Score: 90, Bonus: 30}
		acc := AcceptedMsg{Head: sampleHead(names[0]), Move: move, Total: 98, Rack: sampleRack("ARTZ?NE")}
		r, err := s.Render(lang, acc)
		if err != nil {
			t.Fatal(err)
		}
		// The words table follows the intro line.
		_, rest, _ := strings.Cut(r.Text, "\n\n   QUARTZ")
		block, _, _ := strings.Cut("   QUARTZ"+rest, "\n\n")
		checkColumns(t, lang+" accepted words", strings.Split(block, "\n"), "")

		pre := PreviewMsg{Head: sampleHead(names[0]), Command: "PREVIEW D9 ACROSS QUARTZ", Words: words, Bonus: 30, Score: 90}
		if r, err = s.Render(lang, pre); err != nil {
			t.Fatal(err)
		}
		_, rest, _ = strings.Cut(r.Text, "\n\n   QUARTZ")
		block, _, _ = strings.Cut("   QUARTZ"+rest, "\n\n")
		checkColumns(t, lang+" preview words", strings.Split(block, "\n"), "")

		n := sampleNotice(names[1], "QUARTZ?")
		for i := range n.State.Players {
			n.State.Players[i].Name = names[i%len(names)]
			n.State.Players[i].You = i == 1
		}
		if r, err = s.Render(lang, n); err != nil {
			t.Fatal(err)
		}
		away, err := execute(s.langs[lang].subject, "away", nil)
		if err != nil {
			t.Fatal(err)
		}
		checkColumns(t, lang+" scores", tableAfter(t, r.Text, heads[lang][0]), "  ("+away+")")

		g := sample(GameOver).(GameOverMsg)
		for i := range g.Final {
			g.Final[i].Name = names[i%len(names)]
		}
		for i := range g.Revealed {
			g.Revealed[i].Player = names[i%len(names)]
			g.Revealed[i].Tiles = sampleRack("EE")
		}
		if r, err = s.Render(lang, g); err != nil {
			t.Fatal(err)
		}
		checkColumns(t, lang+" final scores", tableAfter(t, r.Text, heads[lang][1]), "")
		checkColumns(t, lang+" revealed racks", tableAfter(t, r.Text, heads[lang][2]), "")
	}
}

// TestElide: French drops the e of "de" and "que" before a vowel,
// accented or not, and before Y then a consonant; not before a consonant,
// an H, or a Y then a vowel.
func TestElide(t *testing.T) {
	for _, c := range []struct{ word, name, want string }{
		{"de", "Alice", "d’Alice"},
		{"de", "Élodie", "d’Élodie"},
		{"de", "E\u0301lodie", "d’E\u0301lodie"},
		{"de", "ursula", "d’ursula"},
		{"de", "Yves", "d’Yves"},
		{"de", "Yann", "de Yann"},
		{"de", "Bob", "de Bob"},
		{"de", "Hélène", "de Hélène"},
		{"de", "Øystein", "de Øystein"},
		{"de", "", "de "},
		{"que", "Omar", "qu’Omar"},
		{"à", "Alice", "à Alice"},
	} {
		if got := elide(c.word, c.name); got != c.want {
			t.Errorf("elide(%q, %q) = %q, want %q", c.word, c.name, got, c.want)
		}
	}
	s := newSet(t)
	n := sampleNotice("Bob", "QUARTZ?")
	for i := range n.State.Players {
		n.State.Players[i].Name, n.State.Players[i].ToMove, n.State.Players[i].You = "Éric", i == 0, false
	}
	r, err := s.Render("fr", n)
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{r.Subject, r.Text} {
		if !strings.Contains(part, "Au tour d’Éric") && !strings.Contains(part, "au tour d’Éric") {
			t.Errorf("no \"au tour d’Éric\" in %q", part)
		}
	}
}
