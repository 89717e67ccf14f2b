package invites_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/invites"
)

// TestInvitesPerPerson: the log, the refusals and the pending invitations
// STOP declines count every spelling of one mailbox (store.PersonKey) as
// one person; another mailbox of the same domain stays apart; and rows
// kept before keys, under a whole lowercase address, still count for it.
func TestInvitesPerPerson(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		tabs := []*store.Table{{Name: "pp-a", Status: "open"}, {Name: "pp-b", Status: "open"}, {Name: "pp-c", Status: "open"}}
		mustTx(t, s, func(tx *store.Tx) error {
			for i, a := range []string{"victim+1@example.org", "Victim+2@example.org", "victim+3@example.org"} {
				if err := invites.Log(tx, store.LogSent, "mal+"+a[7:8]+"@example.org", a, t0.Add(time.Duration(i)*time.Minute)); err != nil {
					return err
				}
			}
			if err := invites.Log(tx, store.LogDeclined, "mal@example.org", "victim+x@example.org", t0); err != nil {
				return err
			}
			// A row written before keys were: a whole address.
			if err := tx.DB().Create(&store.InviteLog{Event: store.LogSent, Opener: "old+1@example.org", Address: "ann+1@example.org", At: t0}).Error; err != nil {
				return err
			}
			if err := tx.DB().Create(&store.InviteRefusal{Address: "ann+1@example.org", CreatedAt: t0}).Error; err != nil {
				return err
			}
			for i, tab := range tabs {
				if err := tx.CreateTable(tab); err != nil {
					return err
				}
				addr := []string{"victim+a@example.org", "victim@example.org", "victimnot@example.org"}[i]
				if err := invites.Add(tx, &store.Invitation{TableID: tab.ID, Address: addr, Expires: t0.Add(time.Hour)}); err != nil {
					return err
				}
			}
			if err := invites.Add(tx, &store.Invitation{TableID: tabs[2].ID, Address: "victim+b@example.net", Expires: t0.Add(time.Hour)}); err != nil {
				return err
			}
			return nil
		})
		mustTx(t, s, func(tx *store.Tx) error {
			since := t0.Add(-time.Hour)
			for _, c := range []struct {
				what string
				n    func() (int, error)
				want int
			}{
				{"to victim", func() (int, error) { return invites.SentTo(tx, "victim@example.org", since) }, 3},
				{"to victim+9", func() (int, error) { return invites.SentTo(tx, `"VICTIM+9"@example.org`, since) }, 3},
				{"to victimnot", func() (int, error) { return invites.SentTo(tx, "victimnot@example.org", since) }, 0},
				{"by mal+4", func() (int, error) { return invites.SentBy(tx, "mal+4@example.org", since) }, 3},
				{"to ann+1, logged before keys", func() (int, error) { return invites.SentTo(tx, "ann+1@example.org", since) }, 1},
				{"by old+1, logged before keys", func() (int, error) { return invites.SentBy(tx, "OLD+1@example.org", since) }, 1},
			} {
				if n, err := c.n(); err != nil || n != c.want {
					t.Errorf("sent %s: %d (%v), want %d", c.what, n, err, c.want)
				}
			}
			if d, err := invites.DeclinedBy(tx, "victim+y@example.org", "mal+z@example.org", since); err != nil || !d {
				t.Errorf("victim+y declined mal+z: %v, %v; want true", d, err)
			}
			if _, err := invites.Refuse(tx, "victim+stop@example.org", t0); err != nil {
				return err
			}
			for addr, want := range map[string]bool{
				"victim@example.org": true, "victim+afterstop@example.org": true, `"Victim"@example.org`: true,
				"victimnot@example.org": false, "victim@example.net": false, "ann+1@example.org": true,
			} {
				if got, err := invites.Refuses(tx, addr); err != nil || got != want {
					t.Errorf("%s refuses: %v (%v), want %v", addr, got, err, want)
				}
			}
			pend, err := invites.PendingOf(tx, "victim+stop@example.org")
			if err != nil {
				return err
			}
			var got []string
			for _, inv := range pend {
				got = append(got, inv.Table.Name+" "+inv.Address)
			}
			if len(got) != 2 || got[0] != "pp-a victim+a@example.org" || got[1] != "pp-b victim@example.org" {
				t.Errorf("victim's pending invitations: %q", got)
			}
			return nil
		})
	})
}

// TestOpenersPerPerson: the open tables and the pending invitations of an
// opener count those of every spelling of their address, not those of
// another person at their domain.
func TestOpenersPerPerson(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		mustTx(t, s, func(tx *store.Tx) error {
			for i, by := range []string{"mal@example.org", "mal+2@example.org", "Mal+3@example.org", "malory@example.org", "mal@example.net"} {
				p, err := tx.EnsurePlayer(by, "en")
				if err != nil {
					return err
				}
				tab := &store.Table{Name: fmt.Sprintf("op-%d", i), Status: "open"}
				if err := tx.CreateTable(tab); err != nil {
					return err
				}
				if err := tx.AddSeat(&store.Seat{TableID: tab.ID, Position: 0, PlayerID: p.ID}); err != nil {
					return err
				}
				if err := invites.Add(tx, &store.Invitation{TableID: tab.ID, Address: "z@example.org", Expires: t0.Add(time.Hour)}); err != nil {
					return err
				}
			}
			return nil
		})
		mustTx(t, s, func(tx *store.Tx) error {
			for _, by := range []string{"mal@example.org", "mal+9@example.org", `"MAL"@example.org`} {
				if n, err := invites.OpenTablesBy(tx, by); err != nil || n != 3 {
					t.Errorf("open tables by %s: %d (%v), want 3", by, n, err)
				}
				if n, err := invites.PendingBy(tx, by); err != nil || n != 3 {
					t.Errorf("invitations pending by %s: %d (%v), want 3", by, n, err)
				}
			}
			if n, err := invites.OpenTablesBy(tx, "mal@example.net"); err != nil || n != 1 {
				t.Errorf("open tables by mal@example.net: %d (%v), want 1", n, err)
			}
			return nil
		})
	})
}
