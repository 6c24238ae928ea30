package svclust

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust/auto"
	"github.com/svclust/svclust/internal/kernel"
	"github.com/svclust/svclust/internal/parallel"
	"github.com/svclust/svclust/sample"
)

// Train fits the large-margin one-class SVM of the paper's Section 2 to the
// rows of x by budgeted SGD (Algorithm 2), with the settings of cfg (nil
// means all defaults). It returns an error for an invalid Config
// (*ConfigError), for empty x (ErrNoData) and for NaN or Inf in x
// (ErrNotFinite, wrapped with the row and column).
//
// Step t samples n uniformly (from cfg.Seed). If wₜᵀφ(xₙ) < 1 then
// αₜ = C/t, else 0, and
//
//	w_{t+1} = ((t−1)/t) wₜ + αₜ φ(xₙ).
//
// w is stored as Σᵢ aᵢ φ(svᵢ)/t, so the decay costs nothing and a step costs
// one kernel row over the support set. A sample already in the support set
// adds to its own coefficient. With a budget, when the support set exceeds
// it the Maintainer restores it. After each step ‖w_{t+1} − wₜ‖ is computed
// exactly from ‖wₜ‖², wₜᵀφ(xₙ) and the coefficients the step changed, and
// training stops when it is at most Tol.
func Train(x mat.Matrix, cfg *Config) (*Model, error) {
	return TrainContext(context.Background(), x, cfg)
}

// TrainContext is [Train] that stops when ctx is cancelled: it checks ctx
// every 4,096 SGD steps (as often as it calls Config.Progress) and then
// returns ctx.Err() and no Model. A run that is not cancelled returns what
// Train returns.
func TrainContext(ctx context.Context, x mat.Matrix, cfg *Config) (*Model, error) {
	return trainPrepared(ctx, x, cfg, nil)
}

// trainPrepared is TrainContext with the choice of pre, or with one measured
// on x when pre is nil.
func trainPrepared(ctx context.Context, x mat.Matrix, cfg *Config, pre *Prepared) (*Model, error) {
	m, _, err := trainObjective(ctx, x, cfg, pre, false)
	return m, err
}

// trainObjective is trainPrepared that, when later is set and the model's
// objective is certainly finite (see objectiveBounded), leaves
// Stats.Objective NaN and returns the pass that computes it (and
// Stats.ObjectiveRows) instead of running it; otherwise that pass is nil.
func trainObjective(ctx context.Context, x mat.Matrix, cfg *Config, pre *Prepared, later bool) (*Model, func(), error) {
	start := time.Now()
	if cfg == nil {
		cfg = &Config{}
	}
	if err := cfg.Validate(); err != nil {
		return nil, nil, err
	}
	c := cfg.withDefaults()
	data, n, d, err := flatten(x)
	if err != nil {
		return nil, nil, err
	}
	ch, smp, sub := pre.choose(data, n, d, c)
	if err := check(ch); err != nil {
		return nil, nil, err
	}
	if pre != nil && sub != nil {
		// Each Model owns its Subspace: the Prepared's is shared by every
		// training made from it.
		sub = sub.Clone()
	}
	if sub != nil {
		// Everything below, the objective included, is in the subspace.
		data = sub.ApplyRows(data, n, c.Workers)
		_, d = sub.Dims()
	}
	c.Gamma, c.C, c.Budget = ch.Gamma, ch.C, ch.Budget
	if cfg.MinIter == 0 && ch.GammaAuto && ch.CAuto {
		if s := autoMinIter(n); s != c.MinIter {
			c.MinIter, ch.MinIter = s, s
		}
	}
	// Validate could not check the Maintainer against a budget it had
	// not chosen yet.
	if v, ok := c.Maintainer.(budgetChecker); ok && ch.BudgetAuto {
		if err := v.checkBudget(ch.Budget); err != nil {
			var ce *ConfigError
			if errors.As(err, &ce) {
				ce.Reason += ", the budget chosen from the data"
			}
			return nil, nil, err
		}
	}

	tr := newTrainer(data, n, d, &c)
	tr.step = hooksOf(ctx).step
	if err := tr.run(ctx); err != nil {
		return nil, nil, err
	}

	// The support set is never empty: w₁ = 0, so the first step updates.
	m := &Model{Gamma: c.Gamma, C: c.C, Status: tr.status, Choice: ch, Subspace: sub}
	m.Training = tr.fill(m, n) // what Update continues (update.go)
	m.Stats = Stats{
		Iterations:  tr.t,
		Updates:     tr.updates,
		Maintenance: tr.maint,
	}
	m.widthsAndScale(smp, d, c.Workers)
	od, rows := data, objectiveRows
	if h := hooksOf(ctx); h.objectiveRows > 0 {
		rows = h.objectiveRows
	}
	if n > rows {
		od = sample.Rows(data, n, d, rows, rand.New(rand.NewPCG(c.Seed, c.Seed^0x6a09e667f3bcc909)))
	}
	objective := func() {
		m.Stats.Objective = m.objective(od, d, c.Workers)
		m.Stats.ObjectiveRows = len(od) / d
	}
	if later && m.objectiveBounded() {
		// finite would pass: the bound implies a finite C, coefficients
		// and objective.
		m.Stats.Objective = math.NaN()
		m.Stats.Runtime = time.Since(start)
		return m, objective, nil
	}
	objective()
	// A model that cannot be written is no result: with C ≤ MaxC this does
	// not happen, but an automatic C is rescaled after training.
	if err := m.finite(); err != nil {
		return nil, nil, &ConfigError{"C", m.C, err.Error()}
	}
	m.Stats.Runtime = time.Since(start)
	return m, nil, nil
}

