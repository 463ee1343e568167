package study

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// fixedNow makes Started the same in every run of a test.
func fixedNow() time.Time { return time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC) }

// shardPlan is mm1Plan with a third scenario (a slower server, so that the
// paired differences are not all of one sign) and input hashes.
func shardPlan(reps int, obs int64) *Plan {
	p := mm1Plan(reps, obs)
	slow := p.Scenarios[1]
	slow.Name = "three-slow"
	m := *slow.Model
	m.App.Capacity = 3
	slow.Model = &m
	slow.Overrides = []Setting{{Name: "AppCapacity", Value: "3"}}
	p.Scenarios = append(p.Scenarios, slow)
	p.Scenarios[0].Charts = []string{"Capacity", "All"}
	p.Inputs = []Input{{Name: "SvcData.xlsx", SHA256: strings.Repeat("5e", 32)}, {Name: "ProcData.xlsx", SHA256: strings.Repeat("9a", 32)}}
	p.Settings = []Setting{{Name: "Seed", Value: "3"}, {Name: "Observations", Value: fmt.Sprint(obs)}}
	return p
}

// exact prints every figure of a study, unexported pairing data included,
// with floats in their shortest exact form: two studies print the same
// when their figures are the same bit for bit (wall times aside).
func exact(st *Study) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %s %d %v %v %v %v %v %v charts %v rates %v\n", st.Model, st.TimeUnit, st.Version, st.Seed, st.Started.UTC(),
		st.Scenarios, st.Loads, st.Settings, st.Inputs, st.Warnings, st.Charts, st.ArrivalRates)
	for _, r := range st.Runs {
		d := r.Diff
		r.WallSeconds, r.Diff = 0, nil
		fmt.Fprintf(&b, "%+v diff=%+v\n", r, d)
	}
	return b.String()
}

// runShards writes the n parts of p into dir and returns their paths.
func runShards(t testing.TB, p func() *Plan, n int, dir string) []string {
	t.Helper()
	var files []string
	for k := range n {
		path := filepath.Join(dir, fmt.Sprintf("part-%d.wsp", k))
		if _, err := ExecuteShard(context.Background(), p(), Options{Jobs: 2, Version: "test", Now: fixedNow}, Shard{k, n}, path); err != nil {
			t.Fatalf("shard %d/%d: %v", k, n, err)
		}
		files = append(files, path)
	}
	return files
}

func TestMergedShardsEqualOneMachine(t *testing.T) {
	for _, reps := range []int{1, 3} {
		plan := func() *Plan { return shardPlan(reps, 3000) }
		whole, err := Execute(context.Background(), plan(), Options{Jobs: 2, Version: "test", Now: fixedNow})
		if err != nil {
			t.Fatal(err)
		}
		want := exact(whole)
		if len(whole.Charts) != 1 || len(whole.ArrivalRates) != len(whole.Loads) || !(whole.ArrivalRates[0] > 0) {
			t.Fatalf("reps=%d: charts %v, arrival rates %v: want a chart group and a rate per load", reps, whole.Charts, whole.ArrivalRates)
		}
		if whole.Runs[2].Diff == nil || whole.Runs[4].Diff == nil {
			t.Fatalf("reps=%d: the study has no paired differences to check", reps)
		}
		for _, n := range []int{1, 2, 3, 7} {
			t.Run(fmt.Sprintf("reps=%d/N=%d", reps, n), func(t *testing.T) {
				files := runShards(t, plan, n, t.TempDir())
				// The order of the parts on the command line does not matter.
				slices.Reverse(files)
				got, err := Merge(files)
				if err != nil {
					t.Fatal(err)
				}
				if g := exact(got); g != want {
					t.Errorf("merged study differs from one machine:\n%s", firstDifference(g, want))
				}
			})
		}
	}
}

func TestDeal(t *testing.T) {
	cases := []struct {
		costs []float64
		n     int
		want  []int
	}{
		{[]float64{1, 1, 1, 1, 1}, 2, []int{0, 1, 0, 1, 0}},
		{[]float64{1, 1, 1}, 1, []int{0, 0, 0}},
		{[]float64{1, 1}, 3, []int{0, 1}},
		// Longest first: 8 alone, then 4+2+2 against it.
		{[]float64{2, 8, 2, 4}, 2, []int{1, 0, 1, 1}},
		{[]float64{1, 1, 1, 3}, 2, []int{1, 1, 1, 0}},
	}
	for _, c := range cases {
		if got := Deal(c.costs, c.n); !slices.Equal(got, c.want) {
			t.Errorf("Deal(%v, %d) = %v, want %v", c.costs, c.n, got, c.want)
		}
	}
}

