package oauth

import (
	"fmt"
	"os"
	"path/filepath"
)

// WriteFile replaces file with data, mode 0600, atomically: the data go
// to a new file in the same directory, synced, which is renamed over the
// old one, and the directory is synced. A crash leaves the old token or
// the new one, whole. Errors name the file, never the data.
func WriteFile(file string, data []byte) (err error) {
	dir := filepath.Dir(file)
	f, err := os.CreateTemp(dir, "."+filepath.Base(file)+".*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	// CreateTemp makes it 0600 already; a umask cannot widen that, but
	// say so where it matters.
	if err = f.Chmod(0o600); err != nil {
		return err
	}
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(f.Name(), file); err != nil {
		return err
	}
	// The rename is durable once the directory is synced.
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("%s written, its directory not synced: %w", file, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("%s written, its directory not synced: %w", file, err)
	}
	return nil
}
