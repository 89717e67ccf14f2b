package store

import "fmt"

// The store's queries of the mail a player chose (NOTIFY, package
// player): their choice for every table, one seat's override, who chose
// the daily digest and the day of their last one. They know nothing of
// commands, of mail or of what each choice sends.

// SetPlayerNotify sets the mail the player chose for every table (a
// mode of NOTIFY), or returns ErrNotFound.
func (tx *Tx) SetPlayerNotify(addr, mode string) error {
	res := tx.db.Model(&Player{}).Where("address = ?", NormalizeAddress(addr)).Update("notify", mode)
	if res.Error != nil {
		return fmt.Errorf("store: player notify: %w", MapErr(res.Error))
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("store: player notify: %w", ErrNotFound)
	}
	return nil
}

// SetSeatNotify sets the mail the player with that address chose at one
// table, over their own choice ("" drops the override), or returns
// ErrNotFound when they have no seat there.
func (tx *Tx) SetSeatNotify(tableID int64, addr, mode string) error {
	player := tx.db.Model(&Player{}).Select("id").Where("address = ?", NormalizeAddress(addr))
	res := tx.db.Model(&Seat{}).Where("table_id = ? AND player_id = (?)", tableID, player).Update("notify", mode)
	if res.Error != nil {
		return fmt.Errorf("store: seat notify: %w", MapErr(res.Error))
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("store: seat notify: %w", ErrNotFound)
	}
	return nil
}

// PlayersChoosing returns, by id, the players who chose mode for every
// table, and those who chose it at a playing table (the digest's: who may
// be owed one).
func (tx *Tx) PlayersChoosing(mode string) ([]Player, error) {
	atTable := tx.db.Model(&Seat{}).Select("seats.player_id").
		Joins("JOIN tables ON tables.id = seats.table_id").
		Where("seats.notify = ? AND tables.status = ?", mode, StatusPlaying)
	var ps []Player
	if err := tx.db.Where("notify = ? OR id IN (?)", mode, atTable).Order("id").Find(&ps).Error; err != nil {
		return nil, fmt.Errorf("store: digest players: %w", MapErr(err))
	}
	return ps, nil
}

// SetDigestDay records that the player's digest of day (a local date,
// "2026-12-01") was decided, if their stored day is still prev; otherwise
// another writer decided it first and it returns ErrConflict (ErrNotFound
// if there is no such player).
func (tx *Tx) SetDigestDay(playerID int64, prev, day string) error {
	res := tx.db.Model(&Player{}).Where("id = ? AND digest_day = ?", playerID, prev).Update("digest_day", day)
	if res.Error != nil {
		return fmt.Errorf("store: digest day: %w", MapErr(res.Error))
	}
	if res.RowsAffected == 1 {
		return nil
	}
	var n int64
	if err := tx.db.Model(&Player{}).Where("id = ?", playerID).Count(&n).Error; err != nil {
		return fmt.Errorf("store: digest day: %w", MapErr(err))
	}
	if n == 0 {
		return fmt.Errorf("store: digest day of player %d: %w", playerID, ErrNotFound)
	}
	return fmt.Errorf("store: digest day of player %d: not %q any more: %w", playerID, prev, ErrConflict)
}
