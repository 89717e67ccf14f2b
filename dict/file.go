package dict

import (
	"fmt"
	"io"
	"os"
)

// GaddagSuffix names the GADDAG file beside a compiled dictionary:
// `lexio dict build OUT` writes OUT and OUT.gaddag.
const GaddagSuffix = ".gaddag"

// GaddagOf is the GADDAG of d, the dictionary read from path: the file
// path.gaddag that `lexio dict build` wrote beside it, checked to hold
// the same words, else built from d (seconds for wfrench).
func GaddagOf(path string, d *Dict) (*Gaddag, error) {
	if _, err := os.Stat(path + GaddagSuffix); err == nil {
		gd, err := OpenGaddag(path + GaddagSuffix)
		if err == nil {
			err = gd.Pair(d)
		}
		if err != nil {
			return nil, fmt.Errorf("%w; `lexio dict build` writes both files again", err)
		}
		return gd, nil
	}
	return BuildGaddag(d)
}

// Compile builds the dictionary of the word list read from r and its
// GADDAG, and writes them to out and out.gaddag, the GADDAG first: a
// directory with the dictionary has both. The GADDAG goes in a file of
// its own, so that the dictionary's format stays as it is. It returns
// what loading the list did and the bytes of each file.
func Compile(r io.Reader, out string) (st Stats, n, gn int64, err error) {
	d, st, err := Build(r)
	if err != nil {
		return st, 0, 0, err
	}
	gd, err := BuildGaddag(d)
	if err != nil {
		return st, 0, 0, err
	}
	if gn, err = writeFile(out+GaddagSuffix, gd); err != nil {
		return st, 0, 0, err
	}
	if n, err = writeFile(out, d); err != nil {
		return st, 0, 0, err
	}
	return st, n, gn, nil
}

// writeFile writes v to path through a temporary file renamed over it.
func writeFile(path string, v io.WriterTo) (int64, error) {
	tmp := path + ".tmp"
	w, err := os.Create(tmp)
	if err != nil {
		return 0, err
	}
	n, err := v.WriteTo(w)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return 0, err
	}
	return n, nil
}
