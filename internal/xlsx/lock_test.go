package xlsx

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"
)

func TestLock(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "OutPut.xlsx")
	unlock, err := Lock(path)
	if err != nil {
		t.Fatal(err)
	}
	// Held by a live process (this test's parent stands in for another run).
	must(t, os.WriteFile(LockName(path), []byte(strconv.Itoa(os.Getppid())+"\n"), 0o644))
	_, err = Lock(path)
	var busy *BusyError
	if !errors.As(err, &busy) || busy.PID != os.Getppid() {
		t.Errorf("second Lock: %v, want a BusyError naming process %d", err, os.Getppid())
	}
	unlock()
	if _, err := os.Stat(LockName(path)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("unlock left the lock file: %v", err)
	}
	if runtime.GOOS == "windows" {
		return
	}
	// A lock whose process is gone is stale: taken over.
	cmd := exec.Command("true")
	must(t, cmd.Run())
	must(t, os.WriteFile(LockName(path), []byte(strconv.Itoa(cmd.Process.Pid)+"\n"), 0o644))
	unlock, err = Lock(path)
	if err != nil {
		t.Fatalf("stale lock not taken over: %v", err)
	}
	unlock()
}

func TestCheckWritable(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, path string
		ok         bool
	}{
		{"writable folder", filepath.Join(dir, "OutPut.xlsx"), true},
		{"missing folder", filepath.Join(dir, "no", "OutPut.xlsx"), false},
		{"a folder as the file", dir, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckWritable(tc.path, 1<<16)
			if (err == nil) != tc.ok {
				t.Errorf("CheckWritable(%s) = %v", tc.path, err)
			}
			if entries, _ := os.ReadDir(dir); slices.ContainsFunc(entries, func(e os.DirEntry) bool { return tempName.MatchString(e.Name()) }) {
				t.Errorf("the probe left a file: %v", entries)
			}
		})
	}
	if runtime.GOOS != "windows" && os.Getuid() != 0 {
		ro := filepath.Join(dir, "ro")
		must(t, os.Mkdir(ro, 0o555))
		if err := CheckWritable(filepath.Join(ro, "OutPut.xlsx"), 1); err == nil {
			t.Errorf("a read-only folder passed")
		}
	}
}

func TestRemoveStaleTemps(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-2 * StaleAge)
	files := map[string]bool{ // name: removed
		".OutPut.xlsx.websim-123.tmp":  true,
		".SvcData.xlsx.websim-9.tmp":   true,
		".OutPut.xlsx.websim-456.tmp~": false, // not the pattern
		"OutPut.xlsx.websim-1.tmp":     false, // not hidden: not websim's
		".OutPut.xlsx.websim-lock":     false,
		".OutPut.xlsx.websim-abc.tmp":  false,
		"notes.tmp":                    false,
	}
	for name := range files {
		must(t, os.WriteFile(filepath.Join(dir, name), nil, 0o644))
		must(t, os.Chtimes(filepath.Join(dir, name), old, old))
	}
	fresh := ".OutPut.xlsx.websim-789.tmp" // a save in progress
	must(t, os.WriteFile(filepath.Join(dir, fresh), nil, 0o644))
	removed := RemoveStaleTemps(dir, StaleAge)
	for name, want := range files {
		if got := slices.Contains(removed, name); got != want {
			t.Errorf("%s removed %v, want %v", name, got, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, fresh)); err != nil {
		t.Errorf("a fresh temp file was removed")
	}
	// Saving into the folder cleans up too.
	must(t, os.WriteFile(filepath.Join(dir, ".Other.xlsx.websim-1.tmp"), nil, 0o644))
	must(t, os.Chtimes(filepath.Join(dir, ".Other.xlsx.websim-1.tmp"), old, old))
	must(t, New().Save(filepath.Join(dir, "Book.xlsx")))
	if _, err := os.Stat(filepath.Join(dir, ".Other.xlsx.websim-1.tmp")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Save left a stale temp file")
	}
}
