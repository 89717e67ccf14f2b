package analysis

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lexio-mail/lexio/engine/board"
	"github.com/lexio-mail/lexio/movegen"
)

// Move is one legal placement as `lexio moves` lists it; its JSON fields
// are a contract of `lexio moves --json`.
type Move struct {
	Command string   `json:"command"` // canonical PLACE command
	Score   int      `json:"score"`
	Words   []string `json:"words"` // main word first, uppercase
	Leave   string   `json:"leave"` // the rack left, in rack order, '?' a blank
}

// Moves describes the generator's moves of rack on b with the engine's
// words and score, best score first, then by command.
func Moves(b *board.Board, rack []byte, moves []movegen.Move, r board.Rules) ([]Move, error) {
	out := make([]Move, 0, len(moves))
	for i := range moves {
		m, err := describeMove(b, rack, &moves[i], r)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	slices.SortFunc(out, func(a, b Move) int {
		if a.Score != b.Score {
			return b.Score - a.Score
		}
		return strings.Compare(a.Command, b.Command)
	})
	return out, nil
}

// describeMove writes a move as `lexio moves` prints it, with the
// engine's words and score.
func describeMove(b *board.Board, rack []byte, m *movegen.Move, r board.Rules) (Move, error) {
	ps := m.Placements()
	play, err := board.Evaluate(b, ps, r)
	if err != nil || play.Score != m.Score {
		return Move{}, fmt.Errorf("moves: the engine does not score %v as the generator (%d, %v): a bug", ps, m.Score, err)
	}
	left, err := board.TakeTiles(rack, ps)
	if err != nil {
		return Move{}, err
	}
	return Move{Command: PlaceCommand(play), Score: play.Score, Words: play.WordTexts(), Leave: string(left)}, nil
}
