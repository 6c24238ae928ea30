package svclust

import (
	"context"

	"gonum.org/v1/gonum/mat"
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
// again; the Model is the one TrainContext returns (its Stats.Runtime
// leaves out the choice). x must hold the rows p was made from, and cfg
// must agree with the Config p was made with in Gamma, C, Budget, Seed,
// Width and Space (the other fields may differ); otherwise Train returns
// a *ConfigError for the field "Chosen".
func (p *Chosen) Train(ctx context.Context, x mat.Matrix, cfg *Config) (*Model, error) {
	if cfg == nil {
		cfg = &Config{}
	}
	if n, d := x.Dims(); n != p.n || d != p.d {
		return nil, &ConfigError{"Chosen", p.key, "made for other data"}
	}
	if keyOf(cfg) != p.key {
		return nil, &ConfigError{"Chosen", p.key, "made for other settings"}
	}
	return trainChosen(ctx, x, cfg, p)
}

// choose returns p's choice, or measures it on data when p is nil.
func (p *Chosen) choose(data []float64, n, d int, c Config) (Choice, []float64, *Subspace) {
	if p == nil {
		return choose(data, n, d, c)
	}
	return p.choice, p.smp, p.sub
}