// fill sets m.SV and m.Alpha = a/t from tr's support set and returns its
// Training, having seen rows rows. The support vectors are ordered by data
// index so that the model does not depend on the history of slot reuse;
// vectors a strategy created (index −1, see SupportSet.Add) come first,
// by the step that created them.
func (tr *trainer) fill(m *Model, rows int) *Training {
	s := &tr.s
	order := make([]int, s.Len())
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		return cmp.Or(s.id[a]-s.id[b], s.stamp[a]-s.stamp[b])
	})
	m.SV = mat.NewDense(len(order), tr.d, nil)
	m.Alpha = make([]float64, len(order))
	for k, i := range order {
		m.SV.SetRow(k, s.Vector(i))
		m.Alpha[k] = s.a[i] / float64(tr.t)
	}
	return tr.state(order, rows)
}

// widthsAndScale applies what training does after its steps, from the
// sample smp (d columns): the adaptive widths when m.Choice measured
// them, then the rescaling of an automatic C.
func (m *Model) widthsAndScale(smp []float64, d, w int) {
	if m.Choice.RhoWidth > 0 {
		m.Gammas = m.Choice.Widths(m.svData(), d, smp, w)
	}
	if m.Choice.CAuto {
		m.rescale(smp, d, w)
	}
}

// rescale multiplies m.C and every coefficient by the factor auto.ScaleOf
// finds from f + 1 over the rows of smp, and records it in m.Choice; it
// does nothing when ScaleOf finds none.
func (m *Model) rescale(smp []float64, d, w int) {
	s := len(smp) / d
	g := make([]float64, s)
	parallel.For(s, 64, w, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			g[i] = m.value(smp[i*d:i*d+d]) + 1
		}
	})
	f, ok := auto.ScaleOf(g)
	if !ok {
		return
	}
	for i := range m.Alpha {
		m.Alpha[i] *= f
	}
	m.C *= f
	m.Choice.C, m.Choice.Scale = m.C, f
}

// objectiveBounded reports whether m's objective J is certainly finite
// without computing it: every kernel value is in [0, 1], so with
// S = Σ|αᵢ|, ½‖w‖² ≤ ½S² and the mean hinge loss is at most 1 + S, and
// J ≤ ½S² + C(1 + S). A NaN or infinite C or coefficient makes the bound
// NaN or infinite, so it is false then; the margin of 4 covers rounding.
func (m *Model) objectiveBounded() bool {
	var s float64
	for _, a := range m.Alpha {
		s += math.Abs(a)
	}
	b := 0.5*s*s + math.Abs(m.C)*(1+s)
	return b < math.MaxFloat64/4
}

