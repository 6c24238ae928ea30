package figure

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/dataset"
)

// TestPCA: on data spread 10, 3 and 0.5 along three orthogonal directions
// of R⁴ (standard deviations, so variances 100, 9, 0.25), NewPCA finds the
// first two directions, in that order, with their shares of the variance.
func TestPCA(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	u := []float64{0.5, 0.5, 0.5, 0.5}
	v := []float64{0.5, -0.5, 0.5, -0.5}
	w := []float64{0.5, 0.5, -0.5, -0.5}
	n := 20000
	x := mat.NewDense(n, 4, nil)
	for i := range n {
		a, b, c := 10*r.NormFloat64(), 3*r.NormFloat64(), 0.5*r.NormFloat64()
		for j := range 4 {
			x.Set(i, j, 7+a*u[j]+b*v[j]+c*w[j])
		}
	}
	p, err := NewPCA(x)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range [][]float64{u, v} {
		dot := 0.0
		for j := range 4 {
			dot += p.Axes.At(j, k) * want[j]
		}
		if math.Abs(math.Abs(dot)-1) > 1e-3 {
			t.Errorf("axis %d: |cos| with the true direction %.5f, want 1", k+1, math.Abs(dot))
		}
	}
	total := 100 + 9 + 0.25
	for k, want := range []float64{100 / total, 9 / total} {
		if math.Abs(p.Share[k]-want) > 0.01 {
			t.Errorf("share %d: %.4f, want %.4f", k+1, p.Share[k], want)
		}
	}
	// Projected, the columns have the variances of the two directions.
	px := p.Project(x)
	for k, want := range []float64{100, 9} {
		s := 0.0
		for i := range n {
			s += px.At(i, k) * px.At(i, k)
		}
		if got := s / float64(n); math.Abs(got-want)/want > 0.05 {
			t.Errorf("variance along axis %d: %.3g, want %.3g", k+1, got, want)
		}
	}
	if _, err := NewPCA(mat.NewDense(3, 1, nil)); !errors.Is(err, ErrTooFewColumns) {
		t.Errorf("1 column: %v, want ErrTooFewColumns", err)
	}
	x.Set(5, 2, math.Inf(1))
	if _, err := NewPCA(x); !errors.Is(err, ErrNotFinite) {
		t.Errorf("Inf: %v, want ErrNotFinite", err)
	}
}

// TestDomainScaler: with Options.Scaler, Domain takes the data in its own
// units: the grid spans the data's range and f on it is the model's f at
// the scaled grid point; the support vectors are drawn mapped back.
func TestDomainScaler(t *testing.T) {
	t.Parallel()
	x, m, labels := moons(t, 100)
	// Data in units 100 times larger, shifted by 1000: the scaler maps
	// them back onto x.
	sc := &dataset.Scaler{Shift: []float64{1000, -1000}, Mul: []float64{0.01, 0.01}}
	raw := mat.NewDense(100, 2, nil)
	for i := range 100 {
		raw.Set(i, 0, x.At(i, 0)/0.01+1000)
		raw.Set(i, 1, x.At(i, 1)/0.01-1000)
	}
	p, err := Domain(m, raw, labels, &Options{Scaler: sc})
	if err != nil {
		t.Fatal(err)
	}
	if p.X.Min > 900 || p.Y.Max > -850 {
		t.Errorf("axes [%g, %g]×[%g, %g], not the data's units", p.X.Min, p.X.Max, p.Y.Min, p.Y.Max)
	}
	c := draw.New(vgimg.New(4*vg.Inch, 4*vg.Inch))
	d := &domain{m: m, n: 20, scaler: sc}
	g := d.eval(p.DataCanvas(c), p)
	for j := range g.ny {
		for i := range g.nx {
			want := m.Decision([]float64{(g.X(i) - 1000) * 0.01, (g.Y(j) + 1000) * 0.01})
			if got := g.Z(i, j); math.Abs(got-want) > 1e-9 {
				t.Fatalf("f at (%g, %g) = %v, the model's f at the scaled point %v", g.X(i), g.Y(j), got, want)
			}
		}
	}
	back := unscaled(m.SV, sc)
	if got, want := back.At(0, 0), m.SV.At(0, 0)/0.01+1000; got != want {
		t.Errorf("support vector 0 drawn at x = %v, want %v", got, want)
	}
}

// TestPrincipal: a model of 3 features gives a plot, with the support
// vectors only on request.
func TestPrincipal(t *testing.T) {
	t.Parallel()
	ds, err := dataset.Generate(dataset.Cube, 200, 1)
	if err != nil {
		t.Fatal(err)
	}
	m, err := svclust.Train(ds.X, &svclust.Config{Seed: 1, MaxIter: 2000})
	if err != nil {
		t.Fatal(err)
	}
	for _, sv := range []bool{false, true} {
		p, pca, err := Principal(m, ds.X, ds.Labels, &Options{SupportVectors: sv, Legend: true})
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "p.svg")
		if err := Save(path, 4*vg.Inch, 4*vg.Inch, p); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(b), ">support vectors<"); got != sv {
			t.Errorf("SupportVectors %v: support vectors in the legend: %v", sv, got)
		}
		if !strings.Contains(string(b), ">PC1 (") {
			t.Errorf("the x axis does not say PC1")
		}
		if pca.Share[0] < pca.Share[1] || pca.Share[0]+pca.Share[1] > 1+1e-12 {
			t.Errorf("shares %v", pca.Share)
		}
	}
}

// TestEqualAspectUnits: with unitScale axes, equalAspect equalises the
// model's units, not the data's: a data unit of x, worth 0.01 model units,
// is then 100 times shorter than one of y.
func TestEqualAspectUnits(t *testing.T) {
	t.Parallel()
	p := plot.New()
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1000, 0, 3
	p.X.Scale, p.Y.Scale = unitScale{0.01}, unitScale{1}
	c := draw.New(vgimg.New(5*vg.Inch, 4*vg.Inch))
	equalAspect(p, c)
	dc := p.DataCanvas(c)
	w, h := float64(dc.Max.X-dc.Min.X), float64(dc.Max.Y-dc.Min.Y)
	sx, sy := (p.X.Max-p.X.Min)*0.01/w, (p.Y.Max-p.Y.Min)/h
	if math.Abs(sx-sy) > 2e-3*max(sx, sy) {
		t.Errorf("model units per length: x %.4g, y %.4g", sx, sy)
	}
}