func TestParseShard(t *testing.T) {
	for text, want := range map[string]string{
		"0/1": "0/1", " 2 / 3 ": "2/3",
		"3/3": `no shard: --shard 3/3: K is 3, expected 0..2 (K counts from 0)`,
		"1/0": `no shard: --shard 1/0: N is 0, expected at least 1`,
		"1":   `no shard: --shard "1": expected K/N, two whole numbers (for example 0/4), or auto`,
		"a/b": `no shard: --shard "a/b": expected K/N, two whole numbers (for example 0/4), or auto`,
	} {
		s, err := ParseShard(text)
		got := s.String()
		if err != nil {
			got = err.Error()
			if !errors.Is(err, ErrShard) {
				t.Errorf("%q: error without ErrShard", text)
			}
		}
		if got != want {
			t.Errorf("ParseShard(%q) = %s, want %s", text, got, want)
		}
	}
}

func TestShardFromEnv(t *testing.T) {
	cases := []struct {
		name   string
		env    map[string]string
		shards int
		want   string
	}{
		{"slurm count", map[string]string{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "4"}, 0, "2/4"},
		{"slurm min max", map[string]string{"SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "3", "SLURM_ARRAY_TASK_MAX": "6"}, 0, "2/4"},
		{"slurm all", map[string]string{"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "2", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_STEP": "1"}, 3, "0/3"},
		{"slurm count and span disagree", map[string]string{"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "4", "SLURM_ARRAY_TASK_COUNT": "3"}, 0,
			"no shard: --shard auto: SLURM_ARRAY_TASK_COUNT=3 but MIN..MAX is 0..4 (5 tasks): the array must be one range such as --array=0-2"},
		{"slurm step", map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MAX": "8", "SLURM_ARRAY_TASK_STEP": "4"}, 0,
			"no shard: --shard auto: SLURM_ARRAY_TASK_STEP=4: the array must number its tasks one by one (--array=0-N-1 without a step)"},
		{"slurm no count", map[string]string{"SLURM_ARRAY_TASK_ID": "1"}, 0,
			"no shard: --shard auto: SLURM_ARRAY_TASK_ID=1 is set but neither SLURM_ARRAY_TASK_COUNT nor SLURM_ARRAY_TASK_MAX"},
		{"slurm against --shards", map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "4"}, 5,
			"no shard: --shard auto: --shards 5, but the Slurm array has 4 tasks"},
		{"slurm id outside", map[string]string{"SLURM_ARRAY_TASK_ID": "9", "SLURM_ARRAY_TASK_COUNT": "4"}, 0,
			"no shard: --shard auto: SLURM_ARRAY_TASK_ID=9, MIN 0, 4 tasks: K is 9, expected 0..3 (K counts from 0)"},
		{"slurm not a number", map[string]string{"SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "4"}, 0,
			`no shard: --shard auto: SLURM_ARRAY_TASK_ID="x": expected a whole number`},
		{"k8s", map[string]string{"JOB_COMPLETION_INDEX": "3"}, 4, "3/4"},
		{"k8s without --shards", map[string]string{"JOB_COMPLETION_INDEX": "3"}, 0,
			"no shard: --shard auto: JOB_COMPLETION_INDEX=3 is set but not the number of shards; add --shards N (the Job's completions)"},
		{"k8s outside", map[string]string{"JOB_COMPLETION_INDEX": "4"}, 4,
			"no shard: --shard auto: JOB_COMPLETION_INDEX=4 with --shards 4: K is 4, expected 0..3 (K counts from 0)"},
		{"both", map[string]string{"JOB_COMPLETION_INDEX": "0", "SLURM_ARRAY_TASK_ID": "0"}, 4,
			"no shard: --shard auto: both SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX are set; give --shard K/N"},
		{"neither", map[string]string{}, 4,
			"no shard: --shard auto: neither SLURM_ARRAY_TASK_ID (a Slurm job array) nor JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) is set; give --shard K/N"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := ShardFromEnv(func(k string) string { return c.env[k] }, c.shards)
			got := s.String()
			if err != nil {
				got = err.Error()
			}
			if got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

// TestMergeRefusesBrokenSets checks the messages of broken part sets
// against testdata/merge-refusals.golden.
func TestMergeRefusesBrokenSets(t *testing.T) {
	dir := t.TempDir()
	base := func() *Plan { return shardPlan(2, 500) }
	good := runShards(t, base, 3, dir)
	foreign := func(name string, change func(*Plan), n, k int) string {
		sub := filepath.Join(dir, name)
		os.Mkdir(sub, 0o755)
		files := runShards(t, func() *Plan { p := base(); change(p); return p }, n, sub)
		return files[k]
	}
	otherModel := foreign("model", func(p *Plan) { p.Inputs[1].SHA256 = strings.Repeat("77", 32) }, 3, 1)
	otherSeed := foreign("seed", func(p *Plan) {
		for i := range p.Scenarios {
			p.Scenarios[i].Run.Seed = 4
		}
		p.Settings[0].Value = "4"
	}, 3, 1)
	otherObs := foreign("obs", func(p *Plan) {
		for i := range p.Scenarios {
			p.Scenarios[i].Run.Observations = 600
		}
		p.Settings[1].Value = "600"
	}, 3, 2)
	otherN := foreign("n", func(*Plan) {}, 4, 3)
	truncated := filepath.Join(dir, "truncated.wsp")
	b, _ := os.ReadFile(good[2])
	os.WriteFile(truncated, b[:len(b)-40], 0o644)
	otherFormat := filepath.Join(dir, "format.wsp")
	os.WriteFile(otherFormat, append([]byte(partialMagic), 9), 0o644)
	olderFormat := filepath.Join(dir, "format-7.wsp") // before the checksums
	os.WriteFile(olderFormat, append([]byte(partialMagic), 7), 0o644)
	changed := filepath.Join(dir, "changed.wsp")
	b, _ = os.ReadFile(good[2])
	b[len(b)-100] ^= 0x01 // inside its last record
	os.WriteFile(changed, b, 0o644)
	copied := filepath.Join(dir, "copy-of-part-1.wsp")
	b, _ = os.ReadFile(good[1])
	os.WriteFile(copied, b, 0o644)
	notPart := filepath.Join(dir, "notes.txt")
	os.WriteFile(notPart, []byte("hello"), 0o644)
	otherBuild := filepath.Join(dir, "build.wsp")
	if _, err := ExecuteShard(context.Background(), base(), Options{Jobs: 2, Version: "test", Build: "0123456789abcdef0123", Now: fixedNow}, Shard{1, 3}, otherBuild); err != nil {
		t.Fatal(err)
	}

	cases := []struct {
		name  string
		files []string
		cause error
	}{
		{"missing", []string{good[0], good[2]}, ErrPartMissing},
		{"two missing", []string{good[1]}, ErrPartMissing},
		{"duplicated", []string{good[0], good[1], good[1], good[2]}, ErrPartDuplicate},
		{"a copy", []string{good[0], good[1], copied, good[2]}, ErrPartDuplicate},
		{"foreign model", []string{good[0], otherModel, good[2]}, ErrPartForeign},
		{"foreign seed", []string{good[0], otherSeed, good[2]}, ErrPartForeign},
		{"other settings", []string{good[0], good[1], otherObs}, ErrPartForeign},
		{"other N", []string{good[0], good[1], good[2], otherN}, ErrPartForeign},
		{"truncated", []string{good[0], good[1], truncated}, ErrPartDamaged},
		{"other format", []string{good[0], good[1], good[2], otherFormat}, ErrPartForeign},
		{"an older format", []string{good[0], good[1], good[2], olderFormat}, ErrPartForeign},
		{"a changed byte", []string{good[0], good[1], changed}, ErrPartDamaged},
		{"another build of the same version", []string{good[0], otherBuild, good[2]}, ErrPartForeign},
		{"not a part", []string{notPart, good[0], good[1], good[2]}, ErrPartDamaged},
		{"a folder", []string{filepath.Join(dir, "model"), good[0], good[1], good[2]}, ErrPartDamaged},
	}
	var out strings.Builder
	for _, c := range cases {
		_, err := Merge(c.files)
		if err == nil {
			t.Errorf("%s: merged", c.name)
			continue
		}
		if !errors.Is(err, c.cause) {
			t.Errorf("%s: %v is not %v", c.name, err, c.cause)
		}
		fmt.Fprintf(&out, "== %s\n%s\n", c.name, strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), ""))
	}
	golden(t, "merge-refusals.golden", out.String())
	if _, err := Merge(good); err != nil {
		t.Errorf("the whole set: %v", err)
	}
	// The same workbooks run from a folder of another name (a shard run
	// again from a copy) are the same model.
	renamed := foreign("renamed", func(p *Plan) { p.Model = "copy of " + p.Model }, 3, 1)
	if _, err := Merge([]string{good[0], renamed, good[2]}); err != nil {
		t.Errorf("a share of the same workbooks in a renamed folder: %v", err)
	}
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs:\n%s\nwant\n%s", name, got, want)
	}
}

// firstDifference shows the first line where got and want differ.
func firstDifference(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return fmt.Sprintf("line %d:\n got  %s\n want %s", i+1, g[i], w[i])
		}
	}
	return fmt.Sprintf("%d lines, want %d", len(g), len(w))
}

// TestPartDoesNotDependOnJobs checks that a part holds the same records
// in the same order whatever --jobs, wall times aside.
func TestPartDoesNotDependOnJobs(t *testing.T) {
	dir := t.TempDir()
	read := func(jobs int) []partialRecord {
		path := filepath.Join(dir, fmt.Sprintf("jobs%d.wsp", jobs))
		if _, err := ExecuteShard(context.Background(), shardPlan(3, 800), Options{Jobs: jobs, Now: fixedNow}, Shard{1, 2}, path); err != nil {
			t.Fatal(err)
		}
		idx, err := scanPart(path)
		if err != nil {
			t.Fatal(err)
		}
		f, _ := os.Open(path)
		defer f.Close()
		var recs []partialRecord
		for _, i := range idx.order {
			rec, err := readRecord(f, i, idx.records[i][0], idx.records[i][1], new([]byte))
			if err != nil {
				t.Fatal(err)
			}
			rec.Wall = 0
			recs = append(recs, rec)
		}
		if !slices.IsSorted(idx.order) {
			t.Errorf("jobs=%d: records out of run order: %v", jobs, idx.order)
		}
		return recs
	}
	one, four := read(1), read(4)
	if len(one) == 0 {
		t.Fatal("the shard wrote no record")
	}
	if g, w := recordsText(four), recordsText(one); g != w {
		t.Errorf("jobs=4 wrote other records than jobs=1:\n%s", firstDifference(g, w))
	}
}

// recordsText prints records exactly (floats in their shortest exact form).
func recordsText(rs []partialRecord) string {
	var b strings.Builder
	for _, r := range rs {
		res := *r.Result
		// Entity histograms are pointers: print their contents instead.
		res.Entities = slices.Clone(res.Entities)
		var ents []string
		for i := range res.Entities {
			var h []byte
			if res.Entities[i].ResponseHist != nil {
				h, _ = res.Entities[i].ResponseHist.MarshalBinary()
			}
			var p []byte
			if res.Entities[i].ResponsePercentiles != nil {
				p, _ = res.Entities[i].ResponsePercentiles.MarshalBinary()
			}
			ents = append(ents, fmt.Sprintf("%x %x", h, p))
			res.Entities[i].ResponseHist, res.Entities[i].ResponsePercentiles = nil, nil
		}
		fmt.Fprintf(&b, "%+v %v %x %x %v %v\n", res, ents, r.Hist, r.Pct, r.CapHit, r.WarmUp)
	}
	return b.String()
}

func ExampleDeal() {
	// Equal costs deal round robin; unequal ones longest first.
	fmt.Println(Deal([]float64{1, 1, 1, 1, 1}, 2))
	fmt.Println(Deal([]float64{2, 8, 2, 4}, 2))
	// Output:
	// [0 1 0 1 0]
	// [1 0 1 1]
}

// A share run again by hand with a flag that repeats the model's value
// (--observations 3000 where the model says 3000) is the same study: it
// merges, and the merge is the one machine's study.
func TestMergeShareWithARepeatedFlag(t *testing.T) {
	plan := func() *Plan { return shardPlan(1, 3000) }
	whole, err := Execute(context.Background(), plan(), Options{Jobs: 2, Version: "test", Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files := runShards(t, plan, 3, dir)
	again := plan()
	if err := again.Apply(Edit{Observations: 3000, Seed: 3, SeedSet: true, Source: "command line"}); err != nil {
		t.Fatal(err)
	}
	// Share 0, whose header the merge starts from, is the one run again.
	if _, err := ExecuteShard(context.Background(), again, Options{Jobs: 1, Version: "test", Now: fixedNow}, Shard{0, 3}, files[0]); err != nil {
		t.Fatal(err)
	}
	got, err := Merge(files)
	if err != nil {
		t.Fatalf("a share with a flag that repeats the model's value: %v", err)
	}
	if g, w := exact(got), exact(whole); g != w {
		t.Errorf("merged study differs from one machine:\n%s", firstDifference(g, w))
	}
	// Whichever share comes first, the merged settings are the same.
	slices.Reverse(files)
	again2, err := Merge(files)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := exact(again2), exact(whole); g != w {
		t.Errorf("merged in another order, the study differs:\n%s", firstDifference(g, w))
	}
	slices.Reverse(files)
	// A flag that changes the value is another study.
	other := plan()
	other.Apply(Edit{Observations: 2000, Source: "command line"})
	if _, err := ExecuteShard(context.Background(), other, Options{Jobs: 1, Version: "test", Now: fixedNow}, Shard{1, 3}, files[1]); err != nil {
		t.Fatal(err)
	}
	if _, err := Merge(files); err == nil || !strings.Contains(err.Error(), "Observations is 2000 (command line), where") {
		t.Errorf("a share with other observations merged: %v", err)
	}
}
