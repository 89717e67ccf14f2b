package templates

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestBoardKeyCoversFields: the memo key of a board is written by hand;
// a field added to Board or Cell must be added to appendKey too.
func TestBoardKeyCoversFields(t *testing.T) {
	fields := func(v any) []string {
		var out []string
		for f := range reflect.TypeOf(v).Fields() {
			out = append(out, f.Name)
		}
		return out
	}
	if got := fields(Board{}); !slices.Equal(got, []string{"Cells", "Last"}) {
		t.Errorf("Board fields %v: update appendKey and this test", got)
	}
	if got := fields(Cell{}); !slices.Equal(got, []string{"Kind", "Letter", "Blank", "Value", "Last"}) {
		t.Errorf("Cell fields %v: update appendKey and this test", got)
	}
	// Each field changes the key.
	base := sample(TurnNotice).(NoticeMsg).Board
	key := func(b Board) string { return memoKey("part.board", b) }
	changes := []func(b *Board){
		func(b *Board) { b.Cells[3][4].Kind = TW },
		func(b *Board) { b.Cells[3][4].Letter = 'Q' },
		func(b *Board) { b.Cells[3][4].Blank = !b.Cells[3][4].Blank },
		func(b *Board) { b.Cells[3][4].Value = 99 },
		func(b *Board) { b.Cells[3][4].Last = !b.Cells[3][4].Last },
		func(b *Board) { b.Last = append(slices.Clone(b.Last), Pos{Row: 12, Col: 1}) },
	}
	for i, change := range changes {
		b := base
		change(&b)
		if key(b) == key(base) {
			t.Errorf("change %d leaves the key as it was", i)
		}
	}
}

// TestLogKeyCoversFields: the memo key of a log line is written by
// hand; every field must change it.
func TestLogKeyCoversFields(t *testing.T) {
	var names []string
	for f := range reflect.TypeOf(LogLine{}).Fields() {
		names = append(names, f.Name)
	}
	want := []string{"Turn", "At", "Kind", "Player", "Words", "Pos", "NoPos", "Down", "Score", "Bonus", "Count", "End", "Adjustments"}
	if !slices.Equal(names, want) {
		t.Fatalf("LogLine fields %v: update appendKey and this test", names)
	}
	base := sampleLog()[1]
	key := func(l LogLine) string { return memoKey("part.log", []LogLine{l}) }
	paris, _ := time.LoadLocation("Europe/Paris")
	changes := map[string]func(l *LogLine){
		"Turn":         func(l *LogLine) { l.Turn++ },
		"At":           func(l *LogLine) { l.At = l.At.Add(time.Second) },
		"At zone":      func(l *LogLine) { l.At = l.At.In(paris) },
		"Kind":         func(l *LogLine) { l.Kind = LogPass },
		"Player":       func(l *LogLine) { l.Player += "x" },
		"Words":        func(l *LogLine) { l.Words = append(slices.Clone(l.Words), Word{"X", 1}) },
		"Word":         func(l *LogLine) { l.Words = []Word{{l.Words[0].Word + "S", l.Words[0].Points}} },
		"Points":       func(l *LogLine) { l.Words = []Word{{l.Words[0].Word, l.Words[0].Points + 1}} },
		"Pos":          func(l *LogLine) { l.Pos.Col++ },
		"NoPos":        func(l *LogLine) { l.NoPos = !l.NoPos },
		"Down":         func(l *LogLine) { l.Down = !l.Down },
		"Score":        func(l *LogLine) { l.Score++ },
		"Bonus":        func(l *LogLine) { l.Bonus++ },
		"Count":        func(l *LogLine) { l.Count++ },
		"End":          func(l *LogLine) { l.End = EndStalled },
		"Adjustments":  func(l *LogLine) { l.Adjustments = []Adjustment{{"Bob", 3}} },
		"Adjust score": func(l *LogLine) { l.Adjustments = []Adjustment{{"Bob", 4}} },
	}
	for name, change := range changes {
		l := base
		change(&l)
		if key(l) == key(base) {
			t.Errorf("changing %s leaves the key as it was", name)
		}
	}
	// A name cannot pass for the fields after it.
	a, b := base, base
	a.Player, b.Player = `Bob",1,`, "Bob"
	if key(a) == key(b) {
		t.Error("a player name forged another line's key")
	}
}

// TestMemoFollowsData: notices of different boards and logs rendered in
// turn, as a busy daemon does, each equal a render on a fresh set.
func TestMemoFollowsData(t *testing.T) {
	s := newSet(t)
	a := sample(TurnNotice).(NoticeMsg)
	b := a
	b.Board.Cells[6][6] = Cell{Kind: Plain, Letter: 'Z', Value: 10}
	b.Log = slices.Clone(a.Log)
	b.Log[len(b.Log)-1].Score += 7
	c := a
	c.Log = nil
	// Phrases of a number or a name are remembered too.
	d := a
	d.State.Bag = 12
	d.State.Players = slices.Clone(a.State.Players)
	d.State.Players[1].ToMove, d.State.Players[2].ToMove = false, true
	msgs := []NoticeMsg{a, b, c, d, a, b, c, d}
	for _, lang := range Langs() {
		for i, m := range msgs {
			got, err := s.Render(lang, TurnNotice, m)
			if err != nil {
				t.Fatal(err)
			}
			want, err := newSet(t).Render(lang, TurnNotice, m)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("%s notice %d differs from a fresh render", lang, i)
			}
		}
		x, _ := s.Render(lang, TurnNotice, a)
		y, _ := s.Render(lang, TurnNotice, b)
		if x.HTML == y.HTML || !strings.Contains(y.Text, "Z") {
			t.Errorf("%s: two boards rendered alike", lang)
		}
	}
}

// TestMemoGenerations: past its limit the cache forgets the oldest
// generation but still answers right.
func TestMemoGenerations(t *testing.T) {
	m := newMemoCache()
	calls := 0
	for round := range 2 {
		for i := range 3 * memoLimit {
			k := strings.Repeat("k", i%7) + string(rune('a'+i%26)) + strings.Repeat("x", i)
			out, err := m.get(k, func() (string, error) { calls++; return k, nil })
			if err != nil || out != k {
				t.Fatalf("round %d key %d: %q %v", round, i, out, err)
			}
		}
	}
	if calls <= 3*memoLimit {
		t.Errorf("%d renders: nothing was ever forgotten", calls)
	}
	if n := len(m.cur) + len(m.old); n > 2*memoLimit {
		t.Errorf("%d entries kept, limit %d", n, 2*memoLimit)
	}
}
