package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/svclust/svclust/internal/numfmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/metrics"
	"github.com/svclust/svclust/settings"
	"github.com/svclust/svclust/tune"
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

// valueGrid is a comma-separated list of tune grid values (tune.ParseGrid);
// multiples says whether "Fx" (F times the automatic value) is allowed.
type valueGrid struct {
	values    []tune.Value
	multiples bool
}

func (g *valueGrid) String() string {
	if g == nil {
		return ""
	}
	s := make([]string, len(g.values))
	for i, v := range g.values {
		s[i] = v.String()
	}
	return strings.Join(s, ",")
}

func (g *valueGrid) Set(s string) error {
	v, err := tune.ParseGrid(s, g.multiples)
	if err != nil {
		return err
	}
	g.values = v
	return nil
}

// metricOf returns the external index named by -metric.
var metricOf = map[string]func(truth, pred []int) float64{
	"nmi":    metrics.NMI,
	"ari":    metrics.AdjustedRand,
	"purity": metrics.Purity,
	"rand":   metrics.Rand,
}

// gridPoint is one setting of the grid and its outcome, as tune -json
// reports it.
type gridPoint struct {
	// GammaGrid and CGrid are the grid values ("0.5x", "auto", "8"),
	// Gamma and C the values they resolved to.
	GammaGrid string `json:"gamma_grid"`
	CGrid     string `json:"C_grid"`
	Gamma     number `json:"gamma"`
	C         number `json:"C"`
	Clusters  int    `json:"clusters"`
	// DBCV is the criterion without labels; Index the -metric against
	// the labels, when the data have them, under the key "score" that
	// tune -json has always written.
	DBCV  *float64 `json:"dbcv,omitempty"`
	Index *float64 `json:"score,omitempty"`
	// Stability is the mean seed-to-seed ARI of -runs ≥ 2 runs.
	Stability *float64 `json:"stability,omitempty"`
	Error     string   `json:"error,omitempty"`
}

type tuneJSON struct {
	// Criterion is "dbcv" without labels, else the -metric.
	Criterion string `json:"criterion"`
	Strategy  string `json:"strategy"`
	// AutoGamma is the automatic γ that the multiples of the γ grid
	// refer to.
	AutoGamma float64      `json:"auto_gamma"`
	Best      *gridPoint   `json:"best"`
	Grid      []*gridPoint `json:"grid"`
	// FitCommand is the svclust fit command line that reproduces the
	// best setting exactly: the same model and labels. It is empty when
	// the best point is a multiple of a projected automatic γ, which fit
	// -gamma does not reproduce (it trains in the features); -model
	// writes that point's model.
	FitCommand string `json:"fit_command"`
	// Unlabelled counts the rows whose label is missing, left out of
	// the -metric (omitted when 0).
	Unlabelled int `json:"unlabelled,omitempty"`
}

