package reproduce

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/baseline"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/metrics"
	"github.com/svclust/svclust/tune"
)

// Defaults of a Protocol, used where its field is zero.
const (
	// DefaultRuns is the paper's number of runs per experiment ("Each
	// experiment is carried out 5 times").
	DefaultRuns = 5
	// DefaultStageP and DefaultStageEps are the FSVC parameters p and ε of
	// the first stage of its search, over γ and C: the middle of the
	// paper's grid {0.1, …, 1}.
	DefaultStageP   = 0.5
	DefaultStageEps = 0.5
)

// Grid returns the paper's grid of γ and of C, {2⁻⁵, 2⁻³, …, 2⁵}
// (Section 5, "Hyperparameter Setting").
func Grid() []float64 { return []float64{0.03125, 0.125, 0.5, 2, 8, 32} }

// FSVCGrid returns the paper's grid of FSVC's p and ε, {0.1, 0.2, …, 1}.
func FSVCGrid() []float64 {
	g := make([]float64, 10)
	for i := range g {
		g[i] = float64(i+1) / 10
	}
	return g
}

// Protocol holds the settings of the experiment. The zero value runs the
// paper's protocol without time limits on unscaled data; the command line
// (svclust reproduce) uses z-scores and time limits of 40 s. Its time
// limits are Timeouts, as baseline's are: in this project a budget is a
// number of support vectors.
type Protocol struct {
	// Gammas and Cs are the grids of γ and C; nil selects Grid.
	Gammas, Cs []float64 `json:",omitempty"`
	// Ps and Epss are the grids of FSVC's p and ε; nil selects FSVCGrid.
	Ps, Epss []float64 `json:",omitempty"`
	// Runs is the number of seeded runs (seeds 1, 2, …) at the chosen
	// setting; 0 selects DefaultRuns.
	Runs int
	// Scale is the feature scaling fitted to each data set as it is
	// loaded. The zero value, dataset.ScaleNone, leaves the features as
	// read.
	Scale dataset.Scale
	// GridTimeout limits the wall time of the grid search of one data set
	// and method (each of FSVC's two stages gets it in full): once it is
	// spent, the grid points not yet started are skipped, and the record
	// says how many were evaluated. A point already running is finished,
	// except that SVC and FSVC get at most the time left as their own
	// limit. 0 means no limit.
	GridTimeout time.Duration
	// RunsTimeout limits the wall time of the seeded runs of one data set
	// and method: the first run always starts, later ones only while it
	// is not spent. 0 means no limit.
	RunsTimeout time.Duration
	// RunTimeout is the time limit of one SVC or FSVC run, training and
	// labelling together; a run that does not finish in it is reported as
	// exceeded (baseline.ErrExceeded). 0 means no limit.
	RunTimeout time.Duration
	// MinIter is svclust.Config.MinIter for SGD, BSGD-PNN, BSGD-PRN and
	// BSGD-M; 0 selects the library's default.
	MinIter int
	// RemovalMinIter is svclust.Config.MinIter for BSGD-R; 0 selects −1,
	// the paper's stopping rule checked from the first step, which the
	// library recommends for removal (it loses weight the longer it
	// trains; see svclust.Config.Maintainer).
	RemovalMinIter int
	// Workers is the number of fits run at a time, grid points and seeded
	// runs alike, each on one goroutine, so that every method is timed on
	// one core. 0 means GOMAXPROCS. Results other than timings do not
	// depend on it, unless a time limit runs out.
	Workers int
	// Skip maps "name/method" (a data set name, a slash and a Method) to
	// the reason not to run that method on that data set: the record gets
	// the status "skipped: reason". nil runs every pair.
	Skip map[string]string `json:",omitempty"`
	// Progress, if not nil, receives progress lines: data set, method,
	// grid point and elapsed time.
	Progress io.Writer `json:"-"`
}

// Setting is one point of the grid search.
type Setting struct {
	Gamma, C float64
	// P and Eps are FSVC's p and ε; 0 for the other methods.
	P, Eps float64
}

