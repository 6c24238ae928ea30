package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/internal/parallel"
	"github.com/svclust/svclust/metrics"
	"github.com/svclust/svclust/reproduce"
)

// gridFlag is a comma-separated list of positive numbers.
type gridFlag []float64

func (g *gridFlag) String() string {
	if g == nil {
		return ""
	}
	s := make([]string, len(*g))
	for i, v := range *g {
		s[i] = strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strings.Join(s, ",")
}

func (g *gridFlag) Set(s string) error {
	var out gridFlag
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(v > 0) || math.IsInf(v, 0) {
			return fmt.Errorf("%q is not a number > 0", f)
		}
		out = append(out, v)
	}
	*g = out
	return nil
}

// metricOf returns the external index named by -metric.
var metricOf = map[string]func(metrics.Scores) float64{
	"nmi":    func(s metrics.Scores) float64 { return s.NMI },
	"ari":    func(s metrics.Scores) float64 { return s.ARI },
	"purity": func(s metrics.Scores) float64 { return s.Purity },
	"rand":   func(s metrics.Scores) float64 { return s.Rand },
}

// gridPoint is one setting of the grid and its outcome.
type gridPoint struct {
	Gamma    float64         `json:"gamma"`
	C        float64         `json:"C"`
	Clusters int             `json:"clusters"`
	Metrics  *metrics.Scores `json:"metrics,omitempty"`
	Error    string          `json:"error,omitempty"`
}

type tuneJSON struct {
	Criterion string       `json:"criterion"`
	Strategy  string       `json:"strategy"`
	Best      *gridPoint   `json:"best"`
	Grid      []*gridPoint `json:"grid"`
	// FitCommand is the svclust fit command line that reproduces the
	// best setting exactly: the same model and labels.
	FitCommand string `json:"fit_command"`
}

func newTune() *Command {
	o := defaultFit()
	// The paper's protocol: its grid, and the k-NN projection of its
	// tables. fit's default, merge, is calibrated with γ and C chosen
	// automatically; on the paper's grid, whose C stops at 32, it finds
	// moons (n = 1000, seed 1) only as 4 clusters (ARI 0.75), while the
	// projection finds both moons exactly.
	o.maintain = "project-knn"
	// tune still runs the paper's protocol: budget 50 and Algorithm 3
	// (-rule components), as before the automatic defaults of fit; a tune
	// over fit's automatic point and rule is open work.
	o.budget = autoInt{v: 50}
	o.rule = "components"
	var (
		metric = "nmi"
		gammas = gridFlag(reproduce.Grid()) // the paper's grid
		cs     = gridFlag(reproduce.Grid())
	)
	c := &Command{
		UsageLine: "tune [fit flags] [-metric nmi|ari|purity|rand] [-gamma-grid LIST] [-C-grid LIST] [-json] DATA.csv",
		Short:     "choose γ and C by a grid search",
		Long: `
Tune fits and clusters DATA.csv for every pair (γ, C) of the grids, in
parallel over the grid points (-workers of them at a time, each fit on
one goroutine), and reports the best. The result does not depend on
-workers.

With a ground-truth column (-label) the best setting has the largest
-metric. Without one it has the lowest Davies–Bouldin index on the scaled
data among the settings that find at least 2 clusters; if none does, the
best is the first grid point. Ties go to the earlier grid point, in
γ-major order. Grid points whose fit fails are reported with their error
and skipped.

Tune takes the flags of fit except -gamma and -C, which the grids
replace; -o and -model write the labels and the model of the best setting.
As in the paper's protocol, -maintain defaults to project-knn here, not to
fit's merge, -budget to 50 and -rule to components. Tune prints the
strategy and the svclust fit command line that reproduces its best
setting exactly.`,
		Flag: flag.NewFlagSet("tune", flag.ContinueOnError),
	}
	o.register(c.Flag, false)
	o.data.register(c.Flag)
	c.Flag.StringVar(&metric, "metric", metric, "external index that picks the best setting: nmi, ari, purity or rand")
	c.Flag.Var(&gammas, "gamma-grid", "comma-separated `list` of γ values")
	c.Flag.Var(&cs, "C-grid", "comma-separated `list` of C values")
	c.Run = func(ctx context.Context, e *env, args []string) error {
		return runTune(ctx, e, o, metric, gammas, cs, args)
	}
	return c
}

