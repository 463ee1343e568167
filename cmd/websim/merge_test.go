package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/websim/websim/internal/xlsx"
	"github.com/websim/websim/workbook/wbtest"
)

// setReplications sets the Replications setting of the model in dir.
func setReplications(t *testing.T, dir string, reps int) {
	t.Helper()
	path := filepath.Join(dir, "SvcData.xlsx")
	f, err := xlsx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.Rows("Settings")
	if err != nil {
		t.Fatal(err)
	}
	row := len(rows) + 1
	for i, r := range rows {
		if len(r) > 0 && strings.EqualFold(r[0], "Replications") {
			row = i + 1
		}
	}
	f.SetCell("Settings", fmt.Sprintf("A%d", row), "Replications")
	f.SetCell("Settings", fmt.Sprintf("B%d", row), reps)
	if err := f.Save(path); err != nil {
		t.Fatal(err)
	}
}

// addMeasured adds a Measured sheet to the model in dir, so that merged
// results must carry the Validation sheet and runs[].measured too.
func addMeasured(t *testing.T, dir string, rows ...[]any) {
	t.Helper()
	path := filepath.Join(dir, "SvcData.xlsx")
	f, err := xlsx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.NewSheet("Measured")
	f.SetRow("Measured", 1, "Entity", "Load", "Measure", "Value")
	for i, r := range rows {
		f.SetRow("Measured", i+2, r...)
	}
	if err := f.Save(path); err != nil {
		t.Fatal(err)
	}
}

// stripWall drops the wall-clock figures (wallSeconds, started) from a
// JSON document.
func stripWall(t *testing.T, doc string) string {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(doc), &v); err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	delete(v, "started")
	for _, r := range v["runs"].([]any) {
		delete(r.(map[string]any), "wallSeconds")
	}
	b, _ := json.MarshalIndent(v, "", " ")
	return string(b)
}

// dumpFigures is a text dump of every sheet of a results workbook, without
// the wall-clock figures: the Wall seconds column and the Started row.
func dumpFigures(t *testing.T, path string) string {
	t.Helper()
	f, err := xlsx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b strings.Builder
	for _, sh := range f.Sheets() {
		rows, err := f.Rows(sh)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "== %s\n", sh)
		wall := -1
		for i, row := range rows {
			if j := slices.Index(row, "Wall seconds"); j >= 0 {
				wall = j
			}
			if len(row) > 1 && row[1] == "Started" || len(row) > 0 && row[0] == "Started" {
				continue
			}
			if wall >= 0 && wall < len(row) {
				row = slices.Clone(row)
				row[wall] = "-"
			}
			fmt.Fprintf(&b, "%d: %s\n", i+1, strings.Join(row, " | "))
		}
	}
	return b.String()
}

