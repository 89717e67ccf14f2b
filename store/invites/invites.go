// Package invites holds the store's queries of invitations to open
// tables (LEAGUES §6): the invitations and their answers, the log that the
// bounds on invitations count, the addresses that refuse them, the open
// tables that lapse, and a rematch's table and seats (§6.2). Each
// function runs in the caller's store.Tx; the rows are store's models. It
// knows nothing of commands or mail (lobby).
package invites

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/lexio-mail/lexio/store"
	"gorm.io/gorm"
)

// ---- invitations (LEAGUES §6)

// Add records an invitation (its ID is set), pending until
// answered; store.ErrDuplicate when the address is already invited there.
// CreatedAt defaults to now.
func Add(tx *store.Tx, inv *store.Invitation) error {
	inv.Address = store.NormalizeAddress(inv.Address)
	if inv.Address == "" {
		return errors.New("store: invitation: empty address")
	}
	if n := utf8.RuneCountInString(inv.Address); n > store.MaxAddress {
		return fmt.Errorf("store: invitation: an address of %d characters, over %d: %w", n, store.MaxAddress, store.ErrTooLong)
	}
	if inv.State == "" {
		inv.State = store.InvitePending
	}
	if inv.CreatedAt.IsZero() {
		inv.CreatedAt = tx.Now()
	}
	inv.CreatedAt, inv.Expires = inv.CreatedAt.UTC(), inv.Expires.UTC()
	return tx.Insert("invitation", inv)
}

// OfTable returns a table's invitations in the order they were made
// (none for a table anyone may join).
func OfTable(tx *store.Tx, tableID int64) ([]store.Invitation, error) {
	var is []store.Invitation
	if err := tx.DB().Where("table_id = ?", tableID).Order("id").Find(&is).Error; err != nil {
		return nil, fmt.Errorf("store: invitations: %w", store.MapErr(err))
	}
	return is, nil
}

// Of returns the invitation of addr to a table, or store.ErrNotFound.
func Of(tx *store.Tx, tableID int64, addr string) (*store.Invitation, error) {
	var inv store.Invitation
	if err := tx.First("invitation", &inv, "table_id = ? AND address = ?", tableID, store.NormalizeAddress(addr)); err != nil {
		return nil, err
	}
	return &inv, nil
}

// PendingOf returns the pending invitations of the person of addr, to
// any of their spellings (store.PersonKey), each with its Table, oldest
// first.
func PendingOf(tx *store.Tx, addr string) ([]store.Invitation, error) {
	var is []store.Invitation
	err := tx.DB().Preload("Table").Where(mayBe(tx, "address", addr)).Where("state = ?", store.InvitePending).
		Order("id").Find(&is).Error
	if err != nil {
		return nil, fmt.Errorf("store: pending invitations: %w", store.MapErr(err))
	}
	key := store.PersonKey(addr)
	return slices.DeleteFunc(is, func(inv store.Invitation) bool { return store.PersonKey(inv.Address) != key }), nil
}

// mayBe is a condition on the address column that holds for every
// spelling of addr's person, and for others at their domain, which the
// caller drops by their key: SQL cannot compare persons' keys, but a
// person's spellings share a domain (gmail.com's two, one to PersonKey).
func mayBe(tx *store.Tx, column, addr string) *gorm.DB {
	domain := store.PersonDomain(addr)
	domains := []string{domain}
	if domain == "gmail.com" {
		domains = append(domains, "googlemail.com")
	}
	// What LIKE reads as a pattern, escaped for ESCAPE '\'.
	esc := strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`)
	q := tx.DB().Where(column+" = ?", store.NormalizeAddress(addr))
	for _, d := range domains {
		q = q.Or(column+` LIKE ? ESCAPE '\'`, "%@"+esc.Replace(d))
	}
	return q
}

