package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/websim/websim/cluster"
	"github.com/websim/websim/workbook"
)

func clusterCommand() *cli.Command {
	return &cli.Command{
		Name:      "cluster",
		Usage:     "write the Slurm script or Kubernetes manifest that runs a study's shards and then the merge",
		ArgsUsage: "slurm|k8s MODEL",
		Description: `"websim cluster slurm MODEL --shards N" writes a bash script that submits a
Slurm job array of N tasks (one shard each) and a merge job that runs once the
whole array has succeeded. "websim cluster k8s MODEL --shards N" writes a
manifest for kubectl apply: the model in a ConfigMap (or, with --model-pvc
NAME, read from an existing claim at /models/MODELNAME), a volume for the parts,
an Indexed Job of N completions and a merge Job. --observations, --loads,
--scenarios and --seed go to every shard's "websim run". The model is checked
first; an invalid one is refused (exit 2) and nothing is written.`,
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "shards", Usage: "number of shards (Slurm array tasks, Kubernetes completions); required"},
			&cli.StringFlag{Name: "out", Usage: "write the script or manifest to `FILE` (default: standard output)"},
			&cli.Uint64Flag{Name: "seed", Usage: "random seed for every shard (overrides the Seed setting)", DefaultText: "the Seed setting"},
			&cli.Int64Flag{Name: "observations", Usage: "requests finished after the warm-up, per run (overrides the setting)", DefaultText: "the Observations setting"},
			&cli.StringFlag{Name: "loads", Usage: "comma list of load labels to run"},
			&cli.StringFlag{Name: "scenarios", Usage: "comma list of Experiments scenarios to run"},
			&cli.StringFlag{Name: "websim", Usage: "the `COMMAND` that runs websim on the nodes", Value: "websim"},
			&cli.StringFlag{Name: "parts", Usage: "(slurm) folder of the partial files and logs", Value: "parts"},
			&cli.StringFlag{Name: "results", Usage: "the merged workbook (slurm: its JSON goes beside it)", DefaultText: "MODEL/OutPut.xlsx"},
			&cli.IntFlag{Name: "cpus", Usage: "cores per shard (runs at once inside it)", Value: 1},
			&cli.StringSliceFlag{Name: "slurm-option", Usage: "(slurm) an sbatch `OPTION` for both jobs, as a site may require: --slurm-option --partition=short --slurm-option --time=02:00:00 (repeat it)"},
			&cli.StringFlag{Name: "storage-class", Usage: "(k8s) the StorageClass of the parts' volume: one that gives ReadWriteMany volumes", DefaultText: "the cluster's default"},
			&cli.StringFlag{Name: "image", Usage: "(k8s) container image holding websim and /bin/sh", Value: "websim:" + version},
			&cli.IntFlag{Name: "parallelism", Usage: "(k8s) shards running at once", DefaultText: "all"},
			&cli.StringFlag{Name: "storage", Usage: "(k8s) size of the parts' volume", Value: "1Gi"},
			&cli.StringFlag{Name: "model-pvc", Usage: "(k8s) read the model from this existing PersistentVolumeClaim instead of a ConfigMap (for a model above about 700 KiB): the claim is mounted read-only at /models and must hold the model folder at its top (/models/asum for samples/asum)", DefaultText: "a ConfigMap"},
		},
		Action: func(c *cli.Context) error {
			args := c.Args().Slice()
			if len(args) != 2 || (args[0] != "slurm" && args[0] != "k8s") {
				return invalidInput(errors.New("websim cluster needs slurm or k8s, then the MODEL folder; for example: websim cluster slurm samples/asum --shards 8"))
			}
			return runCluster(c, args[0], modelFolder(args[1]), c.App.Writer, c.App.ErrWriter)
		},
	}
}

