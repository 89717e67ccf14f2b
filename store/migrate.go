package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// migration is one numbered step of the schema's history. AutoMigrate runs
// on every open and brings tables, columns and indexes to the models; a
// migration is for what it cannot do (renames, data moves, dropped
// columns). Append new steps; never change an applied one.
type migration struct {
	version int
	name    string
	up      func(tx *gorm.DB) error
}

// migrations returns the steps in order. Version 1 is the schema the models
// describe.
func migrations() []migration {
	return []migration{
		{version: 1, name: "initial schema", up: func(*gorm.DB) error { return nil }},
		{version: 2, name: "outbox messages apart from their rows", up: moveOutboxBodies},
		{version: 3, name: "no table snapshot", up: dropSnapshots},
		{version: 4, name: "no seat language", up: dropSeatLang},
		{version: 5, name: "player time zone", up: addPlayerZone},
		{version: 6, name: "vacations ending past year 9999 cancelled", up: cancelUnreadableVacations},
		{version: 7, name: "invitation log and refusals", up: addInviteLog},
		{version: 8, name: "rate counters' window end", up: setRateWindowEnds},
	}
}

// SchemaVersion is the version the code migrates the database to.
func SchemaVersion() int {
	m := migrations()
	return m[len(m)-1].version
}

func (s *Store) migrate(ctx context.Context) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.unlock()
	db := s.db.WithContext(ctx)
	if err := db.AutoMigrate(append([]any{&schemaVersion{}}, models()...)...); err != nil {
		return fmt.Errorf("store: migrate: %w", err)
	}
	current, err := s.schemaVersion(ctx)
	if err != nil {
		return err
	}
	if current > SchemaVersion() {
		return fmt.Errorf("store: database schema version %d is newer than this program's %d", current, SchemaVersion())
	}
	for _, m := range migrations() {
		if m.version <= current {
			continue
		}
		err := db.Transaction(func(tx *gorm.DB) error {
			if err := m.up(tx); err != nil {
				return err
			}
			row := schemaVersion{Version: m.version, AppliedAt: s.now().UTC()}
			return tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&row).Error
		})
		if err != nil {
			return fmt.Errorf("store: migration %d (%s): %w", m.version, m.name, err)
		}
		s.log.Info("store: schema migrated", "version", m.version, "name", m.name)
	}
	return nil
}

// schemaVersion returns the highest applied migration, 0 for none.
func (s *Store) schemaVersion(ctx context.Context) (int, error) {
	var v *int
	if err := s.db.WithContext(ctx).Model(&schemaVersion{}).Select("MAX(version)").Scan(&v).Error; err != nil {
		return 0, fmt.Errorf("store: schema version: %w", err)
	}
	if v == nil {
		return 0, nil
	}
	return *v, nil
}

// moveOutboxBodies moves the messages of a version 1 outbox, kept in its
// rows, into outbox_bodies (which AutoMigrate has created) and drops the
// column.
func moveOutboxBodies(tx *gorm.DB) error {
	if !tx.Migrator().HasColumn("outbox", "raw") {
		return nil
	}
	if err := tx.Exec("INSERT INTO outbox_bodies (mail_id, raw) SELECT id, raw FROM outbox").Error; err != nil {
		return err
	}
	// Plain SQL: SQLite has DROP COLUMN since 3.35 (modernc ships 3.41),
	// and the SQLite migrator's DropColumn wants a model.
	return tx.Exec("ALTER TABLE outbox DROP COLUMN raw").Error
}