// Data is a data set loaded and scaled for the protocol.
type Data struct {
	DataSet
	// X holds the scaled features, one row per point.
	X *mat.Dense
	// Labels holds the ground-truth class of each row.
	Labels []int
	// Classes is the number of distinct classes.
	Classes int
}

// Load reads the data set ds from dir/NAME.csv, which must have a label
// on every row, and applies the scaling sc fitted to it. A missing file gives
// an error that wraps fs.ErrNotExist.
func Load(dir string, ds DataSet, sc dataset.Scale) (*Data, error) {
	path := filepath.Join(dir, ds.Name+".csv")
	d, err := dataset.ReadFile(path, dataset.ReadOptions{RequireLabel: true})
	if err != nil {
		return nil, err
	}
	for i, l := range d.Labels {
		if l < 0 {
			// The protocol's indices and Reach need a class on every row.
			return nil, fmt.Errorf("%s:%d: the label is missing: the protocol needs a label on every row", path, d.Line(i))
		}
	}
	dataset.FitScaler(d.X, sc).Transform(d.X)
	return &Data{DataSet: ds, X: d.X, Labels: d.Labels, Classes: len(d.Classes)}, nil
}

// Run evaluates every method on every data set read from dir, in the given
// orders, and returns one Record per data set and method. A data set whose
// file is missing or unreadable gives records with the status
// "skipped: reason". Run returns the records so far and ctx's error if ctx
// is cancelled.
func (p *Protocol) Run(ctx context.Context, dir string, sets []DataSet, methods []Method) ([]Record, error) {
	var recs []Record
	for _, ds := range sets {
		d, err := Load(dir, ds, p.Scale)
		if err != nil {
			reason := err.Error()
			if errors.Is(err, fs.ErrNotExist) {
				reason = "no file " + filepath.Join(dir, ds.Name+".csv")
			}
			p.progressf("%s: skipped: %s\n", ds.Name, reason)
			for _, m := range methods {
				recs = append(recs, skipped(ds.Name, m, reason))
			}
			continue
		}
		n, dim := d.X.Dims()
		p.progressf("%s: %d points, %d features, %d classes, budget %d\n", ds.Name, n, dim, d.Classes, ds.Budget)
		for _, m := range methods {
			if err := ctx.Err(); err != nil {
				return recs, err
			}
			if reason, ok := p.Skip[ds.Name+"/"+string(m)]; ok {
				p.progressf("%s: %s: skipped: %s\n", ds.Name, m, reason)
				rec := skipped(ds.Name, m, reason)
				rec.N, rec.Dim, rec.Classes = n, dim, d.Classes
				recs = append(recs, rec)
				continue
			}
			recs = append(recs, p.Evaluate(ctx, d, m))
		}
	}
	return recs, ctx.Err()
}

// skipped returns the record of a method not run on a data set.
func skipped(name string, m Method, reason string) Record {
	r := newRecord(name, m)
	r.Status = "skipped: " + reason
	return r
}