// runCluster checks the model with the run flags, then writes the script
// or manifest.
func runCluster(c *cli.Context, kind, model string, stdout, stderr io.Writer) error {
	if !c.IsSet("shards") {
		return invalidInput(errors.New("websim cluster needs --shards N, the number of shards to cut the study into"))
	}
	if c.Int("shards") < 1 {
		return invalidInput(fmt.Errorf("--shards %d: expected a whole number of at least 1", c.Int("shards")))
	}
	if err := checkLists(c); err != nil {
		return err
	}
	o := runOptions{model: model, seed: c.Uint64("seed"), seedSet: c.IsSet("seed"), observations: c.Int64("observations"),
		loads: splitList(c.String("loads")), scenarios: splitList(c.String("scenarios"))}
	if err := checkObservations(c); err != nil {
		return err
	}
	if c.IsSet("observations") && o.observations < 1 {
		return invalidInput(fmt.Errorf("--observations %d: expected a whole number of at least 1", o.observations))
	}
	plan, err := readPlan(model, stderr)
	if err != nil {
		return err
	}
	if err := applyRunOptions(plan, o); err != nil {
		return invalidInput(err)
	}
	runs := 0
	for _, sc := range plan.Scenarios {
		runs += len(sc.Run.Loads) * max(1, sc.Run.Replications)
	}
	if shards := c.Int("shards"); shards > runs && shards <= cluster.MaxShards {
		idle := fmt.Sprintf("%d shards will have none", shards-runs)
		if shards-runs == 1 {
			idle = "1 shard will have none"
		}
		fmt.Fprintf(stderr, "warning: --shards %d: the study has %d runs, so %s\n", shards, runs, idle)
	}
	var flags []string
	for _, name := range []string{"seed", "observations", "loads", "scenarios"} {
		if c.IsSet(name) {
			flags = append(flags, "--"+name, c.String(name))
		}
	}
	job := cluster.Job{Model: filepath.ToSlash(model), Shards: c.Int("shards"), RunFlags: flags, Websim: c.String("websim"),
		Parts: filepath.ToSlash(c.String("parts")), Results: filepath.ToSlash(c.String("results")), CPUs: c.Int("cpus"),
		SlurmOptions: c.StringSlice("slurm-option")}
	var buf bytes.Buffer
	switch kind {
	case "slurm":
		err = cluster.Slurm(&buf, job)
	case "k8s":
		if p := c.Int("parallelism"); c.IsSet("parallelism") && p < 1 {
			// 0 and below read as "all" before, without a word.
			return invalidInput(fmt.Errorf("--parallelism %d: expected a whole number of at least 1, the shards that run at once (leave it out for all)", p))
		}
		kj := cluster.KubernetesJob{Job: job, Image: c.String("image"), Parallelism: c.Int("parallelism"), Storage: c.String("storage"),
			StorageClass: c.String("storage-class"), ModelPVC: c.String("model-pvc")}
		if kj.Results == "" {
			kj.Results = "OutPut.xlsx"
		}
		for _, name := range []string{workbook.SvcDataFile, workbook.ProcDataFile} {
			if kj.ModelPVC != "" {
				break // the model is on the claim
			}
			b, err := os.ReadFile(filepath.Join(model, name))
			if err != nil {
				return invalidInput(err)
			}
			kj.Files = append(kj.Files, cluster.File{Name: name, Data: b})
		}
		err = cluster.Kubernetes(&buf, kj)
	}
	if err != nil {
		return invalidInput(err)
	}
	out := c.String("out")
	if out == "" {
		_, err := stdout.Write(buf.Bytes())
		return err
	}
	for _, in := range []string{workbook.SvcDataFile, workbook.ProcDataFile} {
		if samePath(out, filepath.Join(model, in)) || strings.EqualFold(filepath.Ext(out), ".xlsx") {
			return invalidInput(fmt.Errorf("--out %s: expected a script or manifest file name, not a workbook", out))
		}
	}
	if err := checkWritable(out); err != nil {
		return err
	}
	mode := os.FileMode(0o644)
	if kind == "slurm" {
		mode = 0o755
	}
	if err := os.WriteFile(out, buf.Bytes(), mode); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	fmt.Fprintf(stderr, "wrote %s\n", out)
	return nil
}
