// Package outbox holds the store's queries of the outbox (EMAIL §4.5):
// mail enqueued in the transaction of the change that caused it, and the
// sending side, in the store's own types: the rows due, and each
// attempt's record. It knows nothing of SMTP (mailer); store/outboxmail
// lets the mailer's dispatcher read it.
package outbox

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"

	"github.com/lexio-mail/lexio/store"
)

// Outbox is the sending side of the outbox: the rows due, and each
// attempt's record. Rows are added with Enqueue in the game's transaction.
type Outbox struct {
	s *store.Store
}

// Try is one attempt at sending a row: its number, and when the row
// is due again should it not end in Sent or a permanent Failed.
type Try struct {
	ID      int64
	Attempt int
	Next    time.Time
}

// New returns s's outbox.
func New(s *store.Store) *Outbox { return &Outbox{s: s} }

// Due returns up to limit pending rows (neither sent nor failed), each with
// its message, whose next attempt is at or before now, in the order they were written: after an
// outage a table's notices go out in turn order, whatever the jitter of
// their retries.
func (o *Outbox) Due(ctx context.Context, now time.Time, limit int) ([]store.OutboxMail, error) {
	var rows []store.OutboxMail
	err := o.s.Read(ctx).
		Where("sent_at IS NULL AND failed_at IS NULL AND next_attempt <= ?", now.UTC()).
		Order("id").
		Limit(limit).
		Find(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("store: outbox due: %w", store.MapErr(err))
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

// Waiting counts the pending rows (neither sent nor failed) and says when
// the oldest of them was written, zero when none waits.
func (o *Outbox) Waiting(ctx context.Context) (n int, oldest time.Time, err error) {
	err = o.s.View(ctx, func(tx *store.Tx) error {
		pending := func() *gorm.DB {
			return tx.DB().Model(&store.OutboxMail{}).Where("sent_at IS NULL AND failed_at IS NULL")
		}
		var count int64
		if err := pending().Count(&count).Error; err != nil || count == 0 {
			return err
		}
		var first store.OutboxMail
		if err := pending().Select("created_at").Order("created_at").Take(&first).Error; err != nil {
			return err
		}
		n, oldest = int(count), first.CreatedAt
		return nil
	})
	if err != nil {
		return 0, time.Time{}, fmt.Errorf("store: outbox waiting: %w", store.MapErr(err))
	}
	return n, oldest, nil
}

// bodies reads the messages of rows, by row id.
func (o *Outbox) bodies(ctx context.Context, rows []store.OutboxMail) (map[int64][]byte, error) {
	if len(rows) == 0 {
		return nil, nil
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	var bs []store.OutboxBody
	if err := o.s.Read(ctx).Where("mail_id IN ?", ids).Find(&bs).Error; err != nil {
		return nil, fmt.Errorf("store: outbox bodies: %w", store.MapErr(err))
	}
	out := make(map[int64][]byte, len(bs))
	for _, b := range bs {
		out[b.MailID] = b.Raw
	}
	return out, nil
}

// Attempt records, before sending, that each try's attempt is under way
// and when its row is due again should that attempt not be confirmed: all
// in one transaction, or none (store.ErrNotFound if a row is not pending).
func (o *Outbox) Attempt(ctx context.Context, tries []Try) error {
	if len(tries) == 0 {
		return nil
	}
	return o.s.Write(ctx, func(db *gorm.DB) error {
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

// Sent marks rows sent: all of them, or none (store.ErrNotFound if one is not
// pending).
func (o *Outbox) Sent(ctx context.Context, ids []int64, at time.Time) error {
	if len(ids) == 0 {
		return nil
	}
	return o.s.Write(ctx, func(db *gorm.DB) error {
		return db.Transaction(func(tx *gorm.DB) error {
			res := tx.Model(&store.OutboxMail{}).
				Where("id IN ? AND sent_at IS NULL AND failed_at IS NULL", ids).
				Updates(map[string]any{"sent_at": at.UTC(), "last_error": ""})
			if res.Error != nil {
				return fmt.Errorf("store: outbox sent %v: %w", ids, store.MapErr(res.Error))
			}
			if res.RowsAffected != int64(len(ids)) {
				return fmt.Errorf("store: outbox sent %v: %d of them not pending: %w", ids, int64(len(ids))-res.RowsAffected, store.ErrNotFound)
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
	err := o.s.Write(ctx, func(db *gorm.DB) error {
		res := db.Model(&store.OutboxMail{}).
			Where("sent_at IS NULL AND failed_at IS NULL AND attempts > 0 AND last_error = '' AND next_attempt > ?", now.UTC()).
			Update("next_attempt", now.UTC())
		n = res.RowsAffected
		return res.Error
	})
	if err != nil {
		return 0, fmt.Errorf("store: outbox resume: %w", store.MapErr(err))
	}
	return int(n), nil
}

// Failed records a failed attempt. A permanent failure takes the row out of
// the queue (failed_at); a temporary one only keeps the reason, and the row
// is due again at the next attempt time recorded by Attempt. It returns
// store.ErrNotFound if the row is not pending.
func (o *Outbox) Failed(ctx context.Context, id int64, at time.Time, reason string, permanent bool) error {
	set := map[string]any{"last_error": reason}
	if permanent {
		set["failed_at"] = at.UTC()
	}
	return o.update(ctx, "failed", id, set)
}

func (o *Outbox) update(ctx context.Context, what string, id int64, set map[string]any) error {
	return o.s.Write(ctx, func(db *gorm.DB) error { return pending(db, what, id, set) })
}

// pending updates row id if it is pending, else says store.ErrNotFound.
func pending(db *gorm.DB, what string, id int64, set map[string]any) error {
	res := db.Model(&store.OutboxMail{}).
		Where("id = ? AND sent_at IS NULL AND failed_at IS NULL", id).
		Updates(set)
	if res.Error != nil {
		return fmt.Errorf("store: outbox %s %d: %w", what, id, store.MapErr(res.Error))
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("store: outbox %s %d: not pending: %w", what, id, store.ErrNotFound)
	}
	return nil
}

// Mail returns one outbox row whatever its state, or store.ErrNotFound.
func (o *Outbox) Mail(ctx context.Context, id int64) (*store.OutboxMail, error) {
	var m store.OutboxMail
	if err := o.s.Read(ctx).Where("id = ?", id).Take(&m).Error; err != nil {
		return nil, fmt.Errorf("store: outbox %d: %w", id, store.MapErr(err))
	}
	raws, err := o.bodies(ctx, []store.OutboxMail{m})
	if err != nil {
		return nil, err
	}
	m.Raw = raws[m.ID]
	return &m, nil
}

// Enqueue adds messages to the outbox in one statement, in the transaction
// of the change that caused them. CreatedAt defaults to now and
// NextAttempt to CreatedAt (due at once); IDs are set.
func Enqueue(tx *store.Tx, ms []*store.OutboxMail) error {
	if len(ms) == 0 {
		return nil
	}
	for _, m := range ms {
		if len(m.To) == 0 {
			return errors.New("store: outbox: no recipients")
		}
		if m.CreatedAt.IsZero() {
			m.CreatedAt = tx.Now()
		}
		m.CreatedAt = m.CreatedAt.UTC()
		if m.NextAttempt.IsZero() {
			m.NextAttempt = m.CreatedAt
		}
		m.NextAttempt = m.NextAttempt.UTC()
	}
	if err := tx.DB().Create(ms).Error; err != nil {
		return fmt.Errorf("store: outbox: %w", store.MapErr(err))
	}
	bodies := make([]store.OutboxBody, len(ms))
	for i, m := range ms {
		bodies[i] = store.OutboxBody{MailID: m.ID, Raw: m.Raw}
		if bodies[i].Raw == nil {
			bodies[i].Raw = []byte{}
		}
	}
	if err := tx.DB().Create(&bodies).Error; err != nil {
		return fmt.Errorf("store: outbox bodies: %w", store.MapErr(err))
	}
	return nil
}