// Evaluate runs the protocol for method m on the data d: the grid search
// at seed 1, best setting by NMI (ties to the earlier point, γ-major
// order), then the seeded runs at that setting. The run with seed 1 is the
// grid search's own evaluation of the chosen point, which it would repeat
// exactly. If ctx is cancelled Evaluate stops starting fits, and the
// record's status says so.
func (p *Protocol) Evaluate(ctx context.Context, d *Data, m Method) Record {
	start := time.Now()
	n, dim := d.X.Dims()
	rec := newRecord(d.Name, m)
	rec.N, rec.Dim, rec.Classes = n, dim, d.Classes

	grid := p.grid(m)
	res := p.search(ctx, d, m, grid, "grid", true, start, nil)
	best, bestNMI := pick(res)
	rec.GridTotal, rec.GridEvaluated = len(grid), evaluated(res)
	exceeded := countExceeded(res)
	if m == FSVC && best >= 0 {
		// Second stage: p and ε at the best γ and C of the first.
		g := grid[best]
		stage := p.fsvcStage(g.Gamma, g.C)
		// Every point of the stage labels the SVDD of that best point,
		// which does not depend on p, ε or the seed: train it once.
		sres := p.search(ctx, d, m, stage, "p,ε grid", false, time.Now(), &res[best].outcome)
		if b, v := pick(sres); b >= 0 && v >= bestNMI {
			grid, res, best, bestNMI = stage, sres, b, v
		}
		rec.GridTotal += len(stage)
		rec.GridEvaluated += evaluated(sres)
		exceeded += countExceeded(sres)
	}
	if exceeded > 0 {
		rec.addNote(fmt.Sprintf("%d grid points exceeded their time budget", exceeded))
	}
	if rec.GridEvaluated < rec.GridTotal && ctx.Err() == nil {
		rec.addNote(fmt.Sprintf("grid search stopped by its time budget after %d of %d points", rec.GridEvaluated, rec.GridTotal))
	}
	switch {
	case ctx.Err() != nil:
		rec.Status = "skipped: interrupted"
		return rec
	case best < 0 && (exceeded > 0 || rec.GridEvaluated == 0):
		// Every point evaluated ran out of its time limit, or the grid
		// budget ran out before any point started.
		rec.Status = "exceeded"
		p.progressf("%s: %s: exceeded (%s)\n", d.Name, m, since(start))
		return rec
	case best < 0:
		rec.Status = "error: " + firstError(res)
		p.progressf("%s: %s: %s\n", d.Name, m, rec.Status)
		return rec
	}
	s := grid[best]
	rec.Gamma, rec.C = s.Gamma, s.C
	if m == FSVC {
		rec.P, rec.Eps = s.P, s.Eps
	}
	p.progressf("%s: %s: best γ=%g C=%g%s, NMI %.3f at seed 1 (%d/%d grid points, %s)\n",
		d.Name, m, s.Gamma, s.C, fsvcParams(m, s), bestNMI, rec.GridEvaluated, rec.GridTotal, since(start))

	runs := p.Runs
	if runs == 0 {
		runs = DefaultRuns
	}
	outs := make([]outcome, runs)
	outs[0] = res[best].outcome
	outs[0].done = true
	t := time.Now()
	outs[0].scores = metrics.Evaluate(d.X, d.Labels, outs[0].labels)
	// A run starts only if the runs so far plus one more, at the duration
	// of the chosen point's fit and scoring, fit in the runs time limit.
	est := outs[0].train + outs[0].cluster + time.Since(t)
	runStart := time.Now()
	var mu sync.Mutex
	finished := 1
	p.pool(ctx, runs-1, func() bool {
		return p.RunsTimeout == 0 || time.Since(runStart)+est <= p.RunsTimeout
	}, func(i int) {
		// Each run trains its own SVDD, although SVC's and FSVC's do not
		// depend on the seed, so that its training time is measured.
		o := p.fit(d, m, s, uint64(i+2), p.RunTimeout, nil)
		o.done = true
		if o.err == nil {
			o.scores = metrics.Evaluate(d.X, d.Labels, o.labels)
		}
		o.labels, o.svdd = nil, nil
		mu.Lock()
		outs[i+1] = o
		finished++
		p.progressf("%s: %s: run %d/%d (%s)\n", d.Name, m, finished, runs, since(start))
		mu.Unlock()
	})
	var ok []outcome
	runsExceeded, started := 0, 0
	for i := range outs {
		o := &outs[i]
		if !o.done {
			continue
		}
		started++
		switch {
		case errors.Is(o.err, baseline.ErrExceeded):
			runsExceeded++
		case o.err != nil:
			rec.Status = "error: " + o.err.Error()
			return rec
		default:
			ok = append(ok, *o)
		}
	}
	if runsExceeded > 0 {
		rec.addNote(fmt.Sprintf("%d runs exceeded their time budget", runsExceeded))
	}
	if ctx.Err() != nil {
		rec.Status = "skipped: interrupted"
		return rec
	}
	if started < runs {
		rec.addNote(fmt.Sprintf("runs stopped by their time budget after %d of %d", started, runs))
	}
	if len(ok) == 0 {
		rec.Status = "exceeded"
		return rec
	}
	rec.aggregate(ok)
	rec.Status = "ok"
	p.progressf("%s: %s: ok, NMI %.3f over %d runs (%s)\n", d.Name, m, rec.NMI.Mean, rec.Runs, since(start))
	return rec
}