// countPerson counts the addresses that are spellings of addr's person.
func countPerson(addrs []string, addr string) int {
	key, n := store.PersonKey(addr), 0
	for _, a := range addrs {
		if store.PersonKey(a) == key {
			n++
		}
	}
	return n
}

// Answer moves a pending invitation to state, answered at at.
// An invitation no longer pending (another writer answered it first)
// gives store.ErrConflict; an unknown one store.ErrNotFound.
func Answer(tx *store.Tx, id int64, state store.InvitationState, at time.Time) error {
	if state == store.InvitePending {
		return errors.New("store: invitation: an answer cannot be pending")
	}
	at = at.UTC()
	res := tx.DB().Model(&store.Invitation{}).Where("id = ? AND state = ?", id, store.InvitePending).
		Updates(map[string]any{"state": state, "answered_at": at})
	if res.Error != nil {
		return fmt.Errorf("store: answer invitation %d: %w", id, store.MapErr(res.Error))
	}
	if res.RowsAffected == 1 {
		return nil
	}
	var n int64
	if err := tx.DB().Model(&store.Invitation{}).Where("id = ?", id).Count(&n).Error; err != nil {
		return fmt.Errorf("store: answer invitation %d: %w", id, store.MapErr(err))
	}
	if n == 0 {
		return fmt.Errorf("store: answer invitation %d: %w", id, store.ErrNotFound)
	}
	return fmt.Errorf("store: answer invitation %d: no longer pending: %w", id, store.ErrConflict)
}

// DueTables returns up to limit ids of tables with a pending
// invitation that expired at or before now, the earliest expiry first
// (ties by id), so that the ones missed while the daemon was down are
// handled in order.
func DueTables(tx *store.Tx, now time.Time, limit int) ([]int64, error) {
	var ids []int64
	err := tx.DB().Model(&store.Invitation{}).
		Where("state = ? AND expires <= ?", store.InvitePending, now.UTC()).
		Group("table_id").
		Order("MIN(expires), table_id").
		Limit(limit).
		Pluck("table_id", &ids).Error
	if err != nil {
		return nil, fmt.Errorf("store: due invitations: %w", store.MapErr(err))
	}
	return ids, nil
}

// LockTable takes the table's row for the rest of the transaction (it
// writes its UpdatedAt), so that writers of its seats and invitations
// take turns: what they read after it is what the one before committed.
// store.ErrNotFound when there is no such table.
func LockTable(tx *store.Tx, id int64) error {
	res := tx.DB().Model(&store.Table{}).Where("id = ?", id).Update("updated_at", tx.Now().UTC())
	if res.Error != nil {
		return fmt.Errorf("store: lock table %d: %w", id, store.MapErr(res.Error))
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("store: lock table %d: %w", id, store.ErrNotFound)
	}
	return nil
}

// DeleteOpenTable removes a table whose game never started, with its
// seats and invitations; store.ErrNotFound when there is no such open table.
func DeleteOpenTable(tx *store.Tx, id int64) error {
	var t store.Table
	if err := tx.First("open table", &t, "id = ? AND status = ? AND started_at IS NULL", id, store.StatusOpen); err != nil {
		return err
	}
	for _, m := range []any{&store.Invitation{}, &store.Seat{}} {
		if err := tx.DB().Where("table_id = ?", id).Delete(m).Error; err != nil {
			return fmt.Errorf("store: delete table %d: %w", id, store.MapErr(err))
		}
	}
	if err := tx.DB().Delete(&store.Table{}, id).Error; err != nil {
		return fmt.Errorf("store: delete table %d: %w", id, store.MapErr(err))
	}
	return nil
}

