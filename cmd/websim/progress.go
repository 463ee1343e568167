package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/websim/websim/study"
)

// progressBar draws study progress on stderr, only when stderr is a
// terminal (a bar in a log file or a pipe is noise).
type progressBar struct {
	bar *progressbar.ProgressBar
}

func newProgressBar(w io.Writer, enabled bool, what string) *progressBar {
	f, ok := w.(*os.File)
	if !enabled || !ok || !term.IsTerminal(int(f.Fd())) {
		return &progressBar{}
	}
	return &progressBar{bar: progressbar.NewOptions(1000,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(what),
		progressbar.OptionSetWidth(30),
		progressbar.OptionShowElapsedTimeOnFinish(),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)}
}

// update is a study.Options.Progress callback.
func (p *progressBar) update(pr study.Progress) {
	if p.bar == nil {
		return
	}
	p.bar.Describe(fmt.Sprintf("runs %d/%d done, %d left, about %s to go", pr.RunsDone, pr.Runs, pr.Runs-pr.RunsDone, pr.Left.Round(time.Second)))
	_ = p.bar.Set(int(pr.Fraction * 1000))
}

func (p *progressBar) finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}
