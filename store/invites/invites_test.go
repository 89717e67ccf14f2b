package invites_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"strings"

	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/invites"
)

// TestInvitations: an invitation is recorded once per table and address,
// answered once, found by the scheduler when due (earliest first), and
// goes with its table when an open table is deleted.
func TestInvitations(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		ctx := context.Background()
		a := &store.Table{Name: "inv-a", Status: "open"}
		b := &store.Table{Name: "inv-b", Status: "open"}
		mustTx(t, s, func(tx *store.Tx) error {
			for _, tab := range []*store.Table{a, b} {
				if err := tx.CreateTable(tab); err != nil {
					return err
				}
			}
			for _, inv := range []*store.Invitation{
				{TableID: a.ID, Address: " Bob@Example.org", Expires: t0.Add(-time.Hour)},
				{TableID: a.ID, Address: "carol@example.org", Expires: t0.Add(time.Hour)},
				{TableID: b.ID, Address: "bob@example.org", Expires: t0.Add(-2 * time.Hour)},
			} {
				if err := invites.Add(tx, inv); err != nil {
					return err
				}
			}
			return nil
		})
		mustTx(t, s, func(tx *store.Tx) error {
			err := invites.Add(tx, &store.Invitation{TableID: a.ID, Address: "bob@example.org", Expires: t0})
			if !errors.Is(err, store.ErrDuplicate) {
				t.Errorf("second invitation of bob to a: %v, want store.ErrDuplicate", err)
			}
			return nil
		})
		due := func(now time.Time, limit int) []int64 {
			var ids []int64
			err := s.View(ctx, func(tx *store.Tx) error {
				var err error
				ids, err = invites.DueTables(tx, now, limit)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			return ids
		}
		if got, want := due(t0, 10), []int64{b.ID, a.ID}; !slices.Equal(got, want) {
			t.Errorf("due at t0: %v, want %v (earliest expiry first)", got, want)
		}
		if got, want := due(t0, 1), []int64{b.ID}; !slices.Equal(got, want) {
			t.Errorf("due at t0, limit 1: %v, want %v", got, want)
		}
		if got := due(t0.Add(-3*time.Hour), 10); len(got) != 0 {
			t.Errorf("due before any expiry: %v", got)
		}

		var bobA *store.Invitation
		mustTx(t, s, func(tx *store.Tx) error {
			var err error
			if bobA, err = invites.Of(tx, a.ID, "BOB@example.org"); err != nil {
				return err
			}
			if bobA.State != store.InvitePending || bobA.Address != "bob@example.org" {
				t.Errorf("bob's invitation: %+v", bobA)
			}
			pend, err := invites.PendingOf(tx, "bob@example.org")
			if err != nil {
				return err
			}
			if len(pend) != 2 || pend[0].Table == nil || pend[0].Table.Name != "inv-a" || pend[1].Table.Name != "inv-b" {
				t.Errorf("bob's pending invitations: %+v", pend)
			}
			return invites.Answer(tx, bobA.ID, store.InviteDeclined, t0)
		})
		mustTx(t, s, func(tx *store.Tx) error {
			if err := invites.Answer(tx, bobA.ID, store.InviteJoined, t0); !errors.Is(err, store.ErrConflict) {
				t.Errorf("second answer: %v, want store.ErrConflict", err)
			}
			if err := invites.Answer(tx, 999999, store.InviteJoined, t0); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("answer of no invitation: %v, want store.ErrNotFound", err)
			}
			inv, err := invites.Of(tx, a.ID, "bob@example.org")
			if err != nil {
				return err
			}
			if inv.State != store.InviteDeclined || inv.AnsweredAt == nil || !inv.AnsweredAt.Equal(t0) {
				t.Errorf("after declining: %+v", inv)
			}
			return nil
		})
		// An answered invitation is no longer due: a is due again only
		// once carol's expires.
		if got, want := due(t0, 10), []int64{b.ID}; !slices.Equal(got, want) {
			t.Errorf("due after bob declined a: %v, want %v", got, want)
		}
		if got, want := due(t0.Add(2*time.Hour), 10), []int64{b.ID, a.ID}; !slices.Equal(got, want) {
			t.Errorf("due later: %v, want %v", got, want)
		}

		// Alice opens a (seat 0) and b: the pending invitations she sent.
		sent := func() int {
			var n int
			err := s.View(ctx, func(tx *store.Tx) error {
				var err error
				n, err = invites.PendingBy(tx, "alice@example.org")
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		if n := sent(); n != 0 {
			t.Errorf("alice sent %d before sitting anywhere", n)
		}
		mustTx(t, s, func(tx *store.Tx) error {
			p, err := tx.EnsurePlayer("alice@example.org", "en")
			if err != nil {
				return err
			}
			q, err := tx.EnsurePlayer("bob@example.org", "en")
			if err != nil {
				return err
			}
			if err := tx.AddSeat(&store.Seat{TableID: a.ID, Position: 0, PlayerID: p.ID}); err != nil {
				return err
			}
			// At b Alice sits second: its invitations are not hers.
			if err := tx.AddSeat(&store.Seat{TableID: b.ID, Position: 0, PlayerID: q.ID}); err != nil {
				return err
			}
			return tx.AddSeat(&store.Seat{TableID: b.ID, Position: 1, PlayerID: p.ID})
		})
		if n := sent(); n != 1 {
			t.Errorf("alice sent %d pending invitations, want 1 (carol's; bob declined)", n)
		}

		mustTx(t, s, func(tx *store.Tx) error {
			if err := invites.LockTable(tx, a.ID); err != nil {
				return err
			}
			if err := invites.LockTable(tx, 999999); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("lock of no table: %v, want store.ErrNotFound", err)
			}
			return invites.DeleteOpenTable(tx, a.ID)
		})
		mustTx(t, s, func(tx *store.Tx) error {
			if _, err := tx.TableByID(a.ID); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("deleted table: %v", err)
			}
			if is, err := invites.OfTable(tx, a.ID); err != nil || len(is) != 0 {
				t.Errorf("invitations of the deleted table: %v, %v", is, err)
			}
			if ss, err := tx.Seats(a.ID); err != nil || len(ss) != 0 {
				t.Errorf("seats of the deleted table: %v, %v", ss, err)
			}
			if is, err := invites.OfTable(tx, b.ID); err != nil || len(is) != 1 {
				t.Errorf("invitations of the other table: %v, %v", is, err)
			}
			// Only a table whose game never began can go.
			b.Status, b.StartedAt, b.Seq = "playing", ptr(t0), 0
			if err := tx.SaveTable(b, 0); err != nil {
				return err
			}
			if err := invites.DeleteOpenTable(tx, b.ID); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("delete of a started table: %v, want store.ErrNotFound", err)
			}
			return nil
		})
	})
}

// TestAddressBound: an invitee whose address is longer than its column is
// refused with ErrTooLong on both drivers (store's TestSenderStringBounds).
func TestAddressBound(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		from := strings.Repeat("a", 400) + "é@example.org"
		mustTx(t, s, func(tx *store.Tx) error {
			tab := &store.Table{Name: "inv"}
			if err := tx.CreateTable(tab); err != nil {
				return err
			}
			err := invites.Add(tx, &store.Invitation{TableID: tab.ID, Address: from, Expires: t0.Add(time.Hour)})
			if !errors.Is(err, store.ErrTooLong) {
				t.Errorf("Add(long address): %v, want ErrTooLong", err)
			}
			return nil
		})
	})
}
