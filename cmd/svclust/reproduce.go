package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/svclust/svclust/internal/numfmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/reproduce"
	"github.com/svclust/svclust/settings"
)

// Default time limits of reproduce; see the Long help and the package
// documentation of reproduce. They keep the 15 data sets × 7 methods
// within about 45 minutes on 2 cores.
const (
	defaultGridTimeout = 40 * time.Second
	defaultRunsTimeout = 40 * time.Second
	defaultSVCTimeout  = 40 * time.Second
)

// reproFlags holds the flags of reproduce.
type reproFlags struct {
	data, datasets, methods  string
	runs                     int
	out                      string
	json, figures, quiet     bool
	gridTimeout, runsTimeout time.Duration
	svcTimeout               time.Duration
	workers                  int
	scale                    string
	gammas, cs, fsvc         gridFlag
	from                     string
	skip                     string
	extended                 extGridFlag
	paperFrom                string
}

// extGridFlag is the value of -extended-C-grid: a grid of C, or off for
// "" or "none".
type extGridFlag struct {
	cs  gridFlag
	off bool
}

func (g *extGridFlag) String() string {
	if g == nil {
		return ""
	}
	if g.off {
		return "none"
	}
	return g.cs.String()
}

func (g *extGridFlag) Set(s string) error {
	if t := strings.TrimSpace(s); t == "" || t == "none" {
		*g = extGridFlag{off: true}
		return nil
	}
	var cs gridFlag
	if err := cs.Set(s); err != nil {
		return err
	}
	*g = extGridFlag{cs: cs}
	return nil
}

// defaultDataDir is $SVCLUST_DATA, or ../shared/datasets.
func defaultDataDir() string {
	if d := os.Getenv("SVCLUST_DATA"); d != "" {
		return d
	}
	return filepath.Join("..", "shared", "datasets")
}

