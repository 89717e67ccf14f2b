// Package leagues holds the store's queries of league seasons (LEAGUES
// §7-§10): seasons, their members, their tables and each finished table's
// seat results, sign-ups and withdrawals, and the players' ratings. Each
// function runs in the caller's store.Tx; the rows are store's models.
// It knows nothing of pairing, standings or rating arithmetic (league,
// season), nor of mail.
package leagues

import (
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm/clause"

	"github.com/lexio-mail/lexio/store"
)

// ---- league seasons (LEAGUES §7)

// Create inserts a season (its ID is set), or returns store.ErrDuplicate
// when the league already has a season of that number.
func Create(tx *store.Tx, s *store.Season) error {
	utc(s)
	return tx.Insert("season", s)
}

// Seasons returns a league's seasons by number.
func Seasons(tx *store.Tx, league string) ([]store.Season, error) {
	var ss []store.Season
	if err := tx.DB().Where("league = ?", league).Order("number").Find(&ss).Error; err != nil {
		return nil, fmt.Errorf("store: seasons: %w", store.MapErr(err))
	}
	for i := range ss {
		utc(&ss[i])
	}
	return ss, nil
}

// Close records that a season ended at at; store.ErrNotFound if there is
// no such season, store.ErrConflict if it was closed already.
func Close(tx *store.Tx, id int64, at time.Time) error {
	res := tx.DB().Model(&store.Season{}).Where("id = ? AND closed_at IS NULL", id).Update("closed_at", at.UTC())
	if res.Error != nil {
		return fmt.Errorf("store: close season %d: %w", id, store.MapErr(res.Error))
	}
	if res.RowsAffected == 1 {
		return nil
	}
	var n int64
	if err := tx.DB().Model(&store.Season{}).Where("id = ?", id).Count(&n).Error; err != nil {
		return fmt.Errorf("store: close season %d: %w", id, store.MapErr(err))
	}
	if n == 0 {
		return fmt.Errorf("store: close season %d: %w", id, store.ErrNotFound)
	}
	return fmt.Errorf("store: close season %d: closed already: %w", id, store.ErrConflict)
}

// AddMembers records the players of a season's divisions in one
// statement; store.ErrDuplicate if a player is twice in the season.
func AddMembers(tx *store.Tx, ms []store.SeasonMember) error {
	if len(ms) == 0 {
		return nil
	}
	res := tx.DB().Clauses(clause.OnConflict{DoNothing: true}).Create(&ms)
	if res.Error != nil {
		return fmt.Errorf("store: season members: %w", store.MapErr(res.Error))
	}
	if res.RowsAffected != int64(len(ms)) {
		return fmt.Errorf("store: season members: a player twice in a season: %w", store.ErrDuplicate)
	}
	return nil
}

// Members returns a season's players (of one division, or of all
// for division < 0), each with its Player (joined: one query, not two), by
// division then seed.
func Members(tx *store.Tx, seasonID int64, division int) ([]store.SeasonMember, error) {
	var ms []store.SeasonMember
	q := tx.DB().Joins("Player").Where("season_members.season_id = ?", seasonID)
	if division >= 0 {
		q = q.Where("season_members.division_order = ?", division)
	}
	err := q.Order("season_members.division_order, season_members.seed").Find(&ms).Error
	if err != nil {
		return nil, fmt.Errorf("store: season members: %w", store.MapErr(err))
	}
	return ms, nil
}

// AddTable ties a table to its season; store.ErrDuplicate if the table
// belongs to a season already.
func AddTable(tx *store.Tx, lt *store.LeagueTable) error {
	return tx.Insert("league table", lt)
}

// Tables returns a season's tables (of one division, or of all for
// division < 0), each with its Table, by division, round and table name.
func Tables(tx *store.Tx, seasonID int64, division int) ([]store.LeagueTable, error) {
	var lts []store.LeagueTable
	q := tx.DB().Preload("Table").
		Joins("JOIN tables ON tables.id = league_tables.table_id").
		Where("league_tables.season_id = ?", seasonID)
	if division >= 0 {
		q = q.Where("league_tables.division_order = ?", division)
	}
	err := q.Order("league_tables.division_order, league_tables.round, tables.name").
		Find(&lts).Error
	if err != nil {
		return nil, fmt.Errorf("store: league tables: %w", store.MapErr(err))
	}
	return lts, nil
}

