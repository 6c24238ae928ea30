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
// the input's header and rows, each as it is in the input, with a final
// column "cluster" (−1 for an outlier with -outliers). -model receives the
// model file, the format `svclust predict -model FILE` reads: on the same
// rows, predict gives exactly the pipeline's labels.
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
//	-outliers         label outliers −1 (the count printed at the end comes from
//	                  the runner's counter, which Prism can return short)
//	-tol, -max-iter, -min-iter, -m   as for svclust fit
//	-scale            none|zscore|minmax [zscore]
//	-label NAME       the label column, which is not a feature [label]
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
// Exit status: 0 success, 1 failure (bad data, unreadable or unwritable
// files: data errors name the file, line and column), 2 usage (the
// message names the flag).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	sdk "github.com/apache/beam/sdks/v2/go/pkg/beam"

	// The runners, registered by name.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/dataflow"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/flink"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/spark"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal"

	"github.com/svclust/svclust"

	svbeam "github.com/svclust/svclust/beam"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
)

// Upper bounds of the size flags, those of svclust fit.
const (
	maxBudget  = 20_000
	maxM       = 1000
	maxIter    = 1_000_000_000
	maxWorkers = 1024
)

// usageError is an error in the flags: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &usageError{fmt.Sprintf(format, a...)} }

// auto is a flag that is a number or "auto".
type auto struct {
	v    float64
	auto bool
}

func (a *auto) String() string {
	if a.auto {
		return "auto"
	}
	return strconv.FormatFloat(a.v, 'g', -1, 64)
}

func (a *auto) Set(s string) error {
	if s == "auto" {
		a.auto = true
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return errors.New(`a number or "auto"`)
	}
	a.v, a.auto = v, false
	return nil
}

// flags are the command's flags.
type flags struct {
	input, output, model, runner string
	sample                       int
	seed                         uint64
	gamma, c, budget, minSize    auto
	eps                          auto
	maintain, rule, scale, width string
	k                            int
	outliers, verbose            bool
	tol                          float64
	maxIter, minIter, m          int
	label, sep, drop             string
	workers                      int
}

