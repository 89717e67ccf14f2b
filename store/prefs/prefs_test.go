package prefs_test

import (
	"errors"
	"testing"

	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/prefs"
	"github.com/lexio-mail/lexio/store/testdb"
)

// NOTIFY is stored per player and per seat; DigestPlayers finds who chose
// the digest, for themselves or at a playing table; SetDigestDay decides a
// day once.
func TestNotify(t *testing.T) {
	testdb.EachDriver(t, func(t *testing.T, open testdb.Opener) {
		s := open(t)
		playing := testdb.NewTable(t, s, "t1", 3) // p0, p1, p2
		over := &store.Table{Name: "t2", Variant: "lexio", Multipliers: true, Status: "over"}
		testdb.MustTx(t, s, func(tx *store.Tx) error {
			if err := tx.CreateTable(over); err != nil {
				return err
			}
			p3, err := tx.EnsurePlayer("p3@example.org", "en")
			if err != nil {
				return err
			}
			return tx.AddSeat(&store.Seat{TableID: over.ID, Position: 0, PlayerID: p3.ID})
		})
		testdb.MustTx(t, s, func(tx *store.Tx) error {
			ps, err := prefs.PlayersChoosing(tx, "digest")
			if err != nil || len(ps) != 0 {
				t.Errorf("digest players before any NOTIFY: %v, %v", ps, err)
			}
			p, err := tx.PlayerByAddress("p0@example.org")
			if err != nil || p.Notify != "" || p.DigestDay != "" {
				t.Errorf("a new player: %+v, %v; want no choice and no digest day", p, err)
			}
			if err := prefs.SetPlayerNotify(tx, "P0@example.org", "digest"); err != nil {
				return err
			}
			if err := prefs.SetSeatNotify(tx, playing.ID, "p1@example.org", "digest"); err != nil {
				return err
			}
			if err := prefs.SetSeatNotify(tx, over.ID, "p3@example.org", "digest"); err != nil {
				return err
			}
			if err := prefs.SetSeatNotify(tx, playing.ID, "p2@example.org", "turn"); err != nil {
				return err
			}
			if err := prefs.SetSeatNotify(tx, over.ID, "p0@example.org", "turn"); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("SetSeatNotify without a seat: %v, want store.ErrNotFound", err)
			}
			if err := prefs.SetPlayerNotify(tx, "nobody@example.org", "turn"); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("SetPlayerNotify unknown: %v, want store.ErrNotFound", err)
			}
			ps, err = prefs.PlayersChoosing(tx, "digest")
			if err != nil {
				return err
			}
			var got []string
			for _, p := range ps {
				got = append(got, p.Address+":"+p.Notify)
			}
			// p3's digest is at a finished table: nothing to wait for.
			if len(got) != 2 || got[0] != "p0@example.org:digest" || got[1] != "p1@example.org:" {
				t.Errorf("digest players %v, want p0 (theirs) and p1 (at t1)", got)
			}
			seats, err := tx.Seats(playing.ID)
			if err != nil {
				return err
			}
			if seats[0].Notify != "" || seats[1].Notify != "digest" || seats[2].Notify != "turn" {
				t.Errorf("seats' notify %q %q %q", seats[0].Notify, seats[1].Notify, seats[2].Notify)
			}

			// A seat that changes hands drops its holder's choice.
			p4, err := tx.EnsurePlayer("p4@example.org", "en")
			if err != nil {
				return err
			}
			if err := tx.MoveSeat(playing.ID, 2, p4.ID); err != nil {
				return err
			}
			if seats, err = tx.Seats(playing.ID); err != nil || seats[2].Notify != "" || seats[2].PlayerID != p4.ID {
				t.Errorf("the seat after MoveSeat: %+v, %v; want p4's, with no choice", seats[2], err)
			}

			id := ps[0].ID
			if err := prefs.SetDigestDay(tx, id, "", "2026-03-01"); err != nil {
				return err
			}
			if err := prefs.SetDigestDay(tx, id, "", "2026-03-01"); !errors.Is(err, store.ErrConflict) {
				t.Errorf("the same day decided twice: %v, want store.ErrConflict", err)
			}
			if err := prefs.SetDigestDay(tx, id, "2026-03-01", "2026-03-02"); err != nil {
				return err
			}
			if err := prefs.SetDigestDay(tx, 9999, "", "2026-03-01"); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("SetDigestDay unknown: %v, want store.ErrNotFound", err)
			}
			p, err = tx.PlayerByAddress("p0@example.org")
			if err != nil || p.DigestDay != "2026-03-02" {
				t.Errorf("digest day %+v, %v", p, err)
			}
			return nil
		})
	})
}
