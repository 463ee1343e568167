package cluster

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./cluster -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test ./cluster -update rewrites it):\n%s", name, got)
	}
}

var sampleJob = Job{Model: "samples/asum", Shards: 4, RunFlags: []string{"--observations", "3000", "--loads", "L1,L5"}}

func TestSlurmGolden(t *testing.T) {
	var b bytes.Buffer
	if err := Slurm(&b, sampleJob); err != nil {
		t.Fatal(err)
	}
	golden(t, "slurm.golden", b.Bytes())
}

// TestSlurmScriptSubmitsArrayThenMerge runs the script against a fake
// sbatch that records each submission, and checks the array, the
// dependency and the shard and merge commands.
func TestSlurmScriptSubmitsArrayThenMerge(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	fake := `#!/bin/bash
n=$(( $(ls "$LOG" | wc -l) + 1 ))
{ echo "ARGS $*"; cat; } > "$LOG/$n"
echo "$(( 100 + n ));cluster"
`
	bin := filepath.Join(dir, "bin")
	os.Mkdir(bin, 0o755)
	os.WriteFile(filepath.Join(bin, "sbatch"), []byte(fake), 0o755)
	logs := filepath.Join(dir, "log")
	os.Mkdir(logs, 0o755)
	var script bytes.Buffer
	j := sampleJob
	j.Shards = 12 // a brace list of parts
	j.Model = "my models/asum"
	if err := Slurm(&script, j); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "submit.sh"), script.Bytes(), 0o755)
	cmd := exec.Command(bash, "submit.sh")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "LOG="+logs)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if want := "shards: job array 101 (12 tasks); merge: job 102 (after the array succeeds)\n"; string(out) != want {
		t.Errorf("script printed %q, want %q", out, want)
	}
	array, _ := os.ReadFile(filepath.Join(logs, "1"))
	merge, _ := os.ReadFile(filepath.Join(logs, "2"))
	for _, want := range []string{"ARGS --parsable\n", "#SBATCH --array=0-11\n",
		`websim run 'my models/asum' --observations 3000 --loads L1,L5 --shard auto --shards 12 --jobs "${SLURM_CPUS_PER_TASK:-1}" --quiet --partial parts/part-"${SLURM_ARRAY_TASK_ID}".wsp`} {
		if !strings.Contains(string(array), want) {
			t.Errorf("array submission lacks %q:\n%s", want, array)
		}
	}
	for _, want := range []string{"ARGS --parsable --dependency=afterok:101 --kill-on-invalid-dep=yes\n",
		`websim merge --json --out 'my models/asum/OutPut.xlsx' parts/part-{0..11}.wsp > 'my models/asum/OutPut.json.tmp'`,
		`mv 'my models/asum/OutPut.json.tmp' 'my models/asum/OutPut.json'`} {
		if !strings.Contains(string(merge), want) {
			t.Errorf("merge submission lacks %q:\n%s", want, merge)
		}
	}
	// The job scripts themselves parse, and the merge names every part.
	for _, sub := range [][]byte{array, merge} {
		body := sub[bytes.IndexByte(sub, '\n')+1:]
		c := exec.Command(bash, "-n")
		c.Stdin = bytes.NewReader(body)
		if out, err := c.CombinedOutput(); err != nil {
			t.Errorf("bash -n: %v\n%s\n%s", err, out, body)
		}
	}
	c := exec.Command(bash, "-c", "echo parts/part-{0..11}.wsp")
	if out, _ := c.Output(); strings.Count(string(out), ".wsp") != 12 {
		t.Errorf("the brace list gives %s", out)
	}
	// The script made the results' folder; the merge job, run with a
	// websim that fails, leaves the last JSON whole, and with one that
	// succeeds replaces it.
	results := filepath.Join(dir, "my models", "asum", "OutPut.json")
	if err := os.WriteFile(results, []byte("last"), 0o644); err != nil {
		t.Fatalf("the script did not make the results' folder: %v", err)
	}
	body := merge[bytes.IndexByte(merge, '\n')+1:]
	for _, c := range []struct {
		websim string
		ok     bool
		want   string
	}{{"echo partial; exit 2", false, "last"}, {"echo merged", true, "merged\n"}} {
		must(t, os.WriteFile(filepath.Join(bin, "websim"), []byte("#!/bin/bash\n"+c.websim+"\n"), 0o755))
		run := exec.Command(bash)
		run.Dir, run.Stdin = dir, bytes.NewReader(body)
		run.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"))
		err := run.Run()
		got, _ := os.ReadFile(results)
		if (err == nil) != c.ok || string(got) != c.want {
			t.Errorf("merge with %q: err %v, JSON %q; want ok %v and %q", c.websim, err, got, c.ok, c.want)
		}
		if _, err := os.Stat(results + ".tmp"); err == nil {
			t.Errorf("merge with %q left %s.tmp", c.websim, results)
		}
	}
}

