package svclust

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust/auto"
	"github.com/svclust/svclust/internal/rowmajor"
)

// Choose returns the settings Train would use for the rows of x with cfg
// (nil means defaults): the given Gamma, C and Budget, and for each zero
// one chosen from the data by [auto.Choose], which says how. It returns
// the errors of Train for an invalid cfg or data, and a *ConfigError for
// Gamma or C when the data's scale makes the automatic value infinite or
// zero (squared distances beyond the range of float64, as at coordinates
// of 1e160 or 1e-160): such data must be scaled first.
func Choose(x mat.Matrix, cfg *Config) (auto.Choice, error) {
	p, err := Prepare(x, cfg)
	if err != nil {
		return auto.Choice{}, err
	}
	return p.choice, nil
}

// settingsOf returns the settings of c that auto.Choose reads.
func settingsOf(c Config) auto.Settings {
	return auto.Settings{Gamma: c.Gamma, C: c.C, Budget: c.Budget, Seed: c.Seed,
		Width: c.Width, Space: c.Space, Workers: c.Workers}
}

// check reports automatic settings that are not finite and positive, as
// when the data's squared distances overflow or underflow, as a
// *ConfigError for the field.
func check(ch auto.Choice) error {
	const why = "chosen from the data, it is not finite and positive: the data's squared distances overflow or underflow; scale the data or set it"
	if ch.GammaAuto && !(ch.Gamma > 0 && !math.IsInf(ch.Gamma, 0)) {
		return &ConfigError{"Gamma", ch.Gamma, why}
	}
	if ch.CAuto && !(ch.C > 0 && ch.C <= MaxC) {
		return &ConfigError{"C", ch.C, why}
	}
	return nil
}

// Prepared is what [Train] measures on the data before its SGD steps, kept
// so that several trainings on the same data can share it: the settings of
// [Choose] for one Config, the seeded sample they were measured on and the
// subspace of the kernel. A grid search (package tune) chooses once per
// grid point, and a point whose γ and C are both automatic reuses the
// choice the multiples of the grid refer to. A Prepared is read-only once
// made, so it may be used by several goroutines at once.
type Prepared struct {
	choice auto.Choice
	smp    []float64
	sub    *auto.Subspace
	n, d   int
	key    preparedKey
}

// preparedKey holds the fields of a Config that choose reads (Workers
// changes no result).
type preparedKey struct {
	gamma, c float64
	budget   int
	seed     uint64
	width    auto.WidthRule
	space    auto.SpaceRule
}

// keyOf returns the part of c a Prepared must agree with.
func keyOf(c *Config) preparedKey {
	return preparedKey{gamma: c.Gamma, c: c.C, budget: c.Budget, seed: c.Seed, width: c.Width, space: c.Space}
}

// Prepare measures the settings Train would use for the rows of x with
// cfg (nil means defaults), as [Choose] does, and keeps them with their
// sample for [Prepared.Train]. It returns the errors of Choose.
func Prepare(x mat.Matrix, cfg *Config) (*Prepared, error) {
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
	ch, smp, sub := auto.Choose(data, n, d, settingsOf(cfg.withDefaults()))
	if err := check(ch); err != nil {
		return nil, err
	}
	return &Prepared{choice: ch, smp: smp, sub: sub, n: n, d: d, key: keyOf(cfg)}, nil
}

// Choice returns the settings p holds, as Choose returns them.
func (p *Prepared) Choice() auto.Choice { return p.choice }

// Train is [TrainContext] with the choice of p in place of measuring x
// again; for a Prepared made by Prepare the Model is the one TrainContext
// returns (its Stats.Runtime leaves out the choice), for one made by
// [Prepared.Within] it is trained in p's subspace. x must hold the rows p was made from, and cfg
// must agree with the Config p was made with in Gamma, C, Budget, Seed,
// Width and Space (the other fields may differ); otherwise Train returns
// a *ConfigError for the field "Prepared".
func (p *Prepared) Train(ctx context.Context, x mat.Matrix, cfg *Config) (*Model, error) {
	if cfg == nil {
		cfg = &Config{}
	}
	if err := p.fits(x, cfg); err != nil {
		return nil, err
	}
	return trainPrepared(ctx, x, cfg, p)
}

