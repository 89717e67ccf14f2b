package gcg

import (
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/engine/board"
)

// TestReplayTurns: the replay lists every placement, exchange and pass
// with the position before it and the rack written; a rack the player
// cannot hold in full is not Full.
func TestReplayTurns(t *testing.T) {
	data, err := os.ReadFile("testdata/idle.gcg")
	if err != nil {
		t.Fatal(err)
	}
	// bob's exchange written with a rack of 6 tiles where he holds 7.
	text := strings.Replace(string(data), ">bob: LMNPXZK -XZ", ">bob: LMNPXZ -XZ", 1)
	rec, err := Read(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := Replay(rec, Options{Dict: anyWord{}}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Turns) != 7 {
		t.Fatalf("%d turns, want 7", len(sum.Turns))
	}
	var full []bool
	for _, tu := range sum.Turns {
		full = append(full, tu.Full)
	}
	// The replay takes the record's word for the short rack: bob's
	// next, of 7, is not one he can hold either.
	if want := []bool{true, true, true, false, true, false, true}; !slices.Equal(full, want) {
		t.Errorf("full racks %v, want %v", full, want)
	}
	first, third := sum.Turns[0], sum.Turns[2]
	if !first.Board.Empty() || first.Rack != "ACHTEIR" || first.Score != 8 || len(first.Tiles) != 4 || first.Player != 0 {
		t.Errorf("first turn %+v", first)
	}
	// The third move (HAI, 21) is played on CHAT and ECHO: 4 + 3 tiles.
	if third.Board.Tiles() != 7 || third.Score != 21 || third.Event.Kind != Place {
		t.Errorf("third turn: %d tiles before, %+v", third.Board.Tiles(), third)
	}
	if sq := third.Board.At(board.Cell{Col: 5, Row: 7}); sq.Letter != 'H' {
		t.Errorf("F8 before the third move: %+v", sq)
	}
	if k := sum.Turns[3].Event.Kind; k != Exchange || sum.Turns[3].Player != 1 {
		t.Errorf("fourth turn: %v by %d", k, sum.Turns[3].Player)
	}
}
