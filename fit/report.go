package fit

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// pValueNote says what the p-values are, with the replicates, the seed and
// the values tested.
func pValueNote(r *Result) string {
	if r.Replicates == 0 {
		return "not computed"
	}
	if r.Fits[0].Family == "Const" {
		return "1: every value is the same"
	}
	if r.Distinct < MinDistinctForTest {
		return fmt.Sprintf("not computed: the data hold only %d distinct values, too few for a test of a continuous shape (at least %d); the ranking by AIC stands, and a cell of their own mean (or Const) may serve better", r.Distinct, MinDistinctForTest)
	}
	s := fmt.Sprintf("parametric bootstrap of the KS distance: %d samples drawn from each fit and refitted, seed %d", r.Replicates, r.Seed)
	if r.Tested < r.Observations {
		s += fmt.Sprintf(", on a random subsample of %d of the %d values", r.Tested, r.Observations)
	}
	return s
}

// WriteText prints the ranking for a reader: the data's mean and sd, a
// line per fit (its cell's mean and sd, how far that mean is from the
// data's, AIC, its distance to the best, KS distance, p-value), the
// families left out and why, what the p-value is, and the best fit as a
// cell, with a warning and a cell that keeps the data's mean when the
// best fit's mean is off theirs.
func (r *Result) WriteText(w io.Writer, d *Data) error {
	lo, hi := r.Values[0], r.Values[len(r.Values)-1]
	fmt.Fprintf(w, "%s, column %q: %d values from %s to %s, mean %s, sd %s\n\n", d.Source, d.Column, r.Observations, fmtG(lo), fmtG(hi), fmtG(r.Mean), fmtG(r.SD))
	rows := [][]string{{"rank", "distribution", "mean", "sd", "Δmean", "AIC", "ΔAIC", "KS", "p-value"}}
	for i, f := range r.Fits {
		rows = append(rows, []string{strconv.Itoa(i + 1), f.Cell, roundText(f.Mean, 4), roundText(f.SD, 4), shiftText(f.MeanShift),
			fixed(f.AIC, 1), fixed(f.AIC-r.Fits[0].AIC, 1), fixed(f.KS, 4), r.pText(f.PValue)})
	}
	if err := writeTable(w, rows, 1); err != nil {
		return err
	}
	for _, s := range r.Skipped {
		fmt.Fprintf(w, "not ranked: %s: %s\n", s.Family, s.Reason)
	}
	fmt.Fprintf(w, "\np-value: %s\n", pValueNote(r))
	fmt.Fprintf(w, "Δmean: the cell's mean against the data's, %s\n", fmtG(r.Mean))
	if r.noneFits() {
		fmt.Fprintf(w, "none fits: %s\n", noneFitsText)
	}
	if _, err := fmt.Fprintf(w, "best fit, to paste into a cell: %s\n", r.Fits[0].Cell); err != nil {
		return err
	}
	if off, keeps := r.meanOffText(); off != "" {
		fmt.Fprintf(w, "mean off: %s\n", off)
		if r.KeepsMean != nil {
			fmt.Fprintf(w, "keeps the mean, to paste instead: %s\n", r.KeepsMean.Cell)
		}
		_, err := fmt.Fprintf(w, "why: %s\n", keeps)
		return err
	}
	return nil
}

