package dict

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// ErrNoWords is returned by Build and Open when a word list holds no
// playable word: a table cannot play with it.
var ErrNoWords = errors.New("dict: no playable word in list")

// Stats tells what loading a word list did with its lines. Lines =
// Blank + Dropped + Duplicates + Kept.
type Stats struct {
	Lines      int // lines read, blank ones included
	Blank      int // empty or white-space-only lines
	Dropped    int // entries holding anything but A–Z once normalised (RULES §8.2)
	Duplicates int // entries folded into an earlier one ("Été" and "ete")
	Kept       int // distinct words in the dictionary
}

// Build reads a word list — UTF-8, one word per line, any case, accents
// and ligatures allowed, LF or CRLF, blank lines and surrounding white
// space ignored — normalises each entry (RULES §8.2, see Normalize), drops
// the entries that still hold anything but A–Z, folds duplicates, and
// builds the dictionary. A list with no playable word gives ErrNoWords.
func Build(r io.Reader) (*Dict, Stats, error) {
	var sb strings.Builder
	if _, err := io.Copy(&sb, r); err != nil {
		return nil, Stats{}, fmt.Errorf("dict: read word list: %w", err)
	}
	return buildText(sb.String())
}

func buildText(text string) (*Dict, Stats, error) {
	var st Stats
	text = strings.TrimPrefix(text, "\uFEFF")
	// All normalised words go into one arena, cut into strings at the end:
	// two allocations instead of one per word.
	arena := make([]byte, 0, len(text))
	var ends []int
	for len(text) > 0 {
		line, rest, _ := strings.Cut(text, "\n")
		text = rest
		st.Lines++
		line = strings.TrimSpace(line)
		if line == "" {
			st.Blank++
			continue
		}
		start := len(arena)
		var ok bool
		arena, ok = appendNormalized(arena, line)
		if !ok {
			arena = arena[:start]
			st.Dropped++
			continue
		}
		ends = append(ends, len(arena))
	}
	all := string(arena)
	words := make([]string, len(ends))
	start := 0
	for i, end := range ends {
		words[i] = all[start:end]
		start = end
	}
	slices.Sort(words)
	words = slices.Compact(words)
	st.Kept = len(words)
	st.Duplicates = len(ends) - len(words)
	if len(words) == 0 {
		return nil, st, fmt.Errorf("%w (%d lines, %d dropped)", ErrNoWords, st.Lines, st.Dropped)
	}
	d, err := fromSorted(words)
	return d, st, err
}

// fromSorted builds the dictionary of words, which must be sorted,
// distinct, non-empty runs of A–Z.
func fromSorted(words []string) (*Dict, error) {
	b := newBuilder()
	for _, w := range words {
		b.add(w)
	}
	data, err := b.compile(len(words))
	if err != nil {
		return nil, err
	}
	return newDict(data, len(words)), nil
}

// Open loads the file at path, either a compiled dictionary (recognised
// by its magic, see Parse) or a plain word list (see Build). For a
// compiled file only Stats.Kept is filled in.
func Open(path string) (*Dict, Stats, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, Stats{}, fmt.Errorf("dict: %w", err)
	}
	if len(data) > 0 && data[0] == magic[0] {
		// No UTF-8 text starts with this byte: a compiled file, maybe
		// damaged, which Parse will say.
		d, err := Parse(data)
		if err != nil {
			return nil, Stats{}, fmt.Errorf("%w (%s)", err, path)
		}
		return d, Stats{Kept: d.Len()}, nil
	}
	d, st, err := buildText(string(data))
	if err != nil {
		return nil, st, fmt.Errorf("%w (%s)", err, path)
	}
	return d, st, nil
}
