// Package prefs holds the store's queries of the mail a player chose
// (NOTIFY, package player): their choice for every table, one seat's
// override, who chose the daily digest and the day of their last one.
// Each function runs in the caller's store.Tx. It knows nothing of
// commands, of mail or of what each choice sends.
package prefs

import (
	"fmt"

	"github.com/lexio-mail/lexio/store"
)

// playing is a playing table's status in the store (table.StatusPlaying).
const playing = "playing"

// SetPlayerNotify sets the mail the player chose for every table (a
// mode of NOTIFY), or returns store.ErrNotFound.
func SetPlayerNotify(tx *store.Tx, addr, mode string) error {
	res := tx.DB().Model(&store.Player{}).Where("address = ?", store.NormalizeAddress(addr)).Update("notify", mode)
	if res.Error != nil {
		return fmt.Errorf("store: player notify: %w", store.MapErr(res.Error))
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("store: player notify: %w", store.ErrNotFound)
	}
	return nil
}

// SetSeatNotify sets the mail the player with that address chose at one
// table, over their own choice ("" drops the override), or returns
// store.ErrNotFound when they have no seat there.
func SetSeatNotify(tx *store.Tx, tableID int64, addr, mode string) error {
	player := tx.DB().Model(&store.Player{}).Select("id").Where("address = ?", store.NormalizeAddress(addr))
	res := tx.DB().Model(&store.Seat{}).Where("table_id = ? AND player_id = (?)", tableID, player).Update("notify", mode)
	if res.Error != nil {
		return fmt.Errorf("store: seat notify: %w", store.MapErr(res.Error))
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("store: seat notify: %w", store.ErrNotFound)
	}
	return nil
}

// PlayersChoosing returns, by id, the players who chose mode for every
// table, and those who chose it at a playing table (the digest's: who may
// be owed one).
func PlayersChoosing(tx *store.Tx, mode string) ([]store.Player, error) {
	atTable := tx.DB().Model(&store.Seat{}).Select("seats.player_id").
		Joins("JOIN tables ON tables.id = seats.table_id").
		Where("seats.notify = ? AND tables.status = ?", mode, playing)
	var ps []store.Player
	if err := tx.DB().Where("notify = ? OR id IN (?)", mode, atTable).Order("id").Find(&ps).Error; err != nil {
		return nil, fmt.Errorf("store: digest players: %w", store.MapErr(err))
	}
	return ps, nil
}

// SetDigestDay records that the player's digest of day (a local date,
// "2026-12-01") was decided, if their stored day is still prev; otherwise
// another writer decided it first and it returns store.ErrConflict (store.ErrNotFound
// if there is no such player).
func SetDigestDay(tx *store.Tx, playerID int64, prev, day string) error {
	res := tx.DB().Model(&store.Player{}).Where("id = ? AND digest_day = ?", playerID, prev).Update("digest_day", day)
	if res.Error != nil {
		return fmt.Errorf("store: digest day: %w", store.MapErr(res.Error))
	}
	if res.RowsAffected == 1 {
		return nil
	}
	var n int64
	if err := tx.DB().Model(&store.Player{}).Where("id = ?", playerID).Count(&n).Error; err != nil {
		return fmt.Errorf("store: digest day: %w", store.MapErr(err))
	}
	if n == 0 {
		return fmt.Errorf("store: digest day of player %d: %w", playerID, store.ErrNotFound)
	}
	return fmt.Errorf("store: digest day of player %d: not %q any more: %w", playerID, prev, store.ErrConflict)
}
