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

// SeasonMembers returns a season's players (of one division, or of all
// for division < 0), each with its Player (joined: one query, not two), by
// division then seed.
func (tx *Tx) SeasonMembers(seasonID int64, division int) ([]SeasonMember, error) {
	var ms []SeasonMember
	q := tx.db.Joins("Player").Where("season_members.season_id = ?", seasonID)
	if division >= 0 {
		q = q.Where("season_members.division_order = ?", division)
	}
	err := q.Order("season_members.division_order, season_members.seed").Find(&ms).Error
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

// LeagueTables returns a season's tables (of one division, or of all for
// division < 0), each with its Table, by division, round and table name.
func (tx *Tx) LeagueTables(seasonID int64, division int) ([]LeagueTable, error) {
	var lts []LeagueTable
	q := tx.db.Preload("Table").
		Joins("JOIN tables ON tables.id = league_tables.table_id").
		Where("league_tables.season_id = ?", seasonID)
	if division >= 0 {
		q = q.Where("league_tables.division_order = ?", division)
	}
	err := q.Order("league_tables.division_order, league_tables.round, tables.name").
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

// ---- results of season tables (LEAGUES §8)

// FinishLeagueTable records that a season table ended at at, with the
// result of each seat; ErrConflict if its end was recorded already.
func (tx *Tx) FinishLeagueTable(tableID int64, at time.Time, results []SeatResult) error {
	res := tx.db.Model(&LeagueTable{}).Where("table_id = ? AND finished_at IS NULL", tableID).Update("finished_at", at.UTC())
	if res.Error != nil {
		return fmt.Errorf("store: finish league table %d: %w", tableID, mapErr(res.Error))
	}
	if res.RowsAffected != 1 {
		return fmt.Errorf("store: finish league table %d: not a running season table: %w", tableID, ErrConflict)
	}
	for i := range results {
		results[i].TableID = tableID
	}
	if err := tx.db.Create(&results).Error; err != nil {
		return fmt.Errorf("store: finish league table %d: %w", tableID, mapErr(err))
	}
	return nil
}

// FinishedSeat is one seat of a finished season table, as standings read
// it: the seat's last holder, their score and when they left (SeatResult).
type FinishedSeat struct {
	TableID       int64
	DivisionOrder int
	Address       string
	Score         int
	LeftOrder     int
}

// SeasonResults returns the seats of a season's finished tables (of one
// division, or of all for division < 0) by table and seat. (Standings do
// not depend on the order; ratings are kept as tables end.) The rows are
// scanned by hand, and hold only what standings use: a whole season's are
// 100,000 for a league of 10,000, and each column read costs.
func (tx *Tx) SeasonResults(seasonID int64, division int) ([]FinishedSeat, error) {
	q := tx.db.Table("seat_results").
		Select("seat_results.table_id, league_tables.division_order, players.address, seat_results.score, seat_results.left_order").
		Joins("JOIN league_tables ON league_tables.table_id = seat_results.table_id").
		Joins("JOIN players ON players.id = seat_results.player_id").
		Where("league_tables.season_id = ?", seasonID)
	if division >= 0 {
		q = q.Where("league_tables.division_order = ?", division)
	}
	rows, err := q.Order("seat_results.table_id, seat_results.seat").Rows()
	if err != nil {
		return nil, fmt.Errorf("store: season results: %w", mapErr(err))
	}
	defer rows.Close()
	var out []FinishedSeat
	for rows.Next() {
		var f FinishedSeat
		if err := rows.Scan(&f.TableID, &f.DivisionOrder, &f.Address, &f.Score, &f.LeftOrder); err != nil {
			return nil, fmt.Errorf("store: season results: %w", mapErr(err))
		}
		out = append(out, f)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: season results: %w", mapErr(err))
	}
	return out, nil
}

// UnfinishedLeagueTables counts a season's tables still being played.
func (tx *Tx) UnfinishedLeagueTables(seasonID int64) (int, error) {
	var n int64
	if err := tx.db.Model(&LeagueTable{}).Where("season_id = ? AND finished_at IS NULL", seasonID).Count(&n).Error; err != nil {
		return 0, fmt.Errorf("store: unfinished league tables: %w", mapErr(err))
	}
	return int(n), nil
}

// DueSeasons returns the seasons still open whose end is at or before
// now, earliest first, at most limit.
func (tx *Tx) DueSeasons(now time.Time, limit int) ([]Season, error) {
	var ss []Season
	err := tx.db.Where("closed_at IS NULL AND ends <= ?", now.UTC()).Order("ends, id").Limit(limit).Find(&ss).Error
	if err != nil {
		return nil, fmt.Errorf("store: due seasons: %w", mapErr(err))
	}
	for i := range ss {
		ss[i].normalize()
	}
	return ss, nil
}

// SeasonByID returns a season, or ErrNotFound.
func (tx *Tx) SeasonByID(id int64) (*Season, error) {
	var s Season
	if err := tx.first("season", &s, "id = ?", id); err != nil {
		return nil, err
	}
	s.normalize()
	return &s, nil
}

// PlayerSeasons returns the open seasons (not closed) the player is a
// member of, with their division, by league.
func (tx *Tx) PlayerSeasons(playerID int64) ([]SeasonMember, error) {
	var ms []SeasonMember
	err := tx.db.Preload("Season").
		Joins("JOIN seasons ON seasons.id = season_members.season_id").
		Where("season_members.player_id = ? AND seasons.closed_at IS NULL", playerID).
		Order("seasons.league").Find(&ms).Error
	if err != nil {
		return nil, fmt.Errorf("store: player seasons: %w", mapErr(err))
	}
	for i := range ms {
		ms[i].Season.normalize()
	}
	return ms, nil
}

// MarkWeekly records that the weekly standings of week were mailed to a
// season member (LEAGUES §9.2); ErrConflict if they were already, so that
// two ticks never both send them.
func (tx *Tx) MarkWeekly(memberID int64, week string) error {
	res := tx.db.Model(&SeasonMember{}).Where("id = ? AND weekly <> ?", memberID, week).Update("weekly", week)
	if res.Error != nil {
		return fmt.Errorf("store: weekly standings: %w", mapErr(res.Error))
	}
	if res.RowsAffected != 1 {
		return fmt.Errorf("store: weekly standings of %s sent already: %w", week, ErrConflict)
	}
	return nil
}

// OpenSeasonMembers returns every member of the seasons still open, with
// their Player and Season, by season and player.
func (tx *Tx) OpenSeasonMembers() ([]SeasonMember, error) {
	var ms []SeasonMember
	err := tx.db.Preload("Player").Preload("Season").
		Joins("JOIN seasons ON seasons.id = season_members.season_id").
		Where("seasons.closed_at IS NULL").
		Order("season_members.season_id, season_members.player_id").Find(&ms).Error
	if err != nil {
		return nil, fmt.Errorf("store: open season members: %w", mapErr(err))
	}
	for i := range ms {
		ms[i].Season.normalize()
	}
	return ms, nil
}

// LastMembership returns the player's place in the last season of a
// league they played, with its Season; ErrNotFound if they played none.
func (tx *Tx) LastMembership(league string, playerID int64) (*SeasonMember, error) {
	var m SeasonMember
	err := tx.db.Preload("Season").
		Joins("JOIN seasons ON seasons.id = season_members.season_id").
		Where("seasons.league = ? AND season_members.player_id = ?", league, playerID).
		Order("seasons.number DESC").Limit(1).Find(&m).Error
	if err != nil {
		return nil, fmt.Errorf("store: last membership: %w", mapErr(err))
	}
	if m.ID == 0 {
		return nil, fmt.Errorf("store: last membership in %q: %w", league, ErrNotFound)
	}
	m.Season.normalize()
	return &m, nil
}

// TableState is a season table's name and status, as standings and
// listings need them.
type TableState struct {
	Name          string
	Status        string
	DivisionOrder int
	Round         int
}

// LeagueTableStates returns the name and status of a season's tables (of
// one division, or of all for division < 0), by division, round and name,
// without reading the tables' rows whole (scanned by hand, as
// SeasonResults).
func (tx *Tx) LeagueTableStates(seasonID int64, division int) ([]TableState, error) {
	q := tx.db.Table("league_tables").
		Select("tables.name, tables.status, league_tables.division_order, league_tables.round").
		Joins("JOIN tables ON tables.id = league_tables.table_id").
		Where("league_tables.season_id = ?", seasonID)
	if division >= 0 {
		q = q.Where("league_tables.division_order = ?", division)
	}
	rows, err := q.Order("league_tables.division_order, league_tables.round, tables.name").Rows()
	if err != nil {
		return nil, fmt.Errorf("store: league table states: %w", mapErr(err))
	}
	defer rows.Close()
	var out []TableState
	for rows.Next() {
		var ts TableState
		if err := rows.Scan(&ts.Name, &ts.Status, &ts.DivisionOrder, &ts.Round); err != nil {
			return nil, fmt.Errorf("store: league table states: %w", mapErr(err))
		}
		out = append(out, ts)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: league table states: %w", mapErr(err))
	}
	return out, nil
}
