package fit

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"text/tabwriter"
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
	s := fmt.Sprintf("parametric bootstrap of the KS distance: %d samples drawn from each fit and refitted, seed %d", r.Replicates, r.Seed)
	if r.Tested < r.Observations {
		s += fmt.Sprintf(", on a random subsample of %d of the %d values", r.Tested, r.Observations)
	}
	return s
}

// WriteText prints the ranking for a reader: a line per fit (AIC, its
// distance to the best, KS distance, p-value), the families left out and
// why, what the p-value is, and the best fit as a cell.
func (r *Result) WriteText(w io.Writer, d *Data) error {
	lo, hi := r.Values[0], r.Values[len(r.Values)-1]
	fmt.Fprintf(w, "%s, column %q: %d values from %s to %s\n\n", d.Source, d.Column, r.Observations, fmtG(lo), fmtG(hi))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "rank\tdistribution\t%12s %9s %7s %7s\n", "AIC", "ΔAIC", "KS", "p-value")
	for i, f := range r.Fits {
		fmt.Fprintf(tw, "%4d\t%s\t%12s %9s %7.4f %7s\n", i+1, f.Cell, fixed(f.AIC, 1), fixed(f.AIC-r.Fits[0].AIC, 1), f.KS, r.pText(f.PValue))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, s := range r.Skipped {
		fmt.Fprintf(w, "not ranked: %s: %s\n", s.Family, s.Reason)
	}
	fmt.Fprintf(w, "\np-value: %s\n", pValueNote(r))
	if r.noneFits() {
		fmt.Fprintf(w, "none fits: %s\n", noneFitsText)
	}
	_, err := fmt.Fprintf(w, "best fit, to paste into a cell: %s\n", r.Fits[0].Cell)
	return err
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
}

// WriteJSON prints the ranking as one JSON document, best first:
//
//	{"observations": 2000, "fits": [{"distribution": "LogNormal(23.1,8.4)", "aic": 14210.3, "ks": 0.012, "pValue": 0.62}, ...],
//	 "source": "data.csv", "column": "ms",
//	 "bootstrap": {"replicates": 199, "seed": 1, "tested": 2000},
//	 "skipped": [{"family": "Normal", "reason": "..."}]}
//
// aic is null for Const, pValue null when not computed.
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
		Skipped []Skipped `json:"skipped"`
	}{Observations: r.Observations, Source: d.Source, Column: d.Column, Skipped: r.Skipped}
	doc.Bootstrap.Replicates, doc.Bootstrap.Seed, doc.Bootstrap.Tested = r.Replicates, r.Seed, r.Tested
	if doc.Skipped == nil {
		doc.Skipped = []Skipped{}
	}
	for _, f := range r.Fits {
		doc.Fits = append(doc.Fits, jsonFit{Distribution: f.Cell, AIC: orNull(f.AIC), KS: f.KS, PValue: orNull(f.PValue)})
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
