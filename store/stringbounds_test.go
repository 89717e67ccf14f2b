package store

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestSenderStringBounds: what a sender writes fits its columns on every
// driver. A Message-ID longer than its 998 characters, or a From longer
// than 320, made PostgreSQL refuse the message's record, error record
// included: the message stayed in the inbox, tried again for ever, and
// the messages after it waited. A long Message-ID is now recorded as its
// hash (found again by MessageSeen and MessageByID, a duplicate still
// refused), a long From is cut; a player with an address too long is
// refused with ErrTooLong on both drivers (an invitee too:
// store/invites); a rate counter's key holding such an address is
// counted all the same.
func TestSenderStringBounds(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		long := strings.Repeat("é", 1500) + "@example.org"
		other := strings.Repeat("é", 1500) + "@example.net" // the same first 998 characters
		from := strings.Repeat("a", 400) + "é@example.org"
		mustTx(t, s, func(tx *Tx) error {
			if err := tx.RecordMessage(&Message{MessageID: long, From: from, Outcome: "error", At: t0}); err != nil {
				return err
			}
			if err := tx.RecordMessage(&Message{MessageID: other, Outcome: "error", At: t0}); err != nil {
				return err
			}
			if err := tx.RecordMessage(&Message{MessageID: long, Outcome: "error", At: t0}); !errors.Is(err, ErrDuplicate) {
				t.Errorf("the long Message-ID again: %v, want ErrDuplicate", err)
			}
			return nil
		})
		mustTx(t, s, func(tx *Tx) error {
			if seen, err := tx.MessageSeen(long); err != nil || !seen {
				t.Errorf("MessageSeen(long) = %v, %v", seen, err)
			}
			m, err := tx.MessageByID(long)
			if err != nil {
				return err
			}
			if len([]rune(m.From)) != MaxAddress || !strings.HasPrefix(from, m.From) {
				t.Errorf("From recorded: %d characters %q", len([]rune(m.From)), m.From)
			}
			if _, err := tx.EnsurePlayer(from, "en"); !errors.Is(err, ErrTooLong) {
				t.Errorf("EnsurePlayer(long address): %v, want ErrTooLong", err)
			}
			// A rate key holds an address: a long one is counted all the same.
			key := "say:" + from
			for i, want := range []bool{true, false} {
				if ok, err := tx.TakeRate(key, 1, time.Hour, t0); err != nil || ok != want {
					t.Errorf("TakeRate(long key) #%d = %v, %v; want %v", i+1, ok, err, want)
				}
			}
			if _, hits, err := tx.RateWindow(key, time.Hour, t0); err != nil || hits != 1 {
				t.Errorf("RateWindow(long key) = %d, %v", hits, err)
			}
			return nil
		})
	})
}
