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
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"text/tabwriter"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/internal/atomicfile"
	"github.com/svclust/svclust/metrics"
	"github.com/svclust/svclust/modelfile"
	"github.com/svclust/svclust/settings"
)

// fitFlags are the flags of fit, tune and demo: the run's settings, and
// the outputs.
type fitFlags struct {
	run     settings.Settings
	out     string
	model   string
	json    bool
	cpuprof string
	memprof string
	data    dataFlags // how to read DATA; fit and tune only

	// Flags of fit only.
	progress bool
	quiet    bool
}

// defaultFit returns the defaults of the fit flags.
func defaultFit() *fitFlags {
	return &fitFlags{
		run:  *settings.Default(),
		data: dataFlags{maxLine: dataset.DefaultMaxLine},
	}
}

// register defines the flags on fs but the settings named in omit: tune
// leaves out -gamma and -C, which its grids replace, and -stream.
func (o *fitFlags) register(fs *flag.FlagSet, omit ...string) {
	o.run.Register(fs, omit...)
	fs.StringVar(&o.out, "o", "", "write the cluster of each row to `file` as CSV (- for standard output)")
	fs.StringVar(&o.model, "model", "", "write the model to `file` as JSON (- for standard output)")
	fs.BoolVar(&o.json, "json", false, "print the result as JSON")
	fs.StringVar(&o.cpuprof, "cpuprofile", "", "write a CPU profile to `file`")
	fs.StringVar(&o.memprof, "memprofile", "", "write a heap profile to `file` at the end of the run")
}

// registerFit defines the flags that only fit has, but for the settings.
func (o *fitFlags) registerFit(fs *flag.FlagSet) {
	fs.BoolVar(&o.progress, "progress", false, "report progress on standard error even when it is not a terminal")
	fs.BoolVar(&o.quiet, "quiet", false, "print nothing on standard error but errors: no progress, no warnings")
}

// startProfile starts the CPU profile requested by -cpuprofile and returns
// the function that stops it and writes the heap profile requested by
// -memprofile. stop may be called more than once; only the first call acts.
func (o *fitFlags) startProfile() (stop func() error, err error) {
	// The CPU profile is written as every output is: to a temporary
	// file renamed over the path at the end.
	var cpu *atomicfile.File
	if o.cpuprof != "" {
		if cpu, err = atomicfile.Create(o.cpuprof); err != nil {
			return nil, outputError("-cpuprofile", o.cpuprof, err)
		}
		if err := pprof.StartCPUProfile(cpu); err != nil {
			cpu.Abort()
			return nil, err
		}
	}
	stopped := false
	return func() error {
		if stopped {
			return nil
		}
		stopped = true
		var err error
		if cpu != nil {
			pprof.StopCPUProfile()
			if err = cpu.Commit(); err != nil {
				err = outputError("-cpuprofile", o.cpuprof, err)
			}
		}
		if o.memprof != "" {
			// The heap profile shows the live objects as of the last
			// garbage collection, so collect first.
			runtime.GC()
			werr := atomicfile.WriteFile(o.memprof, func(w io.Writer) error {
				return pprof.Lookup("heap").WriteTo(w, 0)
			})
			if werr != nil && err == nil {
				err = outputError("-memprofile", o.memprof, werr)
			}
		}
		return err
	}, nil
}

// validate checks the settings, naming the flag at fault.
func (o *fitFlags) validate() error {
	return configError(o.run.Validate())
}

// data is a loaded data set, scaled once fitted (or by scale).
type data struct {
	ds     *dataset.Dataset // without its Labels, which are in truth
	scaler *dataset.Scaler  // nil until the rows are scaled
	n, d   int
	truth  *metrics.Truth // nil without a label column
	// path is the DATA argument, and sha256 the SHA-256 of the bytes of
	// the data file, in hexadecimal.
	path, sha256 string
}

