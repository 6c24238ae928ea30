package figure

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/internal/rowmajor"
)

// ErrNot2D is wrapped by the error of Clusters and Domain for data or a
// model whose dimension is not 2; the message gives the dimension, as in
// "figure: plot needs 2-D data; got d=3".
var ErrNot2D = errors.New("figure: plot needs 2-D data")

// ErrNotFinite is wrapped by the error of Clusters and Domain for data with
// NaN or Inf; the message gives the row.
var ErrNotFinite = errors.New("figure: data contain NaN or Inf")

// DefaultGrid is the number of grid points along the longer side of the
// data area at which Domain evaluates f when Options.Grid is 0: 300 puts a
// grid point every 2 pixels of a 4-inch panel at 150 dpi, so the shading is
// smooth, and costs 300²·B kernel evaluations for B support vectors.
const DefaultGrid = 300

// MaxGrid bounds Options.Grid: its square is the number of values of f
// Domain evaluates, 25 million at 5,000, far beyond the pixels of any
// figure Save writes.
const MaxGrid = 5000

// margin is the fraction of the larger extent of the data added on every
// side of the plotted area, so that the boundary f = 0 around the outermost
// points is visible.
const margin = 0.1

// Options holds the settings of Clusters and Domain. The zero value, or a nil
// *Options, selects the defaults.
type Options struct {
	// Title is drawn above the plot; "" means none.
	Title string
	// XLabel and YLabel name the axes; "" means "x1" and "x2", and for
	// Principal the principal components with their share of the
	// variance ("PC1 of Of (62% of the variance)").
	XLabel, YLabel string
	// Of says what the data are, for Principal's axes ("the
	// zscore-scaled data"); "" leaves it out.
	Of string
	// Legend adds a legend naming each cluster, the outliers, the support
	// vectors and the boundary, in the top right corner of the plot.
	Legend bool
	// Radius is the radius of a data point's glyph; 0 means a radius that
	// shrinks as the number n of points grows, 2·√(1000/n) points clamped
	// to [0.5, 2.5].
	Radius vg.Length
	// Grid is the number of grid points along the longer side of the data
	// area at which Domain evaluates f; 0 means DefaultGrid. It must be in
	// [0, MaxGrid], and values below 2 are raised to 2.
	Grid int
	// Workers is the number of goroutines Domain uses to evaluate f; 0 means
	// GOMAXPROCS. The figure does not depend on it.
	Workers int
	// Scaler, if not nil, says that Domain's x is in the data's own units
	// and the model in the space Scaler maps them to (a model file's
	// scaling): f is evaluated at the scaled grid points and the support
	// vectors are drawn mapped back, so that the axes read in the data's
	// units. nil means x is in the model's space.
	Scaler *dataset.Scaler
	// SupportVectors draws the support vectors in Principal, as light
	// rings; Domain always rings them.
	SupportVectors bool
}

// The colours of the figures. palette is Paul Tol's "bright" qualitative
// scheme (https://personal.sron.nl/~pault/, "Colour schemes and templates"),
// chosen to be distinct for colour-blind readers; outlierColor is its grey
// for "bad data". The domain is orange as in the paper's figures ("the
// orange region is the domain of novelty").
var (
	palette = []color.Color{
		color.NRGBA{0x44, 0x77, 0xaa, 0xff}, // blue
		color.NRGBA{0xee, 0x66, 0x77, 0xff}, // red
		color.NRGBA{0x22, 0x88, 0x33, 0xff}, // green
		color.NRGBA{0xaa, 0x33, 0x77, 0xff}, // purple
		color.NRGBA{0x66, 0xcc, 0xee, 0xff}, // cyan
		color.NRGBA{0xcc, 0xbb, 0x44, 0xff}, // yellow
	}
	outlierColor  = color.NRGBA{0xbb, 0xbb, 0xbb, 0xff}
	shadeColor    = color.NRGBA{0xfd, 0xe3, 0xbf, 0xff}
	boundaryColor = color.NRGBA{0xd9, 0x7a, 0x00, 0xff}
	svColor       = color.Black
)

// shapes are the glyphs of clusters 0–5, 6–11, 12–17 and 18–23, and again.
var shapes = []draw.GlyphDrawer{
	draw.CircleGlyph{},
	draw.PyramidGlyph{},
	draw.BoxGlyph{},
	diamond{},
}

// diamond is a filled square standing on a corner.
type diamond struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (diamond) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(0.5)})
	r := sty.Radius * math.Sqrt2 * 0.85 // about the area of BoxGlyph
	var p vg.Path
	p.Move(vg.Point{X: pt.X, Y: pt.Y + r})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y})
	p.Line(vg.Point{X: pt.X, Y: pt.Y - r})
	p.Line(vg.Point{X: pt.X - r, Y: pt.Y})
	p.Close()
	c.Fill(p)
}

// style returns the glyph of label l.
func style(l int, r vg.Length) draw.GlyphStyle {
	if l < 0 {
		return draw.GlyphStyle{Color: outlierColor, Radius: r * 0.8, Shape: draw.CircleGlyph{}}
	}
	return draw.GlyphStyle{
		Color:  palette[l%len(palette)],
		Radius: r,
		Shape:  shapes[(l/len(palette))%len(shapes)],
	}
}

