package svclust

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/svclust/svclust/auto"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust/sample"
)

// Training is the state of the SGD of Algorithm 2 that trained a [Model],
// which [Update] continues: the model before its post-processing (the
// adaptive widths and the rescaling of an automatic C, see Model.Gammas
// and Choice.Scale) is w = Σᵢ Coef[i]·φ(svᵢ)/Steps, with one entry of
// Coef, ID and Stamp per support vector, in the order of Model.SV. Its
// size is that of the support set, whatever the number of rows seen. It
// is read-only, as the Model is.
type Training struct {
	// Steps is the number of SGD steps t taken so far, by Train and
	// every Update since.
	Steps int
	// Rows is the number of rows the model has seen: those of Train and
	// of every Update since. Row k of the stream (from 0) is the row
	// k − (rows before) of the batch it came in.
	Rows int
	// Batches is the number of Updates applied since Train: 0 for a
	// model Train returned.
	Batches int
	// C is the trade-off of the SGD steps, αₜ = C/t: Choice's C before
	// the rescaling of an automatic C.
	C float64
	// Coef holds the raw coefficients aᵢ.
	Coef []float64
	// ID is the stream row each support vector is (see Rows), or −1 for a
	// vector the budget maintenance created (Merge). A support vector
	// keeps its ID and Stamp across updates, so (ID, Stamp) names it.
	ID []int
	// Stamp is the step at which each support vector entered, which
	// breaks the ties of SupportSet.Smallest and orders created vectors.
	Stamp []int
	// RNG is the state of the generator of the sampling order and the
	// maintenance's random choices (math/rand/v2's PCG, MarshalBinary),
	// seeded by Config.Seed in Train: an update continues it.
	RNG []byte
}

// ErrNoTraining is wrapped by the error of [Update] for a Model without
// its training state (Model.Training nil): one built by hand or read from
// a model file older than version 8. Such a model cannot be updated; fit
// it again on its rows.
var ErrNoTraining = errors.New("svclust: the model has no training state to continue (a model file older than version 8, or a Model built by hand): fit it again")

// Check returns nil if tr is nil or a consistent state for a model of b
// support vectors: one Coef, ID and Stamp each, finite coefficients, ids
// of rows seen, stamps of steps taken, a positive C of at most MaxC and a
// generator's state that reads back. Model.Validate calls it.
func (tr *Training) Check(b int) error {
	if tr == nil {
		return nil
	}
	switch {
	case len(tr.Coef) != b || len(tr.ID) != b || len(tr.Stamp) != b:
		return fmt.Errorf("%d coefficients, %d ids and %d stamps for %d support vectors", len(tr.Coef), len(tr.ID), len(tr.Stamp), b)
	case tr.Steps < 1:
		return fmt.Errorf("steps = %d: must be ≥ 1", tr.Steps)
	case tr.Rows < 1:
		return fmt.Errorf("rows = %d: must be ≥ 1", tr.Rows)
	case tr.Batches < 0:
		return fmt.Errorf("batches = %d: must be ≥ 0", tr.Batches)
	case !(tr.C > 0 && tr.C <= MaxC):
		return fmt.Errorf("C = %v: must be > 0 and at most MaxC", tr.C)
	}
	for i, a := range tr.Coef {
		if math.IsNaN(a) || math.IsInf(a, 0) {
			return fmt.Errorf("Coef[%d] = %v: not finite", i, a)
		}
		if tr.ID[i] < -1 || tr.ID[i] >= tr.Rows {
			return fmt.Errorf("ID[%d] = %d: must be −1 or a row seen, below %d", i, tr.ID[i], tr.Rows)
		}
		if tr.Stamp[i] < 0 || tr.Stamp[i] > tr.Steps {
			return fmt.Errorf("Stamp[%d] = %d: must be a step, 0 to %d", i, tr.Stamp[i], tr.Steps)
		}
	}
	var src rand.PCG
	if err := src.UnmarshalBinary(tr.RNG); err != nil {
		return fmt.Errorf("RNG: %v", err)
	}
	return nil
}

// state returns the Training of tr after its last step, for a model whose
// support vectors are tr's slots in the order order, having seen rows
// rows in all.
func (tr *trainer) state(order []int, rows int) *Training {
	st := &Training{Steps: tr.t, Rows: rows, C: tr.cfg.C,
		Coef: make([]float64, len(order)), ID: make([]int, len(order)), Stamp: make([]int, len(order))}
	for k, i := range order {
		st.Coef[k], st.ID[k], st.Stamp[k] = tr.s.a[i], tr.s.id[i], tr.s.stamp[i]
	}
	st.RNG, _ = tr.src.MarshalBinary() // a PCG always marshals
	return st
}