func newTune() *Command {
	o := defaultFit()
	var (
		metric = "nmi"
		runs   = 1
		gammas = valueGrid{values: tune.DefaultGammas(), multiples: true}
		cs     = valueGrid{values: tune.DefaultCs()}
	)
	c := &Command{
		UsageLine: "tune [fit flags] [-metric nmi|ari|purity|rand] [-gamma-grid LIST] [-C-grid LIST] [-json] DATA.csv",
		Short:     "choose γ and C by a grid search",
		Long: `
Tune fits and clusters DATA.csv for every pair (γ, C) of the grids, in
parallel over the grid points (-workers of them at a time, the costliest
first, the passes within each fit on up to -workers goroutines), and
reports the best. The result does not depend on -workers. What does not
depend on the grid point (the data, the automatic choice of each point,
the DBCV sample) is computed once, and with -o or -model the best point's
fit is written, not fitted again.

The grids are lists of values separated by commas: numbers, "auto" for
fit's automatic choice, and in -gamma-grid "Fx" for F times the
automatic γ. The default grid is centred on fit's defaults: γ at
0.25x,0.5x,auto,2x,4x (kernel widths from twice to half the automatic
one) and the automatic C, which under -rule levels sets only the
boundary f = 0 (the outliers), not the clusters. Every other setting is
fit's, flag for flag, so the point (auto, auto) is exactly plain fit.

Without a ground-truth column the best setting has the largest DBCV, the
density-based clustering validation index of Moulavi et al. (SDM 2014),
evaluated on a seeded uniform sample of 1,000 rows (all rows of smaller
data): it compares the sparsest region inside each cluster with the
densest region between clusters, so it does not favour round clusters as
Davies–Bouldin does. A partition with fewer than 2 clusters has DBCV −1.
With a ground-truth column (-label) the best setting has the largest
-metric. Ties go to the automatic point, else to the earlier grid point
in γ-major order. Grid points whose fit fails are reported with their
error and skipped.

With -runs N ≥ 2 every grid point is trained with the seeds -seed,
-seed+1, …, -seed+N−1, and the table and -json report the mean adjusted
Rand index between their partitions (the seed-to-seed stability); the
other columns, the choice and the outputs are those of -seed.

Tune takes the flags of fit except -gamma and -C, which the grids
replace; -o and -model write the labels and the model of the best
setting. Tune prints the strategy and the svclust fit command line that
reproduces its best setting exactly. When the automatic choice projects
the data onto a subspace (at 4 features or more), the multiples of its γ
train in that subspace, where that γ was measured; fit -gamma trains in
the features, so for such a best point tune prints no command line and
-model writes its model instead. For the paper's protocol, give its
settings: -maintain project-knn -budget 50 -rule components
-gamma-grid 0.03125,0.125,0.5,2,8,32 -C-grid 0.03125,0.125,0.5,2,8,32.`,
		Flag: flag.NewFlagSet("tune", flag.ContinueOnError),
	}
	o.register(c.Flag, "gamma", "C", "stream", "sample")
	o.data.register(c.Flag)
	c.Flag.StringVar(&metric, "metric", metric, "external index that picks the best setting with labels: nmi, ari, purity or rand")
	c.Flag.Var(&gammas, "gamma-grid", "comma-separated `list` of γ values: numbers, auto, or multiples of it such as 0.5x")
	c.Flag.Var(&cs, "C-grid", "comma-separated `list` of C values: numbers or auto")
	c.Flag.IntVar(&runs, "runs", runs, "training seeds per grid point (-seed, -seed+1, …); with 2 or more, the table shows their mean seed-to-seed ARI")
	c.Run = func(ctx context.Context, e *env, args []string) error {
		return runTune(ctx, e, o, metric, runs, gammas.values, cs.values, args)
	}
	return c
}

