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
// GADDAG, and writes them to out and out.gaddag. The GADDAG goes in a file
// of its own, so that the dictionary's format stays as it is. Each is
// written to a temporary file first, then renamed, the GADDAG first: a
// directory with the dictionary has both. It returns what loading the
// list did and the bytes of each file.
func Compile(r io.Reader, out string) (st Stats, n, gn int64, err error) {
	d, st, err := Build(r)
	if err != nil {
		return st, 0, 0, err
	}
	gd, err := BuildGaddag(d)
	if err != nil {
		return st, 0, 0, err
	}
	gout := out + GaddagSuffix
	n, err = writeTemp(out, d)
	if err == nil {
		if gn, err = writeTemp(gout, gd); err != nil {
			os.Remove(out + ".tmp")
		}
	}
	if err == nil {
		if err = os.Rename(gout+".tmp", gout); err == nil {
			err = os.Rename(out+".tmp", out)
		}
		if err != nil {
			os.Remove(out + ".tmp")
			os.Remove(gout + ".tmp")
		}
	}
	if err != nil {
		return st, 0, 0, err
	}
	return st, n, gn, nil
}

// writeTemp writes v to path.tmp, whole or not at all.
func writeTemp(path string, v io.WriterTo) (int64, error) {
	tmp := path + ".tmp"
	w, err := os.Create(tmp)
	if err != nil {
		return 0, err
	}
	n, err := v.WriteTo(w)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return 0, err
	}
	return n, nil
}
