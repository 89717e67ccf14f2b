package store

import (
	"errors"
	"fmt"
	"time"
	"unicode/utf8"
)

// ---- invitations (LEAGUES §6)

// AddInvitation records an invitation (its ID is set), pending until
// answered; ErrDuplicate when the address is already invited there.
// CreatedAt defaults to now.
func (tx *Tx) AddInvitation(inv *Invitation) error {
	inv.Address = NormalizeAddress(inv.Address)
	if inv.Address == "" {
		return errors.New("store: invitation: empty address")
	}
	if n := utf8.RuneCountInString(inv.Address); n > MaxAddress {
		return fmt.Errorf("store: invitation: an address of %d characters, over %d: %w", n, MaxAddress, ErrTooLong)
	}
	if inv.State == "" {
		inv.State = InvitePending
	}
	if inv.CreatedAt.IsZero() {
		inv.CreatedAt = tx.now()
	}
	inv.CreatedAt, inv.Expires = inv.CreatedAt.UTC(), inv.Expires.UTC()
	return tx.Insert("invitation", inv)
}

// Invitations returns a table's invitations in the order they were made
// (none for a table anyone may join).
func (tx *Tx) Invitations(tableID int64) ([]Invitation, error) {
	var is []Invitation
	if err := tx.db.Where("table_id = ?", tableID).Order("id").Find(&is).Error; err != nil {
		return nil, fmt.Errorf("store: invitations: %w", MapErr(err))
	}
	return is, nil
}

// InvitationOf returns the invitation of addr to a table, or ErrNotFound.
func (tx *Tx) InvitationOf(tableID int64, addr string) (*Invitation, error) {
	var inv Invitation
	if err := tx.First("invitation", &inv, "table_id = ? AND address = ?", tableID, NormalizeAddress(addr)); err != nil {
		return nil, err
	}
	return &inv, nil
}

// PendingInvitationsOf returns the pending invitations of addr, each with
// its Table, oldest first.
func (tx *Tx) PendingInvitationsOf(addr string) ([]Invitation, error) {
	var is []Invitation
	err := tx.db.Preload("Table").
		Where("address = ? AND state = ?", NormalizeAddress(addr), InvitePending).
		Order("id").Find(&is).Error
	if err != nil {
		return nil, fmt.Errorf("store: pending invitations: %w", MapErr(err))
	}
	return is, nil
}

// AnswerInvitation moves a pending invitation to state, answered at at.
// An invitation no longer pending (another writer answered it first)
// gives ErrConflict; an unknown one ErrNotFound.
func (tx *Tx) AnswerInvitation(id int64, state InvitationState, at time.Time) error {
	if state == InvitePending {
		return errors.New("store: invitation: an answer cannot be pending")
	}
	at = at.UTC()
	res := tx.db.Model(&Invitation{}).Where("id = ? AND state = ?", id, InvitePending).
		Updates(map[string]any{"state": state, "answered_at": at})
	if res.Error != nil {
		return fmt.Errorf("store: answer invitation %d: %w", id, MapErr(res.Error))
	}
	if res.RowsAffected == 1 {
		return nil
	}
	var n int64
	if err := tx.db.Model(&Invitation{}).Where("id = ?", id).Count(&n).Error; err != nil {
		return fmt.Errorf("store: answer invitation %d: %w", id, MapErr(err))
	}
	if n == 0 {
		return fmt.Errorf("store: answer invitation %d: %w", id, ErrNotFound)
	}
	return fmt.Errorf("store: answer invitation %d: no longer pending: %w", id, ErrConflict)
}

// DueInvitationTables returns up to limit ids of tables with a pending
// invitation that expired at or before now, the earliest expiry first
// (ties by id), so that the ones missed while the daemon was down are
// handled in order.
func (tx *Tx) DueInvitationTables(now time.Time, limit int) ([]int64, error) {
	var ids []int64
	err := tx.db.Model(&Invitation{}).
		Where("state = ? AND expires <= ?", InvitePending, now.UTC()).
		Group("table_id").
		Order("MIN(expires), table_id").
		Limit(limit).
		Pluck("table_id", &ids).Error
	if err != nil {
		return nil, fmt.Errorf("store: due invitations: %w", MapErr(err))
	}
	return ids, nil
}

// LockTable takes the table's row for the rest of the transaction (it
// writes its UpdatedAt), so that writers of its seats and invitations
// take turns: what they read after it is what the one before committed.
// ErrNotFound when there is no such table.
func (tx *Tx) LockTable(id int64) error {
	res := tx.db.Model(&Table{}).Where("id = ?", id).Update("updated_at", tx.now().UTC())
	if res.Error != nil {
		return fmt.Errorf("store: lock table %d: %w", id, MapErr(res.Error))
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("store: lock table %d: %w", id, ErrNotFound)
	}
	return nil
}

// DeleteOpenTable removes a table whose game never started, with its
// seats and invitations; ErrNotFound when there is no such open table.
func (tx *Tx) DeleteOpenTable(id int64) error {
	var t Table
	if err := tx.First("open table", &t, "id = ? AND status = ? AND started_at IS NULL", id, statusOpen); err != nil {
		return err
	}
	for _, m := range []any{&Invitation{}, &Seat{}} {
		if err := tx.db.Where("table_id = ?", id).Delete(m).Error; err != nil {
			return fmt.Errorf("store: delete table %d: %w", id, MapErr(err))
		}
	}
	if err := tx.db.Delete(&Table{}, id).Error; err != nil {
		return fmt.Errorf("store: delete table %d: %w", id, MapErr(err))
	}
	return nil
}

