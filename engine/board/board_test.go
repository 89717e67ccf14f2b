package board

import (
	"encoding/json"
	"testing"
)

func TestLayoutTable(t *testing.T) {
	// RULES §2.2–2.4: the table of bonus cells.
	want := map[Bonus]string{
		TW:           "D1 J1 A4 M4 A10 M10 D13 J13",
		DW:           "C2 K2 B3 L3 B11 L11 C12 K12",
		TL:           "F2 H2 B6 L6 B8 L8 F12 H12",
		DL:           "F4 H4 D6 J6 D8 J8 F10 H10",
		Cross:        "F6 H6 F8 H8",
		FountainCell: "G7",
		Wall:         "A1 B1 A2 B2 L1 M1 L2 M2 A12 B12 A13 B13 L12 M12 L13 M13",
	}
	got := map[Bonus][]Cell{}
	for r := range Size {
		for c := range Size {
			cl := Cell{Col: c, Row: r}
			got[Layout(cl)] = append(got[Layout(cl)], cl)
		}
	}
	for k, cells := range want {
		wantSet := map[string]bool{}
		for _, s := range splitFields(cells) {
			wantSet[cell(t, s).String()] = true
		}
		if len(got[k]) != len(wantSet) {
			t.Errorf("%v: %d cells (%s), want %d (%s)", k, len(got[k]), cellList(got[k]), len(wantSet), cells)
		}
		for _, c := range got[k] {
			if !wantSet[c.String()] {
				t.Errorf("%v on %v, not in the table", k, c)
			}
		}
	}
}

func splitFields(s string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ' ' {
			if start >= 0 {
				out = append(out, s[start:i])
			}
			start = -1
		} else if start < 0 {
			start = i
		}
	}
	return out
}

func TestLayoutInvariants(t *testing.T) {
	// RULES §2.2, §2.4: the invariants the layout must keep.
	neighbours := func(c Cell) []Cell {
		return []Cell{c.Next(Across, -1), c.Next(Across, 1), c.Next(Down, -1), c.Next(Down, 1)}
	}
	playable, bonuses := 0, 0
	for r := range Size {
		for col := range Size {
			c := Cell{Col: col, Row: r}
			k := Layout(c)
			if k != Wall {
				playable++
			}
			// 8-fold symmetry: mirrors and the transpose.
			for _, m := range []Cell{{Size - 1 - col, r}, {col, Size - 1 - r}, {r, col}} {
				if Layout(m) != k {
					t.Errorf("%v is %v but its mirror %v is %v", c, k, m, Layout(m))
				}
			}
			isBonus := k.IsWord() || k.IsLetter() || k == Cross
			if !isBonus {
				continue
			}
			bonuses++
			if r == 6 || col == 6 {
				t.Errorf("bonus %v on %v: row 7 and column G hold none", k, c)
			}
			edge := false
			for _, n := range neighbours(c) {
				if Layout(n) == Wall { // off the board counts as the edge
					edge = true
				}
				nk := Layout(n)
				if nk.IsWord() || nk.IsLetter() || nk == Cross {
					t.Errorf("bonus cells %v and %v share a side", c, n)
				}
			}
			if k.IsWord() != edge {
				t.Errorf("%v on %v: touches edge or wall = %v", k, c, edge)
			}
		}
	}
	if playable != 153 {
		t.Errorf("%d playable cells, want 153", playable)
	}
	if bonuses != 36 {
		t.Errorf("%d bonus cells, want 36", bonuses)
	}
	if Layout(Fountain()) != FountainCell || Fountain().String() != "G7" {
		t.Errorf("fountain %v is %v", Fountain(), Layout(Fountain()))
	}
}

func TestRulesBonus(t *testing.T) {
	// RULES §12: crosses are plain in lexico; plain lexico has no bonus.
	for _, tc := range []struct {
		r    Rules
		cell string
		want Bonus
	}{
		{Rules{}, "F6", Cross},
		{Rules{Variant: Lexico}, "F6", NoBonus},
		{Rules{Variant: Lexico}, "D1", TW},
		{Rules{Variant: Lexico, Plain: true}, "D1", NoBonus},
		{Rules{Variant: Lexico, Plain: true}, "A1", Wall},
		{Rules{Variant: Lexico, Plain: true}, "G7", FountainCell},
	} {
		if got := tc.r.Bonus(cell(t, tc.cell)); got != tc.want {
			t.Errorf("%+v %s: %v, want %v", tc.r, tc.cell, got, tc.want)
		}
	}
}

func TestParseCell(t *testing.T) {
	// RULES §2.1: column then row; 7G accepted.
	for _, tc := range []struct {
		in   string
		want Cell
		ok   bool
	}{
		{"G7", Cell{6, 6}, true},
		{"7G", Cell{6, 6}, true},
		{"g7", Cell{6, 6}, true},
		{"A1", Cell{0, 0}, true},
		{"M13", Cell{12, 12}, true},
		{"13M", Cell{12, 12}, true},
		{" h8 ", Cell{7, 7}, true},
		{"N1", Cell{}, false},
		{"A14", Cell{}, false},
		{"A0", Cell{}, false},
		{"7", Cell{}, false},
		{"GG", Cell{}, false},
		{"G7G", Cell{}, false},
		{"", Cell{}, false},
	} {
		got, err := ParseCell(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseCell(%q) = %v, %v; want %v ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
		if tc.ok && got.String() != normCell(tc.in) {
			t.Errorf("%q prints %q", tc.in, got.String())
		}
	}
}

func normCell(s string) string {
	c, _ := ParseCell(s)
	return string(rune('A'+c.Col)) + itoa(c.Row+1)
}

func itoa(n int) string {
	if n >= 10 {
		return string(rune('0'+n/10)) + string(rune('0'+n%10))
	}
	return string(rune('0' + n))
}

func TestBoardJSON(t *testing.T) {
	b := boardWith(t, "D7 across CHaT", "E5 down OS")
	data, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	var back Board
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back != *b {
		t.Fatalf("round trip changed the board:\n%s\n%s", b, &back)
	}
	if got := b.Rows()[6]; got != "...CHaT......" {
		t.Errorf("row 7 %q", got)
	}
	if got := b.Rows()[0]; got != "##.........##" {
		t.Errorf("row 1 %q", got)
	}
}