// lightSVStyle is the glyph of a support vector in a projection: a thin
// grey ring, since a projected support vector says less than one in the
// model's own plane.
func lightSVStyle(r vg.Length) draw.GlyphStyle {
	return draw.GlyphStyle{Color: color.NRGBA{0x55, 0x55, 0x55, 0x90}, Radius: r + vg.Points(1), Shape: draw.RingGlyph{}}
}

// svStyle is the glyph of a support vector for points of radius r: a ring
// around the point, so that the point's colour stays visible.
func svStyle(r vg.Length) draw.GlyphStyle {
	return draw.GlyphStyle{Color: svColor, Radius: r + vg.Points(1.5), Shape: draw.RingGlyph{}}
}

// radius returns the glyph radius for n points.
func (o *Options) radius(n int) vg.Length {
	if o.Radius > 0 {
		return o.Radius
	}
	if n < 1 {
		n = 1
	}
	return vg.Length(min(2.5, max(0.5, 2*math.Sqrt(1000/float64(n)))))
}

// rows is a plotter.XYer over the first two columns of the rows of a matrix.
type rows struct{ x mat.Matrix }

func (r rows) Len() int {
	if rowmajor.Nil(r.x) {
		return 0
	}
	n, _ := r.x.Dims()
	return n
}

func (r rows) XY(i int) (x, y float64) { return r.x.At(i, 0), r.x.At(i, 1) }

var _ plotter.XYer = rows{}

// check returns an error unless x (which may be nil) is 2-D and finite.
func check(x mat.Matrix) error {
	if rowmajor.Nil(x) {
		return nil
	}
	n, d := x.Dims()
	if d != 2 {
		return fmt.Errorf("%w; got d=%d", ErrNot2D, d)
	}
	for i := range n {
		for j := range d {
			if v := x.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%w (row %d)", ErrNotFinite, i+1)
			}
		}
	}
	return nil
}

// newPlot returns a plot with the titles of o.
func newPlot(o *Options) *plot.Plot {
	p := plot.New()
	p.Title.Text = o.Title
	p.X.Label.Text = o.XLabel
	if p.X.Label.Text == "" {
		p.X.Label.Text = "x1"
	}
	p.Y.Label.Text = o.YLabel
	if p.Y.Label.Text == "" {
		p.Y.Label.Text = "x2"
	}
	p.Legend.Top = true
	p.Legend.TextStyle.Font.Size = vg.Points(10)
	p.Legend.XOffs, p.Legend.YOffs = -vg.Points(4), -vg.Points(4)
	return p
}

// Clusters returns a scatter plot of the rows of the n×2 matrix x, with
// row i drawn in the colour and glyph of labels[i] (see the package
// documentation), and the settings of opt (nil means defaults). A nil
// labels draws every point as cluster 0. The axes span the data with a
// margin of 10% of their larger extent on each side.
//
// It returns an error wrapping ErrNot2D if x does not have 2 columns and
// ErrNotFinite if it holds NaN or Inf, and an error if labels is not nil
// and its length is not the number of rows of x. A nil x, or a nil
// *mat.Dense, draws no point.
func Clusters(x mat.Matrix, labels []int, opt *Options) (*plot.Plot, error) {
	if opt == nil {
		opt = &Options{}
	}
	if err := check(x); err != nil {
		return nil, err
	}
	p := newPlot(opt)
	if err := addPoints(p, x, labels, opt); err != nil {
		return nil, err
	}
	setRange(p, x)
	return p, nil
}