// pool runs job for i in [0, n) on p's workers with tune.Each: no new
// job starts once ctx is done or more returns false.
func (p *Protocol) pool(ctx context.Context, n int, more func() bool, job func(i int)) {
	tune.Each(ctx, n, p.workers(n), more, job)
}

// fsvcParams formats FSVC's p and ε for a progress line.
func fsvcParams(m Method, s Setting) string {
	if m != FSVC {
		return ""
	}
	return fmt.Sprintf(" p=%g ε=%g", s.P, s.Eps)
}

// since formats the time since start for progress lines.
func since(start time.Time) string {
	return time.Since(start).Round(100 * time.Millisecond).String()
}

// grid returns the settings of the (first) grid search of m, γ-major.
// FSVC's first stage holds p and ε at DefaultStageP and DefaultStageEps.
func (p *Protocol) grid(m Method) []Setting {
	gammas, cs := orDefault(p.Gammas, Grid), orDefault(p.Cs, Grid)
	var g []Setting
	for _, gamma := range gammas {
		for _, c := range cs {
			s := Setting{Gamma: gamma, C: c}
			if m == FSVC {
				s.P, s.Eps = DefaultStageP, DefaultStageEps
			}
			g = append(g, s)
		}
	}
	return g
}

// fsvcStage returns FSVC's second stage: p and ε over their grids at γ
// and C, p from its largest value down, since coarse partitions are the
// cheapest, so that a time limit cuts the expensive end.
func (p *Protocol) fsvcStage(gamma, c float64) []Setting {
	ps, epss := orDefault(p.Ps, FSVCGrid), orDefault(p.Epss, FSVCGrid)
	var g []Setting
	for i := len(ps) - 1; i >= 0; i-- {
		for _, e := range epss {
			g = append(g, Setting{Gamma: gamma, C: c, P: ps[i], Eps: e})
		}
	}
	return g
}

func orDefault(v []float64, def func() []float64) []float64 {
	if len(v) == 0 {
		return def()
	}
	return v
}

// order returns the order in which the n points of a grid are started:
// the first stage in the bit-reversed order of their γ-major index, so
// that the points evaluated before a time limit runs out spread over the
// whole grid instead of covering its first rows; FSVC's second stage in
// its own order (cheapest first). The order does not affect which point is
// chosen.
func order(n int, spread bool) []int {
	idx := make([]int, 0, n)
	if !spread {
		for i := range n {
			idx = append(idx, i)
		}
		return idx
	}
	bits := 0
	for 1<<bits < n {
		bits++
	}
	for k := range 1 << bits {
		r := 0
		for b := range bits {
			if k&(1<<b) != 0 {
				r |= 1 << (bits - 1 - b)
			}
		}
		if r < n {
			idx = append(idx, r)
		}
	}
	return idx
}

// pointResult is the outcome of one grid point.
type pointResult struct {
	outcome
	nmi float64
}

