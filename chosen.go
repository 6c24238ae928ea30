package svclust

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust/internal/rowmajor"
)

// Chosen is what [Train] measures on the data before its SGD steps, kept
// so that several trainings on the same data can share it: the settings of
// [Choose] for one Config, the seeded sample they were measured on and the
// subspace of the kernel. A grid search (package tune) chooses once per
// grid point, and a point whose γ and C are both automatic reuses the
// choice the multiples of the grid refer to. A Chosen is read-only once
// made, so it may be used by several goroutines at once.
type Chosen struct {
	choice Choice
	smp    []float64
	sub    *Subspace
	n, d   int
	key    chosenKey
}

// chosenKey holds the fields of a Config that choose reads (Workers
// changes no result).
type chosenKey struct {
	gamma, c float64
	budget   int
	seed     uint64
	width    WidthRule
	space    SpaceRule
}

// keyOf returns the part of c a Chosen must agree with.
func keyOf(c *Config) chosenKey {
	return chosenKey{gamma: c.Gamma, c: c.C, budget: c.Budget, seed: c.Seed, width: c.Width, space: c.Space}
}

// NewChosen measures the settings Train would use for the rows of x with
// cfg (nil means defaults), as [Choose] does, and keeps them with their
// sample for [Chosen.Train]. It returns the errors of Choose.
func NewChosen(x mat.Matrix, cfg *Config) (*Chosen, error) {
	if cfg == nil {
		cfg = &Config{}
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	data, n, d, err := flatten(x)
	if err != nil {
		return nil, err
	}
	ch, smp, sub := choose(data, n, d, cfg.withDefaults())
	if err := ch.check(); err != nil {
		return nil, err
	}
	return &Chosen{choice: ch, smp: smp, sub: sub, n: n, d: d, key: keyOf(cfg)}, nil
}

// Choice returns the settings p holds, as Choose returns them.
func (p *Chosen) Choice() Choice { return p.choice }

// Train is [TrainContext] with the choice of p in place of measuring x
// again; for a Chosen made by NewChosen the Model is the one TrainContext
// returns (its Stats.Runtime leaves out the choice), for one made by
// [Chosen.Within] it is trained in p's subspace. x must hold the rows p was made from, and cfg
// must agree with the Config p was made with in Gamma, C, Budget, Seed,
// Width and Space (the other fields may differ); otherwise Train returns
// a *ConfigError for the field "Chosen".
func (p *Chosen) Train(ctx context.Context, x mat.Matrix, cfg *Config) (*Model, error) {
	if cfg == nil {
		cfg = &Config{}
	}
	if err := p.fits(x, cfg); err != nil {
		return nil, err
	}
	return trainChosen(ctx, x, cfg, p)
}

// fits returns the error of Train when x or cfg are not those p was
// made for.
func (p *Chosen) fits(x mat.Matrix, cfg *Config) error {
	if err := p.sameData(x); err != nil {
		return err
	}
	if keyOf(cfg) != p.key {
		return &ConfigError{"Chosen", fmt.Sprintf("%+v", p.key), "made for other settings: Gamma, C, Budget, Seed, Width and Space must be those it was made with"}
	}
	return nil
}

// TrainDeferred is [Chosen.Train] without its last pass over the data,
// the one that computes Stats.Objective (J of the model, which only the
// model file stores): a grid search trains many models and writes one.
// When the objective is certainly finite (so that Train would not fail
// on it) the Model's Stats.Objective is NaN and ObjectiveRows 0, and
// objective, called once, sets both to what Train sets; the Model is
// otherwise Train's, and Stats.Runtime leaves the pass out. Otherwise the
// pass has run, with Train's outcome, and objective is nil.
func (p *Chosen) TrainDeferred(ctx context.Context, x mat.Matrix, cfg *Config) (m *Model, objective func(), err error) {
	if cfg == nil {
		cfg = &Config{}
	}
	if err := p.fits(x, cfg); err != nil {
		return nil, nil, err
	}
	return trainObjective(ctx, x, cfg, p, true)
}

// sameData returns ErrNoData when x is nil or empty (a typed nil
// included) and a *ConfigError when its dimensions are not those of the
// rows p was made from.
func (p *Chosen) sameData(x mat.Matrix) error {
	if rowmajor.Nil(x) {
		return ErrNoData
	}
	if n, d := x.Dims(); n == 0 || d == 0 {
		return ErrNoData
	} else if n != p.n || d != p.d {
		return &ConfigError{"Chosen", fmt.Sprintf("%d×%d", p.n, p.d), "made for other data: the rows it was made from"}
	}
	return nil
}

// choose returns p's choice, or measures it on data when p is nil.
func (p *Chosen) choose(data []float64, n, d int, c Config) (Choice, []float64, *Subspace) {
	if p == nil {
		return choose(data, n, d, c)
	}
	return p.choice, p.smp, p.sub
}

// Within returns the choice for cfg made in the subspace of p, so that
// settings given as multiples of p's automatic γ are used on the scale that
// γ was measured on. When p has no Subspace (γ or C given, three features
// or fewer, or data not concentrated) it returns NewChosen(x, cfg), and
// when cfg's Gamma and C are both zero it returns the automatic choice
// NewChosen makes. Otherwise the settings cfg leaves zero are chosen as
// [Choose] chooses them, on p's projected sample: γ zero is p's γ, the
// budget from a covering of that sample, C from its largest kernel
// density (and rescaled after training); the Choice reports p's subspace
// rule (Projected, Q, …), and [Chosen.Train] trains in p's Subspace, so
// the Model predicts, scores and re-clusters there. [Train] with the same
// cfg chooses in the features instead (the paper's path for a given γ).
// When it chooses in p's subspace, x must hold the rows p was made from,
// and cfg must agree with p's Config in Seed and Space; otherwise Within
// returns a *ConfigError for the field "Chosen" (ErrNoData for no rows).
// It returns the errors of Choose for an invalid cfg.
func (p *Chosen) Within(x mat.Matrix, cfg *Config) (*Chosen, error) {
	if cfg == nil {
		cfg = &Config{}
	}
	if p.sub == nil || cfg.Gamma == 0 && cfg.C == 0 {
		return NewChosen(x, cfg)
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := p.sameData(x); err != nil {
		return nil, err
	}
	if cfg.Seed != p.key.seed || cfg.Space != p.key.space {
		return nil, &ConfigError{"Chosen", fmt.Sprintf("%+v", p.key), "made for other settings: Seed and Space must be those it was made with"}
	}
	c := cfg.withDefaults()
	a := p.choice
	ch := Choice{Gamma: c.Gamma, C: c.C, Budget: c.Budget,
		GammaAuto: c.Gamma == 0, CAuto: c.C == 0, BudgetAuto: c.Budget == 0,
		Sample: a.Sample, IntrinsicDim: a.IntrinsicDim,
		Concentration: a.Concentration, ConcentrationMax: a.ConcentrationMax, ConcentrationScaled: a.ConcentrationScaled,
		Projected: a.Projected, Q: a.Q, Edge: a.Edge, EigenKept: a.EigenKept, EigenNext: a.EigenNext}
	if ch.GammaAuto {
		ch.Gamma, ch.Rho, ch.Silverman = a.Gamma, a.Rho, a.Silverman
	}
	_, q := p.sub.Dims()
	ch.budgetAndC(p.smp, a.Sample, q, p.n, c.Workers)
	if err := ch.check(); err != nil {
		return nil, err
	}
	return &Chosen{choice: ch, smp: p.smp, sub: p.sub, n: p.n, d: p.d, key: keyOf(cfg)}, nil
}
