package engine

import (
	"errors"

	"github.com/lexio-mail/lexio/engine/board"
)

// Sentinel errors. Rule violations are *board.MoveError instead.
var (
	ErrConfig   = board.ErrConfig
	ErrNoPlayer = errors.New("engine: no such player")
	ErrBadLog   = errors.New("engine: action log does not replay")
)