func runTune(ctx context.Context, e *env, o *fitFlags, metric string, gammas, cs []float64, args []string) error {
	score, ok := metricOf[metric]
	if !ok {
		return usagef("-metric must be nmi, ari, purity or rand, not %q", metric)
	}
	if n := len(gammas) * len(cs); n > maxGridPoints {
		return usagef("-gamma-grid and -C-grid: %s settings, more than %s", thousands(int64(n)), thousands(maxGridPoints))
	}
	s, dt, stop, err := o.prepare(args)
	if err != nil {
		return err
	}
	defer stop()

	grid := make([]*gridPoint, 0, len(gammas)*len(cs))
	for _, g := range gammas {
		for _, c := range cs {
			grid = append(grid, &gridPoint{Gamma: g, C: c})
		}
	}
	// The table shows Davies–Bouldin and the choice without labels uses
	// it; compactness shows only in -json.
	want := indices{db: true, compactness: o.json}
	// Each grid point is fitted on one goroutine and written to its own
	// slot, so the result does not depend on the number of workers. Once
	// ctx is cancelled, the points not yet started are skipped.
	workers := o.workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	parallel.For(len(grid), 1, workers, func(i, _, _ int) {
		if ctx.Err() == nil {
			evalPoint(dt, s, want, grid[i])
		}
	})
	if err := ctx.Err(); err != nil {
		return err
	}

	best, criterion := pickBest(grid, dt.labelled(), metric, score)
	if best == nil {
		return fmt.Errorf("every grid point failed; the first: %s", grid[0].Error)
	}
	if o.out != "" || o.model != "" {
		bs := *s
		bs.train.Gamma, bs.train.C = best.Gamma, best.C
		o.tuned = true
		r, err := fitCluster(dt, &bs, indices{}, nil) // only its outputs are used
		if err != nil {
			return err
		}
		if err := writeResults(e, o, dt, r); err != nil {
			return err
		}
	}
	out := e.stdout
	if e.toStdout(o.out) || e.toStdout(o.model) {
		out = e.stderr
	}
	command := shellJoin(append([]string{"svclust"}, o.fitArgs(best.Gamma, best.C, args[0])...))
	if o.json {
		return writeJSON(out, &tuneJSON{Criterion: criterion, Strategy: o.strategy(), Best: best, Grid: grid, FitCommand: command})
	}
	printGrid(out, grid, best, criterion, dt.labelled())
	fmt.Fprintf(out, "strategy: %s; the best setting is reproduced by\n  %s\n", o.strategy(), command)
	return nil
}

// evalPoint fits and clusters the data at the grid point p on one
// goroutine, evaluates it with the internal indices want and records the
// outcome in p.
func evalPoint(dt *data, s *setup, want indices, p *gridPoint) {
	defer func() {
		if r := recover(); r != nil {
			p.Error = fmt.Sprintf("internal error: %v", r)
		}
	}()
	ps := *s
	ps.train.Gamma, ps.train.C = p.Gamma, p.C
	ps.train.Workers, ps.cluster.Workers = 1, 1
	r, err := fitCluster(dt, &ps, want, nil)
	if err != nil {
		p.Error = err.Error()
		return
	}
	p.Clusters = r.cl.Clusters
	p.Metrics = &r.scores
}

// pickBest returns the best grid point and the name of the criterion, or
// nil if every point failed. See the Long help of tune.
func pickBest(grid []*gridPoint, labelled bool, metric string, score func(metrics.Scores) float64) (*gridPoint, string) {
	var best, first *gridPoint
	var bestV float64
	for _, p := range grid {
		if p.Error != "" {
			continue
		}
		if first == nil {
			first = p
		}
		if labelled {
			v := score(*p.Metrics)
			if !math.IsNaN(v) && (best == nil || v > bestV) {
				best, bestV = p, v
			}
			continue
		}
		v := p.Metrics.DB
		if p.Clusters >= 2 && !math.IsNaN(v) && (best == nil || v < bestV) {
			best, bestV = p, v
		}
	}
	criterion := metric
	if !labelled {
		criterion = "db"
	}
	if best == nil {
		best = first
	}
	return best, criterion
}