// UpdateSlack is the factor by which an update lets the support set
// exceed the budget before maintaining it, and the memory an update may
// take above a fit's. With the budget full, each new support vector of
// SGD weighs C/t, far less than the old ones, so that the maintenance
// merges it at once into the nearest old one: a region of the stream
// where the model has no support vector (a cluster that appears or
// moves away) would never gain one. With room for as many new vectors as
// the budget, the rows of such a region enter side by side, and when the
// support set is maintained (during the update once it holds
// UpdateSlack·B vectors, and back to B at its end) they merge with each
// other, into vectors of their region's weight, before they merge with
// old ones. As a step then sums over up to UpdateSlack times a fit's
// support vectors, UpdateSteps divides an update's steps by it.
const UpdateSlack = 2

// ForgetAuto, as UpdateConfig.Forget, selects the forgetting rate
// 1/(AutoForgetBatches·S) for an update of S steps: the weight of what
// an update learnt falls to 1/e after AutoForgetBatches more updates of
// as many steps.
const ForgetAuto = -1

// AutoForgetBatches is the memory of ForgetAuto, in updates: an
// exponential memory of time constant 5 updates has a mean age of 5
// updates, that of the sliding window of 10 batches which issue 38 names
// as the quality ceiling of a model following a drift. The first rule, a
// time constant of the window's whole length (10), was chosen before any
// measurement and lagged on a moving stream; this one was measured after
// that table and confirmed on three streams written before measuring them
// (docs/online.md, "Forgetting").
const AutoForgetBatches = 5

// UpdateConfig holds the settings of [Update]; nil or the zero value
// selects every default. γ, C, the budget, the widths' rule, the subspace
// and the seeded generator are the model's, from its first fit: an update
// changes what the model has learnt, not how it learns.
type UpdateConfig struct {
	// Maintainer restores the budget, as Config.Maintainer; nil means
	// Merge{}. It should be the one the model was trained with (the model
	// does not record it; the model file's run record does).
	Maintainer Maintainer

	// Steps is the number of SGD steps of the update. 0 selects
	// min(MaxAutoMinIter, AutoStepsPerRow·N)/UpdateSlack for N rows
	// (see UpdateSteps): a step of an update sums over a support set of
	// up to UpdateSlack times the budget, so that it costs up to
	// UpdateSlack times a fit's step, and the update of N rows spends on
	// its steps the kernel terms a fit of N rows with the automatic
	// settings spends on its first AutoStepsPerRow·N (see
	// AutoStepsPerRow). It must not be negative. The stopping rule is not checked: with
	// αₜ = C/t the change per step is about ‖w‖/t, below any θ once t is
	// large, so every update runs its steps.
	Steps int

	// Forget is the forgetting rate λ per step: each step decays w by
	// (1 − max(1/t, λ)) instead of (t−1)/t and adds max(1/t, λ)·C·φ(x)
	// on a margin violation, so that the weight of old support vectors
	// decays like (1 − λ)^steps and the model follows a drift. 0, the
	// default, forgets nothing (plain SGD, each row seen weighing alike);
	// ForgetAuto selects 1/(AutoForgetBatches·Steps). It must be 0,
	// ForgetAuto or in (0, 1).
	Forget float64

	// Workers is the number of goroutines of the passes over the rows
	// (widths, rescaling, objective); 0 means GOMAXPROCS. The Model does
	// not depend on it. It must not be negative.
	Workers int

	// Progress, if not nil, is called every 4,096 SGD steps with the
	// steps done and Steps.
	Progress func(done, total int)
}

// Validate reports the first invalid field of c as a *ConfigError, or
// nil.
func (c *UpdateConfig) Validate() error {
	if c.Steps < 0 {
		return &ConfigError{"Steps", c.Steps, "must be ≥ 0 (0 selects the default)"}
	}
	if c.Forget != ForgetAuto && !(c.Forget >= 0 && c.Forget < 1) {
		return &ConfigError{"Forget", c.Forget, "must be in [0, 1), or ForgetAuto (−1)"}
	}
	if c.Workers < 0 {
		return &ConfigError{"Workers", c.Workers, "must be ≥ 0 (0 means GOMAXPROCS)"}
	}
	return nil
}

