package benchref

import (
	"fmt"
	"os"
	"testing"
	"time"
)

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		want float64
	}{
		{nil, 0},
		{[]float64{3}, 3},
		{[]float64{3, 1}, 2},
		{[]float64{5, 1, 3}, 3},
		{[]float64{6, 1, 2, 3}, 2.5},
	} {
		in := fmt.Sprint(c.xs)
		if got := Median(c.xs); got != c.want {
			t.Errorf("Median(%v) = %g, want %g", c.xs, got, c.want)
		}
		if fmt.Sprint(c.xs) != in {
			t.Errorf("Median changed its argument: %s became %v", in, c.xs)
		}
	}
}

func ExampleMedian() {
	ratios := []float64{0.74, 0.91, 0.72, 0.86, 0.75}
	fmt.Println(Median(ratios))
	// Output: 0.75
}

// TestMain makes the test binary a program to run as well: with
// BENCHREF_SLEEP set, it sleeps that long and exits.
func TestMain(m *testing.M) {
	if d, err := time.ParseDuration(os.Getenv("BENCHREF_SLEEP")); err == nil {
		time.Sleep(d)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestSpeedup(t *testing.T) {
	// Two sleeps at once end together, whatever the cores: twice as soon
	// as one after the other.
	t.Setenv("BENCHREF_SLEEP", "300ms")
	if x := Speedup(t, os.Args[0]); x < 1.6 || x > 2.4 {
		t.Errorf("Speedup of two sleeps = %.2f, want about 2", x)
	}
}
