package figure

import (
	"bytes"
	"errors"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
)

// gridOf returns f on the n×n cell-centre grid over [lo, hi]².
func gridOf(n int, lo, hi float64, f func(x, y float64) float64) *grid {
	g := &grid{nx: n, ny: n, xmin: lo, xmax: hi, ymin: lo, ymax: hi, z: make([]float64, n*n)}
	for j := range n {
		for i := range n {
			g.z[j*n+i] = f(g.X(i), g.Y(j))
		}
	}
	return g
}

// TestContourLine: for a linear f the interpolated crossings are exact, so
// the level set of f = x − 0.3 is one open polyline on x = 0.3 from the
// bottom row of the grid to the top one.
func TestContourLine(t *testing.T) {
	g := gridOf(40, -1, 1, func(x, _ float64) float64 { return x - 0.3 })
	ls := contour(g)
	if len(ls) != 1 || ls[0].closed {
		t.Fatalf("got %d polylines (first closed: %v), want one open", len(ls), len(ls) > 0 && ls[0].closed)
	}
	pts := ls[0].pts
	// One crossing per grid row.
	if len(pts) != g.ny {
		t.Errorf("%d points, want one per row, %d", len(pts), g.ny)
	}
	for _, p := range pts {
		// 1e-12: the interpolation of a linear function is exact up to a
		// few roundings of numbers of size 1.
		if math.Abs(p[0]-0.3) > 1e-12 {
			t.Errorf("point %v is off the line x = 0.3", p)
		}
	}
	// The inside, x > 0.3, is on the left of a line going down.
	if top, bottom := pts[0][1], pts[len(pts)-1][1]; top != g.Y(g.ny-1) || bottom != g.Y(0) {
		t.Errorf("runs from y = %v to %v, want from the top row %v to the bottom one %v", top, bottom, g.Y(g.ny-1), g.Y(0))
	}
}

// area returns the signed area of the closed polygon pts by the shoelace
// formula: positive when it runs counter-clockwise.
func area(pts [][2]float64) float64 {
	var a float64
	for i, p := range pts {
		q := pts[(i+1)%len(pts)]
		a += p[0]*q[1] - q[0]*p[1]
	}
	return a / 2
}

// TestContourPadded: the contour of the padded grid closes every loop
// along the border of the data area, so the loops of f = x − 0.3 enclose
// the rectangle [0.3, 1]×[−1, 1] of the grid [−1, 1]², and those of an
// annulus enclose it with its hole.
func TestContourPadded(t *testing.T) {
	const n = 40
	hstep := 2.0 / n
	g := gridOf(n, -1, 1, func(x, _ float64) float64 { return x - 0.3 })
	ls := contour(padded{g})
	if len(ls) != 1 || !ls[0].closed {
		t.Fatalf("got %d polylines, want one closed loop", len(ls))
	}
	// The loop runs along x = 0.3 and the border of the data area, but
	// cuts four corners by a triangle with legs of half a cell (area h²/8
	// each): the two corners of the area at x = 1, and the two where
	// x = 0.3 meets the border, since 0.3 lies halfway between the grid
	// columns at 0.275 and 0.325. 1e-12 allows for rounding.
	want := 0.7*2 - 4*hstep*hstep/8
	if got := area(ls[0].pts); math.Abs(got-want) > 1e-12 {
		t.Errorf("loop encloses %.12g, want %.12g", got, want)
	}

	// An annulus 0.3 ≤ r ≤ 0.8: one loop around it, counter-clockwise,
	// and one around its hole, clockwise.
	g = gridOf(n, -1, 1, func(x, y float64) float64 {
		r := math.Hypot(x, y)
		return min(r-0.3, 0.8-r)
	})
	ls = contour(padded{g})
	if len(ls) != 2 {
		t.Fatalf("annulus: got %d polylines, want 2", len(ls))
	}
	var pos, neg float64
	for _, l := range ls {
		if a := area(l.pts); a > 0 {
			pos += a
		} else {
			neg += a
		}
	}
	// Each loop lies within 2h of its circle (see TestContourCircles),
	// which bounds its area between π(r ∓ 2h)².
	for _, c := range []struct {
		name string
		got  float64
		r    float64
	}{{"outer", pos, 0.8}, {"hole", -neg, 0.3}} {
		lo, hi := math.Pi*(c.r-2*hstep)*(c.r-2*hstep), math.Pi*(c.r+2*hstep)*(c.r+2*hstep)
		if c.got < lo || c.got > hi {
			t.Errorf("annulus %s: area %.4g, want in [%.4g, %.4g]", c.name, c.got, lo, hi)
		}
	}
}