// writeTable prints rows as columns two spaces apart, each as wide as its
// widest text (in characters, so that Δ counts one), the column left
// (a distribution) to the left and the others to the right: no figure,
// however many digits 10^7 values give its AIC, pushes its column out of
// line.
func writeTable(w io.Writer, rows [][]string, left int) error {
	var widths []int
	for _, row := range rows {
		for i, c := range row {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	var b strings.Builder
	for _, row := range rows {
		for i, c := range row {
			if i > 0 {
				b.WriteString("  ")
			}
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			if i == left {
				if i < len(row)-1 {
					b.WriteString(c + pad)
				} else {
					b.WriteString(c)
				}
			} else {
				b.WriteString(pad + c)
			}
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// shiftText prints a share as a signed percentage to one decimal
// ("+19.9%", "-0.3%", "0.0%"), or "-" when it is not a number.
func shiftText(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "-"
	}
	p := strconv.FormatFloat(100*x, 'f', 1, 64)
	switch {
	case p == "0.0" || p == "-0.0":
		return "0.0%"
	case p[0] != '-':
		return "+" + p + "%"
	}
	return p + "%"
}

// rejectLevel is the p-value below which a fit is rejected.
const rejectLevel = 0.05

// noneFitsText says what it means when every fit is rejected.
var noneFitsText = fmt.Sprintf("every family's p-value is below %g on the values tested, so the times are of none of these shapes exactly (a mix of fast and slow requests is often why); the best fit's cell may misstate their spread and tail: compare it with the data in the Q-Q plot (--out) before using it, or split the times by request type and fit each", rejectLevel)

// noneFits reports whether every fit with a p-value is rejected at
// rejectLevel (false when none has one).
func (r *Result) noneFits() bool {
	tested := false
	for _, f := range r.Fits {
		if math.IsNaN(f.PValue) {
			continue
		}
		if f.PValue >= rejectLevel {
			return false
		}
		tested = true
	}
	return tested
}

// pText prints a p-value to three decimals, or "<=" the least the
// bootstrap can give (1/(Replicates+1): no refit as far as the data) when
// it is that.
func (r *Result) pText(p float64) string {
	if least := 1 / float64(r.Replicates+1); r.Replicates > 0 && p <= least*(1+1e-9) {
		return "<=" + fixed(least, 3)
	}
	return fixed(p, 3)
}

func fixed(x float64, decimals int) string {
	if math.IsNaN(x) {
		return "-"
	}
	return strconv.FormatFloat(x, 'f', decimals, 64)
}

func fmtG(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }

// jsonFit is one fit in `websim fit --json`.
type jsonFit struct {
	Distribution string   `json:"distribution"`
	AIC          *float64 `json:"aic"`
	KS           float64  `json:"ks"`
	PValue       *float64 `json:"pValue"`
	Mean         *float64 `json:"mean"`
	SD           *float64 `json:"sd"`
	MeanShift    *float64 `json:"meanShift"`
	MeanOff      bool     `json:"meanOff"`
}

func jsonFitOf(f *Fitted) jsonFit {
	return jsonFit{Distribution: f.Cell, AIC: orNull(f.AIC), KS: f.KS, PValue: orNull(f.PValue),
		Mean: orNull(f.Mean), SD: orNull(f.SD), MeanShift: orNull(f.MeanShift), MeanOff: f.MeanOff}
}

// WriteJSON prints the ranking as one JSON document, best first:
//
//	{"observations": 2000, "fits": [{"distribution": "LogNormal(23.1,8.4)", "aic": 14210.3, "ks": 0.012, "pValue": 0.62,
//	   "mean": 23.1, "sd": 8.4, "meanShift": 0.002, "meanOff": false}, ...],
//	 "source": "data.csv", "column": "ms",
//	 "bootstrap": {"replicates": 199, "seed": 1, "tested": 2000},
//	 "skipped": [{"family": "Normal", "reason": "..."}],
//	 "mean": 23.05, "sd": 8.38, "keepsMean": null}
//
// aic is null for Const, pValue null when not computed. mean and sd of a
// fit are its cell's, as a model draws it; meanShift is that mean over
// the data's ("mean", "sd": the data's), less 1; meanOff says it is off
// the data's (Fitted.MeanOff). keepsMean is null, or, when the best fit's
// mean is off, a fit in the same form (pValue null) whose cell has the
// data's mean and sd (Result.KeepsMean).
func (r *Result) WriteJSON(w io.Writer, d *Data) error {
	doc := struct {
		Observations int       `json:"observations"`
		Fits         []jsonFit `json:"fits"`
		Source       string    `json:"source"`
		Column       string    `json:"column"`
		Bootstrap    struct {
			Replicates int    `json:"replicates"`
			Seed       uint64 `json:"seed"`
			Tested     int    `json:"tested"`
		} `json:"bootstrap"`
		Skipped   []Skipped `json:"skipped"`
		Mean      float64   `json:"mean"`
		SD        float64   `json:"sd"`
		KeepsMean *jsonFit  `json:"keepsMean"`
	}{Observations: r.Observations, Source: d.Source, Column: d.Column, Skipped: r.Skipped, Mean: r.Mean, SD: r.SD}
	doc.Bootstrap.Replicates, doc.Bootstrap.Seed, doc.Bootstrap.Tested = r.Replicates, r.Seed, r.Tested
	if doc.Skipped == nil {
		doc.Skipped = []Skipped{}
	}
	for i := range r.Fits {
		doc.Fits = append(doc.Fits, jsonFitOf(&r.Fits[i]))
	}
	if r.KeepsMean != nil {
		k := jsonFitOf(r.KeepsMean)
		doc.KeepsMean = &k
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

func orNull(x float64) *float64 {
	if math.IsNaN(x) {
		return nil
	}
	return &x
}
