package table_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/engine/board"
	"github.com/lexio-mail/lexio/engine/enginetest"
	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/table"
)

// TestMoveOperation: a move as the typed operation it is (issue #35),
// called with no parser and no mail: a placement, an exchange and a pass
// are applied, saved and announced to every player in the batch given; a
// placement out of turn is the engine's *board.MoveError and writes and
// tells nothing; one of a word the dictionary lacks tells nothing and
// saves the try of the reserve it spent.
func TestMoveOperation(t *testing.T) { lexiotest.EachDriver(t, testMoveOperation) }

func testMoveOperation(t *testing.T, driver string) {
	lex := &lexiotest.Lexicon{} // no word, until alice's is added
	h := lexiotest.New(t, lexiotest.Options{Driver: driver, Domain: lexiotest.InviteDomain, Config: lexiotest.OpenTablesConfig, Dict: lex})
	const name = "mo"
	players := emailsAt(h, "alice", "bob", "carol")
	if err := h.Lobby.CreateTable(h.Ctx, name, "main", players, 5); err != nil {
		t.Fatal(err)
	}
	const alice, bob, carol = 0, 1, 2
	play, ok := enginetest.FindPlay(h.Game(name), alice, 0)
	if !ok {
		t.Fatal("no placement found for alice")
	}
	m := moveOf(play)

	// Out of turn: refused by the engine, nothing written, no one told.
	h.At(h.Clock.Now().Add(time.Hour))
	_, mails, err := move(h, name, bob, table.PlaceMove(m))
	var me *board.MoveError
	if !errors.As(err, &me) || me.Kind != board.KindNotYourTurn {
		t.Fatalf("bob placing on alice's turn: %v, want a %s *board.MoveError", err, board.KindNotYourTurn)
	}
	if len(mails) != 0 {
		t.Errorf("a refused move queued %d mails", len(mails))
	}
	if n := len(h.Game(name).Actions()); n != 0 {
		t.Errorf("a refused move wrote %d actions", n)
	}

	// A word the dictionary lacks: refused, and the try of the probe
	// reserve it spent is saved (RULES §6.2); no one is told.
	h.At(h.Clock.Now().Add(time.Hour))
	_, mails, err = move(h, name, alice, table.PlaceMove(m))
	if !errors.As(err, &me) || me.Kind != board.KindUnknownWords {
		t.Fatalf("alice placing a word the dictionary lacks: %v, want a %s *board.MoveError", err, board.KindUnknownWords)
	}
	if len(mails) != 0 {
		t.Errorf("a refused move queued %d mails", len(mails))
	}
	if acts := h.Game(name).Actions(); len(acts) != 1 || acts[0].Kind != engine.ActProbe {
		t.Errorf("the unknown word left the log %+v, want its probe", acts)
	}
	if seq := seqOf(h, name); seq != 1 {
		t.Errorf("after the probe the row's seq is %d, want 1", seq)
	}

	lex.Add(play) // alice's word is known from here

	steps := []struct {
		seat int
		a    table.Action
	}{
		{alice, table.PlaceMove(m)},
		{bob, table.ExchangeTiles(engine.Selection{All: true})},
		{carol, table.PassTurn()},
	}
	for i, st := range steps {
		h.At(h.Clock.Now().Add(time.Hour))
		got, mails, err := move(h, name, st.seat, st.a)
		if err != nil {
			t.Fatalf("seat %d's %s: %v", st.seat, st.a.Kind, err)
		}
		if got.Seat != st.seat || got.Kind != st.a.Kind {
			t.Errorf("seat %d's %s played %+v", st.seat, st.a.Kind, got)
		}
		if st.a.Kind == engine.ActPlace && got.Acceptance.Total != play.Score {
			t.Errorf("alice's placement: total %d, want %d", got.Acceptance.Total, play.Score)
		}
		// Saved: the game rebuilt from the store has the move, the row
		// its seq, and the turn has passed on.
		g := h.Game(name)
		acts := g.Actions()
		if len(acts) != i+2 || acts[i+1].Kind != st.a.Kind || acts[i+1].Player != st.seat {
			t.Fatalf("after seat %d's %s the stored log is %+v", st.seat, st.a.Kind, acts)
		}
		if seq := seqOf(h, name); seq != int64(i+2) {
			t.Errorf("after seat %d's %s the row's seq is %d, want %d", st.seat, st.a.Kind, seq, i+2)
		}
		if want := (st.seat + 1) % len(players); g.Turn() != want {
			t.Errorf("after seat %d's %s seat %d is on move, want %d", st.seat, st.a.Kind, g.Turn(), want)
		}
		// Announced: every player has a mail in the batch.
		for _, addr := range players {
			if !slices.ContainsFunc(mails, func(m *store.OutboxMail) bool { return slices.Contains(m.To, addr) }) {
				t.Errorf("seat %d's %s told no mail to %s", st.seat, st.a.Kind, addr)
			}
		}
	}
	if sc := h.Game(name).Score(alice); sc != play.Score {
		t.Errorf("alice scored %d, want %d", sc, play.Score)
	}
}

// moveOf is the placement play as a player writes it: its first word,
// the tiles already on the board as letters it goes through.
func moveOf(play board.Play) board.Move {
	w := play.Words[0]
	placed := map[board.Cell]board.Placement{}
	for _, p := range play.Tiles {
		placed[p.Cell] = p
	}
	m := board.Move{Start: w.Start, Dir: w.Dir}
	for i, c := range w.Cells {
		p, ok := placed[c]
		m.Word = append(m.Word, board.Letter{Char: w.Text[i], Blank: ok && p.Blank, Through: !ok})
	}
	return m
}

// move calls the operation for seat of table name, at the harness's
// clock, in a transaction of its own, which a refusal commits; the mails
// it queued are rendered, never sent.
func move(h *lexiotest.Harness, name string, seat int, a table.Action) (table.Played, []*store.OutboxMail, error) {
	h.T.Helper()
	now := h.Clock.Now()
	out := h.Tables.Notices().NewBatch(now)
	var played table.Played
	var op error
	err := h.Store.Tx(h.Ctx, func(tx *store.Tx) error {
		tb, err := h.Tables.Load(tx, name)
		if err != nil {
			return err
		}
		played, op = h.Tables.Move(tx, tb, seat, a, now, out, nil)
		var me *board.MoveError
		if errors.As(op, &me) {
			return nil
		}
		return op
	})
	if op == nil && err != nil {
		h.T.Fatal(err)
	}
	mails, err := out.Mails()
	if err != nil {
		h.T.Fatal(err)
	}
	return played, mails, op
}

// seqOf is the seq of table name's row, as stored.
func seqOf(h *lexiotest.Harness, name string) int64 {
	h.T.Helper()
	var seq int64
	err := h.Store.View(h.Ctx, func(tx *store.Tx) error {
		row, err := tx.TableByName(name)
		if err == nil {
			seq = row.Seq
		}
		return err
	})
	if err != nil {
		h.T.Fatal(err)
	}
	return seq
}
