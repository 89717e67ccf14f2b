package invites_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/invites"
)

// TestInviteLog: the log counts invitations per address and per opener
// over a window, whatever became of their table, and remembers declines;
// pruning forgets what no bound looks back to (LEAGUES §6).
func TestInviteLog(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		mustTx(t, s, func(tx *store.Tx) error {
			for i, e := range []struct {
				ev           store.InviteEvent
				opener, addr string
			}{
				{store.LogSent, "Alice@example.org", "bob@example.org"},
				{store.LogSent, "carol@example.org", "BOB@example.org"},
				{store.LogSent, "alice@example.org", "dave@example.org"},
				{store.LogDeclined, "alice@example.org", "bob@example.org"},
			} {
				if err := invites.Log(tx, e.ev, e.opener, e.addr, t0.Add(time.Duration(i)*time.Hour)); err != nil {
					return err
				}
			}
			return nil
		})
		err := s.View(context.Background(), func(tx *store.Tx) error {
			for _, c := range []struct {
				what  string
				count func() (int, error)
				want  int
			}{
				{"to bob, since before all", func() (int, error) { return invites.SentTo(tx, "bob@example.org", t0.Add(-time.Hour)) }, 2},
				{"to bob, after the first", func() (int, error) { return invites.SentTo(tx, "bob@example.org", t0) }, 1},
				{"by alice", func() (int, error) { return invites.SentBy(tx, "ALICE@example.org", t0.Add(-time.Hour)) }, 2},
				{"by carol, later", func() (int, error) { return invites.SentBy(tx, "carol@example.org", t0.Add(time.Hour)) }, 0},
			} {
				n, err := c.count()
				if err != nil {
					return err
				}
				if n != c.want {
					t.Errorf("%s: %d, want %d", c.what, n, c.want)
				}
			}
			if d, err := invites.DeclinedBy(tx, "bob@example.org", "alice@example.org", t0); err != nil || !d {
				t.Errorf("bob declined alice: %v, %v", d, err)
			}
			if d, err := invites.DeclinedBy(tx, "bob@example.org", "carol@example.org", t0.Add(-time.Hour)); err != nil || d {
				t.Errorf("bob declined carol: %v, %v", d, err)
			}
			if d, err := invites.DeclinedBy(tx, "bob@example.org", "alice@example.org", t0.Add(3*time.Hour)); err != nil || d {
				t.Errorf("bob declined alice after the decline: %v, %v", d, err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		mustTx(t, s, func(tx *store.Tx) error { return invites.PruneLog(tx, t0.Add(30*time.Minute)) })
		mustTx(t, s, func(tx *store.Tx) error {
			n, err := invites.SentTo(tx, "bob@example.org", t0.Add(-time.Hour))
			if n != 1 {
				t.Errorf("after pruning: %d invitations to bob, want 1", n)
			}
			return err
		})
	})
}

// TestInviteRefusals: a refusal is kept once per address, in any case.
func TestInviteRefusals(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		mustTx(t, s, func(tx *store.Tx) error {
			for i, want := range []bool{true, false} {
				isNew, err := invites.Refuse(tx, []string{"Bob@Example.org", "bob@example.org"}[i], t0)
				if err != nil {
					return err
				}
				if isNew != want {
					t.Errorf("refusal %d new: %v, want %v", i, isNew, want)
				}
			}
			for addr, want := range map[string]bool{"BOB@example.org": true, "carol@example.org": false} {
				got, err := invites.Refuses(tx, addr)
				if err != nil {
					return err
				}
				if got != want {
					t.Errorf("%s refuses: %v, want %v", addr, got, want)
				}
			}
			return nil
		})
	})
}

// TestOpenTablesBy: the open tables an opener holds, and the ones that
// lapsed: never started, made long enough ago, with nothing pending.
func TestOpenTablesBy(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		newTable(t, s, "playing", 2)
		var lonely, invited, other store.Table
		mustTx(t, s, func(tx *store.Tx) error {
			p0, err := tx.PlayerByAddress("p0@example.org")
			if err != nil {
				return err
			}
			p1, err := tx.PlayerByAddress("p1@example.org")
			if err != nil {
				return err
			}
			for _, c := range []struct {
				t    *store.Table
				name string
				by   *store.Player
			}{{&lonely, "lonely", p0}, {&invited, "invited", p0}, {&other, "other", p1}} {
				c.t.Name, c.t.Status = c.name, "open"
				if err := tx.CreateTable(c.t); err != nil {
					return err
				}
				if err := tx.AddSeat(&store.Seat{TableID: c.t.ID, Position: 0, PlayerID: c.by.ID}); err != nil {
					return err
				}
			}
			return invites.Add(tx, &store.Invitation{TableID: invited.ID, Address: "z@example.org", Expires: t0.Add(time.Hour)})
		})
		mustTx(t, s, func(tx *store.Tx) error {
			n, err := invites.OpenTablesBy(tx, "P0@example.org")
			if err != nil {
				return err
			}
			if n != 2 {
				t.Errorf("p0 holds %d open tables, want 2 (the playing one is not)", n)
			}
			ids, err := invites.LapsedOpenTables(tx, t0.Add(time.Minute), 10)
			if err != nil {
				return err
			}
			if want := []int64{lonely.ID, other.ID}; !slices.Equal(ids, want) {
				t.Errorf("lapsed: %v, want %v (not the one with an invitation pending)", ids, want)
			}
			ids, err = invites.LapsedOpenTables(tx, t0.Add(-time.Minute), 10)
			if len(ids) != 0 {
				t.Errorf("lapsed before their making: %v", ids)
			}
			return err
		})
	})
}