func printGrid(w io.Writer, grid []*gridPoint, best *gridPoint, criterion string, labelled bool) {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', tabwriter.AlignRight)
	if labelled {
		fmt.Fprintf(tw, "γ\tC\tclusters\tpurity\tRand\tARI\tNMI\tDB\t\t\n")
	} else {
		fmt.Fprintf(tw, "γ\tC\tclusters\tDB\t\t\n")
	}
	f := func(v float64) string {
		if math.IsNaN(v) {
			return "-"
		}
		return fmt.Sprintf("%.4f", v)
	}
	for _, p := range grid {
		mark := ""
		if p == best {
			mark = "*"
		}
		if p.Error != "" {
			fmt.Fprintf(tw, "%g\t%g\t\t\t\t%s\t\n", p.Gamma, p.C, "error: "+p.Error)
			continue
		}
		s := p.Metrics
		if labelled {
			fmt.Fprintf(tw, "%g\t%g\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t\n", p.Gamma, p.C, p.Clusters, f(s.Purity), f(s.Rand), f(s.ARI), f(s.NMI), f(s.DB), mark)
		} else {
			fmt.Fprintf(tw, "%g\t%g\t%d\t%s\t%s\t\n", p.Gamma, p.C, p.Clusters, f(s.DB), mark)
		}
	}
	tw.Flush()
	fmt.Fprintf(w, "best (by %s): γ = %g, C = %g, %s\n", criterion, best.Gamma, best.C, plural(best.Clusters, "cluster"))
}

// fitArgs returns the arguments of the svclust fit command that fits the
// data file path as the flags o say, with γ and C given: every flag that
// shapes the model, the partition or the reading of the data, so that the
// command reproduces tune's fit at that grid point exactly.
func (o *fitFlags) fitArgs(gamma, C float64, path string) []string {
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	a := []string{"fit", "-gamma", num(gamma), "-C", num(C), "-budget", o.budget.String(), "-maintain", o.maintain}
	if o.k.set {
		a = append(a, "-k", strconv.Itoa(o.k.v))
	}
	a = append(a, "-rule", o.rule)
	if !o.minSize.auto {
		a = append(a, "-min-size", o.minSize.String())
	}
	if !o.eps.auto {
		a = append(a, "-eps", num(o.eps.v))
	}
	if o.tol != svclust.DefaultTol {
		a = append(a, "-tol", num(o.tol))
	}
	if o.maxIter != 0 {
		a = append(a, "-max-iter", strconv.Itoa(o.maxIter))
	}
	if o.minIter != 0 {
		a = append(a, "-min-iter", strconv.Itoa(o.minIter))
	}
	if o.m != svclust.DefaultM {
		a = append(a, "-m", strconv.Itoa(o.m))
	}
	a = append(a, "-scale", o.scale, "-seed", strconv.FormatUint(o.seed, 10))
	if o.labelSet {
		a = append(a, "-label", o.label)
	}
	if o.all {
		a = append(a, "-all")
	}
	if o.outliers {
		a = append(a, "-outliers")
	}
	{
		d := o.data
		if d.sep != "" {
			a = append(a, "-sep", d.sep)
		}
		if d.decimal != "" && d.decimal != "." {
			a = append(a, "-decimal", d.decimal)
		}
		if d.drop.set {
			a = append(a, "-drop", d.drop.String())
		}
		if d.features.set {
			a = append(a, "-features", d.features.String())
		}
		if d.maxLine != dataset.DefaultMaxLine {
			a = append(a, "-max-line", strconv.Itoa(d.maxLine))
		}
	}
	return append(a, "--", path)
}

// shellJoin joins args into one POSIX shell command line, quoting every
// argument that holds anything but letters, digits and _ . / : , = + - @ %.
func shellJoin(args []string) string {
	q := make([]string, len(args))
	for i, s := range args {
		plain := s != ""
		for _, r := range s {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_./:,=+-@%", r)) {
				plain = false
				break
			}
		}
		if plain {
			q[i] = s
		} else {
			q[i] = "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return strings.Join(q, " ")
}
