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
			for kind, data := range map[Kind]any{TurnNotice: notice, GameOver: over} {
				r, err := s.Render(lang, kind, data)
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
