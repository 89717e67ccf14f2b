// Package confirms holds the store's queries of the confirmation round
// trip (EMAIL §1.7): a command from a sender nothing proved, kept until the
// address answers the mail that asks whether to do it. Each function runs
// in the caller's store.Tx; store.Confirmation is the row. It knows
// nothing of commands or mail (inbox).
package confirms

import (
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/lexio-mail/lexio/store"
)

// MaxCommand bounds a stored command, in characters (the column's size):
// a NOTE or SAY of 500 characters of four bytes each fits.
const MaxCommand = 1000

// Add stores a new confirmation and sets its ID.
func Add(tx *store.Tx, c *store.Confirmation) error {
	c.Address = store.NormalizeAddress(c.Address)
	if n := utf8.RuneCountInString(c.Command); n > MaxCommand {
		return fmt.Errorf("store: confirmation: command of %d characters: %w", n, store.ErrTooLong)
	}
	c.CreatedAt, c.Expires = c.CreatedAt.UTC(), c.Expires.UTC()
	if err := tx.DB().Create(c).Error; err != nil {
		return fmt.Errorf("store: confirmation: %w", store.MapErr(err))
	}
	return nil
}

// Use marks confirmation id of addr used at now and returns
// it, with fresh false when it had been used already or expired before
// now (then nothing changes: UsedAt tells which). It returns store.ErrNotFound
// when addr has no confirmation id.
func Use(tx *store.Tx, id int64, addr string, now time.Time) (c *store.Confirmation, fresh bool, err error) {
	c = new(store.Confirmation)
	if err := tx.First("confirmation", c, "id = ? AND address = ?", id, store.NormalizeAddress(addr)); err != nil {
		return nil, false, err
	}
	if c.UsedAt != nil || now.After(c.Expires) {
		return c, false, nil
	}
	at := now.UTC()
	res := tx.DB().Model(&store.Confirmation{}).Where("id = ? AND used_at IS NULL", id).Update("used_at", at)
	if res.Error != nil {
		return nil, false, fmt.Errorf("store: confirmation: %w", store.MapErr(res.Error))
	}
	if res.RowsAffected == 0 {
		return c, false, nil
	}
	c.UsedAt = &at
	return c, true, nil
}

// HasConfirmed reports whether addr ever answered a confirmation: an
// address that showed that it reads its mail.
func HasConfirmed(tx *store.Tx, addr string) (bool, error) {
	var n int64
	err := tx.DB().Model(&store.Confirmation{}).Where("address = ? AND used_at IS NOT NULL", store.NormalizeAddress(addr)).Limit(1).Count(&n).Error
	if err != nil {
		return false, fmt.Errorf("store: confirmed: %w", store.MapErr(err))
	}
	return n > 0, nil
}
