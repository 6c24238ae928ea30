package modelfile

import (
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
)

// TestNotFiniteRows: every method of File that takes rows returns an
// error wrapping svclust.ErrNotFinite for a row holding NaN or ±Inf,
// naming its row and column, before it labels any row or changes x (issue
// 34: Predict and Score returned an *OverflowError, and docs/guarantees.md
// promises ErrNotFinite).
func TestNotFiniteRows(t *testing.T) {
	m, raw := fitted(t, 60)
	methods := map[string]func(x *mat.Dense) error{
		"Predict": func(x *mat.Dense) error { _, err := m.Predict(nil, x, 1); return err },
		"Score":   func(x *mat.Dense) error { _, err := m.Score(nil, x, 1); return err },
		"OutlierScores": func(x *mat.Dense) error {
			_, err := m.OutlierScores(nil, x, 1)
			return err
		},
		"PredictScores": func(x *mat.Dense) error {
			_, _, err := m.PredictScores(nil, nil, x, 1)
			return err
		},
		"ScoreOutliers": func(x *mat.Dense) error {
			_, _, err := m.ScoreOutliers(nil, nil, x, 1)
			return err
		},
		"ScaleRows": func(x *mat.Dense) error { return m.ScaleRows(x) },
	}
	for name, call := range methods {
		if err := call(mat.DenseCopyOf(raw.X)); err != nil {
			t.Fatalf("%s on finite rows: %v", name, err)
		}
		for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
			x := mat.DenseCopyOf(raw.X)
			x.Set(41, 1, v)
			before := mat.DenseCopyOf(x)
			err := call(x)
			var oe *OverflowError
			if !errors.Is(err, svclust.ErrNotFinite) || errors.As(err, &oe) ||
				!strings.Contains(err.Error(), "row 42") || !strings.Contains(err.Error(), `"x2"`) {
				t.Errorf("%s, %v in row 42: %v, want ErrNotFinite naming row 42 and feature x2", name, v, err)
			}
			if !mat.Equal(x, before) && !(math.IsNaN(v) && sameNaN(x, before)) {
				t.Errorf("%s, %v: the rows changed", name, v)
			}
		}
	}
}

// sameNaN reports whether a and b are equal, NaN equal to NaN.
func sameNaN(a, b *mat.Dense) bool {
	return mat.EqualApprox(a, b, 0) || func() bool {
		r, c := a.Dims()
		for i := range r {
			for j := range c {
				u, v := a.At(i, j), b.At(i, j)
				if u != v && !(math.IsNaN(u) && math.IsNaN(v)) {
					return false
				}
			}
		}
		return true
	}()
}

// TestNegativeWorkers: every File method that labels or scores rows
// refuses a negative number of workers with a *svclust.ConfigError, as
// svclust.Config does, rather than taking it for GOMAXPROCS.
func TestNegativeWorkers(t *testing.T) {
	m, raw := fitted(t, 60)
	for name, call := range map[string]func() error{
		"Predict":       func() error { _, err := m.Predict(nil, raw.X, -1); return err },
		"Score":         func() error { _, err := m.Score(nil, raw.X, -1); return err },
		"OutlierScores": func() error { _, err := m.OutlierScores(nil, raw.X, -2); return err },
		"PredictScores": func() error { _, _, err := m.PredictScores(nil, nil, raw.X, -1); return err },
		"ScoreOutliers": func() error { _, _, err := m.ScoreOutliers(nil, nil, raw.X, -1); return err },
	} {
		var ce *svclust.ConfigError
		if err := call(); !errors.As(err, &ce) || ce.Field != "workers" {
			t.Errorf("%s: error %v, want a ConfigError of workers", name, err)
		}
	}
}