func TestMergeEqualsOneMachineRun(t *testing.T) {
	sel := []string{"--observations", "1500", "--loads", "L2,L6", "--scenarios", "P10,S10,M10", "--seed", "5"}
	for _, reps := range []int{1, 3} {
		dir := copyModel(t, "asum")
		setReplications(t, dir, reps)
		addMeasured(t, dir, []any{nil, "L2", "mean", 700}, []any{nil, "L6", "p95", 2000}, []any{nil, "L6", "utilization:GWay", 0.6})
		work := t.TempDir()
		one := filepath.Join(work, "one.xlsx")
		code, wantJSON, stderr := runCLI(t, append([]string{"run", dir, "--json", "--out", one}, sel...)...)
		if code != 0 {
			t.Fatalf("run: exit %d: %s", code, stderr)
		}
		if !strings.Contains(wantJSON, `"diffFromBase"`) {
			t.Fatalf("reps=%d: no paired difference in the study to check", reps)
		}
		if !strings.Contains(wantJSON, `"measure": "utilization:GWay"`) {
			t.Fatalf("reps=%d: no measured figures in the study to check", reps)
		}
		want, wantSheets := stripWall(t, wantJSON), dumpFigures(t, one)
		for _, n := range []int{1, 2, 3, 7} {
			t.Run(fmt.Sprintf("reps=%d/N=%d", reps, n), func(t *testing.T) {
				var parts []string
				if err := os.MkdirAll(filepath.Join(work, fmt.Sprintf("n%d", n)), 0o755); err != nil {
					t.Fatal(err)
				}
				for k := range n {
					part := filepath.Join(work, fmt.Sprintf("n%d", n), fmt.Sprintf("part-%d.wsp", k))
					args := append([]string{"run", dir, "--shard", fmt.Sprintf("%d/%d", k, n), "--partial", part, "--quiet"}, sel...)
					if code, _, stderr := runCLI(t, args...); code != 0 {
						t.Fatalf("shard %d/%d: exit %d: %s", k, n, code, stderr)
					}
					parts = append(parts, part)
				}
				merged := filepath.Join(work, fmt.Sprintf("merged-%d.xlsx", n))
				code, gotJSON, stderr := runCLI(t, append([]string{"merge", "--json", "--out", merged}, parts...)...)
				if code != 0 {
					t.Fatalf("merge: exit %d: %s", code, stderr)
				}
				if got := stripWall(t, gotJSON); got != want {
					t.Errorf("merged JSON differs from one machine:\n%s", firstLineDiff(got, want))
				}
				if got := dumpFigures(t, merged); got != wantSheets {
					t.Errorf("merged workbook differs from one machine:\n%s", firstLineDiff(got, wantSheets))
				}
			})
		}
	}
}

func firstLineDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return fmt.Sprintf("line %d:\n got  %s\n want %s", i+1, g[i], w[i])
		}
	}
	return fmt.Sprintf("%d lines, want %d", len(g), len(w))
}

func TestShardAndMergeRefusals(t *testing.T) {
	dir := copyModel(t, "mmc")
	part := filepath.Join(t.TempDir(), "p.wsp")
	cases := []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"partial without shard", []string{"run", dir, "--partial", part}, nil, "--partial and --shards go with --shard K/N (or --shard auto)"},
		{"shard without partial", []string{"run", dir, "--shard", "0/2"}, nil, "--shard 0/2: add --partial FILE"},
		{"shard with out", []string{"run", dir, "--shard", "0/2", "--partial", part, "--out", "x.xlsx", "--json"}, nil, "--shard writes its results to --partial only; --out, --json belong to websim merge"},
		{"shard with write-back", []string{"run", dir, "--shard", "0/2", "--partial", part, "--write-back"}, nil, "--write-back cannot go with a sharded study (websim merge --out FILE writes its workbook"},
		{"bad shard", []string{"run", dir, "--shard", "2/2", "--partial", part}, nil, "K is 2, expected 0..1"},
		{"shards disagree", []string{"run", dir, "--shard", "0/2", "--shards", "3", "--partial", part}, nil, "--shard 0/2 and --shards 3 disagree"},
		{"auto without env", []string{"run", dir, "--shard", "auto", "--partial", part}, map[string]string{"SLURM_ARRAY_TASK_ID": "", "JOB_COMPLETION_INDEX": ""}, "neither SLURM_ARRAY_TASK_ID"},
		{"auto k8s without shards", []string{"run", dir, "--shard", "auto", "--partial", part}, map[string]string{"SLURM_ARRAY_TASK_ID": "", "JOB_COMPLETION_INDEX": "1"}, "add --shards N"},
		{"merge nothing", []string{"merge"}, nil, "websim merge needs the partial files"},
		{"merge a missing file", []string{"merge", part}, nil, "p.wsp: open"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			code, _, stderr := runCLI(t, c.args...)
			if code != 2 || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit 2 and %q", code, stderr, c.want)
			}
			if _, err := os.Stat(part); err == nil {
				t.Errorf("a partial file was written")
			}
		})
	}
}