func TestRefusals(t *testing.T) {
	var b bytes.Buffer
	if err := Slurm(&b, Job{Model: "m", Shards: 0}); err == nil || !strings.Contains(err.Error(), "--shards 0") {
		t.Errorf("0 shards: %v", err)
	}
	if err := Slurm(&b, Job{Model: "m", Shards: MaxShards + 1}); err == nil || !strings.Contains(err.Error(), "expected at most 10000") {
		t.Errorf("%d shards: %v", MaxShards+1, err)
	}
	if err := Slurm(&b, Job{Model: "m", Shards: MaxShards}); err != nil {
		t.Errorf("%d shards: %v", MaxShards, err)
	}
	long := "/scratch/" + strings.Repeat("x", 190)
	if err := Slurm(&b, Job{Model: "m", Shards: MaxShards, Parts: long}); err == nil || !strings.Contains(err.Error(), "a shorter --parts") {
		t.Errorf("%d shards in a long folder: %v", MaxShards, err)
	}
	big := KubernetesJob{Job: Job{Model: "m", Shards: 2}, Image: "w", Files: []File{{Name: "SvcData.xlsx", Data: make([]byte, maxConfigMap+1)}}}
	if err := Kubernetes(&b, big); err == nil || !strings.Contains(err.Error(), "--model-pvc NAME") {
		t.Errorf("a model too big for a ConfigMap: %v", err)
	}
	big.ModelPVC = "models"
	if err := Kubernetes(&b, big); err != nil {
		t.Errorf("a model too big for a ConfigMap, on a claim: %v", err)
	}
	big.ModelPVC = "My_Models"
	if err := Kubernetes(&b, big); err == nil || !strings.Contains(err.Error(), "--model-pvc") {
		t.Errorf("a claim name that is not a DNS name: %v", err)
	}
	if err := Kubernetes(&b, KubernetesJob{Job: Job{Model: "m", Shards: 2}, Files: big.Files[:0]}); err == nil {
		t.Error("no image: accepted")
	}
}

func TestDNSLabel(t *testing.T) {
	for in, want := range map[string]string{
		"websim-asum": "websim-asum", "websim-My Model_2": "websim-my-model-2", "---": "model",
		"websim-" + strings.Repeat("x", 80): "websim-" + strings.Repeat("x", 43),
	} {
		if got := dnsLabel(in, 50); got != want {
			t.Errorf("dnsLabel(%q) = %q, want %q", in, got, want)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// A site's sbatch options (partition, account, time) go to both jobs, one
// #SBATCH line each; something that is not one option is refused.
func TestSlurmOptions(t *testing.T) {
	job := sampleJob
	job.SlurmOptions = []string{"--partition=short", "--time=02:00:00", "-A perf"}
	var b bytes.Buffer
	if err := Slurm(&b, job); err != nil {
		t.Fatal(err)
	}
	for _, o := range job.SlurmOptions {
		if n := strings.Count(b.String(), "\n#SBATCH "+o+"\n"); n != 2 {
			t.Errorf("#SBATCH %s appears %d times, want twice (the array and the merge)", o, n)
		}
	}
	for _, bad := range []string{"partition=short", "--time=1\n#SBATCH --mem=1"} {
		job.SlurmOptions = []string{bad}
		if err := Slurm(&bytes.Buffer{}, job); !errors.Is(err, ErrJob) {
			t.Errorf("option %q: %v, want ErrJob", bad, err)
		}
	}
}
