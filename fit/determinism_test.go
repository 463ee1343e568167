package fit

import (
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// The same seed gives the same ranking, cells and p-values whatever the
// number of cores; above TestSize values the test runs on the subsample.
func TestSameSeedSameResultOnAnyNumberOfCores(t *testing.T) {
	xs := draw(t, "Weibull(1.7,10)", 5000, 5)
	run := func(procs int, seed uint64) *Result {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		res, err := Distributions(slices.Clone(xs), Options{Seed: seed, Replicates: 19})
		if err != nil {
			t.Fatal(err)
		}
		for i := range res.Fits {
			res.Fits[i].model = nil
		}
		res.Values = nil
		return res
	}
	one, two := run(1, 7), run(2, 7)
	if !reflect.DeepEqual(one, two) {
		t.Errorf("1 core and 2 cores differ:\n%+v\n%+v", one.Fits, two.Fits)
	}
	if one.Tested != DefaultTestSize || one.Observations != 5000 {
		t.Errorf("tested %d of %d, want %d of 5000", one.Tested, one.Observations, DefaultTestSize)
	}
	other := run(2, 8)
	same := true
	for i := range other.Fits {
		same = same && other.Fits[i].PValue == one.Fits[i].PValue
	}
	if same {
		t.Error("seeds 7 and 8 gave the same p-values")
	}
}

// Whatever the text, ReadCSV returns values or located problems, never a
// panic.
func FuzzReadCSV(f *testing.F) {
	for _, s := range []string{"ms\n1\n2\n", "a;b\n1;2,5\n", "\"x\n", "\ufeff\r\n", "1,2\n3\n", strings.Repeat("1\n", 40)} {
		f.Add(s, "")
		f.Add(s, "b")
	}
	f.Fuzz(func(t *testing.T, text, column string) {
		d, err := ReadCSV(strings.NewReader(text), "f.csv", column, int64(len(text)))
		if err != nil {
			ps, ok := err.(Problems)
			if !ok || len(ps) == 0 {
				t.Fatalf("error %T %v", err, err)
			}
			for _, p := range ps {
				if !strings.HasPrefix(p.Where, "f.csv") && p.Where != "--column" {
					t.Fatalf("problem not located: %v", p)
				}
			}
			return
		}
		if len(d.Values) < MinValues {
			t.Fatalf("%d values accepted", len(d.Values))
		}
		for _, v := range d.Values {
			if !(v > 0) {
				t.Fatalf("value %v accepted", v)
			}
		}
	})
}