// search evaluates the settings at seed 1, Workers at a time, until the
// grid time limit counted from start is spent, and returns the outcome of each
// setting in its slot. Progress lines call the grid what; spread starts
// the settings in the order that spreads over the grid (see order),
// instead of the grid's own. For SVC and FSVC, settings that differ only in
// C ≥ 1 give the same SVDD (a hard margin; see baseline.SVDDConfig.C) and
// are evaluated once; a non-nil pre holds an SVDD trained for every
// setting of the grid (see fitSVDD).
func (p *Protocol) search(ctx context.Context, d *Data, m Method, grid []Setting, what string, spread bool, start time.Time, pre *outcome) []pointResult {
	res := make([]pointResult, len(grid))
	// alias[i] is the first setting equivalent to setting i.
	alias := make([]int, len(grid))
	var todo []int
	for _, i := range order(len(grid), spread) {
		s := grid[i]
		alias[i] = i
		if m == SVC || m == FSVC {
			for j := range i {
				if equivalentSVDD(grid[j], s) {
					alias[i] = j
					break
				}
			}
		}
		if alias[i] == i {
			todo = append(todo, i)
		}
	}
	var deadline time.Time
	if p.GridTimeout > 0 {
		deadline = start.Add(p.GridTimeout)
	}
	var (
		mu       sync.Mutex
		finished int
		kept     = -1 // the point whose SVDD is kept
		lastLine = time.Now()
	)
	p.pool(ctx, len(todo), func() bool {
		return deadline.IsZero() || time.Now().Before(deadline)
	}, func(k int) {
		i := todo[k]
		timeout := p.RunTimeout
		if !deadline.IsZero() {
			if left := time.Until(deadline); timeout == 0 || left < timeout {
				timeout = max(left, time.Nanosecond)
			}
		}
		r := pointResult{outcome: p.fit(d, m, grid[i], 1, timeout, pre), nmi: math.NaN()}
		r.done = true
		if r.err == nil {
			r.nmi = metrics.NMI(d.Labels, r.labels)
		}
		mu.Lock()
		defer mu.Unlock()
		// Keep the SVDD of the point pick will choose only, so that a
		// search holds one SVDD at a time.
		if r.svdd != nil && r.svdd != pre.svddOrNil() {
			if kept < 0 || r.nmi > res[kept].nmi || (r.nmi == res[kept].nmi && i < kept) {
				if kept >= 0 {
					res[kept].svdd = nil
				}
				kept = i
			} else {
				r.svdd = nil
			}
		}
		res[i] = r
		finished++
		if p.Progress != nil && (finished == len(todo) || time.Since(lastLine) >= progressEvery) {
			lastLine = time.Now()
			fmt.Fprintf(p.Progress, "%s: %s: %s point %d/%d (%s)\n", d.Name, m, what, finished, len(todo), since(start))
		}
	})
	for i, j := range alias {
		res[i] = res[j]
	}
	return res
}

// progressEvery is the least time between two progress lines of a grid
// search.
const progressEvery = 2 * time.Second

// equivalentSVDD reports whether the SVDDs of a and b are the same: same
// γ, and both C ≥ 1, where no coefficient can reach its bound because
// they sum to 1. FSVC's p and ε must match too.
func equivalentSVDD(a, b Setting) bool {
	return a.Gamma == b.Gamma && a.P == b.P && a.Eps == b.Eps && (a.C == b.C || (a.C >= 1 && b.C >= 1))
}

// workers returns the number of goroutines for n jobs.
func (p *Protocol) workers(n int) int {
	w := p.Workers
	if w == 0 {
		w = runtime.GOMAXPROCS(0)
	}
	return max(1, min(w, n))
}

// pick returns the index of the setting of largest NMI, the earliest on
// ties, and its NMI, or −1 when no setting was evaluated successfully.
func pick(res []pointResult) (int, float64) {
	nmi := make([]float64, len(res))
	for i, r := range res {
		nmi[i] = r.nmi
	}
	best := tune.Best(nmi, func(i int) bool { return res[i].done && res[i].err == nil }, nil)
	if best < 0 {
		return -1, math.Inf(-1)
	}
	return best, res[best].nmi
}

func evaluated(res []pointResult) int {
	n := 0
	for _, r := range res {
		if r.done {
			n++
		}
	}
	return n
}

func countExceeded(res []pointResult) int {
	n := 0
	for _, r := range res {
		if r.done && errors.Is(r.err, baseline.ErrExceeded) {
			n++
		}
	}
	return n
}

func firstError(res []pointResult) string {
	for _, r := range res {
		if r.err != nil {
			return r.err.Error()
		}
	}
	return "no grid point was evaluated"
}

// outcome is one fit and labelling.
type outcome struct {
	done           bool // the fit ran, successfully or not
	labels         []int
	svdd           *baseline.SVDD // SVC's and FSVC's, for reuse by the stage
	train, cluster time.Duration
	scores         metrics.Validity
	err            error
}

