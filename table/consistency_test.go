package table_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/mailer"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/table"
)

// TestRowAndLogMustAgree: a table's game is rebuilt from its seed and its
// log on every load, and what the row keeps of it (the last action's seq,
// playing or over, the turn's start and deadline) is checked against the
// rebuilt game. A row or a log changed behind the service's back is a
// permanent error that names the table: the admin's tools refuse it, a
// message about it is recorded as an error (the mailbox moves on), and
// the other tables go on.
func TestRowAndLogMustAgree(t *testing.T) { lexiotest.EachDriver(t, testRowAndLogMustAgree) }

func testRowAndLogMustAgree(t *testing.T, driver string) {
	h := lexiotest.New(t, lexiotest.Options{Driver: driver})
	pass := func(player, at string) string {
		return fmt.Sprintf(`{"kind":"pass","player":%s,"at":%q}`, player, at)
	}
	tampers := []struct {
		name   string
		tamper func(tx *store.Tx, row *store.Table, at string) error
		want   string // in the error
	}{
		{"over", func(tx *store.Tx, row *store.Table, _ string) error {
			row.Status = store.StatusOver
			return tx.SaveTable(row, row.Seq)
		}, "the row says over, the game is playing"},
		{"behind", func(tx *store.Tx, row *store.Table, at string) error {
			// A legal action the row does not know of.
			_, err := tx.AppendAction(row.ID, row.Seq+1, "pass", pass("1", at), h.Clock.Now())
			return err
		}, "the row's last action is 1, the log's 2"},
		{"deadline", func(tx *store.Tx, row *store.Table, _ string) error {
			*row.Deadline = row.Deadline.Add(time.Hour)
			return tx.SaveTable(row, row.Seq)
		}, "the row's deadline is"},
		{"turn-start", func(tx *store.Tx, row *store.Table, _ string) error {
			*row.TurnStarted = row.TurnStarted.Add(-time.Minute)
			*row.Deadline = row.Deadline.Add(-time.Minute)
			return tx.SaveTable(row, row.Seq)
		}, "the row's turn began"},
		{"kind", func(tx *store.Tx, row *store.Table, at string) error {
			if _, err := tx.AppendAction(row.ID, row.Seq+1, "place", pass("1", at), h.Clock.Now()); err != nil {
				return err
			}
			row.Seq++
			return tx.SaveTable(row, row.Seq-1)
		}, "action 2 of the log is numbered 2, kind place (payload pass)"},
		{"no-replay", func(tx *store.Tx, row *store.Table, at string) error {
			// Alice passed; she is not the one to move.
			if _, err := tx.AppendAction(row.ID, row.Seq+1, "pass", pass("0", at), h.Clock.Now()); err != nil {
				return err
			}
			row.Seq++
			return tx.SaveTable(row, row.Seq-1)
		}, "action 1 (pass by 0)"},
	}
	for i, tc := range tampers {
		name := "tamper-" + tc.name
		if err := h.Lobby.CreateTable(h.Ctx, name, "main", lexiotest.Emails("alice", "bob"), uint64(i+1)); err != nil {
			t.Fatal(err)
		}
		h.Clock.Add(time.Minute)
		raw := benchRaw(h.Tables, name, "alice", "PASS", 0, h.Clock.Now())
		if err := h.Parts.Inbox.HandleMessage(h.Ctx, mailer.Inbound{Raw: raw, Mailbox: "INBOX", Size: int64(len(raw))}); err != nil {
			t.Fatal(err)
		}
		if g := h.Game(name); len(g.Actions()) != 1 || g.Turn() != 1 {
			t.Fatalf("%s: %d actions, turn %d; want alice's pass, bob to move", name, len(g.Actions()), g.Turn())
		}
		at := h.Clock.Now().Format(time.RFC3339Nano)
		err := h.Store.Tx(h.Ctx, func(tx *store.Tx) error {
			row, err := tx.TableByName(name)
			if err != nil {
				return err
			}
			return tc.tamper(tx, row, at)
		})
		if err != nil {
			t.Fatalf("%s: tampering: %v", name, err)
		}
	}
	if err := h.Lobby.CreateTable(h.Ctx, "fine", "main", lexiotest.Emails("alice", "bob"), 99); err != nil {
		t.Fatal(err)
	}
	h.Clock.Add(time.Minute)
	if _, err := h.Views.List(h.Ctx); err == nil || !strings.Contains(err.Error(), "the row and the log disagree") {
		t.Errorf("Tables() = %v; want the error of a tampered table", err)
	}
	if g := h.Game("fine"); g == nil || g.Over() {
		t.Errorf("the untouched table: %v", g)
	}
	for _, tc := range tampers {
		name := "tamper-" + tc.name
		t.Run(tc.name, func(t *testing.T) {
			_, err := h.Tables.Game(h.Ctx, name)
			if err == nil || !strings.Contains(err.Error(), "table "+name+": ") || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Game(%s) = %v; want an error naming the table and saying %q", name, err, tc.want)
			}
			// Bob's BOARD is recorded as an error, not left in the inbox
			// to be tried again for ever.
			raw := benchRaw(h.Tables, name, "bob", "BOARD", 1, h.Clock.Now())
			if err := h.Parts.Inbox.HandleMessage(h.Ctx, mailer.Inbound{Raw: raw, Mailbox: "INBOX", Size: int64(len(raw))}); err != nil {
				t.Fatalf("HandleMessage: %v; want it recorded (a permanent error)", err)
			}
			rec := h.Handled(fmt.Sprintf("bench-%s-1@localhost", name))
			if rec.Outcome != table.OutcomeError || !strings.Contains(rec.Reason, name) {
				t.Errorf("BOARD recorded as %s %q; want an error naming %s", rec.Outcome, rec.Reason, name)
			}
		})
	}
}