// trainer is the state of one run of Algorithm 2.
type trainer struct {
	data []float64
	n, d int
	cfg  *Config
	step func(*trainer) // a test's hook after every step (testHooks), or nil
	s    SupportSet
	pos  []int32 // slot of each data index in s, or −1
	// off is the stream index of data row 0: a support vector's id is
	// off + its row (0 for Train; the rows seen before, for Update).
	off int
	src *rand.PCG // the source of s.rng, whose state Update continues

	// ‖u‖² for u = Σ aᵢ φ(svᵢ), so that w_{t+1} = u/t.
	uu float64

	t, updates, maint int
	status            Status

	krow []float64 // kernel values of the current sample with the slots

	// diff2 is ‖w_{t+1} − wₜ‖² of the last step, for the tests.
	diff2 float64
}

func newTrainer(data []float64, n, d int, c *Config) *trainer {
	tr := &trainer{data: data, n: n, d: d, cfg: c, pos: make([]int32, n)}
	for i := range tr.pos {
		tr.pos[i] = -1
	}
	tr.src = rand.NewPCG(c.Seed, c.Seed)
	tr.s = SupportSet{d: d, gamma: c.Gamma, rng: rand.New(tr.src)}
	if c.Budget > 0 {
		// Room for the budget, the sample that overflows it, and one vector
		// a strategy may create before removing others. The support set
		// holds distinct training points and, only once it has exceeded the
		// budget, vectors a strategy created, so a budget of n or more is
		// never reached and acts as one of n: the effective budget is
		// min(Budget, n). The cache grows as the support set does.
		tr.s.limit = min(c.Budget, n) + 2
		tr.s.k = []float64{} // non-nil: the cache is kept; push grows it
	}
	return tr
}

// checkSteps is how often, in SGD steps, training reports progress and
// checks for cancellation.
const checkSteps = 4096

// run runs the SGD steps; it returns ctx.Err() once ctx is cancelled.
func (tr *trainer) run(ctx context.Context) error {
	c := tr.cfg
	s := &tr.s
	tol2 := c.Tol * c.Tol
	tr.status = IterationLimit
	for t := 1; t <= c.MaxIter; t++ {
		tr.t = t
		nt := s.rng.IntN(tr.n)
		// r = uᵀφ(xₙ), so wₜᵀφ(xₙ) = r/(t−1); w₁ = 0.
		xn, r := tr.sample(nt)
		var vu, vv float64 // v = u' − u: vᵀu and ‖v‖²
		if t == 1 || r/float64(t-1) < 1 {
			tr.violate(nt, xn, c.C, c.Budget)
			if len(s.touched) == 1 && len(s.removed) == 0 {
				vu, vv = c.C*r, c.C*c.C
			} else {
				vu, vv = tr.changeTerms()
			}
			tr.compact()
		}
		// w_{t+1} − wₜ = v/t − u/(t(t−1)).
		var diff2 float64
		if t == 1 {
			diff2 = vv
		} else {
			tm := float64(t - 1)
			diff2 = (vv - 2*vu/tm + tr.uu/(tm*tm)) / float64(t) / float64(t)
		}
		tr.uu += 2*vu + vv
		tr.diff2 = diff2
		if tr.step != nil {
			tr.step(tr)
		}
		if c.Tol >= 0 && t >= c.MinIter && diff2 <= tol2 {
			tr.status = Converged
			break
		}
		if t%checkSteps == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			if c.Progress != nil {
				c.Progress(t, c.MaxIter)
			}
		}
	}
	return nil
}

// sample returns data row nt, xₙ, and r = uᵀφ(xₙ) for the support set's
// u = Σ aᵢ φ(svᵢ). With the kernel cache, tr.krow holds xₙ's kernel row
// afterwards, kept for the cache if xₙ enters.
func (tr *trainer) sample(nt int) (xn []float64, r float64) {
	s := &tr.s
	xn = tr.data[nt*tr.d : nt*tr.d+tr.d]
	switch slot := tr.pos[nt]; {
	case s.k != nil && slot >= 0:
		// The sample is a support vector: its kernel row is row slot of
		// the cache, the same values to the bit (see SupportSet.k).
		return xn, kernel.Dot(s.a, s.kernelRow(int(slot)))
	case s.k != nil:
		// r sums the same terms in the same order as Sum.
		if cap(tr.krow) < s.Len() {
			tr.krow = make([]float64, 0, s.cap)
		}
		tr.krow = kernel.RowTo(tr.krow[:s.Len()], xn, s.x, tr.cfg.Gamma)
		return xn, kernel.Dot(s.a, tr.krow)
	}
	return xn, kernel.Sum(xn, s.x, s.a, tr.cfg.Gamma)
}

