package table

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/store"
)

// TestIsTemporary: the service retries what the store says is temporary,
// and nothing it marked permanent or that is not the store's to mend.
func TestIsTemporary(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"conflict", fmt.Errorf("store: save table 3: %w", store.ErrConflict), true},
		{"cancelled", fmt.Errorf("store: waiting for the writer: %w", context.Canceled), true},
		{"permanent over a cancelled context", permanent(fmt.Errorf("table: render: %w", context.Canceled)), false},
		{"permanent over a conflict", permanent(store.ErrConflict), false},
		{"duplicate", fmt.Errorf("store: insert table: %w", store.ErrDuplicate), false},
		{"not found", store.ErrNotFound, false},
		{"engine", &engine.MoveError{Kind: engine.KindNotYourTurn}, false},
		{"already handled", errHandled, false},
		{"other", errors.New("table: command not routed"), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := isTemporary(tc.err); got != tc.want {
				t.Errorf("isTemporary(%v) = %v, want %v", tc.err, got, tc.want)
			}
		})
	}
}