// dropSnapshots takes a version 2 database off the table snapshot, the
// engine's configuration plus every action of the log again. The
// configuration (its JSON, as the engine wrote it) is the one the game was
// dealt with, and only it held the seed and the start: those move to the
// row, with the rules and reserve written there again from it; the state
// column goes.
func dropSnapshots(tx *gorm.DB) error {
	if tx.Migrator().HasColumn("tables", "state") {
		var rows []struct {
			ID    int64
			State string
		}
		if err := tx.Raw("SELECT id, state FROM tables WHERE state <> ''").Scan(&rows).Error; err != nil {
			return err
		}
		for _, r := range rows {
			var snap struct {
				Config struct {
					Variant       string        `json:"variant"`
					Plain         bool          `json:"plain"`
					Seed          uint64        `json:"seed"`
					ReserveSize   int           `json:"reserve_size"`
					ReserveRefill time.Duration `json:"reserve_refill"`
					Start         time.Time     `json:"start"`
				} `json:"config"`
			}
			if err := json.Unmarshal([]byte(r.State), &snap); err != nil {
				return fmt.Errorf("table %d: snapshot: %w", r.ID, err)
			}
			c := snap.Config
			if c.Variant == "" {
				c.Variant = "lexio"
			}
			err := tx.Exec("UPDATE tables SET seed = ?, started_at = ?, variant = ?, multipliers = ?, reserve_size = ?, reserve_refill = ? WHERE id = ?",
				int64(c.Seed), c.Start.UTC(), c.Variant, !c.Plain, c.ReserveSize, c.ReserveRefill, r.ID).Error
			if err != nil {
				return err
			}
		}
		return tx.Exec("ALTER TABLE tables DROP COLUMN state").Error
	}
	return nil
}

// dropSeatLang drops seats.lang, a language override at one table that
// nothing ever wrote (a player's language is the player's).
func dropSeatLang(tx *gorm.DB) error {
	if !tx.Migrator().HasColumn("seats", "lang") {
		return nil
	}
	return tx.Exec("ALTER TABLE seats DROP COLUMN lang").Error
}

// addPlayerZone gives players their time zone, "" (the configuration's)
// for everyone. AutoMigrate has added the column; the step records the
// schema that has it, and adds it if a database lacks it all the same.
func addPlayerZone(tx *gorm.DB) error {
	if tx.Migrator().HasColumn(&Player{}, "TimeZone") {
		return nil
	}
	return tx.Migrator().AddColumn(&Player{}, "TimeZone")
}

// cancelUnreadableVacations cancels the vacations that SQLite cannot read
// back: before the store bounded its times (ErrTimeRange), VACATION
// 9999-12-31 9999-12-31 stored an end in year 10000, as text SQLite keeps
// but cannot read, and every read of that player's vacations failed (their
// moves, VACATION OFF, their tables). Such a vacation began in year 9999
// at the earliest, so it never began: it is cancelled as VACATION OFF
// cancels one to come, charging no day and telling no one. A readable
// time's text has a four-digit year, then "-". PostgreSQL reads such
// times: there nothing is changed.
func cancelUnreadableVacations(tx *gorm.DB) error {
	if tx.Dialector.Name() != DriverSQLite {
		return nil
	}
	// A start that cannot be read (none was ever written) leaves nothing
	// to keep.
	err := tx.Exec("DELETE FROM vacations WHERE substr(from_at, 5, 1) <> '-' OR substr(days_from, 5, 1) <> '-'").Error
	if err != nil {
		return err
	}
	return tx.Exec(`UPDATE vacations SET to_at = from_at, days = 0, ended_at = from_at, told = ?, due_at = NULL
		WHERE substr(to_at, 5, 1) <> '-' OR substr(due_at, 5, 1) <> '-' OR substr(ended_at, 5, 1) <> '-'`, VacationEndTold).Error
}

// addInviteLog records the schema with the invitation log and the
// addresses that refuse invitations (LEAGUES §6); AutoMigrate has created
// both tables, which start empty: the bounds count from the upgrade.
func addInviteLog(tx *gorm.DB) error {
	for _, m := range []any{&InviteLog{}, &InviteRefusal{}} {
		if !tx.Migrator().HasTable(m) {
			if err := tx.Migrator().CreateTable(m); err != nil {
				return err
			}
		}
	}
	return nil
}

// setRateWindowEnds gives the rate counters of before the column their
// window's end (AutoMigrate has added it, and its index), so that
// PruneRates deletes them once closed. Their window's length was not
// kept: each is taken as a day, the longest any bound has, so that no
// row goes while its window may be open.
func setRateWindowEnds(tx *gorm.DB) error {
	end := "window_start + interval '1 day'"
	if tx.Dialector.Name() == DriverSQLite {
		// Written as the driver writes times (text, compared as such): the
		// start's date and time a day on, then its own fraction and offset
		// (UTC, +00:00).
		end = "strftime('%Y-%m-%d %H:%M:%S', window_start, '+1 day') || substr(window_start, 20)"
	}
	return tx.Exec("UPDATE rate_counters SET window_end = " + end + " WHERE window_end IS NULL").Error
}