// add appends data point nt as a new support vector with coefficient 0 and
// returns its slot.
func (tr *trainer) add(nt int, xn []float64) int {
	slot := tr.s.push(xn, tr.off+nt, tr.t, tr.krow, "svclust: support set exceeds its budget") // a Maintainer left too many
	tr.pos[nt] = int32(slot)
	return slot
}

// changeTerms returns vᵀu and ‖v‖² for the change v = Σ δₛ φ(svₛ) made in
// this step, where u is the model at the start of the step.
func (tr *trainer) changeTerms() (vu, vv float64) {
	s := &tr.s
	for k, i := range s.touched {
		di := s.a[i] - s.before[k]
		// gᵢ = uᵀφ(svᵢ) = Σⱼ aⱼ k(svⱼ, svᵢ) − Σ_{touched j} δⱼ k(svⱼ, svᵢ),
		// from row i of the kernel cache (symmetric: it stores both), which
		// nothing here changes.
		var g float64
		ki := s.kernelRow(i)
		for j, aj := range s.a {
			if aj != 0 {
				g += aj * ki[j]
			}
		}
		for l, j := range s.touched {
			dj := s.a[j] - s.before[l]
			kij := ki[j]
			g -= dj * kij
			vv += di * dj * kij
		}
		vu += di * g
	}
	return vu, vv
}

// compact physically removes the support vectors a Maintainer removed.
func (tr *trainer) compact() {
	s := &tr.s
	if len(s.removed) == 0 {
		return
	}
	slices.Sort(s.removed)
	for k := len(s.removed) - 1; k >= 0; k-- {
		r := s.removed[k]
		last := s.Len() - 1
		if s.id[r] >= tr.off {
			tr.pos[s.id[r]-tr.off] = -1
		}
		if r != last {
			copy(s.x[r*s.d:r*s.d+s.d], s.x[last*s.d:last*s.d+s.d])
			s.a[r], s.id[r], s.stamp[r] = s.a[last], s.id[last], s.stamp[last]
			if s.id[r] >= tr.off {
				tr.pos[s.id[r]-tr.off] = int32(r)
			}
			if s.k != nil {
				// The cache is symmetric: row last is column last, read
				// in order; row r is a copy of it.
				rowLast := s.k[last*s.cap : last*s.cap+last]
				copy(s.k[r*s.cap:r*s.cap+last], rowLast)
				for i, v := range rowLast {
					s.k[i*s.cap+r] = v
				}
				s.k[r*s.cap+r] = s.k[last*s.cap+last]
			}
		}
		s.x = s.x[:last*s.d]
		s.a, s.id, s.stamp = s.a[:last], s.id[:last], s.stamp[:last]
	}
	s.removed = s.removed[:0]
}

// objectiveChunk is the fixed chunk size of the data passes; fixed chunks
// make the floating-point sums independent of the number of workers.
const objectiveChunk = 256

// objective returns J(w) = ½‖w‖² + (C/N) Σᵢ max(0, 1 − wᵀφ(xᵢ)) on the n
// rows of data. ‖w‖² = Σᵢⱼ αᵢαⱼ k(svᵢ, svⱼ) is computed exactly; it costs
// no more than the hinge pass because there are at most N support vectors.
// Where the coefficients are positive and the support vectors can be
// indexed with profit (kernel.NewTerms), each kernel expansion sums the
// terms within kernel.CutOff of its largest only, as Score does: wᵀφ(x)
// then moves by less than B·4·10⁻¹⁸ of itself.
func (m *Model) objective(data []float64, d, workers int) float64 {
	n := len(data) / d
	sv := m.svData()
	sum := expansion(kernel.NewTerms(sv, d, m.Alpha, m.Gamma), sv, m.Alpha, m.Gamma)
	hinge := chunkSum(n, workers, func() func(i int) float64 {
		wx := sum()
		return func(i int) float64 { return max(0, 1-wx(data[i*d:i*d+d])) }
	})
	ww := chunkSum(len(m.Alpha), workers, func() func(i int) float64 {
		wx := sum()
		return func(i int) float64 { return m.Alpha[i] * wx(sv[i*d:i*d+d]) }
	})
	return 0.5*ww + m.C/float64(n)*hinge
}

