package store

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestConfirmation: a confirmation is found by its id and address only,
// is used once, and keeps its command (EMAIL §1.7).
func TestConfirmation(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		c := &Confirmation{Address: " Alice@Example.org", Command: "RESIGN t42", Lang: "fr", MessageID: "m1@x",
			CreatedAt: t0, Expires: t0.Add(24 * time.Hour)}
		mustTx(t, s, func(tx *Tx) error { return tx.AddConfirmation(c) })
		if c.ID == 0 || c.Address != "alice@example.org" {
			t.Fatalf("stored %+v", c)
		}
		mustTx(t, s, func(tx *Tx) error {
			if _, _, err := tx.UseConfirmation(c.ID, "bob@example.org", t0); !errors.Is(err, ErrNotFound) {
				t.Errorf("another address: %v, want ErrNotFound", err)
			}
			if _, _, err := tx.UseConfirmation(c.ID+1, "alice@example.org", t0); !errors.Is(err, ErrNotFound) {
				t.Errorf("another id: %v, want ErrNotFound", err)
			}
			if ok, err := tx.HasConfirmed("alice@example.org"); ok || err != nil {
				t.Errorf("HasConfirmed before any answer: %v, %v", ok, err)
			}
			got, fresh, err := tx.UseConfirmation(c.ID, "ALICE@example.org", t0.Add(time.Hour))
			if err != nil || !fresh || got.Command != "RESIGN t42" || got.Lang != "fr" || !got.Expires.Equal(t0.Add(24*time.Hour)) {
				t.Errorf("first use: %+v, %v, %v", got, fresh, err)
			}
			if ok, err := tx.HasConfirmed("Alice@example.org"); !ok || err != nil {
				t.Errorf("HasConfirmed after an answer: %v, %v", ok, err)
			}
			got, fresh, err = tx.UseConfirmation(c.ID, "alice@example.org", t0.Add(2*time.Hour))
			if err != nil || fresh || got.UsedAt == nil || !got.UsedAt.Equal(t0.Add(time.Hour)) {
				t.Errorf("second use: %+v, %v, %v; want the first use's time and not fresh", got, fresh, err)
			}
			return nil
		})
		late := &Confirmation{Address: "a@b.org", Command: "LANG fr", CreatedAt: t0, Expires: t0.Add(time.Hour)}
		mustTx(t, s, func(tx *Tx) error { return tx.AddConfirmation(late) })
		for i := range 2 {
			mustTx(t, s, func(tx *Tx) error {
				got, fresh, err := tx.UseConfirmation(late.ID, "a@b.org", t0.Add(2*time.Hour))
				if err != nil || fresh || got.UsedAt != nil {
					t.Errorf("use %d after it expired: %+v, %v, %v; want not fresh and never used", i+1, got, fresh, err)
				}
				return nil
			})
		}
		long := &Confirmation{Address: "a@b.org", Command: strings.Repeat("x", MaxCommand+1), CreatedAt: t0, Expires: t0}
		if err := s.Tx(t.Context(), func(tx *Tx) error { return tx.AddConfirmation(long) }); err == nil {
			t.Error("a command over MaxCommand was stored")
		}
		// The bound is in characters, as the column's: a NOTE of 500
		// four-byte characters is kept whole.
		wide := &Confirmation{Address: "a@b.org", Command: "NOTE t42 " + strings.Repeat("🎉", MaxCommand-9), CreatedAt: t0, Expires: t0.Add(time.Hour)}
		mustTx(t, s, func(tx *Tx) error { return tx.AddConfirmation(wide) })
		mustTx(t, s, func(tx *Tx) error {
			got, _, err := tx.UseConfirmation(wide.ID, "a@b.org", t0)
			if err != nil || got.Command != wide.Command {
				t.Errorf("a command of %d characters read back as %d bytes: %v", MaxCommand, len(got.Command), err)
			}
			return nil
		})
	})
}
