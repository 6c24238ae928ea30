package svclust

import (
	"math"

	"github.com/svclust/svclust/auto"
	"github.com/svclust/svclust/internal/parallel"
)

// Defaults used where a [Config] field is zero.
const (
	// DefaultTol is the paper's stopping threshold θ = 0.01 (Section 5,
	// "Hyperparameter Setting").
	DefaultTol = 0.01
	// DefaultMaxIter caps the number of SGD steps when Config.MaxIter is 0.
	// The paper's stopping rule usually ends training long before: with
	// ηₜ = 1/t, ‖w_{t+1} − w_t‖ shrinks like ‖w‖/t.
	DefaultMaxIter = 1_000_000
	// DefaultMinIter is the number of SGD steps before the stopping rule is
	// first checked, when Config.MinIter is 0. The paper's rule alone stops
	// after a few hundred steps for θ = 0.01, too few samples for the
	// budgeted domain to follow thin shapes; 10,000 steps cost 10,000·B
	// kernel evaluations whatever N is. Measured in docs/defaults.md,
	// "DefaultMinIter".
	DefaultMinIter = 10_000
	// AutoStepsPerRow and MaxAutoMinIter set the steps before the stopping
	// rule is first checked when Config.MinIter is 0 and γ and C are both
	// automatic: min(MaxAutoMinIter, max(DefaultMinIter, AutoStepsPerRow·N)).
	// f + 1 is then C times a kernel density estimate from the samples
	// drawn, whose ripples along large thin clusters shrink as the samples
	// grow (docs/defaults.md, "AutoStepsPerRow and MaxAutoMinIter"). Sets
	// of at most 2,500 rows keep DefaultMinIter, and the cap bounds the
	// cost of training at 12,000 steps of B kernel terms whatever N is, so
	// that fit stays within 1.5 times score on a million rows.
	AutoStepsPerRow = 4
	MaxAutoMinIter  = 12_000
	// DefaultK is the number of support vectors a Projection projects onto
	// when its K is 0: the paper's k = 5.
	DefaultK = 5
	// MaxC is the largest C that Config accepts. The coefficients of a
	// model sum to at most C (each step adds C/t and decays the others by
	// (t−1)/t, and k ≤ 1), so ‖w‖² ≤ C² and the objective J, about C²/2 at
	// most, stays finite below C ≈ 1.3·10¹⁵⁴; beyond it Train returned a
	// model whose objective was +Inf and that no model file could hold.
	// 10¹⁵⁰ leaves a factor 10⁸ of headroom for the hinge term and the
	// rescaling of an automatic C, and matches dataset.MaxScaled, the
	// bound of a scaled value. It is a bound of float64, not a setting
	// any data needs: C ≤ 1 already leaves the domain empty.
	MaxC = 1e150
)

// NoBudget as Config.Budget trains without a budget: the paper's
// unbudgeted SGD-LMOC baseline, whose model grows with the data.
const NoBudget = -1

