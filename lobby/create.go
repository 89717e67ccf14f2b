package lobby

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lexio-mail/lexio/config"
	"github.com/lexio-mail/lexio/internal/tablename"
	"github.com/lexio-mail/lexio/notice"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/table"
)

// This file opens tables whose players are known: the operator's (lexio
// table new), the configuration's, and a league season's.

// ErrExists is returned by CreateTable for a name already taken.
var ErrExists = errors.New("table: a table of that name exists")

// CreateTable opens a table for players, in join order, under a league's
// rules, deals the tiles and queues every player's first notice. A seed of
// 0 is chosen at random.
func (s *Service) CreateTable(ctx context.Context, name, league string, players []string, seed uint64) error {
	if err := tablename.Check(name); err != nil {
		return fmt.Errorf("table: %w", err)
	}
	l := s.Cfg.League(league)
	switch {
	case l == nil:
		return fmt.Errorf("table: no league %q in the configuration", league)
	case len(players) < 2 || len(players) > table.MaxPlayers(l.Variant):
		return fmt.Errorf("table: %d players; %s takes 2 to %d (RULES §1.1, §12)", len(players), l.Variant, table.MaxPlayers(l.Variant))
	}
	now := s.Now()
	_, err := s.Notices.Commit(ctx, s.Store, now, func(tx *store.Tx, out *notice.Batch) error {
		if _, err := s.Create(tx, name, l, players, seed, now, out); err != nil {
			return err
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.Log.Info("table created", "table", name, "players", len(players))
	return nil
}

// Create creates a table of league l for players, in join order,
// seats them, deals the tiles and queues every player's first notice on
// out; ErrExists when the name is taken. The caller has checked the name
// and the number of players.
func (s *Service) Create(tx *store.Tx, name string, l *config.League, players []string, seed uint64, now time.Time, out *notice.Batch) (*table.Table, error) {
	row := table.NewRow(name, l, l.Variant)
	if err := tx.CreateTable(row); err != nil {
		if errors.Is(err, store.ErrDuplicate) {
			return nil, ErrExists
		}
		return nil, err
	}
	for i, addr := range players {
		pl, err := tx.EnsurePlayer(addr, s.Cfg.Language)
		if err != nil {
			return nil, err
		}
		if err := tx.AddSeat(&store.Seat{TableID: row.ID, Position: i, PlayerID: pl.ID, CreatedAt: now}); err != nil {
			return nil, fmt.Errorf("table: seat %s: %w", addr, err)
		}
	}
	t, err := s.Tables.LoadRow(tx, row)
	if err != nil {
		return nil, err
	}
	if err := s.Tables.StartGame(tx, t, seed, now, out); err != nil {
		return nil, err
	}
	return t, nil
}

// EnsureTables creates the tables of the configuration that do not exist
// yet; existing ones are left as they are.
func (s *Service) EnsureTables(ctx context.Context) error {
	for _, t := range s.Cfg.Tables {
		err := s.CreateTable(ctx, t.Name, t.League, t.Players, t.Seed)
		if err != nil && !errors.Is(err, ErrExists) {
			return err
		}
	}
	return nil
}

// shortName is the name of a table opened by mail (NEW, REMATCH): the
// first of tablename.Shorts(seed) that no table holds, seed being the
// message's id. A message handled twice is answered once, by its record
// (package inbox), so the name need not say which message opened it.
func shortName(tx *store.Tx, seed string) (string, error) {
	for name := range tablename.Shorts(seed) {
		_, err := tx.TableByName(name)
		if errors.Is(err, store.ErrNotFound) {
			return name, nil
		}
		if err != nil {
			return "", err
		}
	}
	return "", fmt.Errorf("lobby: every short table name for %q is taken", seed)
}
