package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/websim/websim/internal/xlsx"
	"github.com/websim/websim/workbook"
)

// probeSize is how much the check before a run writes into each output
// folder: enough to find a disk that is full.
const probeSize = 256 << 10

// prepareOutputs is done before a run simulates anything, for each
// workbook it will write: the folder must exist (else the input is
// invalid: exit 2) and take a file (a read-only folder or a full disk is a
// failure: exit 1), and no other websim run may be writing the same
// workbook (its lock: exit 1). It returns the function that releases the
// locks.
func prepareOutputs(paths ...string) (release func(), err error) {
	var unlocks []func()
	var once sync.Once
	release = func() {
		// Once: a forced stop and the command's own return may both
		// release, and a lock released twice could remove another run's.
		once.Do(func() {
			pending.Lock()
			pending.unlock = nil
			pending.Unlock()
			for _, u := range unlocks {
				u()
			}
		})
	}
	defer func() {
		if err == nil {
			// A command stopped where it stands releases the locks too.
			pending.Lock()
			pending.unlock = release
			pending.Unlock()
		}
	}()
	for _, p := range paths {
		if err := xlsx.CheckWritable(p, probeSize); err != nil {
			release()
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrExist) {
				return nil, invalidInput(err)
			}
			return nil, err
		}
		unlock, err := xlsx.Lock(p)
		if err != nil {
			release()
			return nil, err
		}
		unlocks = append(unlocks, unlock)
	}
	return release, nil
}

// interruptGrace is how long a command has, once interrupted, to stop by
// itself before it is stopped where it stands: a read that blocks (a pipe
// with no writer named as a data file, say) does not watch the context.
const interruptGrace = 5 * time.Second

// writeGrace is how long an interrupted writeOutputs waits for the save
// under way to end before it removes the temporary files.
const writeGrace = 4 * time.Second

// pending are the outputs being written now (writeOutputs), whose
// temporary files a command stopped where it stands removes.
var pending struct {
	sync.Mutex
	paths []string
	// unlock releases the locks prepareOutputs took (nil when none are
	// held).
	unlock func()
}

// interruptible returns ctx, cancelled by an interrupt (Ctrl-C) or a
// request to terminate (SIGTERM, which batch schedulers, timeout and
// Kubernetes send), so that a command stops with a message and exit 1 and
// leaves no half-written file, rather than die where it stands. A command
// that has not stopped interruptGrace after the signal, or that gets a
// second one, is stopped then: the temporary files of the outputs it was
// writing are removed, the locks on them released, and it exits 1. The
// returned function ends the watch; call it when the command returns. The
// signals stay caught after it, and are dropped, until the process ends:
// one that came just before the exit would otherwise kill the process
// with 130 rather than let it exit 1. (writeGrace, the wait for a save
// under way, is below interruptGrace, so that an interrupted write still
// ends by itself.)
func interruptible(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	finished := make(chan struct{})
	go func() {
		select {
		case <-finished:
			return
		case <-sig:
			cancel()
		}
		select {
		case <-finished:
			return
		case <-sig:
		case <-time.After(interruptGrace):
		}
		pending.Lock()
		for _, p := range pending.paths {
			xlsx.RemoveTemps(p)
		}
		unlock := pending.unlock
		pending.Unlock()
		if unlock != nil {
			unlock()
		}
		pending.Lock()
		xlsx.RemoveLibraryTemp()
		fmt.Fprintln(os.Stderr, "Error: interrupted, and stopped where it stood: each output holds its earlier file or a whole new one")
		os.Exit(1)
	}()
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			// The signals stay caught (and from now on dropped) until the
			// process ends: one that came between the end of the watch and
			// the exit would otherwise kill the process (exit 130, not 1).
			close(finished)
			cancel()
		})
	}
}

// writeOutputs runs write (which saves paths, each atomically) unless ctx
// ends first: then the temporary files of this run's saves are removed
// and an error says so (exit 1; never 0 after an interrupt). Each path is
// then either its earlier file or the new one, whole.
func writeOutputs(ctx context.Context, write func() error, paths ...string) error {
	if err := ctx.Err(); err != nil {
		return errors.New("interrupted: nothing was written")
	}
	pending.Lock()
	pending.paths = append(pending.paths, paths...)
	pending.Unlock()
	defer func() {
		pending.Lock()
		pending.paths = pending.paths[:0]
		pending.Unlock()
	}()
	done := make(chan error, 1)
	go func() { done <- write() }()
	select {
	case err := <-done:
		if err == nil && ctx.Err() != nil {
			return fmt.Errorf("interrupted while writing; the results were written to %s", strings.Join(paths, " and "))
		}
		return err
	case <-ctx.Done():
		// The save under way goes on to its end (each is whole or not
		// there) and write starts no other (it checks ctx between saves);
		// its temporary files are removed once it has ended, so that none
		// is made after the removal. One that does not end within
		// writeGrace is left to the second signal's stop, which finds its
		// paths still pending (and to the next run's clearing).
		var werr error
		select {
		case werr = <-done:
		case <-time.After(writeGrace):
		}
		for _, p := range paths {
			xlsx.RemoveTemps(p)
		}
		holds := "holds"
		if len(paths) > 1 {
			holds = "each hold"
		}
		// What the save under way met (a workbook open in Excel, saved
		// under another name; a full disk) is said too.
		return errors.Join(fmt.Errorf("interrupted while writing the results: %s %s the earlier file or the new one, whole", strings.Join(paths, " and "), holds), werr)
	}
}