func TestShardAutoUnderSlurm(t *testing.T) {
	dir := copyModel(t, "mmc")
	parts := t.TempDir()
	for _, k := range []string{"0", "1"} {
		t.Setenv("JOB_COMPLETION_INDEX", "")
		t.Setenv("SLURM_ARRAY_TASK_ID", k)
		t.Setenv("SLURM_ARRAY_TASK_COUNT", "2")
		code, stdout, stderr := runCLI(t, "run", dir, "--observations", "500", "--shard", "auto", "--partial", filepath.Join(parts, "part-"+k+".wsp"))
		if code != 0 || !strings.Contains(stdout, "shard "+k+"/2:") {
			t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
		}
	}
	code, stdout, stderr := runCLI(t, "merge", "--out", filepath.Join(parts, "m.xlsx"), filepath.Join(parts, "part-1.wsp"))
	if code != 2 || !strings.Contains(stderr, "shard 0/2 missing") {
		t.Errorf("merge of one of two parts: exit %d\n%s%s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(parts, "m.xlsx")); err == nil {
		t.Error("a refused merge wrote its workbook")
	}
}

// TestMergeRefusesADamagedPart: a part with a byte changed inside a
// record is refused (exit 2), naming the file and the record, and nothing
// is written.
func TestMergeRefusesADamagedPart(t *testing.T) {
	dir := copyModel(t, "mmc")
	parts := t.TempDir()
	for _, k := range []string{"0", "1"} {
		code, _, stderr := runCLI(t, "run", dir, "--observations", "500", "--shard", k+"/2", "--partial", filepath.Join(parts, "part-"+k+".wsp"))
		if code != 0 {
			t.Fatalf("shard %s/2: exit %d\n%s", k, code, stderr)
		}
	}
	damaged := filepath.Join(parts, "part-0.wsp")
	b, err := os.ReadFile(damaged)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-100] ^= 0x01 // inside its last record
	if err := os.WriteFile(damaged, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(parts, "m.xlsx")
	code, stdout, stderr := runCLI(t, "merge", "--json", "--out", out, damaged, filepath.Join(parts, "part-1.wsp"))
	want := damaged + ": damaged: record 2, run #"
	if code != 2 || !strings.Contains(stderr, want) || !strings.Contains(stderr, "does not match its checksum") || stdout != "" {
		t.Errorf("exit %d\nstdout: %s\nstderr: %s\nwant exit 2 and %q", code, stdout, stderr, want)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused merge wrote its workbook")
	}
}

// TestMergeGivesTheTargetsOfOneMachine: with a Targets sheet (targets of
// all requests and of each of two entities: means, percentiles, shares),
// the merge of 2 and of 3 shards prints the same runs[].targets, and the
// same Summary, as one machine, with one replication (batch-means
// intervals) and with several (intervals across replications).
func TestMergeGivesTheTargetsOfOneMachine(t *testing.T) {
	for _, reps := range []int{1, 3} {
		m := wbtest.Valid()
		m.Set(t, "SvcData.xlsx", "Settings", "B4", 2000)
		m.Set(t, "SvcData.xlsx", "Settings", "A13", "Replications")
		m.Set(t, "SvcData.xlsx", "Settings", "B13", reps)
		m.Add("SvcData.xlsx", "Targets",
			[]any{"Entity", "Measure", "Limit"},
			[]any{nil, "mean", 60},
			[]any{nil, "p95", 100},
			[]any{nil, "failed", 0.05},
			[]any{"ASUM", "mean", 40},
			[]any{"ASUM", "failed", 0.02},
			[]any{"Ping", "p90", 20},
			[]any{"Ping", "abandoned", 0.01},
		)
		dir := t.TempDir()
		m.Write(t, dir)
		work := t.TempDir()
		code, wantJSON, stderr := runCLI(t, "run", dir, "--json", "--out", filepath.Join(work, "one.xlsx"))
		if code != 0 {
			t.Fatalf("reps=%d: run: exit %d: %s", reps, code, stderr)
		}
		want, wantSheets := targetsOf(t, wantJSON), dumpFigures(t, filepath.Join(work, "one.xlsx"))
		verdicts := map[string]int{}
		for _, tg := range strings.Split(want, "\n") {
			for _, v := range []string{"holds", "fails", "undecided"} {
				if strings.Contains(tg, `"verdict":"`+v+`"`) {
					verdicts[v]++
				}
			}
			if strings.Contains(tg, "no figures for entity") {
				t.Errorf("reps=%d: an entity target without figures: %s", reps, tg)
			}
		}
		if verdicts["holds"] == 0 || verdicts["fails"] == 0 {
			t.Fatalf("reps=%d: the targets' verdicts do not vary (%v):\n%s", reps, verdicts, want)
		}
		for _, n := range []int{2, 3} {
			t.Run(fmt.Sprintf("reps=%d/N=%d", reps, n), func(t *testing.T) {
				var parts []string
				if err := os.MkdirAll(filepath.Join(work, fmt.Sprintf("n%d", n)), 0o755); err != nil {
					t.Fatal(err)
				}
				for k := range n {
					part := filepath.Join(work, fmt.Sprintf("n%d", n), fmt.Sprintf("part-%d.wsp", k))
					if code, _, stderr := runCLI(t, "run", dir, "--shard", fmt.Sprintf("%d/%d", k, n), "--partial", part, "--quiet"); code != 0 {
						t.Fatalf("shard %d/%d: exit %d: %s", k, n, code, stderr)
					}
					parts = append(parts, part)
				}
				merged := filepath.Join(work, fmt.Sprintf("merged-%d.xlsx", n))
				code, gotJSON, stderr := runCLI(t, append([]string{"merge", "--json", "--out", merged}, parts...)...)
				if code != 0 {
					t.Fatalf("merge: exit %d: %s", code, stderr)
				}
				if got := targetsOf(t, gotJSON); got != want {
					t.Errorf("merged targets differ from one machine:\n%s", firstLineDiff(got, want))
				}
				if got := dumpFigures(t, merged); got != wantSheets {
					t.Errorf("merged workbook differs from one machine:\n%s", firstLineDiff(got, wantSheets))
				}
			})
		}
	}
}

// targetsOf lists the targets of every run of a JSON document, a line
// each: scenario, load and the target as JSON.
func targetsOf(t *testing.T, doc string) string {
	t.Helper()
	var v struct {
		Runs []struct {
			Scenario, Load string
			Targets        []json.RawMessage `json:"targets"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(doc), &v); err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	var b strings.Builder
	for _, r := range v.Runs {
		for _, tg := range r.Targets {
			var c bytes.Buffer
			if err := json.Compact(&c, tg); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%s %s %s\n", r.Scenario, r.Load, c.String())
		}
	}
	return b.String()
}

// TestMergePrintsTheRunsWarnings: the warnings the runs give (a Count
// past its limit here) reach the console after a merge as after a run,
// with --quiet too.
func TestMergePrintsTheRunsWarnings(t *testing.T) {
	dir := t.TempDir()
	m := wbtest.Valid()
	m.Set(t, "ProcData.xlsx", "ASumSvc", "F2", "Cards * 100000")
	m.Write(t, dir)
	part := filepath.Join(t.TempDir(), "p.wsp")
	code, _, stderr := runCLI(t, "run", dir, "--observations", "300", "--shard", "0/1", "--partial", part, "--quiet")
	if code != 0 {
		t.Fatalf("shard: exit %d\n%s", code, stderr)
	}
	const want = "warning: ProcData.xlsx!ASumSvc!F2: Count gave more than 10,000"
	for _, args := range [][]string{{"--quiet"}, {"--json"}} {
		code, _, stderr := runCLI(t, append([]string{"merge", part, "--out", filepath.Join(t.TempDir(), "o.xlsx")}, args...)...)
		if code != 0 || !strings.Contains(stderr, want) {
			t.Errorf("merge %v: exit %d, stderr %q; want %q", args, code, stderr, want)
		}
	}
}
