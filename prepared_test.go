package svclust

import (
	"context"
	"errors"
	"math"
	"slices"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust/auto"
	"github.com/svclust/svclust/dataset"
)

// trainAndChoose returns Train's model of x and the Prepared Prepare makes
// for the same settings.
func trainAndChoose(t *testing.T, x *mat.Dense, cfg *Config) (*Model, *Prepared) {
	t.Helper()
	m, err := Train(x, cfg)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Prepare(x, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m, p
}

// chosenCase is a case of the Prepared tests: its data and settings, and
// the objective's rows when a test hook lowers them (0: the default).
type chosenCase struct {
	name string
	x    *mat.Dense
	cfg  Config
	rows int
}

// chosenData returns the data of the Prepared tests: 300 moons, and 300 rows
// of the t32 kind, which the automatic settings project.
func chosenData(t *testing.T) (moons, high *mat.Dense) {
	t.Helper()
	return generated(t, dataset.Moons, 300).X, highDim(t, 300).X
}

// TestChosenTrain: a model trained from a Prepared is the one Train gives,
// for the automatic settings (adaptive widths, and on the t32 kind the
// subspace), for a given γ with the automatic C and budget, and for
// settings all given; other workers change nothing. A Prepared made for other
// settings or other data is refused.
func TestChosenTrain(t *testing.T) {
	moons, high := chosenData(t)
	for _, tc := range []chosenCase{
		{"moons auto", moons, Config{Seed: 3}, 0},
		{"moons gamma", moons, Config{Seed: 3, Gamma: 20}, 0},
		{"moons given", moons, Config{Seed: 3, Gamma: 20, C: 50, Budget: 40}, 0},
		{"t32 auto", high, Config{Seed: 3}, 0},
	} {
		want, p := trainAndChoose(t, tc.x, &tc.cfg)
		if p.Choice() != func() auto.Choice { c, _ := Choose(tc.x, &tc.cfg); return c }() {
			t.Errorf("%s: auto.Choice differs from Choose", tc.name)
		}
		cfg := tc.cfg
		cfg.Workers = 1
		got, err := p.Train(context.Background(), tc.x, &cfg)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(got.SV, want.SV) || !slices.Equal(got.Alpha, want.Alpha) || !slices.Equal(got.Gammas, want.Gammas) ||
			got.Gamma != want.Gamma || got.C != want.C || got.Choice != want.Choice ||
			got.Stats.Objective != want.Stats.Objective || got.Stats.Iterations != want.Stats.Iterations ||
			(got.Subspace == nil) != (want.Subspace == nil) {
			t.Errorf("%s: the model from the Prepared differs from Train's", tc.name)
		}
		if tc.name == "t32 auto" && got.Subspace == nil {
			t.Errorf("%s: not projected; the test no longer covers the subspace", tc.name)
		}
		other := tc.cfg
		other.Seed++
		var ce *ConfigError
		if _, err := p.Train(context.Background(), tc.x, &other); !errors.As(err, &ce) || ce.Field != "Prepared" {
			t.Errorf("%s: another seed: got %v, want a ConfigError for Prepared", tc.name, err)
		}
		if _, err := p.Train(context.Background(), tc.x.Slice(0, 200, 0, 2), &cfg); !errors.As(err, &ce) || ce.Field != "Prepared" {
			t.Errorf("%s: other data: got %v, want a ConfigError for Prepared", tc.name, err)
		}
	}
}

// TestChosenTrainDeferred: TrainDeferred gives Train's model with the
// objective left NaN, and its objective pass sets Stats.Objective and
// ObjectiveRows to Train's (on moons, in the features, and on t32, in the
// subspace, with sampled objective rows when they are fewer than the
// data's). A model whose objective bound is not finite (a C that would
// overflow it) has its objective computed at once, and a Prepared made for
// other settings is refused as Train refuses it.
func TestChosenTrainDeferred(t *testing.T) {
	moons, high := chosenData(t)
	for _, tc := range []chosenCase{
		{"moons auto", moons, Config{Seed: 3}, 0},
		{"moons sampled", moons, Config{Seed: 3, Gamma: 20}, 100},
		{"t32 auto", high, Config{Seed: 3}, 0},
	} {
		ctx := withTestHooks(context.Background(), testHooks{objectiveRows: tc.rows})
		want, err := TrainContext(ctx, tc.x, &tc.cfg)
		if err != nil {
			t.Fatal(err)
		}
		p, err := Prepare(tc.x, &tc.cfg)
		if err != nil {
			t.Fatal(err)
		}
		got, objective, err := p.TrainDeferred(ctx, tc.x, &tc.cfg)
		if err != nil {
			t.Fatal(err)
		}
		if objective == nil || !math.IsNaN(got.Stats.Objective) || got.Stats.ObjectiveRows != 0 {
			t.Fatalf("%s: objective %v over %d rows, pass %v; want NaN, 0 and a pass", tc.name, got.Stats.Objective, got.Stats.ObjectiveRows, objective != nil)
		}
		if !slices.Equal(got.Alpha, want.Alpha) || got.C != want.C {
			t.Errorf("%s: the deferred model differs from Train's", tc.name)
		}
		objective()
		if got.Stats.Objective != want.Stats.Objective || got.Stats.ObjectiveRows != want.Stats.ObjectiveRows {
			t.Errorf("%s: objective %v over %d rows, want Train's %v over %d", tc.name,
				got.Stats.Objective, got.Stats.ObjectiveRows, want.Stats.Objective, want.Stats.ObjectiveRows)
		}
	}
	big := &Model{C: 1e150, Alpha: []float64{1e160}}
	if big.objectiveBounded() {
		t.Errorf("α = 1e160: bound finite, want not (½S² overflows)")
	}
	if !(&Model{C: 1e3, Alpha: []float64{1, 2}}).objectiveBounded() {
		t.Errorf("C = 1000, α = 1, 2: bound not finite")
	}
	if (&Model{C: math.NaN(), Alpha: []float64{1}}).objectiveBounded() {
		t.Errorf("C NaN: bound finite")
	}
	p, err := Prepare(moons, &Config{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var ce *ConfigError
	if _, _, err := p.TrainDeferred(context.Background(), moons, &Config{Seed: 4}); !errors.As(err, &ce) || ce.Field != "Prepared" {
		t.Errorf("another seed: got %v, want a ConfigError for Prepared", err)
	}
}

// TestChosenWithin: on the t32 kind, whose automatic choice is projected,
// a choice Within it for a multiple of the automatic γ trains in the same
// auto.Subspace with that γ, reports the projection, and chooses C and the
// budget in the subspace (the automatic C is rescaled, as the automatic
// point's is); Train with the same γ given keeps the paper's path, in the
// features. On moons (two features, never projected) Within is Prepare.
// A Config with another seed is refused.
func TestChosenWithin(t *testing.T) {
	high := highDim(t, 300).X
	auto, err := Prepare(high, &Config{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	a := auto.Choice()
	if !a.Projected || auto.sub == nil {
		t.Fatal("t32: the automatic choice is not projected; the test no longer covers the subspace")
	}
	for _, f := range []float64{0.25, 2} {
		for _, c := range []float64{0, 7} {
			cfg := Config{Seed: 3, Gamma: f * a.Gamma, C: c}
			w, err := auto.Within(high, &cfg)
			if err != nil {
				t.Fatal(err)
			}
			m, err := w.Train(context.Background(), high, &cfg)
			if err != nil {
				t.Fatal(err)
			}
			name := func() string {
				return "γ " + strconv.FormatFloat(f, 'g', -1, 64) + "x, C " + strconv.FormatFloat(c, 'g', -1, 64)
			}
			if m.Subspace == nil || !slices.Equal(m.Subspace.Mean, auto.sub.Mean) || !mat.Equal(m.Subspace.Basis, auto.sub.Basis) || !m.Choice.Projected || m.Choice.Q != a.Q || m.Choice.Concentration != a.Concentration {
				t.Errorf("%s: the model is not in the automatic choice's subspace (Q %d, want %d)", name(), m.Choice.Q, a.Q)
			}
			if m.Subspace == auto.sub || m.Subspace != nil && &m.Subspace.Mean[0] == &auto.sub.Mean[0] {
				t.Errorf("%s: the model shares the Prepared's auto.Subspace; each Model owns its own", name())
			}
			if _, q := auto.sub.Dims(); m.SV.RawMatrix().Cols != q {
				t.Errorf("%s: support vectors of %d features, want the subspace's %d", name(), m.SV.RawMatrix().Cols, q)
			}
			if m.Gamma != f*a.Gamma || m.Choice.GammaAuto {
				t.Errorf("%s: γ %v (auto %v), want %v given", name(), m.Gamma, m.Choice.GammaAuto, f*a.Gamma)
			}
			if c == 0 && (!m.Choice.CAuto || !(m.Choice.Scale > 0) || m.Choice.KappaMax <= 0) {
				t.Errorf("%s: C not chosen automatically in the subspace: %+v", name(), m.Choice)
			}
			if c != 0 && (m.C != c || m.Choice.CAuto) {
				t.Errorf("%s: C %v, want %v given", name(), m.C, c)
			}
			// The paper's path for a given γ is unchanged: the features.
			if full, err := Train(high, &cfg); err != nil || full.Subspace != nil || full.Choice.Projected {
				t.Errorf("%s: Train with γ given: %v, projected %v; want the features", name(), err, full != nil && full.Choice.Projected)
			}
		}
	}
	var ce *ConfigError
	if _, err := auto.Within(high, &Config{Seed: 4, Gamma: a.Gamma}); !errors.As(err, &ce) || ce.Field != "Prepared" {
		t.Errorf("another seed: got %v, want a ConfigError for Prepared", err)
	}
	moons := generated(t, dataset.Moons, 300).X
	ma, err := Prepare(moons, &Config{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Seed: 3, Gamma: 2 * ma.Choice().Gamma}
	w, err := ma.Within(moons, &cfg)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := Choose(moons, &cfg); w.Choice() != want || w.sub != nil {
		t.Errorf("moons: Within chose %+v, want Choose's %+v", w.Choice(), want)
	}
}

// TestChosenNoData: no rows give ErrNoData from Train and Within, as from
// TrainContext, not a panic (a nil matrix, a typed nil).
func TestChosenNoData(t *testing.T) {
	t.Parallel()
	p, err := Prepare(highDim(t, 300).X, &Config{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if p.sub == nil {
		t.Fatal("t32 not projected: Within's own checks are not reached")
	}
	for _, bad := range []mat.Matrix{nil, (*mat.Dense)(nil)} {
		if _, err := p.Train(context.Background(), bad, &Config{Seed: 3}); !errors.Is(err, ErrNoData) {
			t.Errorf("Train(%T): %v, want ErrNoData", bad, err)
		}
		if _, err := p.Within(bad, &Config{Seed: 3, Gamma: 1}); !errors.Is(err, ErrNoData) {
			t.Errorf("Within(%T): %v, want ErrNoData", bad, err)
		}
	}
}
