package store

import (
	"context"
	"fmt"

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

// SchemaVersionApplied returns the schema version recorded in the database.
func (s *Store) SchemaVersionApplied(ctx context.Context) (int, error) {
	return s.schemaVersion(ctx)
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
