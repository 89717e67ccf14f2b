package board

import (
	"slices"
	"testing"
)

func TestResolveErrors(t *testing.T) {
	b := boardWith(t, "D7 across CHAT")
	for _, tc := range []struct {
		name, move string
		kind       Kind
		cells      string
		letters    string
	}{
		// RULES §2.2: walls and the edge.
		{"off board", "K7 across ABCD", KindOffBoard, "(13,6)", ""},
		{"walled", "A2 down AB", KindWalled, "A2", ""},
		// RULES §4.1: letters already on the board must match.
		{"mismatch", "D7 across CHOT", KindMismatch, "F7", "A"},
		{"through empty", "D6 down (E)C", KindNotThrough, "D6", ""},
		{"nothing placed", "D7 across (CHAT)", KindNoTiles, "", ""},
		{"nothing placed unmarked", "E7 across HA", KindNoTiles, "", ""},
		{"bad letter", "D8 across A1", KindBadLetter, "", "1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := b.Resolve(move(t, tc.move))
			me := wantKind(t, err, tc.kind)
			if got := cellList(me.Cells); got != tc.cells {
				t.Errorf("cells %q, want %q", got, tc.cells)
			}
			if me.Letters != tc.letters {
				t.Errorf("letters %q, want %q", me.Letters, tc.letters)
			}
		})
	}
	// A word through board letters takes tiles only for the empty cells.
	ps, err := b.Resolve(move(t, "C7 across E(CHAT)s"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 2 || ps[0].Cell.String() != "C7" || ps[1].Cell.String() != "H7" || !ps[1].Blank || ps[1].Letter != 'S' {
		t.Errorf("placements %+v", ps)
	}
}

func TestCheckErrors(t *testing.T) {
	lexio, lexico := Rules{}, Rules{Variant: Lexico}
	played := boardWith(t, "D7 across CHAT")
	empty := &Board{}
	for _, tc := range []struct {
		name  string
		b     *Board
		r     Rules
		ps    []Placement
		kind  Kind
		cells string
		need  int
	}{
		{"no tiles", played, lexio, nil, KindNoTiles, "", 0},
		{"too many", played, lexio, tiles(t, "D8 across ABCDEFGH"), KindTooManyTiles, "D8 E8 F8 G8 H8 I8 J8 K8", 7},
		{"off board", played, lexio, []Placement{{Cell{13, 3}, 'A', false}, {Cell{-1, 3}, 'B', false}}, KindOffBoard, "(13,3) (-1,3)", 0},
		{"walled", played, lexio, tiles(t, "A1 down ABC"), KindWalled, "A1 A2", 0},
		{"occupied", played, lexio, tiles(t, "D7 down ZZ"), KindOccupied, "D7", 0},
		{"duplicate", played, lexio, append(tiles(t, "D8 across A"), tiles(t, "D8 across B")...), KindDuplicateCell, "D8", 0},
		{"bad letter", played, lexio, []Placement{{Cell{3, 7}, '?', false}}, KindBadLetter, "D8", 0},
		// RULES §4.1: one line, no gap.
		{"not in line", played, lexio, append(tiles(t, "D8 across AB"), tiles(t, "F9 across C")...), KindNotInLine, "D8 E8 F9", 0},
		{"gap", played, lexio, append(tiles(t, "D8 across AB"), tiles(t, "H8 across C")...), KindGap, "F8 G8", 0},
		{"gap across a wall", boardWith(t, "C3 across ZZ"), lexio, append(tiles(t, "A3 down A"), tiles(t, "A1 down B")...), KindWalled, "A1", 0},
		// RULES §4.2: touching; the first placement.
		{"not touching", played, lexio, tiles(t, "D10 across AB"), KindNotTouching, "D10 E10", 0},
		{"first off centre", empty, lexio, tiles(t, "A7 across AB"), KindFirstNotCentre, "A7 B7", 0},
		{"first single tile", empty, lexio, tiles(t, "G7 across A"), KindFirstTooShort, "G7", 2},
		{"first lexico two tiles", empty, lexico, tiles(t, "F7 across AB"), KindFirstTooShort, "F7 G7", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.b.Check(tc.ps, tc.r)
			me := wantKind(t, err, tc.kind)
			if got := cellList(me.Cells); got != tc.cells {
				t.Errorf("cells %q, want %q", got, tc.cells)
			}
			if me.Need != tc.need {
				t.Errorf("need %d, want %d", me.Need, tc.need)
			}
			if me.Error() == "" {
				t.Error("empty message")
			}
		})
	}
	// Tiles around board letters fill the gap (RULES §4.1).
	ps := append(tiles(t, "C7 across E"), tiles(t, "H7 across S")...)
	if _, err := played.Check(ps, lexio); err != nil {
		t.Errorf("through the board: %v", err)
	}
	// RULES §4.2, §12: first placement of 2 (lexio) or 3 (lexico) tiles on G7.
	if _, err := empty.Check(tiles(t, "G7 down AB"), lexio); err != nil {
		t.Errorf("lexio first: %v", err)
	}
	if _, err := empty.Check(tiles(t, "E7 across ABC"), lexico); err != nil {
		t.Errorf("lexico first: %v", err)
	}
}