// expansion returns a constructor of evaluators of Σⱼ aⱼ exp(−γ‖x − svⱼ‖²),
// one per goroutine: through t's kept terms when t is not nil, else every
// term (kernel.Sum).
func expansion(t *kernel.Terms, sv, a []float64, gamma float64) func() func(x []float64) float64 {
	if t == nil {
		return func() func(x []float64) float64 {
			return func(x []float64) float64 { return kernel.Sum(x, sv, a, gamma) }
		}
	}
	return func() func(x []float64) float64 {
		s := t.NewScratch()
		return func(x []float64) float64 {
			v, _ := t.Owner(x, s)
			return v
		}
	}
}

// finite returns an error unless C, the objective and every coefficient of
// m are finite.
func (m *Model) finite() error {
	if math.IsInf(m.C, 0) || math.IsNaN(m.C) || math.IsInf(m.Stats.Objective, 0) || math.IsNaN(m.Stats.Objective) {
		return fmt.Errorf("the model's objective (%v) overflows float64: lower C", m.Stats.Objective)
	}
	for i, a := range m.Alpha {
		if math.IsInf(a, 0) || math.IsNaN(a) {
			return fmt.Errorf("coefficient %d of the model (%v) overflows float64: lower C", i, a)
		}
	}
	return nil
}

// testHooks are the seams of this package's tests, carried by the context
// of a training (withTestHooks) rather than by Config, which users fill.
type testHooks struct {
	step          func(*trainer) // called after every SGD step
	objectiveRows int            // when > 0, replaces objectiveRows
}

// testHooksKey is the context key of testHooks.
type testHooksKey struct{}

// withTestHooks returns ctx carrying h.
func withTestHooks(ctx context.Context, h testHooks) context.Context {
	return context.WithValue(ctx, testHooksKey{}, h)
}

// hooksOf returns the testHooks ctx carries, or none.
func hooksOf(ctx context.Context) testHooks {
	if ctx == nil {
		return testHooks{}
	}
	h, _ := ctx.Value(testHooksKey{}).(testHooks)
	return h
}

// objectiveRows is the largest number of rows on which Train computes the
// objective's hinge loss exactly (see Stats.Objective).
const objectiveRows = 10_000

// chunkSum returns Σ_{i<n} term(i), computed on workers goroutines in fixed
// chunks whose partial sums are added in chunk order, so that the result
// does not depend on the number of workers. Each chunk takes its term from
// newTerm, so that it may hold scratch space of its own.
func chunkSum(n, workers int, newTerm func() func(i int) float64) float64 {
	part := make([]float64, parallel.Chunks(n, objectiveChunk))
	parallel.For(n, objectiveChunk, workers, func(c, lo, hi int) {
		term := newTerm()
		var v float64
		for i := lo; i < hi; i++ {
			v += term(i)
		}
		part[c] = v
	})
	var sum float64
	for _, v := range part {
		sum += v
	}
	return sum
}

// autoMinIter is the MinIter of Train for n rows when γ and C are both
// automatic (see Config.MinIter).
func autoMinIter(n int) int {
	return min(MaxAutoMinIter, max(DefaultMinIter, AutoStepsPerRow*n))
}

// violate applies a margin violation of row nt (xn, its row) at step tr.t,
// the step of Algorithm 2 that trainer.run and continueSteps share: it
// adds delta to the row's coefficient, entering the row in the support
// set if it is not there, and with a budget maintains the support set when
// it holds more than limit vectors. The step's changes stay in the support
// set (touched, before, removed) for the caller to read before compact.
func (tr *trainer) violate(nt int, xn []float64, delta float64, limit int) {
	c, s := tr.cfg, &tr.s
	tr.updates++
	s.touched, s.before, s.removed = s.touched[:0], s.before[:0], s.removed[:0]
	slot := int(tr.pos[nt])
	if slot < 0 {
		slot = tr.add(nt, xn)
	}
	s.AddCoef(slot, delta)
	if c.Budget > 0 && s.Len() > limit {
		s.now = tr.t
		c.Maintainer.Maintain(s)
		tr.maint++
	}
}