func newReproduce() *Command {
	o := &reproFlags{
		data: defaultDataDir(), runs: reproduce.DefaultRuns, out: "docs",
		gridTimeout: defaultGridTimeout, runsTimeout: defaultRunsTimeout, svcTimeout: defaultSVCTimeout,
		scale: "zscore", extended: extGridFlag{cs: reproduce.ExtendedGrid()},
	}
	c := &Command{
		UsageLine: "reproduce [-data DIR] [-datasets LIST] [-methods LIST] [-runs N] [-out DIR] [-json] [-figures] [-extended-C-grid LIST] [timeout flags]",
		Short:     "rerun the paper's experiments and compare with its tables",
		Long: `
Reproduce reruns the experiments of the paper's Section 5: for every data
set and method, a grid search of γ and C over {2⁻⁵, 2⁻³, …, 2⁵} (and of
FSVC's p and ε over {0.1, …, 1}) at seed 1, the setting of largest NMI,
then -runs seeded runs at that setting. It writes OUT/REPRODUCTION.md, the
paper's seven tables with the paper's value beside ours in every cell, and
OUT/reproduction.json, the whole report. The methods are svc, sgd, fsvc,
bsgd-r, bsgd-pnn, bsgd-prn (the paper's six) and bsgd-m (ours). Data sets
missing from -data are skipped with a message. Time limits bound the
work; what they cut is reported, never hidden. Progress goes to standard
error.

In the same run, the budgeted methods selected (bsgd-r, bsgd-pnn, bsgd-prn,
bsgd-m) are rerun on the selected data sets of at most 1,000 points, the
sets of the reproduction criterion, with C over -extended-C-grid (default the
paper's grid and 2⁷, 2⁹, 2¹¹), everything else unchanged. The report keeps
the paper's grid as its faithful tables and gives the extended grid a
section of its own ("Beyond the paper's grid"); reproduction.json holds its
records under "extended". -extended-C-grid none turns it off. With
-paper-from FILE the paper-grid part is read from a reproduction.json
instead of being run (its protocol too), and only the extended grid runs;
the report gives the date of each part.`,
		Flag: flag.NewFlagSet("reproduce", flag.ContinueOnError),
	}
	fs := c.Flag
	fs.StringVar(&o.data, "data", o.data, "`directory` of the data sets NAME.csv (default $SVCLUST_DATA or ../shared/datasets)")
	fs.StringVar(&o.datasets, "datasets", "", "comma-separated `list` of data set names (default the paper's 15)")
	fs.StringVar(&o.methods, "methods", "", "comma-separated `list` of methods (default all 7)")
	fs.IntVar(&o.runs, "runs", o.runs, "number of seeded runs at the chosen setting")
	fs.StringVar(&o.out, "out", o.out, "`directory` of REPRODUCTION.md, reproduction.json and figures/")
	fs.BoolVar(&o.json, "json", false, "print one JSON record per data set and method of the paper's grid on standard output")
	fs.BoolVar(&o.figures, "figures", false, "also draw the paper's three visual experiments into OUT/figures")
	fs.BoolVar(&o.quiet, "quiet", false, "print no progress on standard error")
	fs.DurationVar(&o.gridTimeout, "grid-timeout", o.gridTimeout, "wall `time` of the grid search of one data set and method (each FSVC stage); 0 means no limit")
	fs.DurationVar(&o.runsTimeout, "runs-timeout", o.runsTimeout, "wall `time` of the seeded runs of one data set and method; 0 means no limit")
	fs.DurationVar(&o.svcTimeout, "svc-timeout", o.svcTimeout, "wall `time` of one SVC or FSVC run, training and labelling; 0 means no limit")
	// The names these had before "budget" came to mean the support-vector
	// count only; hidden from the usage, they still work.
	fs.DurationVar(&o.gridTimeout, "grid-budget", o.gridTimeout, "deprecated: -grid-timeout")
	fs.DurationVar(&o.runsTimeout, "runs-budget", o.runsTimeout, "deprecated: -runs-timeout")
	fs.DurationVar(&o.svcTimeout, "svc-budget", o.svcTimeout, "deprecated: -svc-timeout")
	fs.IntVar(&o.workers, "workers", 0, "number of fits run at a time, each on one core; 0 means all cores")
	fs.StringVar(&o.scale, "scale", o.scale, "feature scaling fitted to each data set: none, zscore or minmax")
	fs.Var(&o.gammas, "gamma-grid", "comma-separated `list` of γ values (default the paper's grid)")
	fs.Var(&o.cs, "C-grid", "comma-separated `list` of C values (default the paper's grid)")
	fs.Var(&o.fsvc, "fsvc-grid", "comma-separated `list` of FSVC's p and ε values (default 0.1,0.2,…,1)")
	fs.StringVar(&o.skip, "skip", "", "comma-separated `list` of NAME/METHOD pairs not to run, reported as skipped")
	fs.StringVar(&o.from, "from", "", "render the report from a reproduction.json `file` instead of running")
	fs.Var(&o.extended, "extended-C-grid", "comma-separated `list` of C values of the extended part, or none (default the paper's grid and 128,512,2048)")
	fs.StringVar(&o.paperFrom, "paper-from", "", "take the paper-grid part from a reproduction.json `file` and run only the extended grid")
	c.Run = func(ctx context.Context, e *env, args []string) error {
		return runReproduce(ctx, e, o, args)
	}
	return c
}

// checkDataDir returns an error naming -data unless dir is a directory
// holding at least one of the data sets sets (NAME.csv); those missing are
// skipped by the run, with a message.
func checkDataDir(dir string, sets []reproduce.DataSet) error {
	fi, err := os.Stat(dir)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("-data %s: %w (the directory of the paper's data sets: $SVCLUST_DATA or ../shared/datasets by default)", dir, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("-data %s: not a directory", dir)
	}
	for _, d := range sets {
		if _, err := os.Stat(filepath.Join(dir, d.Name+".csv")); err == nil {
			return nil
		}
	}
	return fmt.Errorf("-data %s: none of the %d data sets is there (%s.csv, …): nothing to reproduce", dir, len(sets), sets[0].Name)
}

// skippedByFlag is the reason of the pairs -skip names.
const skippedByFlag = "by -skip"

// checkRan returns an error when no (data set, method) pair of recs ran
// and some were skipped because their data set could not be read (not by
// -skip): the report of before is then kept rather than replaced by one of
// pairs that did not run.
func checkRan(recs []reproduce.Record) error {
	var unread *reproduce.Record
	for i, r := range recs {
		switch {
		case !strings.HasPrefix(r.Status, "skipped"):
			return nil
		case r.Status != "skipped: "+skippedByFlag && unread == nil:
			unread = &recs[i]
		}
	}
	if unread == nil {
		return nil
	}
	return fmt.Errorf("no (data set, method) pair ran, so the report is not written; %s: %s", unread.Dataset, unread.Status)
}