// fits returns the error of Train when x or cfg are not those p was
// made for.
func (p *Prepared) fits(x mat.Matrix, cfg *Config) error {
	if err := p.sameData(x); err != nil {
		return err
	}
	if keyOf(cfg) != p.key {
		return &ConfigError{"Prepared", fmt.Sprintf("%+v", p.key), "made for other settings: Gamma, C, Budget, Seed, Width and Space must be those it was made with"}
	}
	return nil
}

// TrainDeferred is [Prepared.Train] without its last pass over the data,
// the one that computes Stats.Objective (J of the model, which only the
// model file stores): a grid search trains many models and writes one.
// When the objective is certainly finite (so that Train would not fail
// on it) the Model's Stats.Objective is NaN and ObjectiveRows 0, and
// objective, called once, sets both to what Train sets; the Model is
// otherwise Train's, and Stats.Runtime leaves the pass out. Otherwise the
// pass has run, with Train's outcome, and objective is nil.
func (p *Prepared) TrainDeferred(ctx context.Context, x mat.Matrix, cfg *Config) (m *Model, objective func(), err error) {
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
func (p *Prepared) sameData(x mat.Matrix) error {
	if rowmajor.Nil(x) {
		return ErrNoData
	}
	if n, d := x.Dims(); n == 0 || d == 0 {
		return ErrNoData
	} else if n != p.n || d != p.d {
		return &ConfigError{"Prepared", fmt.Sprintf("%d×%d", p.n, p.d), "made for other data: the rows it was made from"}
	}
	return nil
}

// choose returns p's choice, or measures it on data when p is nil.
func (p *Prepared) choose(data []float64, n, d int, c Config) (auto.Choice, []float64, *auto.Subspace) {
	if p == nil {
		return auto.Choose(data, n, d, settingsOf(c))
	}
	return p.choice, p.smp, p.sub
}

// Within returns the choice for cfg made in the subspace of p, so that
// settings given as multiples of p's automatic γ are used on the scale that
// γ was measured on. When p has no Subspace (γ or C given, three features
// or fewer, or data not concentrated) it returns Prepare(x, cfg), and
// when cfg's Gamma and C are both zero it returns the automatic choice
// Prepare makes. Otherwise the settings cfg leaves zero are chosen as
// [Choose] chooses them, on p's projected sample: γ zero is p's γ, the
// budget from a covering of that sample, C from its largest kernel
// density (and rescaled after training); the Choice reports p's subspace
// rule (Projected, Q, …), and [Prepared.Train] trains in p's Subspace, so
// the Model predicts, scores and re-clusters there. [Train] with the same
// cfg chooses in the features instead (the paper's path for a given γ).
// When it chooses in p's subspace, x must hold the rows p was made from,
// and cfg must agree with p's Config in Seed and Space; otherwise Within
// returns a *ConfigError for the field "Prepared" (ErrNoData for no rows).
// It returns the errors of Choose for an invalid cfg.
func (p *Prepared) Within(x mat.Matrix, cfg *Config) (*Prepared, error) {
	if cfg == nil {
		cfg = &Config{}
	}
	if p.sub == nil || cfg.Gamma == 0 && cfg.C == 0 {
		return Prepare(x, cfg)
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := p.sameData(x); err != nil {
		return nil, err
	}
	if cfg.Seed != p.key.seed || cfg.Space != p.key.space {
		return nil, &ConfigError{"Prepared", fmt.Sprintf("%+v", p.key), "made for other settings: Seed and Space must be those it was made with"}
	}
	_, q := p.sub.Dims()
	ch := auto.Within(p.choice, p.smp, q, p.n, settingsOf(cfg.withDefaults()))
	if err := check(ch); err != nil {
		return nil, err
	}
	return &Prepared{choice: ch, smp: p.smp, sub: p.sub, n: p.n, d: p.d, key: keyOf(cfg)}, nil
}