// PendingInvitationsBy counts the pending invitations of the open tables
// where the player with addr holds the first seat: the invitations they
// sent that still wait for an answer.
func (tx *Tx) PendingInvitationsBy(addr string) (int, error) {
	var n int64
	err := tx.db.Model(&Invitation{}).
		Joins("JOIN seats ON seats.table_id = invitations.table_id AND seats.position = 0").
		Joins("JOIN players ON players.id = seats.player_id").
		Where("players.address = ? AND invitations.state = ?", NormalizeAddress(addr), InvitePending).
		Count(&n).Error
	if err != nil {
		return 0, fmt.Errorf("store: invitations sent: %w", MapErr(err))
	}
	return int(n), nil
}

// ---- the bounds on invitations (LEAGUES §6)

// LogInvite records that opener sent an invitation to addr at at
// (LogSent), or that addr declined one of opener's (LogDeclined).
func (tx *Tx) LogInvite(ev InviteEvent, opener, addr string, at time.Time) error {
	row := InviteLog{Event: ev, Opener: NormalizeAddress(opener), Address: NormalizeAddress(addr), At: at.UTC()}
	if err := tx.db.Create(&row).Error; err != nil {
		return fmt.Errorf("store: invitation log: %w", MapErr(err))
	}
	return nil
}

// InvitesTo counts the invitations sent to addr, by anyone, after since.
func (tx *Tx) InvitesTo(addr string, since time.Time) (int, error) {
	return tx.countLog("event = ? AND address = ? AND at > ?", LogSent, NormalizeAddress(addr), since.UTC())
}

// InvitesBy counts the invitations opener sent after since, whatever
// became of them.
func (tx *Tx) InvitesBy(opener string, since time.Time) (int, error) {
	return tx.countLog("event = ? AND opener = ? AND at > ?", LogSent, NormalizeAddress(opener), since.UTC())
}

// DeclinedBy reports whether addr declined an invitation of opener's
// after since.
func (tx *Tx) DeclinedBy(addr, opener string, since time.Time) (bool, error) {
	n, err := tx.countLog("event = ? AND opener = ? AND address = ? AND at > ?", LogDeclined,
		NormalizeAddress(opener), NormalizeAddress(addr), since.UTC())
	return n > 0, err
}

func (tx *Tx) countLog(query string, args ...any) (int, error) {
	var n int64
	if err := tx.db.Model(&InviteLog{}).Where(query, args...).Count(&n).Error; err != nil {
		return 0, fmt.Errorf("store: invitation log: %w", MapErr(err))
	}
	return int(n), nil
}

// PruneInviteLog deletes the log's rows from before before: no bound
// looks back that far.
func (tx *Tx) PruneInviteLog(before time.Time) error {
	if err := tx.db.Where("at < ?", before.UTC()).Delete(&InviteLog{}).Error; err != nil {
		return fmt.Errorf("store: prune invitation log: %w", MapErr(err))
	}
	return nil
}

// RefuseInvitations records that addr is never to be invited again; a
// second time changes nothing. It reports whether the refusal is new.
func (tx *Tx) RefuseInvitations(addr string, at time.Time) (bool, error) {
	err := tx.Insert("invitation refusal", &InviteRefusal{Address: NormalizeAddress(addr), CreatedAt: at.UTC()})
	if errors.Is(err, ErrDuplicate) {
		return false, nil
	}
	return err == nil, err
}

// RefusesInvitations reports whether addr asked never to be invited.
func (tx *Tx) RefusesInvitations(addr string) (bool, error) {
	var n int64
	if err := tx.db.Model(&InviteRefusal{}).Where("address = ?", NormalizeAddress(addr)).Count(&n).Error; err != nil {
		return false, fmt.Errorf("store: invitation refusal: %w", MapErr(err))
	}
	return n > 0, nil
}

// OpenTablesBy counts the open tables, not started, where the player with
// addr holds the first seat.
func (tx *Tx) OpenTablesBy(addr string) (int, error) {
	var n int64
	err := tx.db.Model(&Table{}).
		Joins("JOIN seats ON seats.table_id = tables.id AND seats.position = 0").
		Joins("JOIN players ON players.id = seats.player_id").
		Where("players.address = ? AND tables.status = ? AND tables.started_at IS NULL", NormalizeAddress(addr), statusOpen).
		Count(&n).Error
	if err != nil {
		return 0, fmt.Errorf("store: open tables: %w", MapErr(err))
	}
	return int(n), nil
}

// LapsedOpenTables returns up to limit ids of open tables, never started,
// created at or before before and with no invitation pending (those lapse
// with their invitations), the oldest first.
func (tx *Tx) LapsedOpenTables(before time.Time, limit int) ([]int64, error) {
	var ids []int64
	pending := tx.db.Model(&Invitation{}).Select("1").
		Where("invitations.table_id = tables.id AND invitations.state = ?", InvitePending)
	err := tx.db.Model(&Table{}).
		Where("status = ? AND started_at IS NULL AND created_at <= ? AND NOT EXISTS (?)", statusOpen, before.UTC(), pending).
		Order("created_at, id").Limit(limit).Pluck("id", &ids).Error
	if err != nil {
		return nil, fmt.Errorf("store: lapsed open tables: %w", MapErr(err))
	}
	return ids, nil
}