// maxReportBytes bounds the file read by -from: a reproduction.json of
// the paper's 15 data sets and 7 methods takes about 100 KB.
const maxReportBytes = 64 << 20

func runReproduce(ctx context.Context, e *env, o *reproFlags, args []string) error {
	if len(args) > 0 {
		return usagef("unexpected arguments: %s", strings.Join(args, " "))
	}
	p, sets, ms, err := o.protocol()
	if err != nil {
		return err
	}
	if err := o.checkPaperFrom(flagsSet(e.cmd.Flag)); err != nil {
		return err
	}
	if o.quiet {
		p.Progress = nil
	} else {
		p.Progress = e.stderr
	}
	if err := os.MkdirAll(o.out, 0o777); err != nil {
		return outputError("-out", o.out, err)
	}
	// Check the outputs before the run, which may take an hour, rather
	// than after it; -from writes only the Markdown.
	md := filepath.Join(o.out, "REPRODUCTION.md")
	js := filepath.Join(o.out, "reproduction.json")
	paths := []namedPath{{"-out", md}}
	if o.from == "" {
		paths = append(paths, namedPath{"-out", js})
	}
	if err := checkPaths([]namedPath{{"-from", o.from}, {"-paper-from", o.paperFrom}}, paths); err != nil {
		return err
	}
	if o.from == "" && o.paperFrom == "" {
		// A run reads the data sets: a -data without any of them would
		// replace the report with one of skipped pairs.
		if err := checkDataDir(o.data, sets); err != nil {
			return err
		}
	}

	var rep *reproduce.Report
	switch {
	case o.from != "":
		if rep, err = readReport(o.from, maxReportBytes); err != nil {
			return err
		}
	case o.paperFrom != "":
		if rep, err = readReport(o.paperFrom, maxReportBytes); err != nil {
			return err
		}
		// Only the extended part runs, on the paper part's protocol;
		// -workers and the progress are this run's.
		if rep.Extended != nil {
			return fmt.Errorf("%s: already has an extended part (of %s); -paper-from takes a report of the paper's grid alone", o.paperFrom, rep.Extended.Date)
		}
		workers := p.Workers
		*p = rep.Protocol
		p.Workers = workers
		recs := rep.Records
		if o.datasets != "" {
			recs = nil
			for _, r := range rep.Records {
				if slices.ContainsFunc(sets, func(d reproduce.DataSet) bool { return d.Name == r.Dataset }) {
					recs = append(recs, r)
				}
			}
		}
		if err := runExtended(ctx, e, o, p, rep, recs, ms); err != nil {
			return err
		}
	default:
		start := time.Now()
		rep = &reproduce.Report{
			Command:  commandLine(e.cmd),
			Machine:  reproduce.ThisMachine(),
			Date:     start.UTC().Format(time.RFC3339),
			Protocol: *p,
		}
		rep.Records, err = p.Run(ctx, o.data, sets, ms)
		if err != nil {
			return err
		}
		if err := checkRan(rep.Records); err != nil {
			return err
		}
		rep.Seconds = time.Since(start).Seconds()
		if !o.extended.off {
			if err := runExtended(ctx, e, o, p, rep, rep.Records, ms); err != nil {
				return err
			}
		}
	}
	if len(rep.Reach) == 0 {
		// The Reach section needs the data; without it the report is
		// still written, without that section, and the user is told.
		if err := rep.AddReach(o.data); err != nil && !o.quiet {
			fmt.Fprintf(e.stderr, "svclust reproduce: the report leaves out the Reach of data sets it cannot read: %v\n", err)
		}
	}

	outs := []output{{"-out", md, rep.WriteMarkdown}}
	if o.from == "" {
		outs = append(outs, output{"-out", js, rep.WriteJSON})
	}
	if err := e.writeOutputs(outs...); err != nil {
		return err
	}
	if o.figures {
		dir := filepath.Join(o.out, "figures")
		figs, err := reproduce.Figures(dir, &reproduce.FigureConfig{Workers: o.workers})
		if err != nil {
			return err
		}
		if !o.quiet {
			for _, f := range figs {
				fmt.Fprintf(e.stderr, "figure %s: %s, %d clusters (%d true), ARI ours %.2f, C-means %.2f, fuzzy C-means %.2f\n",
					f.Path, f.Kind, f.Clusters, f.Classes, f.ARI[0], f.ARI[1], f.ARI[2])
			}
		}
	}
	if o.json {
		return writeJSON(e.stdout, rep.Records)
	}
	printReproduce(e.stdout, rep, md)
	return nil
}