// readOptions returns the options that read the data file path as the
// flags o say.
func (o *fitFlags) readOptions(path string) (dataset.ReadOptions, error) {
	return o.data.options(path, o.run.Label, o.run.LabelGiven, o.run.Workers)
}

// load reads the CSV file path as the flags o say, reporting the bytes
// read to prog (nil reports nothing). The rows are not scaled yet.
func load(path string, o *fitFlags, prog *progress) (*data, error) {
	opt, err := o.readOptions(path)
	if err != nil {
		return nil, err
	}
	r, size, err := openData(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if f, ok := r.(*os.File); ok && size > 0 {
		opt.Rows = dataset.LineCount(f)
	}
	prog.begin("read", "bytes", size)
	ds, sum, err := dataset.ReadSum(&countingReader{r: r, p: prog}, opt)
	if err != nil {
		return nil, dataError(err, opt)
	}
	dt := newData(ds)
	dt.path, dt.sha256 = path, sum
	prog.end()
	return dt, nil
}

// scale scales the rows of dt in place as the settings st say
// (settings.Settings.ScaleRows), with the error of a value that overflows
// naming its line.
func (dt *data) scale(st *settings.Settings) error {
	scaler, _, err := st.ScaleRows(dt.ds.X, nil, true)
	if err != nil {
		return dt.scaleError(st, err)
	}
	dt.scaler = scaler
	return nil
}

// scaleError returns err, an error of settings.Settings.ScaleRows or
// FitRows on the rows of dt, with the file, line and name of a value that
// overflows when scaled.
func (dt *data) scaleError(st *settings.Settings, err error) error {
	var oe *modelfile.OverflowError
	if !errors.As(err, &oe) {
		return configError(err)
	}
	sc, _ := st.Scaling() // validated
	where := fmt.Sprintf("%s:%d", displayPath(dt.path), dt.ds.Line(oe.Row))
	return overflowError(dt.path, where, dt.ds.Names[oe.Col], oe.Value, oe.Scaled, oe.Column, sc.String())
}

// openData opens the data file path, "-" meaning standard input, and
// returns its size, or 0 when it has none (standard input, a pipe).
// Errors read as dataset.ReadFile's.
func openData(path string) (io.ReadCloser, int64, error) {
	if path == "-" {
		return io.NopCloser(os.Stdin), 0, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, fmt.Errorf("dataset: %w", err)
	}
	var size int64
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		size = fi.Size()
	}
	return f, size, nil
}

// newData returns the data of ds, its labels moved into data.truth.
func newData(ds *dataset.Dataset) *data {
	n, d := ds.X.Dims()
	dt := &data{ds: ds, n: n, d: d}
	if ds.Labels != nil {
		dt.truth = metrics.NewTruth(ds.Labels, len(ds.Classes))
	}
	ds.Labels = nil
	return dt
}

// labelled reports whether the data have a ground-truth column.
func (dt *data) labelled() bool { return dt.ds.Classes != nil }

// result is one fit and cluster run.
type result struct {
	model *svclust.Model
	cl    *cluster.Result
	// validity holds the indices against the true labels (NaN without them)
	// and the internal indices on the scaled data.
	validity metrics.Validity
	// stream describes a -stream run; it is nil otherwise.
	stream *streamInfo
}

// fitCluster scales the data in place, trains and clusters them with the
// settings st (settings.Settings.FitRows) and assesses the clustering with
// the internal indices want, reporting its phases to prog (nil reports
// nothing).
func fitCluster(dt *data, st *settings.Settings, want metrics.Indices, prog *progress) (*result, error) {
	fit, err := st.FitRows(context.Background(), dt.ds.X, nil, true, hooks(prog))
	if err != nil {
		return nil, dt.scaleError(st, err)
	}
	dt.scaler = fit.Scaler
	prog.begin("metrics", "", 0)
	r := &result{model: fit.Model, cl: fit.Result}
	r.validity = metrics.Assess(dt.ds.X, dt.truth, r.cl.Labels, want)
	prog.end()
	return r, nil
}