func runTune(ctx context.Context, e *env, o *fitFlags, metric string, runs int, gammas, cs []tune.Value, args []string) error {
	index, ok := metricOf[metric]
	if !ok {
		return usagef("-metric must be nmi, ari, purity or rand, not %q", metric)
	}
	if runs < 1 {
		return usagef("-runs must be ≥ 1")
	}
	if err := atMost("-runs", runs, maxTuneRuns); err != nil {
		return err
	}
	if n := len(gammas) * len(cs); n > maxGridPoints {
		return usagef("-gamma-grid and -C-grid: %s settings, more than %s", numfmt.Thousands(int64(n)), numfmt.Thousands(maxGridPoints))
	}
	dt, stop, err := o.prepare(args)
	if err != nil {
		return err
	}
	defer stop()
	warnLabelLike(e, false, dt.ds.Names)
	noteDropped(e, false, args[0], dt.ds.Dropped)

	st := &o.run
	cfg, err := st.Config()
	if err != nil {
		return configError(err)
	}
	method, err := st.ClusterMethod()
	if err != nil {
		return configError(err)
	}
	// With -o or -model the search keeps the best point's fit, which is
	// what plain fit gives at that setting, to write it.
	search := &tune.Search{Train: cfg, Cluster: method, Gammas: gammas, Cs: cs, Metric: index, Runs: runs, Workers: st.Workers,
		Keep: o.out != "" || o.model != ""}
	criterion := "dbcv"
	if dt.labelled() && len(dt.ds.Classes) == 0 {
		fmt.Fprintf(e.stderr, "svclust: note: no row of %s has a label: tune ranks the settings by DBCV, not by -metric %s\n", displayPath(args[0]), metric)
	}
	if dt.labelled() && len(dt.ds.Classes) > 0 { // else no row has a label
		search.Truth = make([]int, dt.n)
		for i := range search.Truth {
			search.Truth[i] = dt.truth.Class(i)
		}
		criterion = metric
	}
	res, err := search.Run(ctx, dt.ds.X)
	switch {
	case errors.Is(err, tune.ErrAllFailed):
		// A run failure rather than a usage error, even when each point
		// failed on its flags: other grids may succeed.
		return fmt.Errorf("every grid point failed; the first: %v", gridError(res.Points[0].Err))
	case ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		return configError(err)
	}
	best := res.Points[res.Best]
	if o.out != "" || o.model != "" {
		bs := *st
		bs.Gamma, bs.C = settings.Float{Auto: true}, settings.Float{Auto: true}
		if !best.GammaValue.IsAuto() {
			bs.Gamma, bs.TunedGamma = settings.Float{Value: best.Gamma}, true
		}
		if !best.CValue.IsAuto() {
			bs.C, bs.TunedC = settings.Float{Value: best.C}, true
		}
		r := &result{model: res.Model, cl: res.Fit}
		if err := writeResults(e, o, &bs, dt, r); err != nil {
			return err
		}
	}
	out := e.stdout
	if e.toStdout(o.out) || e.toStdout(o.model) {
		out = e.stderr
	}
	command := shellJoin(append([]string{"svclust"}, o.fitArgs(best, args[0])...))
	inSubspace := best.Projected && !(best.GammaValue.IsAuto() && best.CValue.IsAuto())
	if inSubspace {
		command = ""
	}
	grid := make([]*gridPoint, len(res.Points))
	for i, p := range res.Points {
		grid[i] = gridPointOf(p)
	}
	if o.json {
		return writeJSON(out, &tuneJSON{Criterion: criterion, Strategy: strategy(st), AutoGamma: res.AutoGamma,
			Best: grid[res.Best], Grid: grid, FitCommand: command, Unlabelled: unlabelledOf(dt)})
	}
	printGrid(out, res, criterion, search.Truth != nil, runs > 1)
	if search.Truth != nil && unlabelledOf(dt) > 0 {
		fmt.Fprintf(out, "%s: %s without a label left out\n", strings.ToUpper(criterion), plural(unlabelledOf(dt), "row"))
	}
	if inSubspace {
		fmt.Fprintf(out, "strategy: %s; the best setting trains in the automatic choice's subspace, which fit -gamma does not: -model writes its model\n", strategy(st))
		return nil
	}
	fmt.Fprintf(out, "strategy: %s; the best setting is reproduced by\n  %s\n", strategy(st), command)
	return nil
}

// number is a float64 that JSON holds as null when it is not finite, as
// the γ of a grid point that overflowed (1e308x): encoding/json refuses
// ±Inf and NaN, which failed tune -json after the whole search.
type number float64

// MarshalJSON implements json.Marshaler.
func (v number) MarshalJSON() ([]byte, error) {
	if !finite(float64(v)) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(v))
}

// UnmarshalJSON implements json.Unmarshaler: null is NaN.
func (v *number) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*v = number(math.NaN())
		return nil
	}
	return json.Unmarshal(b, (*float64)(v))
}

// gridPointOf returns the JSON form of a grid point.
func gridPointOf(p tune.Point) *gridPoint {
	g := &gridPoint{GammaGrid: p.GammaValue.String(), CGrid: p.CValue.String(), Gamma: number(p.Gamma), C: number(p.C)}
	if p.Err != nil {
		g.Error = gridError(p.Err).Error()
		return g
	}
	g.Clusters = p.Clusters
	dbcv := p.DBCV
	g.DBCV = &dbcv
	if !math.IsNaN(p.Index) {
		index := p.Index
		g.Index = &index
	}
	if !math.IsNaN(p.Stability) {
		st := p.Stability
		g.Stability = &st
	}
	return g
}