func newFlagSet(o *flags, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("svclust-beam", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.input, "input", "", "CSV files, plain or gzip, with the same columns: a `glob` (required)")
	fs.StringVar(&o.output, "output", "", "`prefix` of the output shards PREFIX-SSSSS-of-NNNNN.csv (required)")
	fs.StringVar(&o.model, "model", "", "write the model to `file`, as svclust predict -model reads it (required)")
	fs.StringVar(&o.runner, "runner", "prism", "Beam `runner`: prism (local), dataflow, flink, spark or universal")
	fs.IntVar(&o.sample, "sample", svbeam.DefaultSample, "`rows` trained on: a seeded uniform sample")
	fs.Uint64Var(&o.seed, "seed", 1, "`seed` of the sample and of training")
	o.gamma.auto, o.c.auto, o.budget.auto, o.minSize.auto, o.eps.auto = true, true, true, true, true
	fs.Var(&o.gamma, "gamma", "kernel width γ: a `number` > 0 or auto")
	fs.Var(&o.c, "C", "trade-off C: a `number` > 0 or auto")
	fs.Var(&o.budget, "budget", "budget of support vectors: a `number`, 0 for none, or auto")
	fs.StringVar(&o.width, "width", "adaptive", "kernel widths when γ and C are both auto: adaptive (narrower kernels where the data are denser than the median) or global (one γ)")
	fs.StringVar(&o.maintain, "maintain", "merge", "budget maintenance: removal, project-knn, project-random or merge")
	fs.IntVar(&o.k, "k", svclust.DefaultK, "support vectors projected onto by project-knn and project-random")
	fs.StringVar(&o.rule, "rule", "levels", "cluster assignment: levels or components")
	fs.Var(&o.minSize, "min-size", "smallest cluster in `rows` of the sample, or auto (levels only)")
	fs.Var(&o.eps, "eps", "half-width of the strip: a `number` > 0 or auto (components only)")
	fs.BoolVar(&o.outliers, "outliers", false, "label outliers −1")
	fs.Float64Var(&o.tol, "tol", svclust.DefaultTol, "stopping threshold θ; 0 runs -max-iter steps")
	fs.IntVar(&o.maxIter, "max-iter", 0, "most SGD steps; 0 means the library's default")
	fs.IntVar(&o.minIter, "min-iter", 0, "steps before the stopping rule; 0 means the default, -1 the paper's rule")
	fs.IntVar(&o.m, "m", 0, "points of the segment test; 0 means the default")
	fs.StringVar(&o.scale, "scale", "zscore", "feature scaling: none, zscore or minmax")
	fs.StringVar(&o.label, "label", "label", "`name` of the label column, which is not a feature")
	fs.StringVar(&o.sep, "sep", "", "field separator: , ; or tab (default: found in the header)")
	fs.StringVar(&o.drop, "drop", "", "comma-separated `columns` that are not features")
	fs.IntVar(&o.workers, "workers", 0, "goroutines per worker for training and labelling; 0 means all cores")
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
	opt := &svbeam.Options{Input: o.input, Output: o.output, Model: o.model, Seed: o.seed, Tool: "svclust-beam"}
	if o.sample < 1 || o.sample > svbeam.MaxSample {
		return nil, usagef("-sample %d: must be ≥ 1 and ≤ %d", o.sample, svbeam.MaxSample)
	}
	opt.Sample = o.sample
	t, c := &opt.Train, &opt.Cluster
	if !o.gamma.auto {
		if !(o.gamma.v > 0) {
			return nil, usagef(`-gamma must be > 0 or "auto"`)
		}
		t.Gamma = o.gamma.v
	}
	if !o.c.auto {
		if !(o.c.v > 0) {
			return nil, usagef(`-C must be > 0 or "auto"`)
		}
		t.C = o.c.v
	}
	if !o.budget.auto {
		b := o.budget.v
		switch {
		case b != math.Trunc(b) || b < 0:
			return nil, usagef(`-budget must be a whole number ≥ 0 (0 means no budget) or "auto"`)
		case b > maxBudget:
			return nil, usagef("-budget %v: must be ≤ %d", b, maxBudget)
		case b == 0:
			t.Budget = svclust.NoBudget
		default:
			t.Budget = int(b)
		}
	}
	width, err := svclust.ParseWidth(o.width)
	if err != nil {
		return nil, usagef("-width must be adaptive or global, not %q", o.width)
	}
	t.Width = width
	if o.k < 1 {
		return nil, usagef("-k must be ≥ 1")
	}
	k := 0
	if strings.HasPrefix(o.maintain, "project") {
		k = o.k
	}
	m, err := svclust.ParseMaintainer(o.maintain, k)
	if err != nil {
		return nil, usagef("-maintain must be %s, not %q", strings.Join(svclust.MaintainerNames(), ", "), o.maintain)
	}
	t.Maintainer = m
	rule, err := cluster.ParseRule(o.rule)
	if err != nil {
		return nil, usagef("-rule must be levels or components, not %q", o.rule)
	}
	c.Rule = rule
	if !o.minSize.auto {
		if o.minSize.v < 1 || o.minSize.v != math.Trunc(o.minSize.v) {
			return nil, usagef(`-min-size must be a whole number ≥ 1 or "auto"`)
		}
		if rule != cluster.LevelTree {
			return nil, usagef("-min-size applies only to -rule levels")
		}
		c.MinSize = int(o.minSize.v)
	}
	if !o.eps.auto {
		if rule != cluster.Components {
			return nil, usagef("-eps applies only to -rule components")
		}
		if !(o.eps.v > 0) {
			return nil, usagef(`-eps must be > 0 or "auto"`)
		}
		c.Eps = o.eps.v
	}
	c.Outliers = o.outliers
	switch {
	case !(o.tol >= 0) || math.IsInf(o.tol, 0):
		return nil, usagef("-tol must be ≥ 0 and finite (0 runs -max-iter steps)")
	case o.tol == 0:
		t.Tol = -1
	default:
		t.Tol = o.tol
	}
	switch {
	case o.maxIter < 0 || o.maxIter > maxIter:
		return nil, usagef("-max-iter must be ≥ 0 and ≤ %d", maxIter)
	case o.minIter < -1 || o.minIter > maxIter:
		return nil, usagef("-min-iter must be ≥ -1 and ≤ %d", maxIter)
	case o.m != 0 && (o.m < 2 || o.m > maxM):
		return nil, usagef("-m must be ≥ 2 and ≤ %d", maxM)
	case o.workers < 0 || o.workers > maxWorkers:
		return nil, usagef("-workers must be ≥ 0 and ≤ %d", maxWorkers)
	}
	t.MaxIter, t.MinIter, t.Workers, c.M, c.Workers = o.maxIter, o.minIter, o.workers, o.m, o.workers
	if opt.Scale, err = dataset.ParseScale(o.scale); err != nil {
		return nil, usagef("-scale must be none, zscore or minmax, not %q", o.scale)
	}
	opt.Read.Label = o.label
	switch o.sep {
	case "":
	case ",", ";", "\t":
		opt.Read.Sep = o.sep[0]
	case "tab", `\t`:
		opt.Read.Sep = '\t'
	default:
		return nil, usagef(`-sep must be ",", ";" or tab, not %q`, o.sep)
	}
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
		if o.outliers && res.Outliers >= 0 {
			fmt.Fprintf(stdout, ", %d outliers", res.Outliers)
		}
		fmt.Fprintln(stdout)
	}
	return 0
}
