package xlsx

// Saving: never half written, and never over a file Excel has open.

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
)

// LockedError says that a workbook could not be replaced because it is open
// in Excel (a ~$ lock file stands beside it, or the system refused the
// write); the results were saved beside it as SavedAs instead (empty when
// that failed too).
type LockedError struct {
	Path, SavedAs string
}

func (e *LockedError) Error() string {
	name := filepath.Base(e.Path)
	saved := "the results could not be saved under another name either"
	if e.SavedAs != "" {
		saved = "the results were saved as " + e.SavedAs + " instead"
	}
	try := "close " + name + " and run again"
	if lock := lockFile(e.Path); lock != "" {
		// A lock file outlives a crash of the program that left it.
		try += "; if no Excel or LibreOffice has it open, delete the lock file " + lock + " that a crash left behind"
	}
	return fmt.Sprintf("%s is open in Excel or LibreOffice (or locked by another program), so it was not replaced; %s\nTry: %s",
		e.Path, saved, try)
}

// ErrChanged is the cause of a save refused because the file changed
// since the workbook was read from it: saved over, the other program's
// change would be lost.
var ErrChanged = errors.New("changed since it was read")

// ChangedError says that a workbook was not saved over its file because
// the file no longer holds the bytes it was read from (saved by Excel in
// the meantime, say): nothing was written.
type ChangedError struct{ Path string }

func (e *ChangedError) Error() string {
	return fmt.Sprintf("%s changed since websim read it (saved by another program meanwhile), so it was not replaced: that change is kept", e.Path)
}

func (e *ChangedError) Unwrap() error { return ErrChanged }

// unchanged reports whether the file at path still holds the bytes with
// the hex SHA-256 sum.
func unchanged(path, sum string) bool {
	got := fileSum(path)
	return got != "" && got == sum
}

// fileSum is the hex SHA-256 of the file at path ("" when unreadable).
func fileSum(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}

// sameFile reports whether a and b name the same file.
func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// WriteFunc writes a workbook's bytes to w (Book.Write, or a test's
// replacement that fails mid-way).
type WriteFunc func(b *Book, w io.Writer) error

// Save writes b to path through a temporary file in the same folder renamed
// into place, so that path is either the old file or the new one, whole.
// When path is open in Excel (a ~$ lock file beside it, or a refused
// rename), the workbook is saved beside it under a new name ("OutPut
// (2).xlsx") and a *LockedError says where.
// A write error kept from the calls that built b is returned first, and
// nothing is written. A book saved over the file it was read from is
// not saved when that file changed since (*ChangedError), checked last,
// just before the new file takes its place. Temporary files that earlier saves in the folder
// left behind (a run killed mid-save) are removed once StaleAge old.
func (b *Book) Save(path string) error {
	return b.SaveWith(path, (*Book).Write)
}

// SaveWith is Save with the writer of the bytes given (tests make it fail
// mid-way).
func (b *Book) SaveWith(path string, writeWorkbook WriteFunc) error {
	if b.err != nil {
		return b.err
	}
	if err := checkReplaceable(path); err != nil {
		return err
	}
	RemoveStaleTemps(filepath.Dir(path), StaleAge)
	f := b
	if lockedByExcel(path) {
		return saveBeside(f, path, writeWorkbook)
	}
	tmp, err := writeTemp(f, path, writeWorkbook)
	if err != nil {
		return err
	}
	own := b.path != "" && sameFile(b.path, path)
	if own && !unchanged(path, b.SHA256) {
		os.Remove(tmp)
		return &ChangedError{Path: path}
	}
	if own {
		// Saved again, it is checked against what this save wrote.
		defer func() { b.SHA256 = fileSum(path) }()
	}
	if err := os.Rename(tmp, path); err != nil {
		if refused(err) {
			// The target is held open (Windows refuses to replace a file
			// Excel has open): keep the results under a new name.
			if saved, ok := renameFree(tmp, path); ok {
				return &LockedError{Path: path, SavedAs: saved}
			}
		}
		os.Remove(tmp)
		return fmt.Errorf("cannot replace %s: %w", path, err)
	}
	return nil
}

