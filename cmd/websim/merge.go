package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/websim/websim/report"
	"github.com/websim/websim/study"
)

// mergeOptions are the flags of `websim merge`.
type mergeOptions struct {
	parts []string
	out   string
	json  bool
	quiet bool
}

func mergeCommand() *cli.Command {
	return &cli.Command{
		Name:      "merge",
		Usage:     "merge the partial files of a study's shards into the results one machine would have written",
		ArgsUsage: "PART...",
		Description: `PART... are the partial files that "websim run MODEL --shard K/N --partial FILE"
wrote, one per shard, in any order. The results workbook (--out, default
OutPut.xlsx in the current folder) and --json are those of "websim run MODEL"
on one machine with the same seed, wall times aside. A shard missing or given
twice, a part of another model, seed, settings or number of shards, or a
damaged part (cut short, or changed after it was written: each record
carries a checksum), is refused (exit 2) and nothing is written.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Usage: "write the results workbook to `FILE`", Value: "OutPut.xlsx"},
			&cli.BoolFlag{Name: "json", Usage: "print the results as one JSON document on stdout"},
			&cli.BoolFlag{Name: "quiet", Usage: "no summary table"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return invalidInput(errors.New("websim merge needs the partial files; for example: websim merge parts/part-*.wsp"))
			}
			o := mergeOptions{parts: c.Args().Slice(), out: c.String("out"), json: c.Bool("json"), quiet: c.Bool("quiet")}
			return runMerge(c.Context, o, c.App.Writer, c.App.ErrWriter)
		},
	}
}

// runMerge is `websim merge`: check the parts, pool them, write.
func runMerge(ctx context.Context, o mergeOptions, stdout, stderr io.Writer) error {
	if err := checkOut(o.out, "."); err != nil {
		return invalidInput(err)
	}
	if err := checkOwnResults(o.out); err != nil {
		return err
	}
	if err := checkWritable(o.out); err != nil {
		return err
	}
	st, err := study.Merge(o.parts)
	var problems study.PartErrors
	if errors.As(err, &problems) {
		for _, p := range problems {
			fmt.Fprintln(stderr, p.Error())
		}
		return &silentError{invalidInput(fmt.Errorf("%d problems with the parts", len(problems)))}
	}
	var one *study.PartError
	if errors.As(err, &one) {
		return invalidInput(err)
	}
	if err != nil {
		return err
	}
	// Reading and pooling the parts writes nothing, and an interrupt
	// stops them where they stand; from here an interrupt lets the write
	// end whole, or removes what it began.
	ctx, stop := interruptible(ctx)
	defer stop()
	err = writeOutputs(ctx, func() error {
		if err := report.Write(o.out, st); err != nil {
			return fmt.Errorf("writing the results: %w", err)
		}
		return nil
	}, o.out)
	if !resultsStand(ctx, err) {
		return err
	}
	printRunWarnings(stderr, st.Warnings) // as run prints them, --quiet and --json too
	if o.json {
		return errors.Join(report.WriteJSON(stdout, st), err)
	}
	if !o.quiet {
		printSummary(stdout, st)
		if err == nil {
			fmt.Fprintf(stdout, "Results: %s\n", o.out)
		}
	}
	return err
}