// PendingBy counts the pending invitations of the open tables
// where the person of addr, under any spelling, holds the first seat: the
// invitations they sent that still wait for an answer.
func PendingBy(tx *store.Tx, addr string) (int, error) {
	var openers []string
	err := tx.DB().Model(&store.Invitation{}).
		Joins("JOIN seats ON seats.table_id = invitations.table_id AND seats.position = 0").
		Joins("JOIN players ON players.id = seats.player_id").
		Where(mayBe(tx, "players.address", addr)).Where("invitations.state = ?", store.InvitePending).
		Pluck("players.address", &openers).Error
	if err != nil {
		return 0, fmt.Errorf("store: invitations sent: %w", store.MapErr(err))
	}
	return countPerson(openers, addr), nil
}

// ---- the bounds on invitations (LEAGUES §6)

// Log records that opener sent an invitation to addr at at
// (store.LogSent), or that addr declined one of opener's (store.LogDeclined).
// Both are kept as their person's key (store.PersonKey), so that the
// bounds count every spelling of one mailbox together.
func Log(tx *store.Tx, ev store.InviteEvent, opener, addr string, at time.Time) error {
	row := store.InviteLog{Event: ev, Opener: store.PersonKey(opener), Address: store.PersonKey(addr), At: at.UTC()}
	if err := tx.DB().Create(&row).Error; err != nil {
		return fmt.Errorf("store: invitation log: %w", store.MapErr(err))
	}
	return nil
}

// SentTo counts the invitations sent to the person of addr, to any of
// their spellings, by anyone, after since.
func SentTo(tx *store.Tx, addr string, since time.Time) (int, error) {
	return countLog(tx, "event = ? AND address IN ? AND at > ?", store.LogSent, spellings(addr), since.UTC())
}

// SentBy counts the invitations the person of opener sent after since,
// whatever became of them.
func SentBy(tx *store.Tx, opener string, since time.Time) (int, error) {
	return countLog(tx, "event = ? AND opener IN ? AND at > ?", store.LogSent, spellings(opener), since.UTC())
}

// DeclinedBy reports whether the person of addr declined an invitation
// of the person of opener's after since.
func DeclinedBy(tx *store.Tx, addr, opener string, since time.Time) (bool, error) {
	n, err := countLog(tx, "event = ? AND opener IN ? AND address IN ? AND at > ?", store.LogDeclined,
		spellings(opener), spellings(addr), since.UTC())
	return n > 0, err
}

// spellings are the forms under which the log and the refusals may hold
// addr's person: its key, and addr as the rows written before keys were
// stored (lowercase) hold it.
func spellings(addr string) []string {
	key, norm := store.PersonKey(addr), store.NormalizeAddress(addr)
	if key == norm {
		return []string{key}
	}
	return []string{key, norm}
}

func countLog(tx *store.Tx, query string, args ...any) (int, error) {
	var n int64
	if err := tx.DB().Model(&store.InviteLog{}).Where(query, args...).Count(&n).Error; err != nil {
		return 0, fmt.Errorf("store: invitation log: %w", store.MapErr(err))
	}
	return int(n), nil
}

// PruneLog deletes the log's rows from before before: no bound
// looks back that far.
func PruneLog(tx *store.Tx, before time.Time) error {
	if err := tx.DB().Where("at < ?", before.UTC()).Delete(&store.InviteLog{}).Error; err != nil {
		return fmt.Errorf("store: prune invitation log: %w", store.MapErr(err))
	}
	return nil
}

// Refuse records that the person of addr, under any spelling
// (store.PersonKey), is never to be invited again; a second time changes
// nothing. It reports whether the refusal is new.
func Refuse(tx *store.Tx, addr string, at time.Time) (bool, error) {
	err := tx.Insert("invitation refusal", &store.InviteRefusal{Address: store.PersonKey(addr), CreatedAt: at.UTC()})
	if errors.Is(err, store.ErrDuplicate) {
		return false, nil
	}
	return err == nil, err
}

// Refuses reports whether the person of addr, under any spelling, asked
// never to be invited.
func Refuses(tx *store.Tx, addr string) (bool, error) {
	var n int64
	if err := tx.DB().Model(&store.InviteRefusal{}).Where("address IN ?", spellings(addr)).Count(&n).Error; err != nil {
		return false, fmt.Errorf("store: invitation refusal: %w", store.MapErr(err))
	}
	return n > 0, nil
}

