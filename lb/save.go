package lb

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/xuri/excelize/v2"
)

// Save writes f to path through a temporary file in the same folder, renamed
// into place once complete: excelize's SaveAs truncates its target first, so
// a failure would leave a half-written workbook.
func Save(f *excelize.File, path string) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = f.WriteTo(tmp); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	mode := os.FileMode(0o644) // CreateTemp makes 0600; keep the target's mode
	if fi, statErr := os.Stat(path); statErr == nil {
		mode = fi.Mode().Perm()
	}
	if err = os.Chmod(tmp.Name(), mode); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		if errors.Is(err, os.ErrPermission) {
			return fmt.Errorf("%w; Try: close %s in Excel, then run again", err, filepath.Base(path))
		}
		return err
	}
	return nil
}
