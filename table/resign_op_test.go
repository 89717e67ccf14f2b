package table_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/engine/board"
	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/table"
)

// TestResignOperation: a resignation as the typed operation it is (issue
// #35, LEAGUES §2), called with no parser and no mail: bob leaves a game
// of three, which goes on and is saved, every player told in the batch;
// he cannot leave twice, nor a seat that is none; when alice leaves too
// the game ends, and carol, the last, cannot resign an ended game.
func TestResignOperation(t *testing.T) { lexiotest.EachDriver(t, testResignOperation) }

func testResignOperation(t *testing.T, driver string) {
	h := lexiotest.New(t, lexiotest.Options{Driver: driver, Domain: lexiotest.InviteDomain, Config: lexiotest.OpenTablesConfig})
	const name = "ro"
	players := emailsAt(h, "alice", "bob", "carol")
	if err := h.Lobby.CreateTable(h.Ctx, name, "main", players, 5); err != nil {
		t.Fatal(err)
	}
	const alice, bob, carol = 0, 1, 2

	h.At(h.Clock.Now().Add(time.Hour))
	mails, err := resign(h, name, bob)
	if err != nil {
		t.Fatalf("bob resigning: %v", err)
	}
	g := h.Game(name)
	if !g.Left(bob) || g.Over() {
		t.Fatalf("after bob's resignation: left %v, over %v", g.Left(bob), g.Over())
	}
	for _, addr := range players {
		if !slices.ContainsFunc(mails, func(m *store.OutboxMail) bool { return slices.Contains(m.To, addr) }) {
			t.Errorf("bob's resignation told no mail to %s", addr)
		}
	}

	var me *board.MoveError
	if mails, err := resign(h, name, bob); !errors.As(err, &me) || len(mails) != 0 {
		t.Errorf("bob resigning again: %v, %d mails; want a *board.MoveError and none", err, len(mails))
	}
	if _, err := resign(h, name, 7); !errors.Is(err, table.ErrNotSeated) {
		t.Errorf("seat 7 resigning: %v, want ErrNotSeated", err)
	}

	h.At(h.Clock.Now().Add(time.Hour))
	if _, err := resign(h, name, alice); err != nil {
		t.Fatalf("alice resigning: %v", err)
	}
	if g := h.Game(name); !g.Over() {
		t.Fatal("the game goes on with carol alone")
	}
	if sum, err := h.Views.Show(h.Ctx, name); err != nil || sum.Status != string(store.StatusOver) {
		t.Errorf("the row after the game's end: %q, %v", sum.Status, err)
	}
	if _, err := resign(h, name, carol); !errors.As(err, &me) {
		t.Errorf("carol resigning an ended game: %v, want a *board.MoveError", err)
	}
}

// resign calls the operation for seat of table name at the harness's
// clock, in a transaction of its own, which a refusal rolls back; the
// mails it queued are rendered, never sent.
func resign(h *lexiotest.Harness, name string, seat int) ([]*store.OutboxMail, error) {
	h.T.Helper()
	now := h.Clock.Now()
	out := h.Tables.Notices().NewBatch(now)
	var op error
	err := h.Store.Tx(h.Ctx, func(tx *store.Tx) error {
		tb, err := h.Tables.Load(tx, name)
		if err != nil {
			return err
		}
		op = h.Tables.Resign(tx, tb, seat, now, out, "")
		return op
	})
	if op == nil && err != nil {
		h.T.Fatal(err)
	}
	mails, err := out.Mails()
	if err != nil {
		h.T.Fatal(err)
	}
	return mails, op
}