// TableOf returns the season entry of a table, or store.ErrNotFound for a
// table of no season.
func TableOf(tx *store.Tx, tableID int64) (*store.LeagueTable, error) {
	var lt store.LeagueTable
	if err := tx.First("league table", &lt, "table_id = ?", tableID); err != nil {
		return nil, err
	}
	return &lt, nil
}

// ---- sign-ups and withdrawals (LEAGUES §7.4)

// AddSignup records a SIGNUP or WITHDRAW (its ID is set), pending until
// a season uses it. At defaults to now.
func AddSignup(tx *store.Tx, sg *store.Signup) error {
	if sg.Kind != store.SignupJoin && sg.Kind != store.SignupWithdraw {
		return fmt.Errorf("store: signup: kind %q", sg.Kind)
	}
	if sg.At.IsZero() {
		sg.At = tx.Now()
	}
	sg.At = sg.At.UTC()
	if err := tx.DB().Create(sg).Error; err != nil {
		return fmt.Errorf("store: signup: %w", store.MapErr(err))
	}
	return nil
}

// PendingSignups returns a league's sign-ups and withdrawals that no
// season has used yet, each with its Player, in the order they were made.
func PendingSignups(tx *store.Tx, league string) ([]store.Signup, error) {
	var sgs []store.Signup
	err := tx.DB().Preload("Player").Where("league = ? AND season_id IS NULL", league).Order("at, id").Find(&sgs).Error
	if err != nil {
		return nil, fmt.Errorf("store: pending signups: %w", store.MapErr(err))
	}
	for i := range sgs {
		sgs[i].At = sgs[i].At.UTC()
	}
	return sgs, nil
}

// UseSignups marks pending sign-ups and withdrawals as used by a season;
// store.ErrConflict if one of them was used already.
func UseSignups(tx *store.Tx, ids []int64, seasonID int64) error {
	if len(ids) == 0 {
		return nil
	}
	res := tx.DB().Model(&store.Signup{}).Where("id IN ? AND season_id IS NULL", ids).Update("season_id", seasonID)
	if res.Error != nil {
		return fmt.Errorf("store: use signups: %w", store.MapErr(res.Error))
	}
	if res.RowsAffected != int64(len(ids)) {
		return fmt.Errorf("store: use signups: %d of %d still pending: %w", res.RowsAffected, len(ids), store.ErrConflict)
	}
	return nil
}

// ---- ratings (LEAGUES §10)

// Ratings returns the ratings of the players with those ids in a
// variant's pool, by player id; a player without one has no entry.
func Ratings(tx *store.Tx, variant string, playerIDs ...int64) (map[int64]store.PlayerRating, error) {
	out := make(map[int64]store.PlayerRating, len(playerIDs))
	if len(playerIDs) == 0 {
		return out, nil
	}
	var rs []store.PlayerRating
	if err := tx.DB().Where("variant = ? AND player_id IN ?", variant, playerIDs).Find(&rs).Error; err != nil {
		return nil, fmt.Errorf("store: ratings: %w", store.MapErr(err))
	}
	for _, r := range rs {
		r.UpdatedAt = r.UpdatedAt.UTC()
		out[r.PlayerID] = r
	}
	return out, nil
}

// SaveRating writes a player's rating in a variant's pool, replacing the
// one there. UpdatedAt defaults to now.
func SaveRating(tx *store.Tx, r *store.PlayerRating) error {
	if r.Variant == "" || r.PlayerID == 0 {
		return errors.New("store: rating: no variant or player")
	}
	if r.UpdatedAt.IsZero() {
		r.UpdatedAt = tx.Now()
	}
	r.UpdatedAt = r.UpdatedAt.UTC()
	err := tx.DB().Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "variant"}, {Name: "player_id"}},
		DoUpdates: clause.AssignmentColumns([]string{"rating", "rd", "volatility", "games", "updated_at"}),
	}).Create(r).Error
	if err != nil {
		return fmt.Errorf("store: save rating: %w", store.MapErr(err))
	}
	return nil
}

// ---- results of season tables (LEAGUES §8)