// hooks returns the hooks of settings.Settings.Fit that report its phases
// to prog.
func hooks(prog *progress) *settings.Hooks {
	h := &settings.Hooks{
		Begin: func(phase, unit string) { prog.begin(phase, unit, 0) },
		End:   prog.end,
	}
	if prog != nil {
		h.Progress = func(done, total int) { prog.setTotal(int64(done), int64(total)) }
	}
	return h
}

// trainCluster trains on the scaled rows x and clusters them with the
// settings st (settings.Settings.Fit), reporting both phases to prog.
func trainCluster(x *mat.Dense, st *settings.Settings, prog *progress) (*svclust.Model, *cluster.Result, error) {
	model, cl, err := st.Fit(context.Background(), x, hooks(prog))
	if err != nil {
		return nil, nil, configError(err)
	}
	return model, cl, nil
}

func newFit() *Command {
	o := defaultFit()
	c := &Command{
		UsageLine: "fit [flags] DATA.csv",
		Short:     "train a model and cluster its data",
		Long: `
Fit scales the data of DATA.csv (- for standard input), trains a
budgeted one-class SVM on it and clusters its rows. It prints a summary
(with -json, one JSON object), writes the cluster of each row with -o and
the model, with its scaling, with -model. With a ground-truth column
(-label) it also prints the external indices against it.`,
		Flag: flag.NewFlagSet("fit", flag.ContinueOnError),
	}
	o.register(c.Flag)
	o.data.register(c.Flag)
	o.registerFit(c.Flag)
	c.Run = func(ctx context.Context, e *env, args []string) error { return runFit(ctx, e, o, args) }
	return c
}

// begin validates the flags, takes the one data argument, checks that the
// outputs can be written and starts the profile asked for by -cpuprofile;
// the caller must call stop when err is nil.
func (o *fitFlags) begin(args []string) (path string, stop func() error, err error) {
	if err = o.validate(); err != nil {
		return "", nil, err
	}
	if path, err = oneArg(args); err != nil {
		return "", nil, err
	}
	if _, err = o.readOptions(path); err != nil {
		return "", nil, err
	}
	// Fail before a long training, not after it.
	ins := []namedPath{{"DATA", path}}
	outs := []namedPath{{"-o", o.out}, {"-model", o.model}, {"-cpuprofile", o.cpuprof}, {"-memprofile", o.memprof}}
	if err = checkPaths(ins, outs); err != nil {
		return "", nil, err
	}
	if stop, err = o.startProfile(); err != nil {
		return "", nil, err
	}
	return path, stop, nil
}

// prepare does what begin does and loads and scales the data; the caller
// must call stop when err is nil.
func (o *fitFlags) prepare(args []string) (dt *data, stop func() error, err error) {
	path, stop, err := o.begin(args)
	if err != nil {
		return nil, nil, err
	}
	if dt, err = load(path, o, nil); err == nil {
		err = dt.scale(&o.run)
	}
	if err != nil {
		stop()
		return nil, nil, err
	}
	return dt, stop, nil
}

func runFit(ctx context.Context, e *env, o *fitFlags, args []string) error {
	if err := o.validateFit(args); err != nil {
		return err
	}
	path, stop, err := o.begin(args)
	if err != nil {
		return err
	}
	defer stop()
	prog := newProgress(e.stderr, "svclust fit", o.progress, o.quiet)
	defer prog.close()
	warnC(e, o)
	var (
		dt *data
		r  *result
	)
	if o.run.Stream {
		dt, r, err = runStream(ctx, e, o, path, prog)
	} else {
		dt, r, err = fitInMemory(e, o, path, prog)
	}
	if err != nil {
		return err
	}
	prog.close()
	if err := stop(); err != nil {
		return err
	}
	summary := e.stdout
	if e.toStdout(o.out) || e.toStdout(o.model) {
		if o.quiet {
			return nil // -quiet: nothing but errors on standard error
		}
		summary = e.stderr // standard output carries the labels or the model
	}
	if o.json {
		return writeJSON(summary, fitReport(&o.run, dt, r))
	}
	printSummary(summary, path, &o.run, dt, r)
	return nil
}