// fit trains method m on d at setting s with seed and labels the rows, on
// one goroutine. timeout is the time limit of SVC and FSVC (0: none); the
// SGD methods cannot be stopped early. pre, if not nil, holds the SVDD of
// SVC or FSVC already trained at s (see fitSVDD).
func (p *Protocol) fit(d *Data, m Method, s Setting, seed uint64, timeout time.Duration, pre *outcome) outcome {
	const workers = 1
	switch m {
	case SVC, FSVC:
		return fitSVDD(d, m, s, seed, workers, timeout, p.RunTimeout, pre)
	}
	cfg := svclust.Config{Gamma: s.Gamma, C: s.C, Seed: seed, Workers: workers, MinIter: p.MinIter, Budget: svclust.NoBudget}
	if m != SGD {
		name, ok := maintainers[m]
		if !ok {
			return outcome{err: fmt.Errorf("reproduce: unknown method %q", m)}
		}
		mt, err := svclust.ParseMaintainer(name, 0)
		if err != nil {
			return outcome{err: err}
		}
		cfg.Maintainer, cfg.Budget = mt, d.Budget
	}
	if m == BSGDR {
		cfg.MinIter = p.RemovalMinIter
		if cfg.MinIter == 0 {
			cfg.MinIter = -1
		}
	}
	t0 := time.Now()
	model, err := svclust.Train(d.X, &cfg)
	if err != nil {
		return outcome{err: err}
	}
	t1 := time.Now()
	cl, err := cluster.Fit(model, d.X, &cluster.Components{Workers: workers})
	if err != nil {
		return outcome{err: err}
	}
	return outcome{labels: cl.Labels, train: t1.Sub(t0), cluster: time.Since(t1)}
}

// fitSVDD trains the exact SVDD, or takes pre.svdd if pre is not nil, and
// labels it by the complete graph (SVC) or by FSVC, within timeout of wall
// time for both together. A pre-trained SVDD costs no wall time now, but
// its training, pre.train, still counts against runTimeout, the limit of
// one run, and is reported as the run's training time.
func fitSVDD(d *Data, m Method, s Setting, seed uint64, workers int, timeout, runTimeout time.Duration, pre *outcome) outcome {
	x := d.X
	left := time.Duration(0)
	var (
		sv    *baseline.SVDD
		train time.Duration
		err   error
	)
	if pre != nil {
		sv, train = pre.svdd, pre.train
		if timeout > 0 {
			left = timeout
			if runTimeout > 0 {
				left = min(left, runTimeout-train)
			}
		}
	} else {
		t0 := time.Now()
		sv, err = baseline.TrainSVDD(x, &baseline.SVDDConfig{Gamma: s.Gamma, C: s.C, Timeout: timeout, Workers: workers})
		if err != nil {
			return outcome{err: err}
		}
		train = time.Since(t0)
		if timeout > 0 {
			left = timeout - train
		}
	}
	if timeout > 0 && left <= 0 {
		return outcome{err: baseline.ErrExceeded}
	}
	t1 := time.Now()
	var lab *baseline.Labelling
	if m == SVC {
		lab, err = sv.LabelCompleteGraph(x, &baseline.GraphConfig{Timeout: left, Workers: workers})
	} else {
		lab, err = sv.LabelFSVC(x, &baseline.FSVCConfig{P: s.P, Eps: s.Eps, Seed: seed, Timeout: left, Workers: workers})
	}
	if err != nil {
		return outcome{err: err}
	}
	return outcome{labels: lab.Labels, svdd: sv, train: train, cluster: time.Since(t1)}
}

// svddOrNil returns o's SVDD, or nil for a nil o.
func (o *outcome) svddOrNil() *baseline.SVDD {
	if o == nil {
		return nil
	}
	return o.svdd
}

// progressf writes a progress line if p.Progress is set.
func (p *Protocol) progressf(format string, args ...any) {
	if p.Progress != nil {
		fmt.Fprintf(p.Progress, format, args...)
	}
}
