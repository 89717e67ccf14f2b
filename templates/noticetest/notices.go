// Package noticetest reads back, for tests, what the notices carry: their
// calendar objects, strictly (ParseICS), and in an English text notice the
// board and the final scores. It knows nothing of mail transport.
package noticetest

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lexio-mail/lexio/engine/board"
)

// DisplayName is how the notices name the player of an address: the local
// part, capitalised.
func DisplayName(addr string) string {
	local, _, _ := strings.Cut(addr, "@")
	return strings.ToUpper(local[:1]) + local[1:]
}

// HasScoreLine finds "Name [(you)] before adjust final" in the final
// scores of an English game-over mail.
func HasScoreLine(text, name string, final int) bool {
	_, after, _ := strings.Cut(text, "== Final scores ==")
	for _, l := range strings.Split(after, "\n") {
		f := strings.Fields(strings.TrimLeft(l, " *"))
		if len(f) >= 4 && f[0] == name && f[len(f)-1] == fmt.Sprint(final) {
			return true
		}
	}
	return false
}

// BoardShown reports whether the text grid in text shows every tile of
// b in its cell (blanks in lowercase, the last move in brackets).
func BoardShown(text string, b *board.Board) bool {
	_, grid, ok := strings.Cut(text, "== The board ==")
	if !ok {
		return false
	}
	// A row is its number in 3 columns, then 3 columns a cell, the
	// letter in the last: "  7  .  . [M][E] .".
	rows := map[int]string{}
	for _, l := range strings.Split(grid, "\n") {
		if len(l) < 3+3*board.Size {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(l[:3]))
		if err != nil || n < 1 || n > board.Size {
			continue
		}
		if _, dup := rows[n-1]; !dup {
			rows[n-1] = l
		}
	}
	if len(rows) != board.Size {
		return false
	}
	for r := range board.Size {
		for c := range board.Size {
			sq := b.At(board.Cell{Col: c, Row: r})
			if sq.Empty() {
				continue
			}
			want := string(sq.Letter)
			if sq.Blank {
				want = strings.ToLower(want)
			}
			if got := rows[r][5+3*c : 6+3*c]; got != want {
				return false
			}
		}
	}
	return true
}
