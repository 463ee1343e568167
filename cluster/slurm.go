package cluster

import (
	"fmt"
	"io"
	"path"
	"strings"
	"text/template"
)

// Slurm writes a bash script that submits the study to Slurm: a job array
// of j.Shards tasks (--array=0-(N-1)), each running one shard, and a merge
// job that starts when every task of the array has succeeded
// (--dependency=afterok:ARRAY). Run it from the folder the paths are
// relative to: `bash websim-asum.sh`. It prints the two job ids.
func Slurm(w io.Writer, j Job) error {
	j, err := j.withDefaults()
	if err != nil {
		return err
	}
	if err := j.checkMergeLine(); err != nil {
		return err
	}
	for _, o := range j.SlurmOptions {
		if !strings.HasPrefix(o, "-") || strings.ContainsAny(o, "\r\n") {
			return fmt.Errorf("%w: --slurm-option %q: expected one sbatch option, such as --partition=short or --time=02:00:00", ErrJob, o)
		}
	}
	name := dnsLabel("websim-"+j.name(), 60)
	run := append([]string{j.Websim, "run", j.Model}, j.RunFlags...)
	parts := make([]string, j.Shards)
	for k := range parts {
		parts[k] = fmt.Sprintf("%s/part-%d.wsp", j.Parts, k)
	}
	if j.Shards > 8 {
		// A brace list keeps the script short and still names every part,
		// so that a missing one is named by the merge.
		parts = []string{fmt.Sprintf("%s/part-{0..%d}.wsp", shellQuote(j.Parts), j.Shards-1)}
	} else {
		for k := range parts {
			parts[k] = shellQuote(parts[k])
		}
	}
	data := map[string]any{
		"Name": name, "Model": j.Model, "Shards": j.Shards, "Last": j.Shards - 1, "CPUs": j.CPUs,
		"Parts": shellQuote(j.Parts),
		"Run":   shellWords(run) + " --shard auto --shards " + fmt.Sprint(j.Shards) + ` --jobs "${SLURM_CPUS_PER_TASK:-1}" --quiet --partial ` + shellQuote(j.Parts) + `/part-"${SLURM_ARRAY_TASK_ID}".wsp`,
		// The JSON goes to a file beside, moved into place once the merge
		// has succeeded: a failed merge leaves the last results whole.
		"Merge": shellWords([]string{j.Websim, "merge", "--json", "--out", j.Results}) + " " + strings.Join(parts, " ") + " > " + shellQuote(j.jsonPath()+".tmp") +
			" || { status=$?; rm -f " + shellQuote(j.jsonPath()+".tmp") + "; exit $status; }\nmv " + shellQuote(j.jsonPath()+".tmp") + " " + shellQuote(j.jsonPath()),
		"Results": j.Results, "JSON": j.jsonPath(), "ResultsDir": shellQuote(path.Dir(j.Results)),
		"Options": j.SlurmOptions,
	}
	return slurmTemplate.Execute(w, data)
}

var slurmTemplate = template.Must(template.New("slurm").Parse(`#!/bin/bash
# Runs the websim study of {{.Model}} on Slurm as {{.Shards}} shards, then merges them.
# Written by "websim cluster slurm". Submit from the folder the paths are
# relative to (the jobs start there too):
#
#   bash THIS_FILE    (with bash, not sbatch: it calls sbatch twice)
#
# It submits a job array of {{.Shards}} tasks, each running one shard, and a merge
# job that waits for the whole array (--dependency=afterok): the merge writes
# {{.Results}} and {{.JSON}}, the results one machine would have written.
# Logs go to {{.Parts}}/. Watch with: squeue -u "$USER"
set -euo pipefail
mkdir -p {{.Parts}} {{.ResultsDir}}

array=$(sbatch --parsable <<'SHARDS'
#!/bin/bash
#SBATCH --job-name={{.Name}}
#SBATCH --array=0-{{.Last}}
#SBATCH --ntasks=1
#SBATCH --cpus-per-task={{.CPUs}}
#SBATCH --output={{.Parts}}/shard-%a.log
{{- range .Options}}
#SBATCH {{.}}
{{- end}}
set -euo pipefail
{{.Run}}
SHARDS
)
array=${array%%;*}

merge=$(sbatch --parsable --dependency=afterok:"$array" --kill-on-invalid-dep=yes <<'MERGE'
#!/bin/bash
#SBATCH --job-name={{.Name}}-merge
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --output={{.Parts}}/merge.log
{{- range .Options}}
#SBATCH {{.}}
{{- end}}
set -euo pipefail
{{.Merge}}
MERGE
)
merge=${merge%%;*}

echo "shards: job array $array ({{.Shards}} tasks); merge: job $merge (after the array succeeds)"
`))