func printGrid(w io.Writer, res *tune.Result, criterion string, labelled, stability bool) {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "γ\t\tC\t\tclusters\tDBCV\t")
	if labelled {
		fmt.Fprintf(tw, "%s\t", strings.ToUpper(criterion))
	}
	if stability {
		fmt.Fprintf(tw, "seed ARI\t")
	}
	fmt.Fprintf(tw, "\t\n")
	f := func(v float64) string {
		if math.IsNaN(v) {
			return "-"
		}
		return fmt.Sprintf("%.4f", v)
	}
	for i, p := range res.Points {
		mark := ""
		if i == res.Best {
			mark = "*"
		}
		head := fmt.Sprintf("%.4g\t(%s)\t%.4g\t(%s)\t", p.Gamma, p.GammaValue, p.C, p.CValue)
		if p.Err != nil {
			fmt.Fprintf(tw, "%s\t\terror: %v\t\n", head, gridError(p.Err))
			continue
		}
		fmt.Fprintf(tw, "%s%d\t%s\t", head, p.Clusters, f(p.DBCV))
		if labelled {
			fmt.Fprintf(tw, "%s\t", f(p.Index))
		}
		if stability {
			fmt.Fprintf(tw, "%s\t", f(p.Stability))
		}
		fmt.Fprintf(tw, "%s\t\n", mark)
	}
	tw.Flush()
	best := res.Points[res.Best]
	fmt.Fprintf(w, "best (by %s): γ = %g, C = %g, %s\n", criterion, best.Gamma, best.C, plural(best.Clusters, "cluster"))
}

// fitArgs returns the arguments of the svclust fit command that fits the
// data file path as the flags o say, with γ and C of the grid point p
// (omitted when automatic): every flag that
// shapes the model, the partition or the reading of the data, so that the
// command reproduces tune's fit at that grid point exactly.
func (o *fitFlags) fitArgs(p tune.Point, path string) []string {
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	a := []string{"fit"}
	if !p.GammaValue.IsAuto() {
		a = append(a, "-gamma", num(p.Gamma))
	}
	if !p.CValue.IsAuto() {
		a = append(a, "-C", num(p.C))
	}
	st := &o.run
	a = append(a, "-budget", st.Budget.String(), "-maintain", st.Maintain)
	if st.Width != "adaptive" {
		a = append(a, "-width", st.Width)
	}
	if st.Space != "auto" {
		a = append(a, "-space", st.Space)
	}
	if st.KGiven {
		a = append(a, "-k", strconv.Itoa(st.K))
	}
	a = append(a, "-rule", st.Rule)
	if !st.MinSize.Auto {
		a = append(a, "-min-size", st.MinSize.String())
	}
	if !st.Eps.Auto {
		a = append(a, "-eps", num(st.Eps.Value))
	}
	if st.Tol != svclust.DefaultTol {
		a = append(a, "-tol", num(st.Tol))
	}
	if st.MaxIter != 0 {
		a = append(a, "-max-iter", strconv.Itoa(st.MaxIter))
	}
	if st.MinIter != 0 {
		a = append(a, "-min-iter", strconv.Itoa(st.MinIter))
	}
	if st.M != cluster.DefaultM {
		a = append(a, "-m", strconv.Itoa(st.M))
	}
	a = append(a, "-scale", st.Scale, "-seed", strconv.FormatUint(st.Seed, 10))
	if st.LabelGiven {
		a = append(a, "-label", st.Label)
	}
	if st.All {
		a = append(a, "-all")
	}
	if st.Outliers {
		a = append(a, "-outliers")
	}
	if st.OutlierThreshold != cluster.DefaultOutlierThreshold {
		a = append(a, "-outlier-threshold", num(st.OutlierThreshold))
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
		if d.na != "" && d.na != "error" {
			a = append(a, "-na", d.na)
		}
		if d.noHeader {
			a = append(a, "-no-header")
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

// gridError is the error of one point of the grid: a bad γ or C names the
// grid flag that gave it ("-gamma-grid +Inf: must be > 0"), since tune has
// no -gamma or -C.
func gridError(err error) error {
	err = settings.FlagError(err)
	var se *settings.Error
	if !errors.As(err, &se) {
		return err
	}
	return &usageError{se.Named(func(flag string) string {
		switch flag {
		case "-gamma", "-C":
			return flag + "-grid"
		}
		return flag
	})}
}

// unlabelledOf returns the rows of dt whose label is missing (0 without a
// label column).
func unlabelledOf(dt *data) int {
	if dt.truth == nil {
		return 0
	}
	return dt.truth.Unlabelled()
}
