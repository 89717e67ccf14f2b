// Package tablename is the one rule for table names, which the
// configuration, the admin's commands, JOIN and the reply tokens all
// follow: 1 to 32 of a-z, 0-9 and '-', the first a letter or a digit.
// The names of the tables players open by mail (NEW, REMATCH) are short
// ones within that rule (Shorts).
//
// It is a package of its own because the rule belongs to none of its
// users: config, parser and mailer import nothing of each other (and
// names are no rule of the game, so not the engine's either).
package tablename

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"iter"
	"strconv"
	"strings"
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

// Alphabet is what a short name is written in after its "t": lowercase
// letters and digits, less those read alike (0 and o; 1, l and i), so
// that a name read on a phone is typed right.
const Alphabet = "23456789abcdefghjkmnpqrstuvwxyz"

// The characters after the "t" of a short name: as few as the names
// taken allow, ShortMin first.
const (
	ShortMin = 2
	ShortMax = 5
)

// triesPerLen is how many names of each length Shorts gives before a
// longer one: a few taken at one length do not make every name longer.
const triesPerLen = 8

// Shorts gives the short names a table opened by mail may take, in the
// order to try them: "t" and ShortMin characters of Alphabet, then more
// as the shorter ones are taken, up to ShortMax (at most 6 characters in
// all, "t42"-like). The names follow from seed alone (the opening
// message's id), so that a test knows them; the caller takes the first
// that no table holds.
func Shorts(seed string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for n := ShortMin; n <= ShortMax; n++ {
			for i := range triesPerLen {
				sum := sha256.Sum256([]byte(strconv.Itoa(n) + "." + strconv.Itoa(i) + "." + seed))
				v := binary.BigEndian.Uint64(sum[:8])
				var b strings.Builder
				b.WriteByte('t')
				for range n {
					b.WriteByte(Alphabet[v%uint64(len(Alphabet))])
					v /= uint64(len(Alphabet))
				}
				if !yield(b.String()) {
					return
				}
			}
		}
	}
}

// IsShort reports whether name has the shape of a name Shorts gives.
func IsShort(name string) bool {
	if len(name) < 1+ShortMin || len(name) > 1+ShortMax || name[0] != 't' {
		return false
	}
	for i := 1; i < len(name); i++ {
		if !strings.Contains(Alphabet, name[i:i+1]) {
			return false
		}
	}
	return true
}
