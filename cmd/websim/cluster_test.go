package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestClusterCommand(t *testing.T) {
	dir := copyModel(t, "asum")
	out := filepath.Join(t.TempDir(), "submit.sh")
	code, _, stderr := runCLI(t, "cluster", "slurm", dir, "--shards", "5", "--observations", "2000", "--loads", "L1,L2", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, _ := os.ReadFile(out)
	for _, want := range []string{"#SBATCH --array=0-4\n", "--observations 2000 --loads L1,L2 --shard auto --shards 5", "--dependency=afterok:"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("script lacks %q:\n%s", want, b)
		}
	}
	if fi, err := os.Stat(out); err != nil || fi.Mode()&0o100 == 0 {
		t.Errorf("the script is not executable: %v", err)
	}
	code, stdout, stderr := runCLI(t, "cluster", "k8s", dir, "--shards", "3", "--image", "websim:t")
	if code != 0 || !strings.Contains(stdout, "completionMode: Indexed") || !strings.Contains(stdout, "completions: 3") ||
		!strings.Contains(stdout, `"SvcData.xlsx": `) {
		t.Errorf("k8s: exit %d, %s\n%s", code, stderr, stdout)
	}
	code, stdout, stderr = runCLI(t, "cluster", "k8s", dir, "--shards", "3", "--image", "websim:t", "--model-pvc", "models")
	if code != 0 || strings.Contains(stdout, "kind: ConfigMap") || !strings.Contains(stdout, `claimName: "models"`) {
		t.Errorf("k8s --model-pvc: exit %d, %s\n%s", code, stderr, stdout)
	}
	code, _, stderr = runCLI(t, "cluster", "slurm", dir, "--shards", "300", "--loads", "L1")
	if code != 0 || !strings.Contains(stderr, "warning: --shards 300: the study has 10 runs, so 290 shards will have none") {
		t.Errorf("too many shards: exit %d, %s", code, stderr)
	}
}

func TestClusterRefusals(t *testing.T) {
	dir := copyModel(t, "asum")
	broken := copyModel(t, "mmc")
	os.Remove(filepath.Join(broken, "ProcData.xlsx"))
	for name, c := range map[string]struct {
		args []string
		want string
	}{
		"no kind":        {[]string{"cluster", dir, "--shards", "2"}, "websim cluster needs slurm or k8s"},
		"no shards":      {[]string{"cluster", "slurm", dir}, "websim cluster needs --shards N"},
		"zero shards":    {[]string{"cluster", "slurm", dir, "--shards", "0"}, "--shards 0: expected a whole number of at least 1"},
		"unknown load":   {[]string{"cluster", "slurm", dir, "--shards", "2", "--loads", "L77"}, `--loads: no load "L77"`},
		"invalid model":  {[]string{"cluster", "k8s", broken, "--shards", "2"}, "ProcData.xlsx"},
		"out workbook":   {[]string{"cluster", "slurm", dir, "--shards", "2", "--out", filepath.Join(dir, "SvcData.xlsx")}, "not a workbook"},
		"parallelism 0":  {[]string{"cluster", "k8s", dir, "--shards", "2", "--parallelism", "0"}, "--parallelism 0: expected a whole number of at least 1"},
		"parallelism -3": {[]string{"cluster", "k8s", dir, "--shards", "2", "--parallelism", "-3"}, "--parallelism -3: expected"},
	} {
		t.Run(name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, c.args...)
			if code != 2 || !strings.Contains(stderr, c.want) || stdout != "" {
				t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit 2 and %q", code, stdout, stderr, c.want)
			}
		})
	}
}