// Config holds the settings of [Train]. The zero value is usable: every zero
// field selects the documented default.
type Config struct {
	// Gamma is the kernel width γ in exp(−γ‖x − y‖²). It must be > 0 and
	// finite; 0 selects it from the data (see [Choose]).
	Gamma float64

	// C is the trade-off parameter of the objective J. It must be > 0 and
	// at most MaxC; 0 selects it from the data (see [Choose]). With C ≤ 1 the
	// domain f ≥ 0 is empty and every point is an outlier.
	C float64

	// Budget is the largest number of support vectors kept (the paper's B).
	// 0 selects it from the data (see [Choose]); NoBudget (−1) means no
	// budget: the paper's unbudgeted SGD-LMOC baseline, whose model grows
	// with the data. It must be ≥ −1. A budget of n or more for n rows is
	// never reached and gives the model of budget n; the cache of distances
	// between support vectors, 8·s² bytes for s of them, grows with the
	// support set rather than being allocated for the budget.
	Budget int

	// Maintainer restores the budget when the support set exceeds it; nil
	// means Merge{}, BSGD-M (beyond the paper, whose figures use removal
	// and whose tables use projection), which keeps the most weight
	// (lowest J) and clustered the generated sets more reliably than
	// Projection{}, at about three times the training time. Removal{}
	// discards weight at every maintenance, so the domain shrinks the longer
	// training runs; it suits the paper's early stop (MinIter < 0). It is
	// not used when Budget is 0. Measured in docs/method.md, "What we
	// measured about the paper's method".
	Maintainer Maintainer

	// Tol is the stopping threshold θ: training stops at the first step with
	// ‖w_{t+1} − w_t‖ ≤ Tol. 0 selects DefaultTol; a negative value disables
	// the rule, so training runs MaxIter steps. NaN is an error.
	Tol float64

	// MaxIter caps the number of SGD steps. 0 selects DefaultMaxIter; it must
	// not be negative.
	MaxIter int

	// MinIter is the number of steps before the stopping rule is checked.
	// 0 selects DefaultMinIter, or, when γ and C are both automatic,
	// min(MaxAutoMinIter, max(DefaultMinIter, AutoStepsPerRow·N)) for N
	// rows (auto.Decision.MinIter); a negative value checks it from the first
	// step, which is the paper's Algorithm 2 exactly.
	MinIter int

	// Seed seeds every random choice of training: the sampling order, the
	// random support vectors of Projection{Pick: Random} and the sample used
	// by Choose. The same Seed gives the same Model.
	Seed uint64

	// Workers is the number of goroutines used for the passes over the data
	// (objective, scores, cluster assignment). 0 means GOMAXPROCS. Results
	// do not depend on it. It must not be negative.
	Workers int

	// Width says whether a model whose γ and C are both chosen from the
	// data gives each support vector a kernel width of its own:
	// [auto.AdaptiveWidth] (the zero value) or [auto.GlobalWidth] (see
	// auto.Report.RhoWidth). A given Gamma or C always means one width.
	Width auto.WidthRule

	// Space says whether a model whose γ and C are both chosen from the
	// data may train its kernel in a subspace of the features:
	// [auto.AutoSpace] (the zero value) projects data of at least four
	// features whose distances concentrate (see auto.Report.Concentration
	// and Model.Subspace); [auto.InputSpace] never does. A given Gamma or C always
	// means the features themselves. The rule assumes features of
	// comparable scale, as z-scoring gives.
	Space auto.SpaceRule

	// Progress, if not nil, is called every 4,096 SGD steps with the steps
	// done and MaxIter (training may stop before, when it converges). It
	// is called on the goroutine of Train, must return quickly, and does
	// not change the Model.
	Progress func(done, total int)
}

func positiveOrZero(field string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return &ConfigError{field, v, "must be > 0 and finite (0 selects the default)"}
	}
	return nil
}

// Validate reports the first invalid field of c as a *ConfigError, or nil.
func (c *Config) Validate() error {
	if err := positiveOrZero("Gamma", c.Gamma); err != nil {
		return err
	}
	if err := positiveOrZero("C", c.C); err != nil {
		return err
	}
	if c.C > MaxC {
		return &ConfigError{"C", c.C, "must be ≤ MaxC = 1e150: the objective, about C²/2, overflows float64 beyond 1.3e154"}
	}
	if c.Budget < NoBudget {
		return &ConfigError{"Budget", c.Budget, "must be ≥ 0, or NoBudget = −1 (0 selects it from the data)"}
	}
	if math.IsNaN(c.Tol) {
		return &ConfigError{"Tol", c.Tol, "must be a number"}
	}
	if c.MaxIter < 0 {
		return &ConfigError{"MaxIter", c.MaxIter, "must be ≥ 0 (0 selects the default)"}
	}
	if c.Workers < 0 {
		return &ConfigError{"Workers", c.Workers, "must be ≥ 0 (0 means GOMAXPROCS)"}
	}
	if c.Width != auto.AdaptiveWidth && c.Width != auto.GlobalWidth {
		return &ConfigError{"Width", c.Width, "must be auto.AdaptiveWidth or auto.GlobalWidth"}
	}
	if c.Space != auto.AutoSpace && c.Space != auto.InputSpace {
		return &ConfigError{"Space", c.Space, "must be auto.AutoSpace or auto.InputSpace"}
	}
	if v, ok := c.Maintainer.(budgetChecker); ok {
		return v.checkBudget(c.Budget)
	}
	return nil
}

// budgetChecker is implemented by the Maintainers whose settings must
// agree with the budget; Config.Validate calls it.
type budgetChecker interface {
	checkBudget(budget int) error
}

// withDefaults returns a copy of c with every zero field replaced by its
// default, except Gamma and C, which need the data.
func (c Config) withDefaults() Config {
	if c.Maintainer == nil {
		c.Maintainer = Merge{}
	}
	if c.Tol == 0 {
		c.Tol = DefaultTol
	}
	if c.MaxIter == 0 {
		c.MaxIter = DefaultMaxIter
	}
	if c.MinIter == 0 {
		c.MinIter = DefaultMinIter
	}
	c.Workers = parallel.Workers(c.Workers)
	return c
}