// TestContourCircles: two disjoint discs give two closed loops, each
// within 2h of its circle for grid spacing h (a crossing lies on a grid
// line of length h between a point inside and one outside, so its radius
// differs from r by less than 2h), going once around it counter-clockwise.
func TestContourCircles(t *testing.T) {
	const r = 0.4
	centres := [][2]float64{{-0.5, 0}, {0.5, 0.1}}
	f := func(x, y float64) float64 {
		v := math.Inf(-1)
		for _, c := range centres {
			v = max(v, r*r-(x-c[0])*(x-c[0])-(y-c[1])*(y-c[1]))
		}
		return v
	}
	g := gridOf(60, -1.2, 1.2, f)
	h := 2.4 / 60
	ls := contour(g)
	if len(ls) != 2 {
		t.Fatalf("got %d polylines, want 2", len(ls))
	}
	for k, l := range ls {
		if !l.closed {
			t.Errorf("polyline %d is open", k)
		}
		// Each loop is around the nearer centre of its first point.
		c := centres[0]
		if l.pts[0][0] > 0 {
			c = centres[1]
		}
		var turn float64 // total angle swept around c
		for i, p := range l.pts {
			if d := math.Hypot(p[0]-c[0], p[1]-c[1]); math.Abs(d-r) >= 2*h {
				t.Errorf("loop %d: point %v at distance %.4g from %v, want within %.4g of %v", k, p, d, c, 2*h, r)
			}
			q := l.pts[(i+1)%len(l.pts)]
			a := math.Atan2(q[1]-c[1], q[0]-c[0]) - math.Atan2(p[1]-c[1], p[0]-c[0])
			turn += math.Remainder(a, 2*math.Pi)
		}
		// A loop that goes once around, counter-clockwise since the disc
		// is on its left, sweeps 2π; 1e-9 allows for rounding.
		if math.Abs(turn-2*math.Pi) > 1e-9 {
			t.Errorf("loop %d sweeps %.6g rad around its centre, want 2π", k, turn)
		}
	}
}

// TestContourSaddle: a cell whose corners alternate is split by the mean
// of its corners; the corners on the other side of 0 from the mean are cut
// off, each by a segment between the crossings on its two sides.
func TestContourSaddle(t *testing.T) {
	tests := []struct {
		name string
		z    []float64 // lower left, lower right, upper left, upper right
		cut  [][2]float64
	}{
		// Mean 0 ≥ 0: inside; the outside corners (lower right, upper
		// left) are cut off.
		{"mean inside", []float64{1, -1, -1, 1}, [][2]float64{{1, 0}, {0, 1}}},
		// Mean −0.5 < 0: the inside corners are cut off; the crossings
		// lie at 1/3 of each side from the inside corner.
		{"mean outside", []float64{1, -2, -2, 1}, [][2]float64{{0, 0}, {1, 1}}},
	}
	for _, tc := range tests {
		g := &grid{nx: 2, ny: 2, xmin: -0.5, xmax: 1.5, ymin: -0.5, ymax: 1.5, z: tc.z}
		ls := contour(g)
		if len(ls) != 2 {
			t.Errorf("%s: %d polylines, want 2", tc.name, len(ls))
			continue
		}
		for k, l := range ls {
			if len(l.pts) != 2 || l.closed {
				t.Errorf("%s: polyline %d has %d points (closed %v), want an open segment", tc.name, k, len(l.pts), l.closed)
				continue
			}
			// The segment's midpoint is nearer to the corner it cuts off
			// than to any other.
			mx, my := (l.pts[0][0]+l.pts[1][0])/2, (l.pts[0][1]+l.pts[1][1])/2
			near := 0
			corners := [][2]float64{{0, 0}, {1, 0}, {0, 1}, {1, 1}}
			for c := range corners {
				if math.Hypot(mx-corners[c][0], my-corners[c][1]) < math.Hypot(mx-corners[near][0], my-corners[near][1]) {
					near = c
				}
			}
			if corners[near] != tc.cut[0] && corners[near] != tc.cut[1] {
				t.Errorf("%s: segment %v cuts off corner %v, want one of %v", tc.name, l.pts, corners[near], tc.cut)
			}
		}
	}
}

