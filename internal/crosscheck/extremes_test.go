package crosscheck_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/modelfile"
)

// TestExtremeSettings: a Config at the edge of float64 gives either a
// *ConfigError naming its field before training, or a model with a finite
// objective that clusters and saves as a model file that reads back. C
// beyond MaxC once gave a model whose objective was +Inf, which no model
// file could hold (docs/guarantees.md).
func TestExtremeSettings(t *testing.T) {
	if testing.Short() {
		t.Skip("slow (seconds); go test without -short runs it")
	}
	ds, err := dataset.Generate(dataset.Moons, 300, 1)
	if err != nil {
		t.Fatal(err)
	}
	x := ds.X
	refused := []struct {
		cfg   svclust.Config
		field string
	}{
		{svclust.Config{Gamma: 1, C: 1e200}, "C"},
		{svclust.Config{Gamma: 1, C: 1e300}, "C"},
		{svclust.Config{C: 1e200}, "C"},
		{svclust.Config{Gamma: 1, C: math.Nextafter(svclust.MaxC, math.Inf(1))}, "C"},
		{svclust.Config{Gamma: 1, C: 1e200, Budget: svclust.NoBudget}, "C"},
		{svclust.Config{Gamma: math.Inf(1)}, "Gamma"},
		{svclust.Config{Gamma: math.NaN()}, "Gamma"},
		{svclust.Config{C: math.Inf(1)}, "C"},
		{svclust.Config{C: -1}, "C"},
		{svclust.Config{Budget: -2}, "Budget"},
		{svclust.Config{Tol: math.NaN()}, "Tol"},
		{svclust.Config{MaxIter: -1}, "MaxIter"},
		{svclust.Config{Workers: -1}, "Workers"},
	}
	for _, c := range refused {
		_, err := svclust.Train(x, &c.cfg)
		var ce *svclust.ConfigError
		if !errors.As(err, &ce) || ce.Field != c.field {
			t.Errorf("%+v: error %v, want a *ConfigError of %s", c.cfg, err, c.field)
		}
	}
	accepted := []svclust.Config{
		{Gamma: 1, C: svclust.MaxC},
		{Gamma: 1, C: svclust.MaxC, Budget: svclust.NoBudget, MaxIter: 2000},
		{Gamma: 1, C: svclust.MaxC, Maintainer: svclust.Removal{}},
		{Gamma: 1, C: svclust.MaxC, Maintainer: svclust.Projection{}},
		{Gamma: 1e300, C: 10},
		{Gamma: 1e300},
		{Gamma: 1e-300, C: 10},
		{Gamma: 5e-324, C: 2},
		{Gamma: 1, C: 5e-324},
		{C: 1e-300},
		{Gamma: 1, C: 10, Budget: 1},
		{Gamma: 1, C: 10, Budget: 1 << 40},
		{Gamma: 1, C: 10, Tol: 1e300},
		{Gamma: 1, C: 10, Tol: 5e-324, MaxIter: 20_000},
		{Gamma: 1, C: 10, MinIter: math.MaxInt, MaxIter: 5000},
	}
	for _, cfg := range accepted {
		name := fmt.Sprintf("γ=%g C=%g B=%d", cfg.Gamma, cfg.C, cfg.Budget)
		m, err := svclust.Train(x, &cfg)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if o := m.Stats.Objective; math.IsInf(o, 0) || math.IsNaN(o) {
			t.Errorf("%s: objective %v", name, o)
		}
		// An update with the same extremes gives a model or an error,
		// never a panic, and with forgetting too.
		for _, forget := range []float64{0, 0.5} {
			if u, err := svclust.Update(context.Background(), m, x, &svclust.UpdateConfig{Steps: 500, Forget: forget}); err == nil {
				if err := u.Validate(); err != nil {
					t.Errorf("%s: the updated model (forget %v) is invalid: %v", name, forget, err)
				}
			}
		}
		for _, method := range []cluster.Method{&cluster.Levels{}, &cluster.Components{Eps: 1e300}} {
			res, err := cluster.Fit(m, x, method)
			if err != nil {
				t.Errorf("%s, %v: Fit: %v", name, method.Rule(), err)
				continue
			}
			f := &modelfile.File{Model: m, Partition: res.Partition, Scaler: dataset.FitScaler(x, dataset.ScaleNone)}
			var b bytes.Buffer
			if err := f.Write(&b); err != nil {
				t.Errorf("%s, %v: Write: %v", name, method.Rule(), err)
				continue
			}
			if _, err := modelfile.Read(&b, 0); err != nil {
				t.Errorf("%s, %v: Read: %v", name, method.Rule(), err)
			}
		}
	}
}
