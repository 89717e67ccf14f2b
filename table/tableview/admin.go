package tableview

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/engine/board"
	"github.com/lexio-mail/lexio/notice"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/templates"
)

// Summary is a table as the admin sees it.
type Summary struct {
	Name, League, Variant string
	Status                string
	Players               []string // addresses, in join order
	Scores                []int
	Turn                  int // -1 when not playing
	Deadline              *time.Time
	// Moves are the turns played as the players' LOG numbers them:
	// placements, exchanges, passes, expired turns (not refusals,
	// previews nor presence).
	Moves int64
	Board string // text grid, a blank's letter in lowercase; "" before the start
	// Log is the log every player's LOG holds, numbered as theirs:
	// refusals, private to their author, left out; players named by
	// their address.
	Log     []templates.LogLine
	Actions []engine.Action
	Rules   board.Rules
	Left    []engine.Departure // who resigned or forfeited, in order (LEAGUES §2)
	// Err says why the table could not be read (List); only Name is
	// set then.
	Err error
}

// List lists every table, by name. A table that cannot be read (a row
// the driver cannot read back, a log that disagrees with its row) does
// not hide the others: it is listed with its Err, and the error returned
// with the whole list joins those tables' errors. Each table is read in a
// read transaction of its own, so that an error of one (which aborts a
// PostgreSQL transaction) leaves the next to be read; an error worth
// trying again (IsTemporary) ends the listing.
func (s *Service) List(ctx context.Context) ([]Summary, error) {
	var refs []store.TableRef
	err := s.Store.View(ctx, func(tx *store.Tx) error {
		var err error
		refs, err = tx.TableRefs("")
		return err
	})
	if err != nil {
		return nil, err
	}
	var out []Summary
	var bad []error
	for _, ref := range refs {
		var sum Summary
		err := s.Store.View(ctx, func(tx *store.Tx) error {
			row, err := tx.TableByID(ref.ID)
			if err != nil {
				return err
			}
			t, err := s.Tables.LoadRow(tx, row)
			if err != nil {
				return err
			}
			sum = summary(t)
			return nil
		})
		if errors.Is(err, store.ErrNotFound) {
			continue // deleted meanwhile (an open table that lapsed)
		}
		if err != nil {
			if store.IsTemporary(err) {
				return nil, err
			}
			if !strings.Contains(err.Error(), "table "+ref.Name+": ") {
				err = fmt.Errorf("table %s: %w", ref.Name, err)
			}
			sum = Summary{Name: ref.Name, Err: err}
			bad = append(bad, err)
		}
		out = append(out, sum)
	}
	return out, errors.Join(bad...)
}

// Show describes one table, its log included.
func (s *Service) Show(ctx context.Context, name string) (Summary, error) {
	var sum Summary
	err := s.Store.View(ctx, func(tx *store.Tx) error {
		t, err := s.Tables.Load(tx, name)
		if err != nil {
			return err
		}
		sum = summary(t)
		return nil
	})
	return sum, err
}

func summary(t *table.Table) Summary {
	sum := Summary{Name: t.Row.Name, League: t.Row.League, Variant: t.Row.Variant, Status: string(t.Row.Status),
		Turn: -1, Deadline: t.Row.Deadline}
	for _, st := range t.Seats {
		sum.Players = append(sum.Players, st.Player.Address)
	}
	if g := t.Game; g != nil {
		b := g.Board()
		// The lines a spectator's page shows, which are every player's
		// LOG less their own refusals: one numbering for all.
		public := slices.DeleteFunc(g.Log(), func(e engine.LogEntry) bool { return e.Private })
		sum.Log = notice.LogLines(public, sum.Players, &b)
		for _, l := range sum.Log {
			if l.Turn > 0 {
				sum.Moves++
			}
		}
		sum.Board, sum.Actions, sum.Rules = b.String(), g.Actions(), g.Rules()
		r := g.Result()
		sum.Scores, sum.Left = r.Scores, r.Left
		if !g.Over() {
			sum.Turn = g.Turn()
		}
	}
	return sum
}
