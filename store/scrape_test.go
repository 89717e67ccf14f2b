package store

import (
	"context"
	"errors"
	"reflect"
	"testing"
)

// TestTableCounts: the tables by status, none counted at 0.
func TestTableCounts(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		count := func() map[string]int {
			t.Helper()
			var got map[string]int
			if err := s.View(context.Background(), func(tx *Tx) error {
				var err error
				got, err = tx.TableCounts()
				return err
			}); err != nil {
				t.Fatal(err)
			}
			return got
		}
		if got := count(); len(got) != 0 {
			t.Fatalf("no tables: %v", got)
		}
		newTable(t, s, "a", 2)
		newTable(t, s, "b", 2)
		over := newTable(t, s, "c", 2)
		mustTx(t, s, func(tx *Tx) error {
			over.Status = "over"
			return tx.SaveTable(over, over.Seq)
		})
		if got, want := count(), map[string]int{"playing": 2, "over": 1}; !reflect.DeepEqual(got, want) {
			t.Errorf("counts %v, want %v", got, want)
		}
	})
}

// TestPing: an open store answers; a closed one, or a ctx that ended,
// does not.
func TestPing(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		if err := s.Ping(context.Background()); err != nil {
			t.Fatalf("Ping: %v", err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := s.Ping(ctx); !errors.Is(err, context.Canceled) {
			t.Errorf("Ping with a cancelled ctx: %v", err)
		}
	})
}
