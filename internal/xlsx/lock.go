package xlsx

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Guards around a save: a lock so that two websim runs never write the
// same workbook at once, a probe that the folder can be written before
// any work is done, and the removal of temporary files that a killed run
// left behind.

// BusyError says that another websim process holds the lock on a workbook.
type BusyError struct {
	Path, Lock string
	PID        int
}

func (e *BusyError) Error() string {
	return fmt.Sprintf("another websim run (process %d) is writing %s; wait for it to finish\nTry: if no websim is running, delete %s", e.PID, e.Path, e.Lock)
}

// LockName is the lock file of a workbook: ".OutPut.xlsx.websim-lock"
// beside it.
func LockName(path string) string {
	dir, base := filepath.Split(path)
	return filepath.Join(dir, "."+base+".websim-lock")
}

// Lock takes the lock on the workbook at path: a file created beside it
// with O_EXCL, holding this process's id. A lock whose process is gone (a
// run that was killed) is stale: it is removed and taken. When a live
// process holds it, Lock returns a *BusyError. The returned function
// releases the lock.
func Lock(path string) (unlock func(), err error) {
	name := LockName(path)
	for attempt := 0; attempt < 2; attempt++ {
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			_, werr := fmt.Fprintf(f, "%d\n", os.Getpid())
			cerr := f.Close()
			if werr != nil || cerr != nil {
				os.Remove(name)
				return nil, fmt.Errorf("cannot lock %s: %w", path, errors.Join(werr, cerr))
			}
			return func() { os.Remove(name) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("cannot lock %s: %w", path, err)
		}
		pid, ok := lockOwner(name)
		if ok && pid != os.Getpid() && processAlive(pid) {
			return nil, &BusyError{Path: path, Lock: name, PID: pid}
		}
		if !ok {
			// Being written this instant, or damaged: stale once old.
			if fi, err := os.Stat(name); err == nil && time.Since(fi.ModTime()) < time.Minute {
				return nil, &BusyError{Path: path, Lock: name}
			}
		}
		os.Remove(name) // stale: its process is gone
	}
	return nil, fmt.Errorf("cannot lock %s: %s keeps coming back", path, name)
}

// lockOwner reads the process id of a lock file.
func lockOwner(name string) (int, bool) {
	data, err := os.ReadFile(name)
	if err != nil {
		return 0, false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	return pid, err == nil && pid > 0
}

// processAlive reports whether a process with this id runs. Where that
// cannot be told (Windows), a lock is taken as held.
func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	if runtime.GOOS == "windows" {
		return true
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}

// CheckWritable makes sure a workbook can be saved at path before the work
// that produces it starts: its folder exists, and a temporary file can be
// created there and filled with size bytes (a full disk or a read-only
// folder fails here), then it is removed. The error says which.
func CheckWritable(path string, size int) error {
	if err := checkReplaceable(path); err != nil {
		return err
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	switch {
	case err != nil:
		return fmt.Errorf("cannot write %s: the folder %s does not exist: %w", path, dir, fs.ErrNotExist)
	case !fi.IsDir():
		return fmt.Errorf("cannot write %s: %s is not a folder: %w", path, dir, fs.ErrNotExist)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".websim-*.tmp")
	if err != nil {
		// The folder is there but takes no file (read-only, /proc): a
		// failure (exit 1), whatever the system calls it, not a missing
		// folder.
		why := err
		var pe *fs.PathError
		if errors.As(err, &pe) {
			why = pe.Err
		}
		return fmt.Errorf("cannot write %s: the folder %s takes no new file (%v); expected a folder websim may write in", path, dir, why)
	}
	name := tmp.Name()
	defer os.Remove(name)
	_, err = tmp.Write(make([]byte, size))
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	return nil
}

// StaleAge is how old a temporary file of websim's must be before a later
// save removes it: no save takes that long.
const StaleAge = time.Hour

// tempName is the name of websim's temporary files (os.CreateTemp fills
// the * with digits).
var tempName = regexp.MustCompile(`^\..+\.websim-[0-9]+\.tmp$`)

// RemoveStaleTemps removes the temporary files of websim's own saves in
// dir (".OutPut.xlsx.websim-123.tmp") older than age, which a run killed
// mid-save left behind, and returns their names. Other files are never
// touched.
func RemoveStaleTemps(dir string, age time.Duration) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if !e.Type().IsRegular() || !tempName.MatchString(e.Name()) {
			continue
		}
		fi, err := e.Info()
		if err != nil || time.Since(fi.ModTime()) < age {
			continue
		}
		if os.Remove(filepath.Join(dir, e.Name())) == nil {
			out = append(out, e.Name())
		}
	}
	return out
}

// RemoveTemps removes every temporary file of websim's saves of path,
// whatever its age: for a run interrupted while it writes (it holds the
// lock on path, so no other run writes them).
func RemoveTemps(path string) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "."+base+".websim-") && strings.HasSuffix(e.Name(), ".tmp") && tempName.MatchString(e.Name()) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// ErrReadOnly: a workbook to be replaced is marked read-only (its file
// permissions, Excel's read-only attribute); websim does not replace it,
// as Excel would not.
var ErrReadOnly = errors.New("read-only")

// checkReplaceable refuses to save over a folder (fs.ErrExist) or over a
// file marked read-only (its owner's write permission off, which is also
// how Go shows Windows' read-only attribute: ErrReadOnly), as Excel and
// LibreOffice would not replace it. A path that does not exist yet may be saved. A symbolic link
// is replaced by the workbook and the file it points to left alone (a
// caller that must not replace a link refuses it first); a link to a
// read-only file is refused all the same.
func checkReplaceable(path string) error {
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return nil // nothing there yet (or unreadable: the save says why)
	case fi.IsDir():
		return fmt.Errorf("cannot write %s: it is a folder: %w", path, fs.ErrExist)
	case fi.Mode().Perm()&0o200 == 0:
		return fmt.Errorf("cannot write %s: the file is marked %w, and websim does not replace it\nTry: clear its read-only mark (its file properties, or chmod u+w), or save the results elsewhere", path, ErrReadOnly)
	}
	return nil
}