// FinishTable records that a season table ended at at, with the
// result of each seat; store.ErrConflict if its end was recorded already.
func FinishTable(tx *store.Tx, tableID int64, at time.Time, results []store.SeatResult) error {
	res := tx.DB().Model(&store.LeagueTable{}).Where("table_id = ? AND finished_at IS NULL", tableID).Update("finished_at", at.UTC())
	if res.Error != nil {
		return fmt.Errorf("store: finish league table %d: %w", tableID, store.MapErr(res.Error))
	}
	if res.RowsAffected != 1 {
		return fmt.Errorf("store: finish league table %d: not a running season table: %w", tableID, store.ErrConflict)
	}
	for i := range results {
		results[i].TableID = tableID
	}
	if err := tx.DB().Create(&results).Error; err != nil {
		return fmt.Errorf("store: finish league table %d: %w", tableID, store.MapErr(err))
	}
	return nil
}

// FinishedSeat is one seat of a finished season table, as standings read
// it: the seat's last holder, their score and when they left (store.SeatResult).
type FinishedSeat struct {
	TableID       int64
	DivisionOrder int
	Address       string
	Score         int
	LeftOrder     int
}

// Results returns the seats of a season's finished tables (of one
// division, or of all for division < 0) by table and seat. (Standings do
// not depend on the order; ratings are kept as tables end.) The rows are
// scanned by hand, and hold only what standings use: a whole season's are
// 100,000 for a league of 10,000, and each column read costs.
func Results(tx *store.Tx, seasonID int64, division int) ([]FinishedSeat, error) {
	q := tx.DB().Table("seat_results").
		Select("seat_results.table_id, league_tables.division_order, players.address, seat_results.score, seat_results.left_order").
		Joins("JOIN league_tables ON league_tables.table_id = seat_results.table_id").
		Joins("JOIN players ON players.id = seat_results.player_id").
		Where("league_tables.season_id = ?", seasonID)
	if division >= 0 {
		q = q.Where("league_tables.division_order = ?", division)
	}
	rows, err := q.Order("seat_results.table_id, seat_results.seat").Rows()
	if err != nil {
		return nil, fmt.Errorf("store: season results: %w", store.MapErr(err))
	}
	defer rows.Close()
	var out []FinishedSeat
	for rows.Next() {
		var f FinishedSeat
		if err := rows.Scan(&f.TableID, &f.DivisionOrder, &f.Address, &f.Score, &f.LeftOrder); err != nil {
			return nil, fmt.Errorf("store: season results: %w", store.MapErr(err))
		}
		out = append(out, f)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: season results: %w", store.MapErr(err))
	}
	return out, nil
}

// Unfinished counts a season's tables still being played.
func Unfinished(tx *store.Tx, seasonID int64) (int, error) {
	var n int64
	if err := tx.DB().Model(&store.LeagueTable{}).Where("season_id = ? AND finished_at IS NULL", seasonID).Count(&n).Error; err != nil {
		return 0, fmt.Errorf("store: unfinished league tables: %w", store.MapErr(err))
	}
	return int(n), nil
}

// Due returns the seasons still open whose end is at or before
// now, earliest first, at most limit.
func Due(tx *store.Tx, now time.Time, limit int) ([]store.Season, error) {
	var ss []store.Season
	err := tx.DB().Where("closed_at IS NULL AND ends <= ?", now.UTC()).Order("ends, id").Limit(limit).Find(&ss).Error
	if err != nil {
		return nil, fmt.Errorf("store: due seasons: %w", store.MapErr(err))
	}
	for i := range ss {
		utc(&ss[i])
	}
	return ss, nil
}

// ByID returns a season, or store.ErrNotFound.
func ByID(tx *store.Tx, id int64) (*store.Season, error) {
	var s store.Season
	if err := tx.First("season", &s, "id = ?", id); err != nil {
		return nil, err
	}
	utc(&s)
	return &s, nil
}

