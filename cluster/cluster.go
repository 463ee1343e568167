// Package cluster writes what a cluster scheduler needs to run a study's
// shards and then merge them: a Slurm submission script (Slurm) or a
// Kubernetes manifest (Kubernetes). Both run
//
//	websim run MODEL --shard auto --partial PARTS/part-K.wsp
//
// once per shard, K = 0..N-1, and, when every shard has finished,
//
//	websim merge PARTS/part-0.wsp ... PARTS/part-(N-1).wsp
//
// which writes the workbook and JSON that one machine would have written.
package cluster

import (
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"regexp"
	"strings"
)

// Job describes a sharded study for a scheduler.
type Job struct {
	// Model is the model folder, as the jobs will see it (Slurm: a path
	// on the shared file system, relative to the submission folder or
	// absolute). Name is the model's name (its folder's base name).
	Model string
	// Shards is the number of shards, at least 1.
	Shards int
	// RunFlags are extra flags for every `websim run` of a shard
	// (--observations 3000, --loads L1,L2, ...), already checked.
	RunFlags []string
	// Websim is the command that runs websim on the nodes; default
	// "websim".
	Websim string
	// Parts is the folder of the partial files; default "parts".
	Parts string
	// Results is the merged workbook; default MODEL/OutPut.xlsx. The JSON
	// goes beside it, with .json for .xlsx.
	Results string
	// CPUs is the number of cores each shard asks for; default 1.
	CPUs int
	// SlurmOptions are sbatch options given to both jobs, one a line
	// ("--partition=short", "--time=02:00:00", "--account=perf"), as a
	// site may require; each must start with "-" and hold no line break.
	SlurmOptions []string
}

// ErrJob is the cause of a Job that cannot be written.
var ErrJob = errors.New("cannot write the job")

func (j Job) withDefaults() (Job, error) {
	if j.Shards < 1 {
		return j, fmt.Errorf("%w: --shards %d: expected a whole number of at least 1", ErrJob, j.Shards)
	}
	if j.Shards > MaxShards {
		return j, fmt.Errorf("%w: --shards %d: expected at most %d (a job array that long is past what schedulers take, and its merge would name more parts than a command line holds)", ErrJob, j.Shards, MaxShards)
	}
	if j.Model == "" {
		return j, fmt.Errorf("%w: no model folder", ErrJob)
	}
	if j.Websim == "" {
		j.Websim = "websim"
	}
	if j.Parts == "" {
		j.Parts = "parts"
	}
	if j.Results == "" {
		j.Results = path.Join(j.Model, "OutPut.xlsx")
	}
	if j.CPUs < 1 {
		j.CPUs = 1
	}
	return j, nil
}

// checkMergeLine refuses a job whose merge would name more parts on its
// command line than a system surely takes (Slurm's merge names every part
// in --parts).
func (j Job) checkMergeLine() error {
	if line := j.Shards * (len(j.Parts) + len("/part-.wsp ") + len(fmt.Sprint(j.Shards))); line > maxMergeLine {
		return fmt.Errorf("%w: --shards %d with --parts %s: the merge would name %d bytes of parts on its command line, more than the %d a system surely takes; expected fewer shards or a shorter --parts", ErrJob, j.Shards, j.Parts, line, maxMergeLine)
	}
	return nil
}

// maxMergeLine bounds the merge's list of parts, in bytes: half of
// Linux's 2 MiB ARG_MAX, room left for the environment.
const maxMergeLine = 1 << 20

// name is the model's name: its folder's base name.
func (j Job) name() string { return path.Base(path.Clean(strings.ReplaceAll(j.Model, `\`, "/"))) }

// MaxShards bounds Job.Shards: Slurm's default MaxArraySize is 1,001 and
// a cluster that allows more rarely allows 10 times that.
const MaxShards = 10_000

// jsonPath is the results' JSON file beside the workbook.
func (j Job) jsonPath() string {
	return strings.TrimSuffix(j.Results, path.Ext(j.Results)) + ".json"
}

// shellQuote quotes s for a POSIX shell, leaving plain words alone.
func shellQuote(s string) string {
	if s != "" && regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`).MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func shellWords(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = shellQuote(w)
	}
	return strings.Join(q, " ")
}

// yamlString quotes s as a YAML (JSON) string.
func yamlString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// dnsLabel turns s into a Kubernetes object name: lower case letters,
// digits and '-', starting and ending with a letter or digit, at most max
// characters.
func dnsLabel(s string, max int) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	out := strings.Trim(regexp.MustCompile(`-+`).ReplaceAllString(b.String(), "-"), "-")
	if len(out) > max {
		out = strings.Trim(out[:max], "-")
	}
	if out == "" {
		out = "model"
	}
	return out
}
