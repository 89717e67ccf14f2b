package store

import (
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm/clause"
)

// ---- league seasons (LEAGUES §7)

// CreateSeason inserts a season (its ID is set), or returns ErrDuplicate
// when the league already has a season of that number.
func (tx *Tx) CreateSeason(s *Season) error {
	s.normalize()
	return tx.insertNew("season", s)
}

// Seasons returns a league's seasons by number.
func (tx *Tx) Seasons(league string) ([]Season, error) {
	var ss []Season
	if err := tx.db.Where("league = ?", league).Order("number").Find(&ss).Error; err != nil {
		return nil, fmt.Errorf("store: seasons: %w", mapErr(err))
	}
	for i := range ss {
		ss[i].normalize()
	}
	return ss, nil
}

// CloseSeason records that a season ended at at; ErrNotFound if there is
// no such season, ErrConflict if it was closed already.
func (tx *Tx) CloseSeason(id int64, at time.Time) error {
	res := tx.db.Model(&Season{}).Where("id = ? AND closed_at IS NULL", id).Update("closed_at", at.UTC())
	if res.Error != nil {
		return fmt.Errorf("store: close season %d: %w", id, mapErr(res.Error))
	}
	if res.RowsAffected == 1 {
		return nil
	}
	var n int64
	if err := tx.db.Model(&Season{}).Where("id = ?", id).Count(&n).Error; err != nil {
		return fmt.Errorf("store: close season %d: %w", id, mapErr(err))
	}
	if n == 0 {
		return fmt.Errorf("store: close season %d: %w", id, ErrNotFound)
	}
	return fmt.Errorf("store: close season %d: closed already: %w", id, ErrConflict)
}

// AddSeasonMembers records the players of a season's divisions in one
// statement; ErrDuplicate if a player is twice in the season.
func (tx *Tx) AddSeasonMembers(ms []SeasonMember) error {
	if len(ms) == 0 {
		return nil
	}
	res := tx.db.Clauses(clause.OnConflict{DoNothing: true}).Create(&ms)
	if res.Error != nil {
		return fmt.Errorf("store: season members: %w", mapErr(res.Error))
	}
	if res.RowsAffected != int64(len(ms)) {
		return fmt.Errorf("store: season members: a player twice in a season: %w", ErrDuplicate)
	}
	return nil
}

// SeasonMembers returns a season's players, each with its Player, by
// division then seed.
func (tx *Tx) SeasonMembers(seasonID int64) ([]SeasonMember, error) {
	var ms []SeasonMember
	err := tx.db.Preload("Player").Where("season_id = ?", seasonID).Order("division_order, seed").Find(&ms).Error
	if err != nil {
		return nil, fmt.Errorf("store: season members: %w", mapErr(err))
	}
	return ms, nil
}

// AddLeagueTable ties a table to its season; ErrDuplicate if the table
// belongs to a season already.
func (tx *Tx) AddLeagueTable(lt *LeagueTable) error {
	return tx.insertNew("league table", lt)
}

// LeagueTables returns a season's tables, each with its Table, by
// division, round and table name.
func (tx *Tx) LeagueTables(seasonID int64) ([]LeagueTable, error) {
	var lts []LeagueTable
	err := tx.db.Preload("Table").
		Joins("JOIN tables ON tables.id = league_tables.table_id").
		Where("league_tables.season_id = ?", seasonID).
		Order("league_tables.division_order, league_tables.round, tables.name").
		Find(&lts).Error
	if err != nil {
		return nil, fmt.Errorf("store: league tables: %w", mapErr(err))
	}
	return lts, nil
}

// LeagueTableOf returns the season entry of a table, or ErrNotFound for a
// table of no season.
func (tx *Tx) LeagueTableOf(tableID int64) (*LeagueTable, error) {
	var lt LeagueTable
	if err := tx.first("league table", &lt, "table_id = ?", tableID); err != nil {
		return nil, err
	}
	return &lt, nil
}

// ---- sign-ups and withdrawals (LEAGUES §7.4)

// AddSignup records a SIGNUP or WITHDRAW (its ID is set), pending until
// a season uses it. At defaults to now.
func (tx *Tx) AddSignup(sg *Signup) error {
	if sg.Kind != SignupJoin && sg.Kind != SignupWithdraw {
		return fmt.Errorf("store: signup: kind %q", sg.Kind)
	}
	if sg.At.IsZero() {
		sg.At = tx.now()
	}
	sg.At = sg.At.UTC()
	if err := tx.db.Create(sg).Error; err != nil {
		return fmt.Errorf("store: signup: %w", mapErr(err))
	}
	return nil
}

// PendingSignups returns a league's sign-ups and withdrawals that no
// season has used yet, each with its Player, in the order they were made.
func (tx *Tx) PendingSignups(league string) ([]Signup, error) {
	var sgs []Signup
	err := tx.db.Preload("Player").Where("league = ? AND season_id IS NULL", league).Order("at, id").Find(&sgs).Error
	if err != nil {
		return nil, fmt.Errorf("store: pending signups: %w", mapErr(err))
	}
	for i := range sgs {
		sgs[i].At = sgs[i].At.UTC()
	}
	return sgs, nil
}

// UseSignups marks pending sign-ups and withdrawals as used by a season;
// ErrConflict if one of them was used already.
func (tx *Tx) UseSignups(ids []int64, seasonID int64) error {
	if len(ids) == 0 {
		return nil
	}
	res := tx.db.Model(&Signup{}).Where("id IN ? AND season_id IS NULL", ids).Update("season_id", seasonID)
	if res.Error != nil {
		return fmt.Errorf("store: use signups: %w", mapErr(res.Error))
	}
	if res.RowsAffected != int64(len(ids)) {
		return fmt.Errorf("store: use signups: %d of %d still pending: %w", res.RowsAffected, len(ids), ErrConflict)
	}
	return nil
}

// ---- ratings (LEAGUES §10)

// Ratings returns the ratings of the players with those ids in a
// variant's pool, by player id; a player without one has no entry.
func (tx *Tx) Ratings(variant string, playerIDs ...int64) (map[int64]PlayerRating, error) {
	out := make(map[int64]PlayerRating, len(playerIDs))
	if len(playerIDs) == 0 {
		return out, nil
	}
	var rs []PlayerRating
	if err := tx.db.Where("variant = ? AND player_id IN ?", variant, playerIDs).Find(&rs).Error; err != nil {
		return nil, fmt.Errorf("store: ratings: %w", mapErr(err))
	}
	for _, r := range rs {
		r.UpdatedAt = r.UpdatedAt.UTC()
		out[r.PlayerID] = r
	}
	return out, nil
}

// SaveRating writes a player's rating in a variant's pool, replacing the
// one there. UpdatedAt defaults to now.
func (tx *Tx) SaveRating(r *PlayerRating) error {
	if r.Variant == "" || r.PlayerID == 0 {
		return errors.New("store: rating: no variant or player")
	}
	if r.UpdatedAt.IsZero() {
		r.UpdatedAt = tx.now()
	}
	r.UpdatedAt = r.UpdatedAt.UTC()
	err := tx.db.Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "variant"}, {Name: "player_id"}},
		DoUpdates: clause.AssignmentColumns([]string{"rating", "rd", "volatility", "games", "updated_at"}),
	}).Create(r).Error
	if err != nil {
		return fmt.Errorf("store: save rating: %w", mapErr(err))
	}
	return nil
}