// OpenTablesBy counts the open tables, not started, where the person of
// addr, under any spelling, holds the first seat.
func OpenTablesBy(tx *store.Tx, addr string) (int, error) {
	var openers []string
	err := tx.DB().Model(&store.Table{}).
		Joins("JOIN seats ON seats.table_id = tables.id AND seats.position = 0").
		Joins("JOIN players ON players.id = seats.player_id").
		Where(mayBe(tx, "players.address", addr)).Where("tables.status = ? AND tables.started_at IS NULL", store.StatusOpen).
		Pluck("players.address", &openers).Error
	if err != nil {
		return 0, fmt.Errorf("store: open tables: %w", store.MapErr(err))
	}
	return countPerson(openers, addr), nil
}

// LapsedOpenTables returns up to limit ids of open tables, never started,
// created at or before before and with no invitation pending (those lapse
// with their invitations), the oldest first.
func LapsedOpenTables(tx *store.Tx, before time.Time, limit int) ([]int64, error) {
	var ids []int64
	pending := tx.DB().Model(&store.Invitation{}).Select("1").
		Where("invitations.table_id = tables.id AND invitations.state = ?", store.InvitePending)
	err := tx.DB().Model(&store.Table{}).
		Where("status = ? AND started_at IS NULL AND created_at <= ? AND NOT EXISTS (?)", store.StatusOpen, before.UTC(), pending).
		Order("created_at, id").Limit(limit).Pluck("id", &ids).Error
	if err != nil {
		return nil, fmt.Errorf("store: lapsed open tables: %w", store.MapErr(err))
	}
	return ids, nil
}

// ---- rematches (LEAGUES §6.2)

// RematchOf returns the table that plays the ended table id again
// (Table.RematchOf), or store.ErrNotFound when none does: never opened,
// or closed before its game began.
func RematchOf(tx *store.Tx, id int64) (*store.Table, error) {
	var t store.Table
	if err := tx.First("rematch", &t, "rematch_of = ?", id); err != nil {
		return nil, err
	}
	return &t, nil
}

// ReorderSeats gives the seats of an open table (its game not begun) the
// positions of playerIDs, the first at position 0; playerIDs must name
// every seat's player once. The positions are unique per table, so they
// first move out of the way (negative), then to their places.
func ReorderSeats(tx *store.Tx, tableID int64, playerIDs []int64) error {
	var t store.Table
	if err := tx.First("open table", &t, "id = ? AND status = ? AND started_at IS NULL", tableID, store.StatusOpen); err != nil {
		return err
	}
	var seated []int64
	if err := tx.DB().Model(&store.Seat{}).Where("table_id = ?", tableID).Pluck("player_id", &seated).Error; err != nil {
		return fmt.Errorf("store: reorder seats: %w", store.MapErr(err))
	}
	named := slices.Clone(playerIDs)
	slices.Sort(seated)
	slices.Sort(named)
	if named = slices.Compact(named); !slices.Equal(seated, named) || len(named) != len(playerIDs) {
		return fmt.Errorf("store: reorder seats of table %d: players %v for the seats of %v", tableID, playerIDs, seated)
	}
	if err := tx.DB().Model(&store.Seat{}).Where("table_id = ?", tableID).
		Update("position", gorm.Expr("-1 - position")).Error; err != nil {
		return fmt.Errorf("store: reorder seats: %w", store.MapErr(err))
	}
	for i, id := range playerIDs {
		err := tx.DB().Model(&store.Seat{}).Where("table_id = ? AND player_id = ?", tableID, id).Update("position", i).Error
		if err != nil {
			return fmt.Errorf("store: reorder seats: %w", store.MapErr(err))
		}
	}
	return nil
}
