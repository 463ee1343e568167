package study

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Shard names one of N shares of a study's runs: K counts from 0 to N-1,
// as Slurm array task ids and Kubernetes completion indexes do.
type Shard struct{ K, N int }

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.K, s.N) }

// ErrShard is the cause of every malformed shard: a --shard text or a
// scheduler environment that does not name one.
var ErrShard = errors.New("no shard")

// ParseShard reads "K/N", 0 ≤ K < N.
func ParseShard(text string) (Shard, error) {
	k, n, ok := strings.Cut(strings.TrimSpace(text), "/")
	kk, errK := strconv.Atoi(strings.TrimSpace(k))
	nn, errN := strconv.Atoi(strings.TrimSpace(n))
	if !ok || errK != nil || errN != nil {
		return Shard{}, fmt.Errorf("%w: --shard %q: expected K/N, two whole numbers (for example 0/4), or auto", ErrShard, text)
	}
	return checkShard(Shard{kk, nn}, "--shard "+text)
}

func checkShard(s Shard, where string) (Shard, error) {
	if s.N < 1 {
		return Shard{}, fmt.Errorf("%w: %s: N is %d, expected at least 1", ErrShard, where, s.N)
	}
	if s.K < 0 || s.K >= s.N {
		return Shard{}, fmt.Errorf("%w: %s: K is %d, expected 0..%d (K counts from 0)", ErrShard, where, s.K, s.N-1)
	}
	return s, nil
}

// ShardFromEnv finds the shard of this process from a scheduler's
// environment (getenv is os.Getenv in use):
//
//   - a Slurm job array: K = SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN
//     (MIN taken as 0 when absent) and N = SLURM_ARRAY_TASK_COUNT, or
//     SLURM_ARRAY_TASK_MAX - MIN + 1 when COUNT is absent; an array with a
//     step other than 1 is refused, as its ids are not 0..N-1;
//   - a Kubernetes Indexed Job: K = JOB_COMPLETION_INDEX, and N is shards
//     (the --shards flag), which Kubernetes does not tell a pod.
//
// shards, when above 0, must agree with Slurm's count too. Neither
// environment, both at once, or figures that disagree are errors.
func ShardFromEnv(getenv func(string) string, shards int) (Shard, error) {
	id, index := getenv("SLURM_ARRAY_TASK_ID"), getenv("JOB_COMPLETION_INDEX")
	switch {
	case id != "" && index != "":
		return Shard{}, fmt.Errorf("%w: --shard auto: both SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX are set; give --shard K/N", ErrShard)
	case id != "":
		return slurmShard(getenv, shards)
	case index != "":
		k, err := envInt("JOB_COMPLETION_INDEX", index)
		if err != nil {
			return Shard{}, err
		}
		if shards < 1 {
			return Shard{}, fmt.Errorf("%w: --shard auto: JOB_COMPLETION_INDEX=%d is set but not the number of shards; add --shards N (the Job's completions)", ErrShard, k)
		}
		return checkShard(Shard{k, shards}, fmt.Sprintf("--shard auto: JOB_COMPLETION_INDEX=%d with --shards %d", k, shards))
	}
	return Shard{}, fmt.Errorf("%w: --shard auto: neither SLURM_ARRAY_TASK_ID (a Slurm job array) nor JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) is set; give --shard K/N", ErrShard)
}

func slurmShard(getenv func(string) string, shards int) (Shard, error) {
	id, err := envInt("SLURM_ARRAY_TASK_ID", getenv("SLURM_ARRAY_TASK_ID"))
	if err != nil {
		return Shard{}, err
	}
	lo := 0
	if v := getenv("SLURM_ARRAY_TASK_MIN"); v != "" {
		if lo, err = envInt("SLURM_ARRAY_TASK_MIN", v); err != nil {
			return Shard{}, err
		}
	}
	if v := getenv("SLURM_ARRAY_TASK_STEP"); v != "" && v != "1" {
		return Shard{}, fmt.Errorf("%w: --shard auto: SLURM_ARRAY_TASK_STEP=%s: the array must number its tasks one by one (--array=0-%s without a step)", ErrShard, v, "N-1")
	}
	n := -1
	if v := getenv("SLURM_ARRAY_TASK_COUNT"); v != "" {
		if n, err = envInt("SLURM_ARRAY_TASK_COUNT", v); err != nil {
			return Shard{}, err
		}
	}
	if v := getenv("SLURM_ARRAY_TASK_MAX"); v != "" {
		hi, err := envInt("SLURM_ARRAY_TASK_MAX", v)
		if err != nil {
			return Shard{}, err
		}
		if span := hi - lo + 1; n >= 0 && n != span {
			return Shard{}, fmt.Errorf("%w: --shard auto: SLURM_ARRAY_TASK_COUNT=%d but MIN..MAX is %d..%d (%d tasks): the array must be one range such as --array=0-%d", ErrShard, n, lo, hi, span, n-1)
		} else if n < 0 {
			n = span
		}
	}
	if n < 0 {
		return Shard{}, fmt.Errorf("%w: --shard auto: SLURM_ARRAY_TASK_ID=%d is set but neither SLURM_ARRAY_TASK_COUNT nor SLURM_ARRAY_TASK_MAX", ErrShard, id)
	}
	if shards > 0 && shards != n {
		return Shard{}, fmt.Errorf("%w: --shard auto: --shards %d, but the Slurm array has %d tasks", ErrShard, shards, n)
	}
	return checkShard(Shard{id - lo, n}, fmt.Sprintf("--shard auto: SLURM_ARRAY_TASK_ID=%d, MIN %d, %d tasks", id, lo, n))
}

func envInt(name, v string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return 0, fmt.Errorf("%w: --shard auto: %s=%q: expected a whole number", ErrShard, name, v)
	}
	return n, nil
}

// Deal assigns runs of the given costs to n shards and returns the shard
// of each run. It is longest-first greedy: runs in decreasing cost (ties
// in their order) each go to the shard with the least cost so far (ties to
// the lowest shard), so that shards finish near the same time. Equal costs
// deal round robin: run i to shard i mod n. Deal depends on its arguments
// only, so every shard and the merge compute the same dealing.
func Deal(costs []float64, n int) []int {
	order := make([]int, len(costs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(costs[b], costs[a]) })
	load := make([]float64, n)
	shard := make([]int, len(costs))
	for _, i := range order {
		best := 0
		for s := 1; s < n; s++ {
			if load[s] < load[best] {
				best = s
			}
		}
		shard[i] = best
		load[best] += costs[i]
	}
	return shard
}

// cost is the expected cost of a task, in observations: the number of
// requests it must see finish, times the warm-up's extra when MSER looks
// for it (a pilot run). Events per observation are not known before a run
// and are the same model at each scenario's load, so they are left out.
func (p *Plan) cost(t task) float64 {
	r := p.Scenarios[t.scenario].Run
	obs := float64(r.Observations)
	if obs <= 0 {
		obs = 100_000
	}
	if r.AutoWarmUp {
		obs *= 2
	}
	return obs
}
