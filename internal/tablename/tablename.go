// Package tablename is the one rule for table names, which the
// configuration, the admin's commands, JOIN and the reply tokens all
// follow: 1 to 32 of a-z, 0-9 and '-', the first a letter or a digit.
//
// It is a package of its own because the rule belongs to none of its
// users: config, parser and mailer import nothing of each other (and
// names are no rule of the game, so not the engine's either).
package tablename

import (
	"errors"
	"fmt"
)

// MaxLen is the longest table name.
const MaxLen = 32

// Rule says what a table name is, for error messages.
const Rule = "1 to 32 of a-z, 0-9 and '-', the first a letter or a digit"

// ErrInvalid is wrapped by every error of Check.
var ErrInvalid = errors.New("not a table name")

// Check returns nil for a usable table name, else an error wrapping
// ErrInvalid that quotes the name and states the rule.
func Check(name string) error {
	ok := name != "" && len(name) <= MaxLen && name[0] != '-'
	for i := 0; ok && i < len(name); i++ {
		c := name[i]
		ok = 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-'
	}
	if !ok {
		return fmt.Errorf("tablename: %q is %w: %s", name, ErrInvalid, Rule)
	}
	return nil
}
