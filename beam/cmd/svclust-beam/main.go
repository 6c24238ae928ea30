// Command svclust-beam runs svclust as an Apache Beam pipeline: it fits
// the scaling on every row of a set of CSV files, trains and clusters a
// uniform sample of them, and labels every row, on Beam's local Prism
// runner or on Dataflow, Flink or Spark.
//
// Usage:
//
//	svclust-beam -input GLOB -output PREFIX -model FILE [flags]
//
// The files named by -input (plain or gzip, all with the same columns) are
// read in parallel, one worker per file. Each input file becomes one output
// shard PREFIX-SSSSS-of-NNNNN.csv, in the sorted order of the input paths:
// the input's header and rows, each as it is in the input, with two final
// columns "cluster" (−1 for an outlier with -outliers) and "outlier" (the
// outlier score in [0, 1], as svclust fit -o writes it). -model receives
// the model file, the format `svclust predict -model FILE` reads: on the
// same rows, predict gives exactly the pipeline's labels and scores.
//
// Flags (defaults in brackets):
//
//	-input GLOB       CSV files, plain or gzip (required)
//	-output PREFIX    prefix of the output shards (required)
//	-model FILE       model file to write (required)
//	-runner NAME      prism (local, in this process) [prism], dataflow,
//	                  flink, spark or universal (a portable job server)
//	-sample R         rows trained on, a seeded uniform sample [200,000]
//	-seed S           seed of the sample and of training [1]
//	-gamma, -C        number or auto [auto]
//	-budget           number, 0 for none, or auto [auto]
//	-width            adaptive|global: kernel widths when γ and C are auto [adaptive]
//	-maintain         removal|project-knn|project-random|merge [merge]
//	-k                k of the projections [5]
//	-rule             levels|components [levels]
//	-min-size         rows or auto [auto; levels only]
//	-eps              number or auto [auto; components only]
//	-outliers         label −1 the rows whose outlier score reaches
//	                  -outlier-threshold (the count printed at the end comes
//	                  from the runner's counter, which Prism can return short)
//	-outlier-threshold  outlier score in (0, 1) that makes an outlier [0.5]
//	-tol, -max-iter, -min-iter, -m   as for svclust fit (-m ≥ 2 [20])
//	-all              as for svclust fit; implied by -rule components, since
//	                  every row is labelled by the partition
//	-scale            none|zscore|minmax [zscore]
//	-label NAME       the label column, which is not a feature [label];
//	                  when given, the column must exist
//	-sep C            field separator: , ; or tab [from the header]
//	-drop LIST        comma-separated columns that are not features
//	-workers N        goroutines per worker for training and labelling [all cores]
//	-v                show the runner's log
//
// The Beam SDK's own flags select and configure the remote runners, for
// instance
//
//	-runner dataflow -project P -region R -staging_location gs://B/staging -temp_location gs://B/tmp
//	-runner flink -endpoint localhost:8099 -environment_type LOOPBACK
//
// The run's flags (-gamma to -label) are those of svclust fit, with its
// defaults, checks and messages: package settings defines them for both.
//
// Exit status: 0 success, 1 failure (bad data, unreadable or unwritable
// files: data errors name the file, line and column), 2 usage (the
// message names the flag).
//
// The shards and the model are written under hidden names beside them and
// renamed into place only when the whole run has succeeded: a run that
// fails, is interrupted (SIGINT or SIGTERM: "svclust-beam: interrupted",
// exit 1), or whose input files change while it reads them (an error
// naming the file, exit 1) leaves the outputs of the run before intact, so
// the model and the shards always come from one run.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	sdk "github.com/apache/beam/sdks/v2/go/pkg/beam"

	// The runners, registered by name.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/dataflow"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/flink"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/spark"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal"

	svbeam "github.com/svclust/svclust/beam"
	"github.com/svclust/svclust/settings"
)

// usageError is an error in the flags: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &usageError{fmt.Sprintf(format, a...)} }

// flags are the command's flags: the run's settings, shared with svclust
// fit, and the files.
type flags struct {
	input, output, model, runner string
	run                          *settings.Settings
	verbose                      bool
	sep, drop                    string
}