// resultsStand reports whether a finished study's figures are still to be
// shown after writeOutputs returned err: when it wrote them, and also when
// a workbook could not be written or was saved under another name (a
// stale lock file, a full disk), so that --json still prints its document
// and the console its table, with the error after them (exit 1). An
// interrupt shows nothing more.
func resultsStand(ctx context.Context, err error) bool {
	return err == nil || ctx.Err() == nil
}

// resultPaths are the workbooks a command writes: out, then, with
// --write-back, the model's SvcData.xlsx (refused when it is a link, or
// when the result sheets the command would replace there, those of the
// base names replaces, were changed by the user: checkWriteBack).
func resultPaths(out, model string, writeBack bool, replaces ...string) ([]string, error) {
	if !writeBack {
		return []string{out}, nil
	}
	svcData := svcDataPath(model)
	if err := checkWriteBack(svcData, replaces...); err != nil {
		return nil, err
	}
	return []string{out, svcData}, nil
}

// svcDataPath is the model's SvcData.xlsx as the reader found it (its
// name in any case: svcdata.xlsx from a Windows copy), for --write-back.
func svcDataPath(model string) string {
	if path, err := xlsx.Find(model, workbook.SvcDataFile); err == nil {
		return path
	}
	return filepath.Join(model, workbook.SvcDataFile)
}

// checkWriteBack refuses to add results to an input workbook (SvcData.xlsx
// with --write-back, a load balancer's Parameters.xlsx without --out) that
// is a symbolic link: the save would replace the link by a file of its
// own (the workbook silently parted from the one it pointed to), and
// writing through it would change a file outside the model's folder,
// perhaps another model's. A workbook whose structure is protected
// (xlsx.CheckStructure) is refused too, as Excel refuses to add sheets to
// it. Refused before anything runs (exit 1). So is a workbook whose result
// sheets that the command would replace (those of the base names
// replaces) were changed by the user since websim wrote them
// (checkEditedResults, exit 2).
func checkWriteBack(input string, replaces ...string) error {
	fi, err := os.Lstat(input)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		if err := xlsx.CheckStructure(input); err != nil {
			return err
		}
		return checkEditedResults(input, true, replaces...)
	}
	target, _ := os.Readlink(input)
	return fmt.Errorf("%s is a symbolic link (to %s), and the results would be added to it; websim does not write through links, nor replace them\nTry: run on the folder that holds the workbook itself, or write the results elsewhere (--out, or run without --write-back)", input, target)
}

// checkWritable is done before any work, for an output that a command
// other than run writes: a missing folder is invalid input (exit 2, as for
// run), a folder that takes no file a failure (exit 1).
func checkWritable(path string) error {
	err := xlsx.CheckWritable(path, probeSize)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrExist) {
		return invalidInput(err)
	}
	return err
}

// workbookExts are the extensions of Excel workbooks, which a text output
// (--trace, --partial) must not take: it would replace a workbook, the
// model's own among them.
var workbookExts = []string{".xlsx", ".xlsm", ".xls", ".xltx", ".xltm"}

// checkSideOutput refuses, as invalid input, a path for a text output
// (flag --trace or --partial) that would replace a workbook: one of the
// model's (also through a link), any file named as a workbook, or the
// target of a link that is one. A folder is refused too.
func checkSideOutput(flag, path, model string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return invalidInput(fmt.Errorf("%s %s is a folder; expected a file name", flag, path))
	}
	if in := modelInput(path, model); in != "" {
		return invalidInput(fmt.Errorf("%s %s is the model's own %s, which it would replace; expected another file name", flag, path, in))
	}
	names := []string{path}
	if target, err := filepath.EvalSymlinks(path); err == nil && target != path {
		names = append(names, target)
	}
	for _, name := range names {
		ext := strings.ToLower(filepath.Ext(name))
		if slices.Contains(workbookExts, ext) {
			what := "is named as a workbook"
			if name != path {
				what = "leads to the workbook " + name
			}
			return invalidInput(fmt.Errorf("%s %s %s, which this text file would replace; expected another name (%s)", flag, path, what, sideExample[flag]))
		}
	}
	return nil
}

