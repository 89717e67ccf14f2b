// Package botseat is the one rule for naming a computer's seat at a
// table: "bot" (the medium level) or "bot:easy", "bot:medium",
// "bot:strong", in any case. The configuration, the parser (NEW lexio
// bot) and the table service read seats through it.
package botseat

import "strings"

// The levels of the computer opponent.
const (
	Easy   = "easy"
	Medium = "medium"
	Strong = "strong"
)

// Prefix starts every canonical seat name.
const Prefix = "bot:"

// Parse reads a seat name and returns its canonical form ("bot:medium")
// and its level; ok is false for anything that does not name a bot.
func Parse(s string) (seat, level string, ok bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "bot" {
		return Prefix + Medium, Medium, true
	}
	level, found := strings.CutPrefix(s, Prefix)
	if !found {
		return "", "", false
	}
	switch level {
	case Easy, Medium, Strong:
		return s, level, true
	}
	return "", "", false
}

// Is reports whether a seat's player is the computer: its address is a
// canonical seat name.
func Is(addr string) bool {
	_, _, ok := Parse(addr)
	return ok && strings.HasPrefix(addr, Prefix)
}