// moons returns n points of the moons set, a model trained on them with a
// budget of 20, and its labels.
func moons(t testing.TB, n int) (*mat.Dense, *svclust.Model, []int) {
	t.Helper()
	ds, err := dataset.Generate(dataset.Moons, n, 1)
	if err != nil {
		t.Fatal(err)
	}
	m, err := svclust.Train(ds.X, &svclust.Config{Budget: 20, Seed: 1, MinIter: 2000})
	if err != nil {
		t.Fatal(err)
	}
	c, err := cluster.Fit(m, ds.X, nil)
	if err != nil {
		t.Fatal(err)
	}
	return ds.X, m, c.Labels
}

func TestNot2D(t *testing.T) {
	x3 := mat.NewDense(4, 3, []float64{0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1})
	m, err := svclust.Train(x3, &svclust.Config{Seed: 1, MaxIter: 100})
	if err != nil {
		t.Fatal(err)
	}
	_, m2, _ := moons(t, 50)
	for name, f := range map[string]func() error{
		"Clusters":     func() error { _, err := Clusters(x3, nil, nil); return err },
		"Clusters 1-D": func() error { _, err := Clusters(mat.NewDense(2, 1, nil), nil, nil); return err },
		"Domain model": func() error { _, err := Domain(m, nil, nil, nil); return err },
		"Domain data":  func() error { _, err := Domain(m2, x3, nil, nil); return err },
		"Panels":       func() error { return Panels(filepath.Join(t.TempDir(), "f.png"), "", []Panel{{X: x3}}) },
	} {
		err := f()
		if !errors.Is(err, ErrNot2D) || !strings.Contains(err.Error(), "plot needs 2-D data; got d=") {
			t.Errorf("%s: error %v, want ErrNot2D with the dimension", name, err)
		}
	}
}

func TestNotFinite(t *testing.T) {
	x := mat.NewDense(3, 2, []float64{0, 0, 1, math.NaN(), 2, 2})
	_, err := Clusters(x, nil, nil)
	if !errors.Is(err, ErrNotFinite) || !strings.Contains(err.Error(), "row 2") {
		t.Errorf("error %v, want ErrNotFinite naming row 2", err)
	}
}

// TestStyles: clusters 0–23 get distinct (colour, glyph) pairs, none grey,
// and outliers are grey.
func TestStyles(t *testing.T) {
	type key struct {
		c any
		s any
	}
	seen := map[key]int{}
	for l := range len(palette) * len(shapes) {
		s := style(l, 2)
		k := key{s.Color, s.Shape}
		if prev, ok := seen[k]; ok {
			t.Errorf("clusters %d and %d look the same", prev, l)
		}
		seen[k] = l
		if s.Color == outlierColor {
			t.Errorf("cluster %d is grey", l)
		}
	}
	if s := style(-1, 2); s.Color != outlierColor {
		t.Errorf("outliers are %v, want grey", s.Color)
	}
}

