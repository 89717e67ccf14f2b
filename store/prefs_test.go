package store

import (
	"errors"
	"testing"
)

// TestNotify: NOTIFY is stored per player and per seat; PlayersChoosing finds who chose
// the digest, for themselves or at a playing table; SetDigestDay decides a
// day once.
func TestNotify(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		playing := newTable(t, s, "t1", 3) // p0, p1, p2
		over := &Table{Name: "t2", Variant: "lexio", Multipliers: true, Status: "over"}
		mustTx(t, s, func(tx *Tx) error {
			if err := tx.CreateTable(over); err != nil {
				return err
			}
			p3, err := tx.EnsurePlayer("p3@example.org", "en")
			if err != nil {
				return err
			}
			return tx.AddSeat(&Seat{TableID: over.ID, Position: 0, PlayerID: p3.ID})
		})
		mustTx(t, s, func(tx *Tx) error {
			ps, err := tx.PlayersChoosing("digest")
			if err != nil || len(ps) != 0 {
				t.Errorf("digest players before any NOTIFY: %v, %v", ps, err)
			}
			p, err := tx.PlayerByAddress("p0@example.org")
			if err != nil || p.Notify != "" || p.DigestDay != "" {
				t.Errorf("a new player: %+v, %v; want no choice and no digest day", p, err)
			}
			if err := tx.SetPlayerNotify("P0@example.org", "digest"); err != nil {
				return err
			}
			if err := tx.SetSeatNotify(playing.ID, "p1@example.org", "digest"); err != nil {
				return err
			}
			if err := tx.SetSeatNotify(over.ID, "p3@example.org", "digest"); err != nil {
				return err
			}
			if err := tx.SetSeatNotify(playing.ID, "p2@example.org", "turn"); err != nil {
				return err
			}
			if err := tx.SetSeatNotify(over.ID, "p0@example.org", "turn"); !errors.Is(err, ErrNotFound) {
				t.Errorf("SetSeatNotify without a seat: %v, want ErrNotFound", err)
			}
			if err := tx.SetPlayerNotify("nobody@example.org", "turn"); !errors.Is(err, ErrNotFound) {
				t.Errorf("SetPlayerNotify unknown: %v, want ErrNotFound", err)
			}
			ps, err = tx.PlayersChoosing("digest")
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
			if err := tx.SetDigestDay(id, "", "2026-03-01"); err != nil {
				return err
			}
			if err := tx.SetDigestDay(id, "", "2026-03-01"); !errors.Is(err, ErrConflict) {
				t.Errorf("the same day decided twice: %v, want ErrConflict", err)
			}
			if err := tx.SetDigestDay(id, "2026-03-01", "2026-03-02"); err != nil {
				return err
			}
			if err := tx.SetDigestDay(9999, "", "2026-03-01"); !errors.Is(err, ErrNotFound) {
				t.Errorf("SetDigestDay unknown: %v, want ErrNotFound", err)
			}
			p, err = tx.PlayerByAddress("p0@example.org")
			if err != nil || p.DigestDay != "2026-03-02" {
				t.Errorf("digest day %+v, %v", p, err)
			}
			return nil
		})
	})
}
