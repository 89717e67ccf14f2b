package notice

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/lexio-mail/lexio/engine/board"
	"github.com/lexio-mail/lexio/store"
)

// TestTemporary: the service retries what the store says is temporary,
// and nothing it marked permanent or that is not the store's to mend.
func TestTemporary(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"conflict", fmt.Errorf("store: save table 3: %w", store.ErrConflict), true},
		{"cancelled", fmt.Errorf("store: waiting for the writer: %w", context.Canceled), true},
		{"permanent over a cancelled context", Permanent(fmt.Errorf("table: render: %w", context.Canceled)), false},
		{"permanent over a conflict", Permanent(store.ErrConflict), false},
		{"duplicate", fmt.Errorf("store: insert table: %w", store.ErrDuplicate), false},
		{"not found", store.ErrNotFound, false},
		{"engine", &board.MoveError{Kind: board.KindNotYourTurn}, false},
		{"other", errors.New("table: command not routed"), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Temporary(tc.err); got != tc.want {
				t.Errorf("Temporary(%v) = %v, want %v", tc.err, got, tc.want)
			}
		})
	}
}
