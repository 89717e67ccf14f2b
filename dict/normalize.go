// Package dict loads word lists, normalises them the way words are played
// (RULES §8.2) and answers whether a word is in the table's dictionary.
package dict

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Normalize folds s the way tiles are written (RULES §8.2): canonical
// decomposition, combining marks dropped, Œ→OE, Æ→AE (and ß→SS),
// uppercase. ok is false when the result holds anything but A–Z or is
// empty; the folded string is returned either way so that callers can
// name what was refused.
func Normalize(s string) (word string, ok bool) {
	var b strings.Builder
	b.Grow(len(s))
	ok = true
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
			continue
		case r == 'œ' || r == 'Œ':
			b.WriteString("OE")
			continue
		case r == 'æ' || r == 'Æ':
			b.WriteString("AE")
			continue
		case r == 'ß':
			b.WriteString("SS")
			continue
		}
		r = unicode.ToUpper(r)
		if r < 'A' || r > 'Z' {
			ok = false
		}
		b.WriteRune(r)
	}
	word = b.String()
	return word, ok && word != ""
}