// validateFit checks the flags that only fit has but for the settings,
// which validate checks (-sample with them).
func (o *fitFlags) validateFit(args []string) error {
	if o.progress && o.quiet {
		return usagef("-progress and -quiet exclude each other")
	}
	if o.run.Stream && len(args) == 1 {
		return checkRereadable(args[0])
	}
	return nil
}

// fitInMemory loads the data, fits, clusters and writes the outputs.
func fitInMemory(e *env, o *fitFlags, path string, prog *progress) (*data, *result, error) {
	dt, err := load(path, o, prog)
	if err != nil {
		return nil, nil, err
	}
	warnLabelLike(e, o.quiet, dt.ds.Names)
	noteDropped(e, o.quiet, path, dt.ds.Dropped)
	// The summary shows Davies–Bouldin with the external indices, -json
	// every index; without labels neither shows any (fitReport).
	want := metrics.Indices{DaviesBouldin: dt.labelled(), Compactness: dt.labelled() && o.json}
	r, err := fitCluster(dt, &o.run, want, prog)
	if err != nil {
		return nil, nil, err
	}
	prog.begin("write", "", 0)
	if err := writeResults(e, o, &o.run, dt, r); err != nil {
		return nil, nil, err
	}
	prog.end()
	return dt, r, nil
}

// warnC warns when -C leaves the domain empty, unless -quiet.
// Only -rule components reads its clusters off the domain f ≥ 0; -rule
// levels reads every level of f, and C only scales them.
func warnC(e *env, o *fitFlags) {
	if c := o.run.C; !c.Auto && c.Value <= 1 && !o.quiet && o.run.Rule == "components" {
		fmt.Fprintf(e.stderr, "svclust: warning: -C %v: the domain f ≥ 0 is empty for C ≤ 1: -rule components finds one cluster\n", c.Value)
	}
}

// writeResults writes the labels and the model files requested by o, both
// or neither, of the run r with the settings st.
func writeResults(e *env, o *fitFlags, st *settings.Settings, dt *data, r *result) error {
	var outs []output
	if o.out != "" {
		outs = append(outs, output{"-o", o.out, func(w io.Writer) error {
			return writeLabels(w, r.cl.Labels, r.cl.OutlierScores, dt.ds.Dropped)
		}})
	}
	if o.model != "" {
		outs = append(outs, output{"-model", o.model, modelFileOf(st, dt, r).Write})
	}
	return e.writeOutputs(outs...)
}

// modelFileOf returns the model file of a run.
func modelFileOf(st *settings.Settings, dt *data, r *result) *modelfile.File {
	return st.ModelFile(dt.scaler, dt.ds.Names, runInfoOf(st, dt, r), r.model, r.cl)
}

// runInfoOf returns the run section of the model file of a run.
func runInfoOf(st *settings.Settings, dt *data, r *result) *modelfile.Run {
	src := settings.Source{Data: dt.path, Rows: dt.n, SHA256: dt.sha256}
	if r.stream != nil {
		src.Sample = r.stream.sample
	}
	return st.Record(readBuildInfo().String(), r.model, src)
}

// fitJSON is the report of fit -json: the run's, and the sample of
// -stream and the metrics of a label column.
type fitJSON struct {
	*settings.Report
	Sample  int               `json:"sample,omitempty"`
	Metrics *metrics.Validity `json:"metrics,omitempty"`
	// Dropped is the number of rows -na drop skipped.
	Dropped int `json:"dropped,omitempty"`
}

