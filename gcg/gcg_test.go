package gcg

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestRead(t *testing.T) {
	rec, err := Read(strings.NewReader(`#character-encoding UTF-8
#title A test
#player1 alice Alice Martin
#player2 bob Bob
>alice: ACEHRST 7F CHAT +14 14
>bob: EEILNRT F7 .IeR +9 9
>alice: AERSTXZ -XZ +0 14
>bob: EEILNTU - +0 9
>alice: AEIRSTU -3 +0 14
>alice: (EI) +2 16
>bob: (EI) -2 7
`))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Title != "A test" || !reflect.DeepEqual(rec.Players, []Player{{"alice", "Alice Martin"}, {"bob", "Bob"}}) {
		t.Errorf("header: %+v", rec)
	}
	want := []Event{
		{Line: 5, Nick: "alice", Rack: "ACEHRST", Kind: Place, Col: 5, Row: 6, Word: "CHAT", Score: 14, Total: 14},
		{Line: 6, Nick: "bob", Rack: "EEILNRT", Kind: Place, Col: 5, Row: 6, Down: true, Word: ".IeR", Score: 9, Total: 9},
		{Line: 7, Nick: "alice", Rack: "AERSTXZ", Kind: Exchange, Tiles: "XZ", Count: 2, Total: 14},
		{Line: 8, Nick: "bob", Rack: "EEILNTU", Kind: Pass, Total: 9},
		{Line: 9, Nick: "alice", Rack: "AEIRSTU", Kind: Exchange, Count: 3, Total: 14},
		{Line: 10, Nick: "alice", Rack: "EI", Kind: EndGain, Score: 2, Total: 16},
		{Line: 11, Nick: "bob", Rack: "EI", Kind: EndLoss, Score: -2, Total: 7},
	}
	if !reflect.DeepEqual(rec.Events, want) {
		t.Errorf("events:\n got %+v\nwant %+v", rec.Events, want)
	}
	if p := rec.Events[0].Pos(); p != "7F" {
		t.Errorf("Pos = %q", p)
	}
	if p := rec.Events[1].Pos(); p != "F7" {
		t.Errorf("Pos = %q", p)
	}
}

func TestReadErrors(t *testing.T) {
	head := "#player1 a A\n#player2 b B\n"
	tests := []struct {
		name, in, want string
		line           int
	}{
		{"one player", "#player1 a A\n", "at least two players", 0},
		{"player order", "#player2 b B\n", "#player2 comes before #player1", 1},
		{"player5", head + "#player3 c\n#player4 d\n#player5 e\n", "#player1 to #player4", 5},
		{"unknown nick", head + ">carol: ABC 7G ABC +5 5\n", `unknown player "carol"`, 3},
		{"no colon", head + ">a ABC 7G ABC +5 5\n", "'>nick: RACK", 3},
		{"bad total", head + ">a: ABC 7G ABC +5 x\n", "cumulative score", 3},
		{"bad score", head + ">a: ABC 7G ABC 5 5\n", "want +N or -N", 3},
		{"off board row", head + ">a: ABC 14G ABC +5 5\n", "position \"14G\"", 3},
		{"off board col", head + ">a: ABC 7N ABC +5 5\n", "position \"7N\"", 3},
		{"bad word", head + ">a: ABC 7G A-C +5 5\n", "word \"A-C\"", 3},
		{"challenge", head + ">a: ABC -- -5 0\n", "no challenges", 3},
		{"junk line", head + "hello\n", "starts with '#'", 3},
		{"big exchange", head + ">a: ABC -9 +0 0\n", "exchange of 9", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v; want %q", err, tt.want)
			}
			var le *Error
			if tt.line > 0 && (!errors.As(err, &le) || le.Line != tt.line) {
				t.Fatalf("err = %v; want it at line %d", err, tt.line)
			}
		})
	}
}

func FuzzRead(f *testing.F) {
	f.Add("#player1 a A\n#player2 b B\n>a: ABC 7G ABC +5 5\n>b: (AB) -4 -4\n")
	f.Add("#player1 a\n#player2 b\n>b: ?? -?? +0 0\n>a: X M13 x +0 0\n")
	f.Fuzz(func(t *testing.T, s string) {
		rec, err := Read(strings.NewReader(s))
		if err != nil {
			return
		}
		for _, e := range rec.Events {
			if e.Kind == Place && (e.Col < 0 || e.Col >= size || e.Row < 0 || e.Row >= size) {
				t.Fatalf("event off the board: %+v", e)
			}
		}
	})
}