// TestDomainGrid: the grid a domain evaluates for a data area holds
// f = Decision at its points, and spans the axis ranges with cells as wide
// as they are tall.
func TestDomainGrid(t *testing.T) {
	x, m, labels := moons(t, 100)
	p, err := Domain(m, x, labels, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := draw.New(vgimg.New(6*vg.Inch, 4*vg.Inch))
	equalAspect(p, c)
	d := &domain{m: m, n: 50}
	g := d.eval(p.DataCanvas(c), p)
	// The longer side gets n points, the other in proportion (6:4 less
	// the axes, so fewer than 50).
	if g.nx != 50 || g.ny >= 50 || g.ny < 2 {
		t.Errorf("grid %d×%d, want 50 columns and fewer rows", g.nx, g.ny)
	}
	cw, ch := (g.xmax-g.xmin)/float64(g.nx), (g.ymax-g.ymin)/float64(g.ny)
	// Rounding the row count to an integer changes the cell height by at
	// most half a row, a relative 0.5/ny, on top of equalAspect's 0.1%.
	if math.Abs(cw-ch) > (0.5/float64(g.ny)+1e-3)*ch {
		t.Errorf("cells %.4g wide, %.4g tall", cw, ch)
	}
	if g.xmin != p.X.Min || g.xmax != p.X.Max || g.ymin != p.Y.Min || g.ymax != p.Y.Max {
		t.Errorf("grid spans [%g, %g]×[%g, %g], axes [%g, %g]×[%g, %g]",
			g.xmin, g.xmax, g.ymin, g.ymax, p.X.Min, p.X.Max, p.Y.Min, p.Y.Max)
	}
	for j := range g.ny {
		for i := range g.nx {
			want := m.Decision([]float64{g.X(i), g.Y(j)})
			// Score and Decision add the same terms; 1e-12 allows for a
			// different order of summation of O(1) terms.
			if got := g.Z(i, j); math.Abs(got-want) > 1e-12 {
				t.Fatalf("f(%g, %g) = %v on the grid, Decision %v", g.X(i), g.Y(j), got, want)
			}
		}
	}
	// The same area gives the same grid, not a new evaluation.
	if d.eval(p.DataCanvas(c), p) != g {
		t.Error("eval recomputed the grid for the same area")
	}
}

// TestEqualAspect: after equalAspect a data unit has the same length on
// both axes, to the 0.1% that equalAspect promises.
func TestEqualAspect(t *testing.T) {
	x, _, labels := moons(t, 100)
	for _, size := range [][2]vg.Length{{6 * vg.Inch, 3 * vg.Inch}, {3 * vg.Inch, 6 * vg.Inch}, {4 * vg.Inch, 4 * vg.Inch}} {
		p, err := Clusters(x, labels, &Options{Title: "t"})
		if err != nil {
			t.Fatal(err)
		}
		x0, x1, y0, y1 := p.X.Min, p.X.Max, p.Y.Min, p.Y.Max
		c := draw.New(vgimg.New(size[0], size[1]))
		equalAspect(p, c)
		dc := p.DataCanvas(c)
		sx := (p.X.Max - p.X.Min) / float64(dc.Max.X-dc.Min.X)
		sy := (p.Y.Max - p.Y.Min) / float64(dc.Max.Y-dc.Min.Y)
		if math.Abs(sx-sy) > 1e-3*max(sx, sy) {
			t.Errorf("%v: %.5g units per point on x, %.5g on y", size, sx, sy)
		}
		// Only widened: the data stay in view.
		if p.X.Min > x0 || p.X.Max < x1 || p.Y.Min > y0 || p.Y.Max < y1 {
			t.Errorf("%v: range narrowed from [%g, %g]×[%g, %g] to [%g, %g]×[%g, %g]",
				size, x0, x1, y0, y1, p.X.Min, p.X.Max, p.Y.Min, p.Y.Max)
		}
	}
}

// TestSaveDeterministic: the same figure gives the same bytes, twice in a
// process and for any number of workers.
func TestSaveDeterministic(t *testing.T) {
	x, m, labels := moons(t, 200)
	dir := t.TempDir()
	for _, ext := range []string{"svg", "png"} {
		var files [][]byte
		for k, workers := range []int{1, 1, 2} {
			p, err := Domain(m, x, labels, &Options{Legend: true, Workers: workers, Grid: 100})
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "f"+string(rune('0'+k))+"."+ext)
			if err := Save(path, 4*vg.Inch, 4*vg.Inch, p); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, b)
		}
		for k := 1; k < len(files); k++ {
			if !bytes.Equal(files[0], files[k]) {
				t.Errorf("%s: run %d differs from run 0", ext, k)
			}
		}
		switch ext {
		case "svg":
			if s := string(files[0]); !strings.HasPrefix(s, "<?xml") || !strings.Contains(s, "<svg") || !strings.HasSuffix(strings.TrimSpace(s), "</svg>") {
				t.Errorf("not an SVG document: %.80q…", s)
			}
		case "png":
			cfg, err := png.DecodeConfig(bytes.NewReader(files[0]))
			// 4 inches at DPI dots per inch.
			if err != nil || cfg.Width != 4*DPI || cfg.Height != 4*DPI {
				t.Errorf("PNG %d×%d (%v), want %d×%d", cfg.Width, cfg.Height, err, 4*DPI, 4*DPI)
			}
		}
	}
}