// saveBeside saves f under the first free name beside path and reports the
// lock.
func saveBeside(f *Book, path string, writeWorkbook WriteFunc) error {
	tmp, err := writeTemp(f, path, writeWorkbook)
	if err != nil {
		return &LockedError{Path: path}
	}
	if saved, ok := renameFree(tmp, path); ok {
		return &LockedError{Path: path, SavedAs: saved}
	}
	os.Remove(tmp)
	return &LockedError{Path: path}
}

// writeTemp writes f to a new temporary file beside path, with path's
// permissions when it exists, and returns the temporary file's name.
func writeTemp(f *Book, path string, writeWorkbook WriteFunc) (string, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".websim-*.tmp")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // its path is the temporary file's pattern, not the user's
		}
		return "", fmt.Errorf("cannot write %s: %w", path, err)
	}
	name := tmp.Name()
	fail := func(err error) (string, error) {
		tmp.Close()
		os.Remove(name)
		return "", fmt.Errorf("cannot write %s: %w", path, err)
	}
	// The package is put together beside it too (Write).
	f.scratchDir, f.scratchPattern = dir, "."+base+".websim-*.tmp"
	err = writeWorkbook(f, tmp)
	f.scratchDir, f.scratchPattern = "", ""
	if err != nil {
		return fail(err)
	}
	if err := tmp.Sync(); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(name)
		return "", fmt.Errorf("cannot write %s: %w", path, err)
	}
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := os.Chmod(name, mode); err != nil && runtime.GOOS != "windows" {
		os.Remove(name)
		return "", fmt.Errorf("cannot write %s: %w", path, err)
	}
	return name, nil
}

// renameFree renames tmp to the first free name beside path, "OutPut
// (2).xlsx", "OutPut (3).xlsx", ...; it never replaces an existing file.
func renameFree(tmp, path string) (string, bool) {
	ext := filepath.Ext(path)
	stem := strings.TrimSuffix(path, ext)
	for i := 2; i < 1000; i++ {
		cand := fmt.Sprintf("%s (%d)%s", stem, i, ext)
		if _, err := os.Lstat(cand); !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if lockedByExcel(cand) {
			continue
		}
		// Link then remove, so that a file created meanwhile is never
		// replaced; where links are not supported, fall back to rename.
		if err := os.Link(tmp, cand); err == nil {
			os.Remove(tmp)
			return cand, true
		} else if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err := os.Rename(tmp, cand); err == nil {
			return cand, true
		}
	}
	return "", false
}

// OpenElsewhere reports whether path is open in Excel or LibreOffice, by
// the lock file that stands beside it meanwhile; a save would then go
// beside it (Save), so a caller that writes several files checks them all
// first.
func OpenElsewhere(path string) bool { return lockedByExcel(path) }

// lockedByExcel reports whether Excel's owner file ~$NAME, or
// LibreOffice's .~lock.NAME#, stands beside path. Excel names its file
// after the workbook, dropping the first two characters of long names, so
// both forms are checked.
func lockedByExcel(path string) bool { return lockFile(path) != "" }

// lockFile is the lock file Excel or LibreOffice keeps beside path while
// it has the workbook open (~$OutPut.xlsx, .~lock.OutPut.xlsx#), or "".
func lockFile(path string) string {
	dir, base := filepath.Split(path)
	cands := []string{"~$" + base, ".~lock." + base + "#"}
	if r := []rune(base); len(r) > 2 {
		cands = append(cands, "~$"+string(r[2:]))
	}
	for _, c := range cands {
		if _, err := os.Lstat(filepath.Join(dir, c)); err == nil {
			return filepath.Join(dir, c)
		}
	}
	return ""
}

// refused reports whether err means the system would not replace a file
// that another program holds open.
func refused(err error) bool {
	if errors.Is(err, fs.ErrPermission) {
		return true
	}
	var errno syscall.Errno
	if runtime.GOOS == "windows" && errors.As(err, &errno) {
		// ERROR_SHARING_VIOLATION, ERROR_LOCK_VIOLATION
		return errno == 32 || errno == 33
	}
	return false
}