func fitReport(st *settings.Settings, dt *data, r *result) *fitJSON {
	j := &fitJSON{Report: st.Report(r.model, r.cl, dt.n, dt.d)}
	if r.stream != nil {
		j.Sample = r.stream.sample
		j.AssignSeconds += r.stream.assign.Seconds()
		if j.Outlier != nil {
			j.Outlier.Count = r.stream.outliers // every row, not the sample
		}
	}
	if dt.labelled() {
		j.Metrics = &r.validity
	}
	if r.stream != nil {
		j.Sizes = r.stream.counts[1:] // every row of the file, not the sample
	}
	j.Dropped = dropped(dt, r)
	return j
}

func writeJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

func printSummary(w io.Writer, path string, st *settings.Settings, dt *data, r *result) {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	m := r.model
	skipped := ""
	if k := dropped(dt, r); k > 0 {
		skipped = fmt.Sprintf(" (%s with missing values skipped)", plural(k, "row"))
	}
	fmt.Fprintf(tw, "data\t%s: n = %d%s, d = %d, scale %s\n", path, dt.n, skipped, dt.d, st.Scale)
	g, c := "auto", ""
	if !st.Gamma.Auto {
		g = "set"
	}
	if ch := m.Choice; ch.Projected {
		r := ch.Concentration
		if ch.ConcentrationScaled > 0 {
			r = ch.ConcentrationScaled // the value compared
		}
		g += fmt.Sprintf("; in %d of the %d dimensions: distances concentrate, %.3g < %g", ch.Q, dt.d, r, ch.ConcentrationMax)
	}
	if ch := m.Choice; ch.Adaptive {
		g += fmt.Sprintf("; adaptive widths: %d of %d support vectors narrowed, ℓᵢ/ℓ from %.3g, median %.3g", ch.Narrowed, len(m.Alpha), ch.WidthMin, ch.WidthMedian)
	}
	if st.C.Auto {
		c = " (auto)"
	}
	b := strconv.Itoa(m.Choice.Budget)
	if st.Budget.Auto {
		b += " (auto)"
	}
	if m.Choice.Budget == svclust.NoBudget {
		b = "none"
	}
	fmt.Fprintf(tw, "model\tγ = %.6g (%s), C = %.6g%s, budget %s, maintenance %s, seed %d\n", m.Gamma, g, m.C, c, b, strategy(st), st.Seed)
	fmt.Fprintf(tw, "training\t%s after %d iterations (%d updates, %d maintenance calls), objective %.6g, %d support vectors, %s\n",
		m.Status, m.Stats.Iterations, m.Stats.Updates, m.Stats.Maintenance, m.Stats.Objective, len(m.Alpha), ms(m.Stats.Runtime.Seconds()))
	if st.Rule == "levels" {
		from := "the level tree"
		if r.cl.RankLinks {
			from = "rank-based links"
		}
		fmt.Fprintf(tw, "clustering\t%s from %s of %s (smallest cluster %d rows; %s joined as ripples), %s\n",
			plural(r.cl.Clusters, "cluster"), from, plural(r.cl.Equilibria, "mode"), r.cl.MinSize, plural(r.cl.Ripples, "cluster"), ms(r.cl.Runtime.Seconds()))
	} else {
		fmt.Fprintf(tw, "clustering\t%s from %s, strip of %s (ε = %.4g), %s\n",
			plural(r.cl.Clusters, "cluster"), plural(r.cl.Equilibria, "equilibrium"), plural(r.cl.StripSize, "point"), r.cl.Eps, ms(r.cl.Runtime.Seconds()))
	}
	why := ""
	if st.Outliers {
		why = outlierRule(r.cl.OutlierThreshold)
	}
	counts := labelCounts(r.cl.Labels, r.cl.Clusters)
	if r.stream != nil {
		counts = r.stream.counts // every row of the file, not the sample
	}
	fmt.Fprintf(tw, "clusters\t%s\n", clusterSizes(counts, why))
	if st := r.stream; st != nil {
		fmt.Fprintf(tw, "stream\ttrained and clustered on a sample of %d of the %d rows; labelled every row in a second pass, %s\n",
			st.sample, dt.n, ms(st.assign.Seconds()))
	}
	if dt.labelled() {
		s := r.validity
		db := fmt.Sprintf("%.4g", s.DB)
		switch {
		case r.stream != nil:
			db = "not computed with -stream"
		case math.IsNaN(s.DB):
			// metrics.DaviesBouldin: undefined below two clusters, not
			// counting the outliers.
			db = "undefined with fewer than 2 clusters"
			if k := r.cl.Clusters; k < 2 {
				db = "undefined with " + plural(k, "cluster")
			}
		}
		classes := plural(len(dt.ds.Classes), "true class")
		if s.Unlabelled > 0 {
			classes += fmt.Sprintf(" (%s without a label left out)", plural(s.Unlabelled, "row"))
		}
		if len(dt.ds.Classes) == 0 {
			fmt.Fprintf(tw, "metrics\tno row has a label: no external index; Davies–Bouldin %s\n", db)
		} else {
			fmt.Fprintf(tw, "metrics\t%s: ARI %.4f, NMI %.4f, purity %.4f, Rand %.4f, Davies–Bouldin %s\n",
				classes, s.ARI, s.NMI, s.Purity, s.Rand, db)
		}
	}
	tw.Flush()
}

