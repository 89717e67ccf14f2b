// Package dict loads word lists, normalises them the way words are played
// (RULES §8.2) and answers whether a word is in the table's dictionary.
//
// A loaded dictionary is a minimal acyclic automaton (a DAWG) kept in its
// compiled binary form: the same bytes are searched in memory, written to
// disk and loaded back without rebuilding anything. A dictionary's file
// has its GADDAG beside it (file.go). It knows nothing of games.
package dict

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Normalize folds s the way tiles are written (RULES §8.2): canonical
// decomposition, combining marks dropped, Œ→OE, Æ→AE (and ß→SS),
// uppercase. ok is false when the result holds anything but A–Z or is
// empty; the folded string is returned either way so that callers can
// name what was refused.
func Normalize(s string) (word string, ok bool) {
	if isUpperASCII(s) {
		return s, true
	}
	var buf [64]byte
	b, ok := appendNormalized(buf[:0], s)
	return string(b), ok
}

// isUpperASCII reports whether s is a non-empty run of A–Z, which
// Normalize returns unchanged.
func isUpperASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 'A' || c > 'Z' {
			return false
		}
	}
	return s != ""
}

// appendNormalized appends the folded form of s (see Normalize) to dst.
// ok is false when the appended part holds anything but A–Z or is empty.
//
// Decomposing rune by rune gives the same letters as decomposing the whole
// string: NFD only adds canonical reordering of combining marks, and every
// mark that survives the Mn filter makes the word unplayable anyway.
func appendNormalized(dst []byte, s string) (out []byte, ok bool) {
	start := len(dst)
	ok = true
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case 'a' <= c && c <= 'z':
				c -= 'a' - 'A'
			case 'A' <= c && c <= 'Z':
			default:
				ok = false
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		var dec []byte
		if r >= 0xAC00 && r <= 0xD7A3 {
			// Hangul syllables decompose algorithmically; Properties
			// does not hold them.
			dec = norm.NFD.AppendString(nil, s[i:i+size])
		} else {
			dec = norm.NFD.PropertiesString(s[i : i+size]).Decomposition()
		}
		i += size
		if dec == nil {
			dst, ok = appendFolded(dst, r, ok)
			continue
		}
		for j := 0; j < len(dec); {
			r, n := utf8.DecodeRune(dec[j:])
			j += n
			dst, ok = appendFolded(dst, r, ok)
		}
	}
	return dst, ok && len(dst) > start
}

// appendFolded appends one already decomposed rune: marks vanish,
// ligatures split, the rest is uppercased.
func appendFolded(dst []byte, r rune, ok bool) ([]byte, bool) {
	switch {
	case r == 'œ' || r == 'Œ':
		return append(dst, 'O', 'E'), ok
	case r == 'æ' || r == 'Æ':
		return append(dst, 'A', 'E'), ok
	case r == 'ß':
		return append(dst, 'S', 'S'), ok
	case unicode.Is(unicode.Mn, r):
		return dst, ok
	}
	r = unicode.ToUpper(r)
	if r < 'A' || r > 'Z' {
		ok = false
	}
	return utf8.AppendRune(dst, r), ok
}
