package svclust

import (
	"context"
	"errors"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust/dataset"
)

// TestChosenTrain: a model trained from a Chosen is the one Train gives,
// for the automatic settings (adaptive widths, and on the t32 kind the
// subspace), for a given γ with the automatic C and budget, and for
// settings all given; other workers change nothing. A Chosen made for other
// settings or other data is refused.
func TestChosenTrain(t *testing.T) {
	moons := generated(t, dataset.Moons, 300).X
	high := highDim(t, 300).X
	for _, tc := range []struct {
		name string
		x    *mat.Dense
		cfg  Config
	}{
		{"moons auto", moons, Config{Seed: 3}},
		{"moons gamma", moons, Config{Seed: 3, Gamma: 20}},
		{"moons given", moons, Config{Seed: 3, Gamma: 20, C: 50, Budget: 40}},
		{"t32 auto", high, Config{Seed: 3}},
	} {
		want, err := Train(tc.x, &tc.cfg)
		if err != nil {
			t.Fatal(err)
		}
		p, err := NewChosen(tc.x, &tc.cfg)
		if err != nil {
			t.Fatal(err)
		}
		if p.Choice() != func() Choice { c, _ := Choose(tc.x, &tc.cfg); return c }() {
			t.Errorf("%s: Choice differs from Choose", tc.name)
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
			t.Errorf("%s: the model from the Chosen differs from Train's", tc.name)
		}
		if tc.name == "t32 auto" && got.Subspace == nil {
			t.Errorf("%s: not projected; the test no longer covers the subspace", tc.name)
		}
		other := tc.cfg
		other.Seed++
		var ce *ConfigError
		if _, err := p.Train(context.Background(), tc.x, &other); !errors.As(err, &ce) || ce.Field != "Chosen" {
			t.Errorf("%s: another seed: got %v, want a ConfigError for Chosen", tc.name, err)
		}
		if _, err := p.Train(context.Background(), tc.x.Slice(0, 200, 0, 2), &cfg); !errors.As(err, &ce) || ce.Field != "Chosen" {
			t.Errorf("%s: other data: got %v, want a ConfigError for Chosen", tc.name, err)
		}
	}
}