// dropped returns the number of rows -na drop skipped in the run r.
func dropped(dt *data, r *result) int {
	if r.stream != nil {
		return r.stream.dropped
	}
	return len(dt.ds.Dropped)
}

// plural returns "1 cluster", "2 clusters", "0 clusters": n and the noun,
// in the plural unless n is 1. "equilibrium" becomes "equilibria", "class"
// "classes".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if p, ok := strings.CutSuffix(noun, "um"); ok {
		return fmt.Sprintf("%s %sa", numfmt.Thousands(int64(n)), p)
	}
	if strings.HasSuffix(noun, "s") {
		return fmt.Sprintf("%s %ses", numfmt.Thousands(int64(n)), noun)
	}
	return fmt.Sprintf("%s %ss", numfmt.Thousands(int64(n)), noun)
}

// maxSizes is the number of cluster sizes the summary lists.
const maxSizes = 12

// labelCounts returns counts[l+1], the number of labels l, for l = −1
// (outliers), 0, …, k−1.
func labelCounts(labels []int, k int) []int {
	counts := make([]int, k+1)
	for _, l := range labels {
		counts[l+1]++
	}
	return counts
}

// clusterSizes describes a clustering by its labelCounts: the size of each
// cluster in the order of their numbers, the first maxSizes of them, and,
// unless outliers is "", the number of points labelled −1 followed by
// outliers, which says why they are (see outlierRule).
func clusterSizes(counts []int, outliers string) string {
	sizes, out := counts[1:], counts[0]
	k := len(sizes)
	var b strings.Builder
	b.WriteString("sizes ")
	for c, n := range sizes[:min(k, maxSizes)] {
		if c > 0 {
			b.WriteString(", ")
		}
		b.WriteString(numfmt.Thousands(int64(n)))
	}
	if k > maxSizes {
		fmt.Fprintf(&b, " and %d more", k-maxSizes)
	}
	if k == 0 {
		b.WriteString("none")
	}
	if outliers != "" {
		fmt.Fprintf(&b, "; %s (%s)", plural(out, "outlier"), outliers)
	}
	return b.String()
}

// outlierRule says which points -outliers labels −1, those whose outlier
// score reaches the threshold t.
func outlierRule(t float64) string {
	return fmt.Sprintf("outlier score ≥ %g", t)
}

func ms(sec float64) string { return fmt.Sprintf("%.1f ms", sec*1000) }