// PlayerSeasons returns the open seasons (not closed) the player is a
// member of, with their division, by league.
func PlayerSeasons(tx *store.Tx, playerID int64) ([]store.SeasonMember, error) {
	var ms []store.SeasonMember
	err := tx.DB().Preload("Season").
		Joins("JOIN seasons ON seasons.id = season_members.season_id").
		Where("season_members.player_id = ? AND seasons.closed_at IS NULL", playerID).
		Order("seasons.league").Find(&ms).Error
	if err != nil {
		return nil, fmt.Errorf("store: player seasons: %w", store.MapErr(err))
	}
	for i := range ms {
		utc(ms[i].Season)
	}
	return ms, nil
}

// MarkWeekly records that the weekly standings of week were mailed to a
// season member (LEAGUES §9.2); store.ErrConflict if they were already, so that
// two ticks never both send them.
func MarkWeekly(tx *store.Tx, memberID int64, week string) error {
	res := tx.DB().Model(&store.SeasonMember{}).Where("id = ? AND weekly <> ?", memberID, week).Update("weekly", week)
	if res.Error != nil {
		return fmt.Errorf("store: weekly standings: %w", store.MapErr(res.Error))
	}
	if res.RowsAffected != 1 {
		return fmt.Errorf("store: weekly standings of %s sent already: %w", week, store.ErrConflict)
	}
	return nil
}

// OpenMembers returns every member of the seasons still open, with
// their Player and store.Season, by season and player.
func OpenMembers(tx *store.Tx) ([]store.SeasonMember, error) {
	var ms []store.SeasonMember
	err := tx.DB().Preload("Player").Preload("Season").
		Joins("JOIN seasons ON seasons.id = season_members.season_id").
		Where("seasons.closed_at IS NULL").
		Order("season_members.season_id, season_members.player_id").Find(&ms).Error
	if err != nil {
		return nil, fmt.Errorf("store: open season members: %w", store.MapErr(err))
	}
	for i := range ms {
		utc(ms[i].Season)
	}
	return ms, nil
}

// LastMembership returns the player's place in the last season of a
// league they played, with its store.Season; store.ErrNotFound if they played none.
func LastMembership(tx *store.Tx, league string, playerID int64) (*store.SeasonMember, error) {
	var m store.SeasonMember
	err := tx.DB().Preload("Season").
		Joins("JOIN seasons ON seasons.id = season_members.season_id").
		Where("seasons.league = ? AND season_members.player_id = ?", league, playerID).
		Order("seasons.number DESC").Limit(1).Find(&m).Error
	if err != nil {
		return nil, fmt.Errorf("store: last membership: %w", store.MapErr(err))
	}
	if m.ID == 0 {
		return nil, fmt.Errorf("store: last membership in %q: %w", league, store.ErrNotFound)
	}
	utc(m.Season)
	return &m, nil
}

// TableState is a season table's name and status, as standings and
// listings need them.
type TableState struct {
	Name          string
	Status        store.TableStatus
	DivisionOrder int
	Round         int
}

// TableStates returns the name and status of a season's tables (of
// one division, or of all for division < 0), by division, round and name,
// without reading the tables' rows whole (scanned by hand, as
// Results).
func TableStates(tx *store.Tx, seasonID int64, division int) ([]TableState, error) {
	q := tx.DB().Table("league_tables").
		Select("tables.name, tables.status, league_tables.division_order, league_tables.round").
		Joins("JOIN tables ON tables.id = league_tables.table_id").
		Where("league_tables.season_id = ?", seasonID)
	if division >= 0 {
		q = q.Where("league_tables.division_order = ?", division)
	}
	rows, err := q.Order("league_tables.division_order, league_tables.round, tables.name").Rows()
	if err != nil {
		return nil, fmt.Errorf("store: league table states: %w", store.MapErr(err))
	}
	defer rows.Close()
	var out []TableState
	for rows.Next() {
		var ts TableState
		if err := rows.Scan(&ts.Name, &ts.Status, &ts.DivisionOrder, &ts.Round); err != nil {
			return nil, fmt.Errorf("store: league table states: %w", store.MapErr(err))
		}
		out = append(out, ts)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: league table states: %w", store.MapErr(err))
	}
	return out, nil
}

// utc puts a season's times in UTC.
func utc(s *store.Season) {
	s.Started, s.Ends = s.Started.UTC(), s.Ends.UTC()
	if s.ClosedAt != nil {
		at := s.ClosedAt.UTC()
		s.ClosedAt = &at
	}
}