// sideExample is a name each text output may take.
var sideExample = map[string]string{"--trace": "trace.txt", "--partial": "part-0.wsp"}

// writeBackFailed words the error of adding what ("the results") to the
// model's SvcData.xlsx, after they were saved at out ("" when they were
// not saved there): a workbook that changed during the run (saved in
// Excel, say) was left as it is.
func writeBackFailed(what, out string, err error) error {
	if errors.Is(err, xlsx.ErrChanged) {
		where := "they are in " + out
		if out == "" {
			where = "where they were saved is said above"
		}
		return fmt.Errorf("%w; %s, of the model as it was read, were not added to it: %s\nTry: run again to add those of the model as it is now", err, what, where)
	}
	return fmt.Errorf("writing %s back into %s: %w", what, workbook.SvcDataFile, err)
}

// checkOwnResults refuses, before anything runs, to replace an existing
// workbook at out that holds sheets websim did not write: a workbook of
// the user's named by --out, or an OutPut.xlsx to which the user added a
// sheet of notes. Replacing it would lose them without a word, where Excel
// would ask first. A results workbook of websim's own (every sheet one it
// wrote) is replaced as before. Invalid input (exit 2): nothing ran.
func checkOwnResults(out string) error {
	if fi, err := os.Lstat(out); err != nil || !fi.Mode().IsRegular() {
		// A new file; or a folder or a link, which the checks that follow
		// speak of (a save replaces a link, never the file it leads to).
		return nil
	}
	sheets, err := xlsx.SheetsNotOwned(out)
	if err != nil {
		return invalidInput(fmt.Errorf("%s exists and cannot be read as a workbook (%w), and the results would replace it; websim replaces only a results workbook of its own\nTry: write the results elsewhere (--out NEW.xlsx), or move the file away", out, err))
	}
	theirs := quoteAll(sheets)
	if len(theirs) > 0 {
		return invalidInput(fmt.Errorf("%s holds sheets websim did not write (%s), which the results would replace; websim replaces only a results workbook of its own\nTry: move those sheets to a workbook of yours, or write the results elsewhere (--out NEW.xlsx)", out, strings.Join(theirs, ", ")))
	}
	return checkEditedResults(out, false)
}

// checkEditedResults refuses, before anything runs, to replace result
// sheets of the workbook at path whose cells the user changed since
// websim wrote them (xlsx.ChangedResults: notes typed into the Summary,
// say): those whose base name is one of bases, every result sheet when
// none is given (a results workbook replaced whole). renaming says that a
// renamed sheet would be kept (a write-back, which keeps every sheet not
// websim's), where a results workbook replaced whole must be moved away.
// A workbook whose sheets cannot be read so is refused too: whether they
// changed cannot be told. Invalid input (exit 2): nothing ran.
func checkEditedResults(path string, renaming bool, bases ...string) error {
	changed, err := xlsx.ChangedResults(path, bases...)
	if err != nil {
		// Whether the user changed them cannot be told: the sheets are
		// not replaced on a guess.
		return invalidInput(&editedError{fmt.Sprintf("%s: cannot tell whether its result sheets were changed since websim wrote them (%v), and the new results would replace them\nTry: keep that workbook under another name (move it away), or write the results elsewhere (--out NEW.xlsx)", path, err)})
	}
	if len(changed) == 0 {
		return nil
	}
	quoted := quoteAll(changed)
	sheets, them := "the sheet "+quoted[0]+" was", "it"
	if len(quoted) > 1 {
		sheets, them = "the sheets "+strings.Join(quoted, ", ")+" were", "them"
	}
	try := "keep that workbook under another name (move it away), or write the results elsewhere (--out NEW.xlsx)"
	if renaming {
		try = "rename the sheet to keep your changes (websim leaves a sheet it did not name alone), or delete it; then run again"
		if len(quoted) > 1 {
			try = "rename the sheets to keep your changes (websim leaves a sheet it did not name alone), or delete them; then run again"
		}
	}
	return invalidInput(&editedError{fmt.Sprintf("%s: %s changed since websim wrote %s (cells hold other values), and the new results would replace %s, losing the changes\nTry: %s", path, sheets, them, them, try)})
}

// quoteAll quotes each name as a message lists it ("Summary").
func quoteAll(names []string) []string {
	out := make([]string, len(names))
	for i, s := range names {
		out[i] = strconv.Quote(s)
	}
	return out
}

// editedError is checkEditedResults' refusal: its cause is
// xlsx.ErrResultsEdited.
type editedError struct{ msg string }

func (e *editedError) Error() string { return e.msg }
func (e *editedError) Unwrap() error { return xlsx.ErrResultsEdited }