func newFlagSet(o *flags, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("svclust-beam", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.input, "input", "", "CSV files, plain or gzip, with the same columns: a `glob` (required)")
	fs.StringVar(&o.output, "output", "", "`prefix` of the output shards PREFIX-SSSSS-of-NNNNN.csv (required)")
	fs.StringVar(&o.model, "model", "", "write the model to `file`, as svclust predict -model reads it (required)")
	fs.StringVar(&o.runner, "runner", "prism", "Beam `runner`: prism (local), dataflow, flink, spark or universal")
	// The pipeline always streams: -sample is its own flag.
	o.run = settings.Default()
	o.run.Register(fs, "stream", "sample")
	fs.IntVar(&o.run.Sample, "sample", o.run.Sample, "`rows` trained on: a seeded uniform sample")
	fs.StringVar(&o.sep, "sep", "", "field separator: , ; or tab (default: found in the header)")
	fs.StringVar(&o.drop, "drop", "", "comma-separated `columns` that are not features")
	fs.BoolVar(&o.verbose, "v", false, "show the runner's log")
	// The Beam SDK's flags (-project, -region, -endpoint, -job_name, …,
	// and -worker with which a remote runner starts this program as a
	// worker), but for its -runner, which ours replaces.
	flag.CommandLine.VisitAll(func(f *flag.Flag) {
		if fs.Lookup(f.Name) == nil && f.Name != "runner" {
			fs.Var(f.Value, f.Name, f.Usage)
		}
	})
	fs.Usage = func() {} // a parse error prints one line; -h the usage
	return fs
}

// usage prints the usage of the command with the flags of fs.
func usage(fs *flag.FlagSet, stderr io.Writer) {
	fmt.Fprintf(stderr, "usage: svclust-beam -input GLOB -output PREFIX -model FILE [flags]\n\nflags:\n")
	fs.VisitAll(func(f *flag.Flag) {
		if flag.CommandLine.Lookup(f.Name) != nil && f.Name != "runner" {
			return
		}
		name, usage := flag.UnquoteUsage(f)
		def := ""
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" {
			def = fmt.Sprintf(" [%s]", f.DefValue)
		}
		fmt.Fprintf(stderr, "  -%s %s\n    \t%s%s\n", f.Name, name, usage, def)
	})
	fmt.Fprintf(stderr, "\nand the Beam SDK's flags for the remote runners (-project, -region, -staging_location,\n-temp_location, -endpoint, -environment_type, …): see `go doc github.com/svclust/svclust/beam/cmd/svclust-beam`.\n")
}

// options validates the flags and returns the pipeline's options.
func (o *flags) options(args []string) (*svbeam.Options, error) {
	if len(args) > 0 {
		return nil, usagef("unexpected argument %q: the input is -input GLOB", args[0])
	}
	for _, f := range []struct{ name, v string }{{"-input", o.input}, {"-output", o.output}, {"-model", o.model}} {
		if f.v == "" {
			return nil, usagef("%s is required", f.name)
		}
	}
	o.run.Stream = true
	if err := o.run.Validate(); err != nil {
		return nil, err
	}
	opt := &svbeam.Options{Input: o.input, Output: o.output, Model: o.model, Settings: o.run, Tool: "svclust-beam"}
	sep, err := settings.ParseSep(o.sep)
	if err != nil {
		return nil, err
	}
	opt.Read.Sep = sep
	if o.drop != "" {
		opt.Read.Drop = strings.Split(o.drop, ",")
	}
	return opt, nil
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the command with its arguments and outputs; it returns the exit
// status.
func run(args []string, stdout, stderr io.Writer) int {
	o := &flags{}
	fs := newFlagSet(o, stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(fs, stderr)
			return 0
		}
		fmt.Fprintln(stderr, "svclust-beam -h lists the flags")
		return 2
	}
	// On a remote runner this program is also the worker, started with
	// -worker: Init then runs the worker and does not return.
	sdk.Init()
	opt, err := o.options(fs.Args())
	if err != nil {
		fmt.Fprintf(stderr, "svclust-beam: %v\n", err)
		return 2
	}
	if !o.verbose {
		slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	res, err := svbeam.Run(ctx, o.runner, opt)
	if err != nil {
		fmt.Fprintf(stderr, "svclust-beam: %v\n", err)
		return 1
	}
	p := res.Plan
	fmt.Fprintf(stdout, "%d files → %d shards %s-*-of-%05d.csv; model %s\n", len(p.Files), len(p.Shards), opt.Output, len(p.Shards), opt.Model)
	if res.Rows >= 0 {
		fmt.Fprintf(stdout, "%d rows labelled", res.Rows)
		if o.run.Outliers && res.Outliers >= 0 {
			fmt.Fprintf(stdout, ", %d outliers", res.Outliers)
		}
		fmt.Fprintln(stdout)
	}
	return 0
}
