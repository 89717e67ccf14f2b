package store

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
)

// Outbox is the sending side of the outbox, in the store's own types: the
// rows due, and each attempt's record. Rows are added with Tx.EnqueueMail
// in the game's transaction. The store knows nothing of SMTP; the package
// outboxmail lets the mailer's dispatcher read it.
type Outbox struct {
	s *Store
}

// OutboxTry is one attempt at sending a row: its number, and when the row
// is due again should it not end in Sent or a permanent Failed.
type OutboxTry struct {
	ID      int64
	Attempt int
	Next    time.Time
}

// Outbox returns the store's outbox.
func (s *Store) Outbox() *Outbox { return &Outbox{s: s} }

// Due returns up to limit pending rows (neither sent nor failed), each with
// its message, whose next attempt is at or before now, in the order they were written: after an
// outage a table's notices go out in turn order, whatever the jitter of
// their retries.
func (o *Outbox) Due(ctx context.Context, now time.Time, limit int) ([]OutboxMail, error) {
	var rows []OutboxMail
	err := o.s.db.WithContext(ctx).
		Where("sent_at IS NULL AND failed_at IS NULL AND next_attempt <= ?", now.UTC()).
		Order("id").
		Limit(limit).
		Find(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("store: outbox due: %w", MapErr(err))
	}
	raws, err := o.bodies(ctx, rows)
	if err != nil {
		return nil, err
	}
	for i := range rows {
		rows[i].Raw = raws[rows[i].ID]
	}
	return rows, nil
}

// bodies reads the messages of rows, by row id.
func (o *Outbox) bodies(ctx context.Context, rows []OutboxMail) (map[int64][]byte, error) {
	if len(rows) == 0 {
		return nil, nil
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	var bs []OutboxBody
	if err := o.s.db.WithContext(ctx).Where("mail_id IN ?", ids).Find(&bs).Error; err != nil {
		return nil, fmt.Errorf("store: outbox bodies: %w", MapErr(err))
	}
	out := make(map[int64][]byte, len(bs))
	for _, b := range bs {
		out[b.MailID] = b.Raw
	}
	return out, nil
}

// Attempt records, before sending, that each try's attempt is under way
// and when its row is due again should that attempt not be confirmed: all
// in one transaction, or none (ErrNotFound if a row is not pending).
func (o *Outbox) Attempt(ctx context.Context, tries []OutboxTry) error {
	if len(tries) == 0 {
		return nil
	}
	return o.s.write(ctx, func(db *gorm.DB) error {
		return db.Transaction(func(tx *gorm.DB) error {
			for _, t := range tries {
				if err := pending(tx, "attempt", t.ID, map[string]any{
					"attempts":     t.Attempt,
					"next_attempt": t.Next.UTC(),
					"last_error":   "",
				}); err != nil {
					return err
				}
			}
			return nil
		})
	})
}

// Sent marks rows sent: all of them, or none (ErrNotFound if one is not
// pending).
func (o *Outbox) Sent(ctx context.Context, ids []int64, at time.Time) error {
	if len(ids) == 0 {
		return nil
	}
	return o.s.write(ctx, func(db *gorm.DB) error {
		return db.Transaction(func(tx *gorm.DB) error {
			res := tx.Model(&OutboxMail{}).
				Where("id IN ? AND sent_at IS NULL AND failed_at IS NULL", ids).
				Updates(map[string]any{"sent_at": at.UTC(), "last_error": ""})
			if res.Error != nil {
				return fmt.Errorf("store: outbox sent %v: %w", ids, MapErr(res.Error))
			}
			if res.RowsAffected != int64(len(ids)) {
				return fmt.Errorf("store: outbox sent %v: %d of them not pending: %w", ids, int64(len(ids))-res.RowsAffected, ErrNotFound)
			}
			return nil
		})
	})
}

// Resume makes due at now the rows whose last attempt never ended — the
// process stopped between Attempt and Sent or Failed — so that a restarted
// daemon sends them at once instead of after their backoff. It returns how
// many rows it resumed. Call it before the dispatcher starts.
func (o *Outbox) Resume(ctx context.Context, now time.Time) (int, error) {
	var n int64
	err := o.s.write(ctx, func(db *gorm.DB) error {
		res := db.Model(&OutboxMail{}).
			Where("sent_at IS NULL AND failed_at IS NULL AND attempts > 0 AND last_error = '' AND next_attempt > ?", now.UTC()).
			Update("next_attempt", now.UTC())
		n = res.RowsAffected
		return res.Error
	})
	if err != nil {
		return 0, fmt.Errorf("store: outbox resume: %w", MapErr(err))
	}
	return int(n), nil
}

// Failed records a failed attempt. A permanent failure takes the row out of
// the queue (failed_at); a temporary one only keeps the reason, and the row
// is due again at the next attempt time recorded by Attempt. It returns
// ErrNotFound if the row is not pending.
func (o *Outbox) Failed(ctx context.Context, id int64, at time.Time, reason string, permanent bool) error {
	set := map[string]any{"last_error": reason}
	if permanent {
		set["failed_at"] = at.UTC()
	}
	return o.update(ctx, "failed", id, set)
}

func (o *Outbox) update(ctx context.Context, what string, id int64, set map[string]any) error {
	return o.s.write(ctx, func(db *gorm.DB) error { return pending(db, what, id, set) })
}

// pending updates row id if it is pending, else says ErrNotFound.
func pending(db *gorm.DB, what string, id int64, set map[string]any) error {
	res := db.Model(&OutboxMail{}).
		Where("id = ? AND sent_at IS NULL AND failed_at IS NULL", id).
		Updates(set)
	if res.Error != nil {
		return fmt.Errorf("store: outbox %s %d: %w", what, id, MapErr(res.Error))
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("store: outbox %s %d: not pending: %w", what, id, ErrNotFound)
	}
	return nil
}

// Mail returns one outbox row whatever its state, or ErrNotFound.
func (o *Outbox) Mail(ctx context.Context, id int64) (*OutboxMail, error) {
	var m OutboxMail
	if err := o.s.db.WithContext(ctx).Where("id = ?", id).Take(&m).Error; err != nil {
		return nil, fmt.Errorf("store: outbox %d: %w", id, MapErr(err))
	}
	raws, err := o.bodies(ctx, []OutboxMail{m})
	if err != nil {
		return nil, err
	}
	m.Raw = raws[m.ID]
	return &m, nil
}
