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
		// One time-left figure: the study's own (runs weighted by their
		// progress), in the description; not the bar's guess beside it.
		progressbar.OptionSetPredictTime(false),
		progressbar.OptionSetElapsedTime(false),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)}
}

// update is a study.Options.Progress callback.
func (p *progressBar) update(pr study.Progress) {
	if p.bar == nil {
		return
	}
	p.bar.Describe(progressText(pr))
	_ = p.bar.Set(int(pr.Fraction * 1000))
}

func (p *progressBar) finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}

// progressText is the bar's description: runs done and the one estimate
// of the time left ("runs 3/100 done, about 2m10s left").
func progressText(pr study.Progress) string {
	left := "estimating the time left"
	if pr.Fraction > 0 {
		left = "about " + pr.Left.Round(time.Second).String() + " left"
	}
	return fmt.Sprintf("runs %d/%d done, elapsed %s, %s", pr.RunsDone, pr.Runs, pr.Elapsed.Round(time.Second), left)
}