// readReport reads the reproduction.json at path, at most limit bytes.
func readReport(path string, limit int64) (*reproduce.Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	lr := &io.LimitedReader{R: f, N: limit + 1}
	rep, err := reproduce.ReadReport(lr)
	if lr.N == 0 {
		return nil, fmt.Errorf("%s: larger than %d MiB: not a reproduction.json", path, limit>>20)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rep, nil
}

// runExtended runs the extended grid of C of the flags o with the
// protocol p on the records recs of the paper's grid and the methods ms,
// and sets rep.Extended; nothing runs when no data set or method
// qualifies (see reproduce.ExtendedScope).
func runExtended(ctx context.Context, e *env, o *reproFlags, p *reproduce.Protocol, rep *reproduce.Report, recs []reproduce.Record, ms []reproduce.Method) error {
	if ds, ems := reproduce.ExtendedScope(recs, ms); len(ds) > 0 {
		p.Progress = nil
		if !o.quiet {
			p.Progress = e.stderr
			fmt.Fprintf(e.stderr, "extended grid, C ∈ {%s}: %d data sets × %d methods\n", o.extended.String(), len(ds), len(ems))
		}
	}
	ext, err := p.RunExtended(ctx, o.data, o.extended.cs, recs, ms)
	if err != nil {
		return err
	}
	if ext != nil {
		ext.Command, ext.Machine = commandLine(e.cmd), reproduce.ThisMachine()
	}
	rep.Extended = ext
	return nil
}

// flagsSet returns the names of the flags set on fs.
func flagsSet(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// paperFromExcludes lists the flags that set the protocol, which
// -paper-from takes from its file.
var paperFromExcludes = []string{"runs", "scale", "gamma-grid", "C-grid", "fsvc-grid", "grid-timeout", "runs-timeout", "svc-timeout", "grid-budget", "runs-budget", "svc-budget", "skip", "from"}

// checkPaperFrom checks -paper-from against the other flags set.
func (o *reproFlags) checkPaperFrom(set map[string]bool) error {
	if o.paperFrom == "" {
		return nil
	}
	if o.extended.off {
		return usagef("-paper-from runs only the extended grid: it cannot be used with -extended-C-grid none")
	}
	for _, name := range paperFromExcludes {
		if set[name] {
			return usagef("-paper-from takes the protocol from its file: -%s cannot be given with it", name)
		}
	}
	return nil
}

// protocol checks the flags and returns the protocol, data sets and
// methods they describe.
func (o *reproFlags) protocol() (*reproduce.Protocol, []reproduce.DataSet, []reproduce.Method, error) {
	switch {
	case o.runs < 1:
		return nil, nil, nil, usagef("-runs must be ≥ 1")
	case o.gridTimeout < 0:
		return nil, nil, nil, usagef("-grid-timeout must be ≥ 0 (0 means no limit)")
	case o.runsTimeout < 0:
		return nil, nil, nil, usagef("-runs-timeout must be ≥ 0 (0 means no limit)")
	case o.svcTimeout < 0:
		return nil, nil, nil, usagef("-svc-timeout must be ≥ 0 (0 means no limit)")
	case o.workers < 0:
		return nil, nil, nil, usagef("-workers must be ≥ 0 (0 means all cores)")
	}
	if err := atMost("-workers", o.workers, settings.MaxWorkers); err != nil {
		return nil, nil, nil, err
	}
	if err := atMost("-runs", o.runs, maxRuns); err != nil {
		return nil, nil, nil, err
	}
	if n := len(o.gammas) * len(o.cs); n > maxGridPoints {
		return nil, nil, nil, usagef("-gamma-grid and -C-grid: %s settings, more than %s", numfmt.Thousands(int64(n)), numfmt.Thousands(maxGridPoints))
	}
	sc, err := dataset.ParseScale(o.scale)
	if err != nil {
		return nil, nil, nil, usagef("-scale must be none, zscore or minmax, not %q", o.scale)
	}
	sets := reproduce.DataSets()
	if o.datasets != "" {
		sets = nil
		for _, name := range strings.Split(o.datasets, ",") {
			name = strings.TrimSpace(name)
			if name == "" || strings.ContainsAny(name, `/\`) {
				return nil, nil, nil, usagef("-datasets: %q is not a data set name", name)
			}
			sets = append(sets, reproduce.Lookup(name))
		}
	}
	ms := reproduce.Methods()
	if o.methods != "" {
		ms = nil
		for _, name := range strings.Split(o.methods, ",") {
			m, err := reproduce.ParseMethod(strings.TrimSpace(name))
			if err != nil {
				return nil, nil, nil, usagef("-methods: %s", strings.TrimPrefix(err.Error(), "reproduce: "))
			}
			ms = append(ms, m)
		}
	}
	for _, g := range o.fsvc {
		if g > 1 {
			return nil, nil, nil, usagef("-fsvc-grid: %g is not in (0, 1]", g)
		}
	}
	skip := map[string]string{}
	for _, pair := range strings.Split(o.skip, ",") {
		pair = strings.TrimSpace(pair)
		if pair == "" {
			continue
		}
		name, method, ok := strings.Cut(pair, "/")
		m, err := reproduce.ParseMethod(method)
		if !ok || name == "" || err != nil {
			return nil, nil, nil, usagef("-skip: %q is not NAME/METHOD", pair)
		}
		skip[name+"/"+string(m)] = skippedByFlag
	}
	p := &reproduce.Protocol{
		Skip:   skip,
		Gammas: o.gammas, Cs: o.cs, Ps: o.fsvc, Epss: o.fsvc,
		Runs: o.runs, Scale: sc,
		GridTimeout: o.gridTimeout, RunsTimeout: o.runsTimeout, RunTimeout: o.svcTimeout,
		Workers: o.workers,
	}
	return p, sets, ms, nil
}

// commandLine returns the command line of c as run: its name and the flags
// set, in the order of their names.
func commandLine(c *Command) string {
	parts := []string{"svclust", c.Name()}
	c.Flag.Visit(func(f *flag.Flag) {
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			parts = append(parts, "-"+f.Name)
			return
		}
		parts = append(parts, "-"+f.Name, f.Value.String())
	})
	return strings.Join(parts, " ")
}

// printReproduce prints the outcome of reproduce on w: the reproduction criterion's NMI
// criterion and where the report went.
func printReproduce(w io.Writer, rep *reproduce.Report, md string) {
	ok, total := 0, 0
	for _, r := range rep.Records {
		total++
		if r.OK() {
			ok++
		}
	}
	fmt.Fprintf(w, "%d of %d (data set, method) pairs ok; report in %s\n", ok, total, md)
	cs := rep.Compare()
	if len(cs) == 0 {
		return
	}
	fmt.Fprintf(w, "best budgeted NMI, paper vs ours (with BSGD-M), data sets of ≤ %d points:\n", reproduce.SmallLimit)
	n3, n4 := 0, 0
	for _, c := range cs {
		if c.Within(c.Ours) {
			n3++
		}
		if c.Within(c.OursM) {
			n4++
		}
		fmt.Fprintf(w, "  %-14s %.2f  %s (%s)\n", c.Dataset, c.Paper, nmiText(c.Ours), nmiText(c.OursM))
	}
	fmt.Fprintf(w, "within %.2f of the paper: %d of %d (%d with BSGD-M)\n", reproduce.Tolerance, n3, len(cs), n4)
	if rep.Extended == nil {
		return
	}
	ecs := rep.Extended.Compare()
	if len(ecs) == 0 {
		return
	}
	n3, n4 = 0, 0
	for _, c := range ecs {
		if c.Within(c.Ours) {
			n3++
		}
		if c.Within(c.OursM) {
			n4++
		}
	}
	fmt.Fprintf(w, "extended grid (not the paper's), C up to %g: within %.2f of the paper: %d of %d (%d with BSGD-M)\n",
		slices.Max(rep.Extended.Protocol.Cs), reproduce.Tolerance, n3, len(ecs), n4)
}

func nmiText(v float64) string {
	if math.IsNaN(v) {
		return "  — "
	}
	return fmt.Sprintf("%.2f", v)
}
