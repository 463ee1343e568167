package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/websim/websim/study"
)

// shardConflicts lists the flags of `websim run` that a shard refuses: its
// results go to the partial file only, and the merge writes the rest.
func shardConflicts(o runOptions) []string {
	var bad []string
	if o.out != "" {
		bad = append(bad, "--out")
	}
	if o.json {
		bad = append(bad, "--json")
	}
	if o.writeBack {
		bad = append(bad, "--write-back")
	}
	if o.trace != "" {
		bad = append(bad, "--trace")
	}
	return bad
}

// resolveShard reads --shard (K/N or auto) and checks it against --shards.
func resolveShard(o runOptions, getenv func(string) string) (study.Shard, error) {
	if o.shards < 0 {
		return study.Shard{}, fmt.Errorf("--shards %d: expected a whole number of at least 1", o.shards)
	}
	if strings.EqualFold(strings.TrimSpace(o.shard), "auto") {
		return study.ShardFromEnv(getenv, o.shards)
	}
	s, err := study.ParseShard(o.shard)
	if err != nil {
		return s, err
	}
	if o.shards > 0 && o.shards != s.N {
		return study.Shard{}, fmt.Errorf("--shard %s and --shards %d disagree on the number of shards", s, o.shards)
	}
	return s, nil
}

// runShard is `websim run MODEL --shard K/N --partial FILE`: run one share
// of the study and write it for `websim merge`.
func runShard(ctx context.Context, plan *study.Plan, o runOptions, stdout, stderr io.Writer) error {
	switch {
	case o.shard == "":
		return invalidInput(errors.New("--partial and --shards go with --shard K/N (or --shard auto)"))
	case o.partial == "":
		return invalidInput(fmt.Errorf("--shard %s: add --partial FILE, the file this share's results go to (for websim merge)", o.shard))
	}
	if bad := shardConflicts(o); len(bad) > 0 {
		// --out and --json are merge's; --write-back and --trace have no
		// place in a sharded study (merge has no --write-back: its --out
		// writes the workbook; a trace follows one run).
		var toMerge, none []string
		for _, f := range bad {
			if f == "--out" || f == "--json" {
				toMerge = append(toMerge, f)
			} else {
				none = append(none, f)
			}
		}
		var says []string
		if len(toMerge) > 0 {
			verb := "belongs"
			if len(toMerge) > 1 {
				verb = "belong"
			}
			says = append(says, fmt.Sprintf("%s %s to websim merge", strings.Join(toMerge, ", "), verb))
		}
		if len(none) > 0 {
			says = append(says, fmt.Sprintf("%s cannot go with a sharded study (websim merge --out FILE writes its workbook; run without --shard for --write-back or --trace)", strings.Join(none, ", ")))
		}
		return invalidInput(fmt.Errorf("--shard writes its results to --partial only; %s", strings.Join(says, "; ")))
	}
	shard, err := resolveShard(o, os.Getenv)
	if err != nil {
		return invalidInput(err)
	}
	if err := checkSideOutput("--partial", o.partial, o.model); err != nil {
		return err
	}
	// As for --out: a missing folder is refused before anything runs
	// (a typo would otherwise scatter partial files in new folders).
	if err := checkWritable(o.partial); err != nil {
		return fmt.Errorf("--partial: %w", err)
	}
	bar := newProgressBar(stderr, !o.quiet, "simulating shard "+shard.String())
	opts := study.Options{Jobs: o.jobs, Version: version, Build: buildID(), Progress: bar.update}
	rep, err := study.ExecuteShard(ctx, plan, opts, shard, o.partial)
	bar.finish()
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return errors.New("interrupted: nothing was written")
		}
		return err
	}
	if !o.quiet {
		fmt.Fprintf(stdout, "shard %s: %d of the study's %d runs, written to %s\n", rep.Shard, rep.Runs, rep.Total, o.partial)
	}
	return nil
}