func TestTakeTiles(t *testing.T) {
	// RULES §3.3, §6.4: tiles must be on the rack; a blank is never guessed.
	rack := []byte("CHA?TEE")
	left, err := TakeTiles(rack, tiles(t, "A1 across EsT"))
	if err != nil {
		t.Fatal(err)
	}
	if string(left) != "CHAE" || string(rack) != "CHA?TEE" {
		t.Errorf("left %q, rack %q", left, rack)
	}
	_, err = TakeTiles(rack, tiles(t, "A1 across QUIZ"))
	me := wantKind(t, err, KindNotOnRack)
	if me.Letters != "QUIZ" {
		t.Errorf("missing %q", me.Letters)
	}
	_, err = TakeTiles([]byte("ABC"), tiles(t, "A1 across ab"))
	if me := wantKind(t, err, KindNotOnRack); me.Letters != "??" {
		t.Errorf("missing %q", me.Letters)
	}
}

func TestWords(t *testing.T) {
	// RULES §4.3: main word, then one cross word per placed tile with a
	// neighbour across the line; runs of 2+ only; walls and edges end runs.
	for _, tc := range []struct {
		name  string
		board []string
		play  string
		want  []string // "TEXT@START/dir"
	}{
		{"extends a word", []string{"D7 across CHAT"}, "H7 across S", []string{"CHATS@D7/across"}},
		{"parallel play", []string{"D7 across CHAT"}, "E6 across ON", []string{"ON@E6/across", "OH@E6/down", "NA@F6/down"}},
		{"single tile two words", []string{"D7 across CHAT", "H6 down O", "H8 down S"}, "H7 down E", []string{"CHATE@D7/across", "OES@H6/down"}},
		{"single tile down", []string{"D7 across CHAT"}, "D8 across O", []string{"CO@D7/down"}},
		{"ends at the wall", []string{"C2 down RA"}, "C1 across AB", []string{"AB@C1/across", "ARA@C1/down"}},
		{"edge", []string{"M5 down E"}, "M3 down TR", []string{"TRE@M3/down"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := boardWith(t, tc.board...)
			ws, err := b.Words(tiles(t, tc.play), Rules{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range ws {
				got = append(got, w.Text+"@"+w.Start.String()+"/"+w.Dir.String())
				if len(w.Cells) != len(w.Text) || w.Cells[0] != w.Start {
					t.Errorf("%s: cells %s", w.Text, cellList(w.Cells))
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("words %q, want %q", got, tc.want)
			}
		})
	}
}

func TestScore(t *testing.T) {
	lexio, lexico, plain := Rules{}, Rules{Variant: Lexico}, Rules{Variant: Lexico, Plain: true}
	chat := "D7 across CHAT" // C2 H4 A1 T1 on D7–G7
	for _, tc := range []struct {
		name  string
		rule  string
		r     Rules
		board []string
		play  string
		want  int
		paid  string
	}{
		{"first word", "§5.1", lexio, nil, chat, 2 + 4 + 1 + 1, ""},
		// D6 is DL: E(1×2) + C 2 = 4.
		{"DL", "§5.2", lexio, []string{chat}, "D6 down E", 1*2 + 2, "D6"},
		// A blank on DL stays 0: 0 + C 2.
		{"DL blank", "§5.2", lexio, []string{chat}, "D6 down e", 0 + 2, "D6"},
		// B6 TL, C6 plain, D6 DL: KOE = 10×3 + 1 + 1×2 = 33; EC = 1×2 + 2 = 4.
		{"TL and DL", "§5.2", lexio, []string{chat}, "B6 across KOE", 33 + 4, "B6 D6"},
		// A word bonus under a blank still multiplies: B3 DW blank s, C3 E:
		// (0+1)×2 = 2; cross EA = 1+1 = 2.
		{"DW under a blank", "§5.3", lexio, []string{"C4 across A"}, "B3 across sE", 2 + 2, "B3"},
		// A4–A10 are both TW: ABCDEFG = 1+3+2+2+1+4+3 = 16, ×3×3 = 144;
		// cross DS (A7–B7) = 2+1 = 3; 7 tiles +30 after multiplication.
		{"TW×TW and 7 tiles", "§5.3 §5.6", lexio, []string{"B7 across S"}, "A4 down ABCDEFG", 144 + 3 + 30, "A4 A10"},
		{"7 tiles lexico", "§12", lexico, []string{"B7 across S"}, "A4 down ABCDEFG", 144 + 3 + 50, "A4 A10"},
		{"7 tiles plain lexico", "§12", plain, []string{"B7 across S"}, "A4 down ABCDEFG", 16 + 3 + 50, ""},
		{"DL plain lexico", "§12", plain, []string{chat}, "D6 down E", 1 + 2, ""},
		// F6 is X; its tile N is in ON (main) and NA (cross): both doubled.
		// ON (1+1)×2 = 4, OH 1+4 = 5, NA (1+1)×2 = 4.
		{"cross in two words", "§5.4", lexio, []string{chat}, "E6 across ON", 4 + 5 + 4, "F6"},
		// A blank on the cross still doubles: ON (1+0)×2, OH 5, NA (0+1)×2.
		{"cross blank", "§5.4", lexio, []string{chat}, "E6 across On", 2 + 5 + 2, "F6"},
		// A single tile on X with neighbours both ways forms two words.
		// ON (1+1)×2 = 4, NA (1+1)×2 = 4.
		{"cross single tile two words", "§5.4", lexio, []string{chat, "E6 across O"}, "F6 across N", 4 + 4, "F6"},
		// Only one word through F6: the cross does nothing. LA = 1+1.
		{"cross one word", "§5.4", lexio, []string{chat}, "F6 down L", 2, ""},
		// Lexico crosses are plain: ON 2, OH 5, NA 2.
		{"cross lexico", "§12", lexico, []string{chat}, "E6 across ON", 2 + 5 + 2, ""},
		// Letter bonuses and a cross in one play: H2 TL Z 10×3 = 30, H3 O 1,
		// H4 DL N 1×2 = 2, H5 E 1, H6 X E 1, H7 S 1 (on the board):
		// ZONEES = 36; H6's E is also in RE (G6 R on the board), so the
		// cross doubles both: 36×2 = 72 and RE (1+1)×2 = 4.
		{"cross with letter bonuses", "§5.2 §5.4", lexio, []string{chat, "G6 across R", "H7 across S"}, "H2 down ZONEE", 72 + 4, "H2 H4 H6"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := boardWith(t, tc.board...)
			p, err := Evaluate(b, tiles(t, tc.play), tc.r)
			if err != nil {
				t.Fatal(err)
			}
			if p.Score != tc.want {
				t.Errorf("RULES %s: score %d, want %d (words %+v)", tc.rule, p.Score, tc.want, p.Words)
			}
			if got := cellList(p.Paid); got != tc.paid {
				t.Errorf("paid %q, want %q", got, tc.paid)
			}
			sum := p.AllTiles
			for _, w := range p.Words {
				sum += w.Score
			}
			if sum != p.Score {
				t.Errorf("words sum to %d, score %d", sum, p.Score)
			}
		})
	}
}

func TestBonusPaidOnce(t *testing.T) {
	// RULES §5.5: after the play that covers it, a bonus cell is plain.
	b := boardWith(t, "D7 across CHAT")
	first := tiles(t, "D6 down E")
	p, err := Evaluate(b, first, Rules{})
	if err != nil || p.Score != 4 {
		t.Fatalf("first: %d %v", p.Score, err)
	}
	if err := b.Apply(first); err != nil {
		t.Fatal(err)
	}
	// ES (D6–E6) = 1+1 = 2, the DL on D6 no longer pays; SH (E6–E7) = 1+4.
	p, err = Evaluate(b, tiles(t, "E6 down S"), Rules{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Score != 2+5 || len(p.Paid) != 0 {
		t.Errorf("score %d paid %v, want 7 and none", p.Score, p.Paid)
	}
	if err := b.Apply(first); err == nil {
		t.Error("Apply on occupied cells succeeded")
	}
}
