package store

import (
	"fmt"
	"time"
	"unicode/utf8"
)

// The store's queries of the confirmation round trip (EMAIL §1.7): a
// command from a sender nothing proved, kept until the address answers
// the mail that asks whether to do it; Confirmation is the row. They know
// nothing of commands or mail (inbox).

// MaxCommand bounds a stored command, in characters (the column's size):
// a NOTE or SAY of 500 characters of four bytes each fits.
const MaxCommand = 1000

// AddConfirmation stores a new confirmation and sets its ID.
func (tx *Tx) AddConfirmation(c *Confirmation) error {
	c.Address = NormalizeAddress(c.Address)
	if n := utf8.RuneCountInString(c.Command); n > MaxCommand {
		return fmt.Errorf("store: confirmation: command of %d characters: %w", n, ErrTooLong)
	}
	c.CreatedAt, c.Expires = c.CreatedAt.UTC(), c.Expires.UTC()
	if err := tx.db.Create(c).Error; err != nil {
		return fmt.Errorf("store: confirmation: %w", MapErr(err))
	}
	return nil
}

// UseConfirmation marks confirmation id of addr used at now and returns
// it, with fresh false when it had been used already or expired before
// now (then nothing changes: UsedAt tells which). It returns ErrNotFound
// when addr has no confirmation id.
func (tx *Tx) UseConfirmation(id int64, addr string, now time.Time) (c *Confirmation, fresh bool, err error) {
	c = new(Confirmation)
	if err := tx.First("confirmation", c, "id = ? AND address = ?", id, NormalizeAddress(addr)); err != nil {
		return nil, false, err
	}
	if c.UsedAt != nil || now.After(c.Expires) {
		return c, false, nil
	}
	at := now.UTC()
	res := tx.db.Model(&Confirmation{}).Where("id = ? AND used_at IS NULL", id).Update("used_at", at)
	if res.Error != nil {
		return nil, false, fmt.Errorf("store: confirmation: %w", MapErr(res.Error))
	}
	if res.RowsAffected == 0 {
		return c, false, nil
	}
	c.UsedAt = &at
	return c, true, nil
}

// HasConfirmed reports whether addr ever answered a confirmation: an
// address that showed that it reads its mail.
func (tx *Tx) HasConfirmed(addr string) (bool, error) {
	var n int64
	err := tx.db.Model(&Confirmation{}).Where("address = ? AND used_at IS NOT NULL", NormalizeAddress(addr)).Limit(1).Count(&n).Error
	if err != nil {
		return false, fmt.Errorf("store: confirmed: %w", MapErr(err))
	}
	return n > 0, nil
}