func TestSaveFormat(t *testing.T) {
	p, err := Clusters(mat.NewDense(2, 2, []float64{0, 0, 1, 1}), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"f.jpg", "f", "f.png.txt", "-"} {
		path := filepath.Join(t.TempDir(), name)
		if err := Save(path, vg.Inch, vg.Inch, p); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: error %v, want ErrFormat", name, err)
		}
		if _, err := os.Stat(path); err == nil {
			t.Errorf("%s: file written", name)
		}
	}
	for _, name := range []string{"f.PNG", "f.Svg"} {
		if err := Save(filepath.Join(t.TempDir(), name), vg.Inch, vg.Inch, p); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestPanels: three panels side by side under a title make a PNG of three
// PanelSize squares plus the title band, at DPI.
func TestPanels(t *testing.T) {
	x, m, labels := moons(t, 200)
	truth := make([]int, len(labels))
	for i := range truth {
		truth[i] = i % 2
	}
	truth[0] = -1
	path := filepath.Join(t.TempDir(), "panels.png")
	err := Panels(path, "moons", []Panel{
		{Title: "ours", X: x, Labels: labels, Model: m},
		{Title: "alternating", X: x, Labels: truth},
		{Title: "unlabelled", X: x},
	})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	// Lengths in inches times DPI.
	w := int(3 * PanelSize / vg.Inch * DPI)
	h := int((PanelSize + titleHeight) / vg.Inch * DPI)
	if cfg.Width != w || cfg.Height != h {
		t.Errorf("PNG %d×%d, want %d×%d", cfg.Width, cfg.Height, w, h)
	}
}

// TestAppendPath checks the subpaths of polylines: a Move to the first
// point, a Line to each other, a Close only when asked, with the points
// mapped by the transforms.
func TestAppendPath(t *testing.T) {
	tr := func(v float64) vg.Length { return vg.Length(10 * v) }
	a := polyline{pts: [][2]float64{{0, 0}, {1, 0}, {1, 1}}, closed: true}
	b := polyline{pts: [][2]float64{{2, 3}, {4, 5}}}
	p := a.appendPath(nil, tr, tr, true)
	p = b.appendPath(p, tr, tr, false)
	want := []vg.PathComp{
		{Type: vg.MoveComp, Pos: vg.Point{X: 0, Y: 0}},
		{Type: vg.LineComp, Pos: vg.Point{X: 10, Y: 0}},
		{Type: vg.LineComp, Pos: vg.Point{X: 10, Y: 10}},
		{Type: vg.CloseComp},
		{Type: vg.MoveComp, Pos: vg.Point{X: 20, Y: 30}},
		{Type: vg.LineComp, Pos: vg.Point{X: 40, Y: 50}},
	}
	if len(p) != len(want) {
		t.Fatalf("path %+v, want %+v", p, want)
	}
	for i := range want {
		if p[i].Type != want[i].Type || (want[i].Type != vg.CloseComp && p[i].Pos != want[i].Pos) {
			t.Errorf("component %d: %+v, want %+v", i, p[i], want[i])
		}
	}
}

// TestHostileSizes checks the bounds on what a caller's numbers make the
// figure allocate: a grid beyond MaxGrid and an image side outside
// [MinSize, MaxSize] are errors before anything is drawn (they panicked or
// ran out of memory), and the legend of a cluster labelled 2³⁰ lists it
// without an array as long as the label.
func TestHostileSizes(t *testing.T) {
	x, m, labels := moons(t, 100)
	if _, err := Domain(m, x, labels, &Options{Grid: MaxGrid + 1}); err == nil {
		t.Error("Grid beyond MaxGrid accepted")
	}
	p, err := Clusters(x, labels, nil)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "f.png")
	for _, s := range [][2]vg.Length{{1e9, vg.Inch}, {vg.Inch, MaxSize + 1}, {1e-300, vg.Inch}, {vg.Inch, MinSize / 2}} {
		if err := Save(path, s[0], s[1], p); err == nil {
			t.Errorf("size %v×%v accepted", s[0], s[1])
		}
	}
	if _, err := os.Stat(path); err == nil {
		t.Error("a file was written")
	}
	big := slices.Clone(labels)
	big[0] = 1 << 30
	big[1] = -1
	p, err = Clusters(x, big, &Options{Legend: true})
	if err != nil {
		t.Fatal(err)
	}
	path = filepath.Join(t.TempDir(), "legend.png")
	clusters, outliers := legendLabels(big)
	if want := []int{0, 1, 1 << 30}; !slices.Equal(clusters, want) || !outliers {
		t.Errorf("legend of clusters %v and outliers %v, want %v and true", clusters, outliers, want)
	}
	if err := Save(path, 2*vg.Inch, 2*vg.Inch, p); err != nil {
		t.Fatal(err)
	}
}