// Domain returns a plot of the model m over the rows of the n×2 matrix x:
// the domain of novelty f(x) = Σᵢ αᵢ k(svᵢ, x) − 1 ≥ 0 shaded, its
// boundary f = 0 drawn as a contour, the points coloured by labels as in
// Clusters, and the support vectors marked with rings. x may be nil (with
// nil labels) to draw the model alone. The axes span the data and the
// support vectors with a margin of 10% of their larger extent on each side.
//
// f is evaluated when the plot is drawn, on a grid over whatever the axis
// ranges are then (so Save's equal aspect ratio, or ranges set by the
// caller, are covered), with opt.Grid points along the longer side. The
// boundary is traced by marching squares on that grid, with f interpolated
// linearly along the grid lines.
//
// It returns an error wrapping ErrNot2D if m or x is not 2-D, and one
// wrapping ErrNotFinite if x holds NaN or Inf, one wrapping
// svclust.ErrNotTrained if m is not valid (svclust.Model.Validate: nil, or
// the zero Model), and an error if labels is not nil and its length is not
// the number of rows of x, or if opt.Grid is outside [0, MaxGrid].
func Domain(m *svclust.Model, x mat.Matrix, labels []int, opt *Options) (*plot.Plot, error) {
	if opt == nil {
		opt = &Options{}
	}
	if opt.Grid < 0 || opt.Grid > MaxGrid {
		return nil, fmt.Errorf("figure: Options.Grid = %d: must be in [0, %d]", opt.Grid, MaxGrid)
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if d := m.Dim(); d != 2 {
		return nil, fmt.Errorf("%w; got d=%d", ErrNot2D, d)
	}
	if err := check(x); err != nil {
		return nil, err
	}
	p := newPlot(opt)
	grid := opt.Grid
	if grid == 0 {
		grid = DefaultGrid
	}
	dom := &domain{m: m, n: max(grid, 2), workers: opt.Workers, scaler: opt.Scaler}
	p.Add(shade{dom})
	if err := addPoints(p, x, labels, opt); err != nil {
		return nil, err
	}
	p.Add(boundary{dom})
	svs := mat.Matrix(m.SV)
	if opt.Scaler != nil {
		svs = unscaled(m.SV, opt.Scaler)
	}
	sv, err := plotter.NewScatter(rows{svs})
	if err != nil {
		return nil, fmt.Errorf("figure: support vectors: %w", err)
	}
	sv.GlyphStyle = svStyle(opt.radius(rows{x}.Len()))
	p.Add(sv)
	if opt.Legend {
		p.Legend.Add("support vectors", sv)
		p.Legend.Add("f = 0", boundary{dom})
	}
	setRange(p, x, svs)
	if opt.Scaler != nil {
		p.X.Scale, p.Y.Scale = unitScale{opt.Scaler.Mul[0]}, unitScale{opt.Scaler.Mul[1]}
	}
	return p, nil
}

// unscaled returns the rows of x mapped back by the inverse of s into the
// data's units.
func unscaled(x *mat.Dense, s *dataset.Scaler) *mat.Dense {
	n, d := x.Dims()
	out := mat.NewDense(n, d, nil)
	for i := range n {
		for j := range d {
			out.Set(i, j, x.At(i, j)/s.Mul[j]+s.Shift[j])
		}
	}
	return out
}

// addPoints adds the rows of x to p, styled by labels, and their legend
// entries if opt asks for them.
func addPoints(p *plot.Plot, x mat.Matrix, labels []int, opt *Options) error {
	n := rows{x}.Len()
	if labels != nil && len(labels) != n {
		return fmt.Errorf("figure: %d labels for %d rows", len(labels), n)
	}
	if n == 0 {
		return nil
	}
	r := opt.radius(n)
	s, err := plotter.NewScatter(rows{x})
	if err != nil {
		return fmt.Errorf("figure: %w", err)
	}
	label := func(i int) int {
		if labels == nil {
			return 0
		}
		return labels[i]
	}
	// One scatter in row order, so that no cluster is always drawn on top.
	s.GlyphStyleFunc = func(i int) draw.GlyphStyle { return style(label(i), r) }
	p.Add(s)
	if !opt.Legend {
		return nil
	}
	// Legend entries in label order, outliers last.
	clusters, outliers := legendLabels(labels)
	for _, l := range clusters {
		p.Legend.Add(fmt.Sprintf("cluster %d", l), glyphThumb(style(l, r)))
	}
	if outliers {
		p.Legend.Add("outliers", glyphThumb(style(-1, r)))
	}
	return nil
}

// legendLabels returns the distinct clusters of labels (≥ 0) in increasing
// order, [0] for nil labels, and whether there are outliers (< 0). The
// labels are collected, not indexed: one label of 2³¹ must not cost
// gigabytes.
func legendLabels(labels []int) (clusters []int, outliers bool) {
	if labels == nil {
		return []int{0}, false
	}
	for _, l := range labels {
		if l >= 0 {
			clusters = append(clusters, l)
		} else {
			outliers = true
		}
	}
	slices.Sort(clusters)
	return slices.Compact(clusters), outliers
}

// glyphThumb is a legend thumbnail showing one glyph.
type glyphThumb draw.GlyphStyle

// Thumbnail implements plot.Thumbnailer.
func (g glyphThumb) Thumbnail(c *draw.Canvas) {
	c.DrawGlyph(draw.GlyphStyle(g), c.Center())
}

// setRange sets the axis ranges of p to the bounding box of the rows of
// the matrices ms (nil ones are skipped), widened by margin times its larger
// extent on each side. Without any row it leaves the ranges alone.
func setRange(p *plot.Plot, ms ...mat.Matrix) {
	xmin, xmax := math.Inf(1), math.Inf(-1)
	ymin, ymax := math.Inf(1), math.Inf(-1)
	for _, m := range ms {
		r := rows{m}
		for i := range r.Len() {
			x, y := r.XY(i)
			xmin, xmax = min(xmin, x), max(xmax, x)
			ymin, ymax = min(ymin, y), max(ymax, y)
		}
	}
	if xmin > xmax {
		return
	}
	pad := margin * max(xmax-xmin, ymax-ymin)
	if pad == 0 {
		pad = 1 // a single point: show a unit square around it
	}
	p.X.Min, p.X.Max = xmin-pad, xmax+pad
	p.Y.Min, p.Y.Max = ymin-pad, ymax+pad
}