// UpdateSteps returns the Steps of an update of n rows with Steps 0 (see
// UpdateConfig.Steps).
func UpdateSteps(n int) int {
	return max(1, min(MaxAutoMinIter, AutoStepsPerRow*n)/UpdateSlack)
}

// Update returns the model m updated with the rows of x: Algorithm 2
// continued from m's Training (its support vectors, raw coefficients,
// step count and seeded generator) for UpdateConfig.Steps steps, each
// sampling a row of x uniformly, with m's γ, C and budget; then, as Train
// does after its steps, the adaptive widths of the support vectors and
// the rescaling of an automatic C, measured on a seeded sample of at
// most 2,000 rows of x (the rows just learnt: no earlier row is kept),
// and the objective on at most 10,000 rows of x. m is not modified. The
// rows of x are in m's input space (m's Subspace, when it has one,
// projects them) and scaled as the model's first fit was: a caller that
// z-scored the first fit's rows scales every batch with that same scaler.
//
// The update is deterministic: the same model and rows give the same
// Model, whatever Workers is; Update(Update(m, a), b) is the model of the
// batches a then b. Its Stats describe this update (Iterations its steps),
// its Status is IterationLimit (the steps ran), and its Training counts
// every step and row so far.
//
// Update returns an error wrapping ErrNoTraining for a model without
// Training, one wrapping ErrNotTrained for an invalid model, ErrNoData for
// an empty x, ErrNotFinite for NaN or Inf in x, an error wrapping
// ErrDimension for rows of the wrong width, a *ConfigError for an invalid
// cfg, and ctx.Err() when ctx is cancelled (checked every 4,096 steps).
// Clustering the updated model is package cluster's: cluster.FitUpdate
// on the updated model and x, the rows just learnt, with the model's
// support vectors.
func Update(ctx context.Context, m *Model, x mat.Matrix, cfg *UpdateConfig) (*Model, error) {
	start := time.Now()
	if ctx == nil {
		ctx = context.Background()
	}
	if cfg == nil {
		cfg = &UpdateConfig{}
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if m.Training == nil {
		return nil, ErrNoTraining
	}
	data, n, d, err := flatten(x)
	if err != nil {
		return nil, err
	}
	if d != m.Dim() {
		return nil, DimensionError(d, m.Dim())
	}
	old := m.Training
	budget := m.Choice.Budget
	c := Config{Gamma: m.Gamma, C: old.C, Budget: budget, Maintainer: cfg.Maintainer, Workers: cfg.Workers, Progress: cfg.Progress}
	if v, ok := c.Maintainer.(budgetChecker); ok {
		if err := v.checkBudget(budget); err != nil {
			return nil, err
		}
	}
	c = c.withDefaults()
	if m.Subspace != nil {
		data = m.Subspace.ApplyRows(data, n, c.Workers)
		_, d = m.Subspace.Dims()
	}
	steps := cfg.Steps
	if steps == 0 {
		steps = UpdateSteps(n)
	}
	lambda := cfg.Forget
	if lambda == ForgetAuto {
		lambda = 1 / (AutoForgetBatches * float64(steps))
	}
	if old.Rows > math.MaxInt-n || old.Steps > math.MaxInt-steps {
		return nil, &ConfigError{"Steps", steps, "the model's count of rows or steps would overflow"}
	}

	tr := newTrainer(data, n, d, &c)
	if err := tr.src.UnmarshalBinary(old.RNG); err != nil {
		return nil, fmt.Errorf("%w: Training.RNG: %v", ErrNotTrained, err)
	}
	tr.off, tr.t = old.Rows, old.Steps
	sv := m.svData()
	hold := c.Budget
	if c.Budget > 0 {
		// During an update the support set may hold UpdateSlack times the
		// budget (at most the rows seen), then it is maintained back to
		// the budget; plus room for the vector that overflows it and one
		// a strategy creates, as in newTrainer.
		hold = max(min(UpdateSlack*c.Budget, old.Rows+n), len(old.Coef))
		tr.s.limit = hold + 2
		// An update fills its slack within its first steps: the kernel
		// cache is made at once at the most slots the update can use (its
		// limit, or the old vectors and one a step when that is fewer, so
		// a large budget costs no more than its steps can fill), not grown
		// by doubling from the old vectors up (the bytes allocated and
		// copied, and the garbage collections they caused, were half the
		// update's CPU; BENCHMARKS.md, "Issue 38").
		if tr.s.k != nil {
			tr.s.grow(min(tr.s.limit, len(old.Coef)+steps+2))
		}
	}
	for i, a := range old.Coef {
		slot := tr.s.push(sv[i*d:i*d+d], old.ID[i], old.Stamp[i], nil, "svclust: Update: support set beyond its budget")
		tr.s.a[slot] = a
	}
	fac, err := tr.continueSteps(ctx, steps, lambda, hold)
	if err != nil {
		return nil, err
	}
	for c.Budget > 0 && tr.s.Len() > c.Budget {
		s := &tr.s
		s.touched, s.before, s.removed = s.touched[:0], s.before[:0], s.removed[:0]
		s.now = tr.t
		c.Maintainer.Maintain(s)
		tr.maint++
		if len(s.removed) == 0 {
			return nil, fmt.Errorf("svclust: Update: the budget maintenance %T removed no support vector", c.Maintainer)
		}
		tr.compact()
	}

	if fac > 0 {
		// Fold the forgetting's factor back into w = Σ aᵢφ(svᵢ)/t.
		for i, a := range tr.s.a {
			tr.s.a[i] = a * fac * float64(tr.t)
		}
	}
	out := &Model{Gamma: m.Gamma, C: old.C, Status: IterationLimit, Choice: m.Choice}
	if m.Subspace != nil {
		out.Subspace = m.Subspace.Clone()
	}
	out.Training = tr.fill(out, old.Rows+n)
	out.Training.Batches = old.Batches + 1
	out.Stats = Stats{Iterations: steps, Updates: tr.updates, Maintenance: tr.maint}

	// The sample of the widths and the rescaling: the rows of this batch,
	// drawn by a generator seeded from the training's.
	seed := tr.s.rng.Uint64()
	smp := data
	if n > auto.SampleRows {
		smp = sample.Rows(data, n, d, auto.SampleRows, rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)))
	}
	out.Choice.Adaptive, out.Choice.Narrowed, out.Choice.WidthMin, out.Choice.WidthMedian = false, 0, 0, 0
	if out.Choice.CAuto {
		// As Train leaves them when the rescaling does not apply.
		out.Choice.C, out.Choice.Scale = old.C, 0
	}
	out.widthsAndScale(smp, d, c.Workers)
	od := data
	if n > objectiveRows {
		od = sample.Rows(data, n, d, objectiveRows, rand.New(rand.NewPCG(seed, seed^0x6a09e667f3bcc909)))
	}
	out.Stats.Objective = out.objective(od, d, c.Workers)
	out.Stats.ObjectiveRows = len(od) / d
	if err := out.finite(); err != nil {
		return nil, &ConfigError{"C", out.C, err.Error()}
	}
	out.Stats.Runtime = time.Since(start)
	return out, nil
}

// continueSteps runs steps more SGD steps of Algorithm 2 from the state of
// tr (its support set, step count tr.t and generator), maintaining the
// support set when it exceeds hold vectors, with the forgetting rate
// lambda: each step decays w by 1 − η for η = max(1/t, λ) and adds
// η·C·φ(xₙ) on a margin violation. With λ = 0 this is trainer.run's step
// exactly (w = u/t, the decay free), without its stopping rule. Once λ
// exceeds 1/t the decay is kept as an explicit factor, w = fac·u, folded
// into the coefficients whenever it falls below 10⁻¹⁰⁰; it returns that
// factor at the end (0 while w = u/t).
func (tr *trainer) continueSteps(ctx context.Context, steps int, lambda float64, hold int) (float64, error) {
	c := tr.cfg
	s := &tr.s
	t0 := tr.t
	var fac float64 // w = fac·u once forgetting has started, else 0
	for k := 1; k <= steps; k++ {
		t := t0 + k
		tr.t = t
		nt := s.rng.IntN(tr.n)
		// r = uᵀφ(xₙ), as trainer.run computes it.
		xn, r := tr.sample(nt)
		eta := 1 / float64(t)
		if fac == 0 && lambda > eta {
			fac = 1 / float64(t-1) // w = u/(t−1) before this step
		}
		var wx, delta float64
		if fac == 0 {
			wx, delta = r/float64(t-1), c.C
		} else {
			eta = max(eta, lambda)
			wx = r * fac
			fac *= 1 - eta
			delta = eta * c.C / fac
		}
		if wx < 1 {
			tr.violate(nt, xn, delta, hold)
			tr.compact()
		}
		if fac != 0 && fac < 1e-100 {
			for i := range s.a {
				s.a[i] *= fac
			}
			fac = 1
		}
		if k%checkSteps == 0 {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
			if c.Progress != nil {
				c.Progress(k, steps)
			}
		}
	}
	return fac, nil
}
