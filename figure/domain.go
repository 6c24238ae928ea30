package figure

import (
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/dataset"
)

// grid holds f on a rectangular grid of cell centres: nx columns over
// [xmin, xmax] and ny rows over [ymin, ymax], so that the grid point (i, j)
// is the centre of cell (i, j) of an nx×ny tiling of the rectangle. z is
// row-major in j: z[j*nx+i] = f(X(i), Y(j)).
type grid struct {
	nx, ny                 int
	xmin, xmax, ymin, ymax float64
	z                      []float64
}

var _ plotter.GridXYZ = (*grid)(nil)

// Dims implements plotter.GridXYZ.
func (g *grid) Dims() (c, r int) { return g.nx, g.ny }

// Z implements plotter.GridXYZ.
func (g *grid) Z(c, r int) float64 { return g.z[r*g.nx+c] }

// X implements plotter.GridXYZ.
func (g *grid) X(c int) float64 {
	return g.xmin + (float64(c)+0.5)*(g.xmax-g.xmin)/float64(g.nx)
}

// Y implements plotter.GridXYZ.
func (g *grid) Y(r int) float64 {
	return g.ymin + (float64(r)+0.5)*(g.ymax-g.ymin)/float64(g.ny)
}

// domain evaluates the decision function of a model on a grid over the
// axis ranges of the plot being drawn. It keeps the last grid, so that the
// shading and the boundary, drawn at different times of one Draw, share it.
type domain struct {
	m       *svclust.Model
	n       int // grid points along the longer side of the data area
	workers int
	scaler  *dataset.Scaler // maps grid points into the model's space; nil: none
	last    *grid
}

// eval returns f on the grid for the data canvas c of plt.
func (d *domain) eval(c draw.Canvas, plt *plot.Plot) *grid {
	w, h := float64(c.Max.X-c.Min.X), float64(c.Max.Y-c.Min.Y)
	nx, ny := d.n, d.n
	switch {
	case w > h && w > 0:
		ny = max(2, int(float64(d.n)*h/w+0.5))
	case h > w && h > 0:
		nx = max(2, int(float64(d.n)*w/h+0.5))
	}
	g := &grid{nx: nx, ny: ny, xmin: plt.X.Min, xmax: plt.X.Max, ymin: plt.Y.Min, ymax: plt.Y.Max}
	if l := d.last; l != nil && l.nx == g.nx && l.ny == g.ny &&
		l.xmin == g.xmin && l.xmax == g.xmax && l.ymin == g.ymin && l.ymax == g.ymax {
		return l
	}
	pts := mat.NewDense(nx*ny, 2, nil)
	for j := range ny {
		y := g.Y(j)
		for i := range nx {
			pts.Set(j*nx+i, 0, g.X(i))
			pts.Set(j*nx+i, 1, y)
		}
	}
	if d.scaler != nil {
		for i := range nx * ny {
			row := pts.RawRowView(i)
			d.scaler.TransformRow(row, row)
		}
	}
	g.z = d.m.Score(nil, pts, d.workers)
	d.last = g
	return g
}

// shade fills the domain f ≥ 0 of a domain within the data area.
type shade struct{ d *domain }

// Plot implements plot.Plotter. The domain is drawn as vector polygons, the
// loops of the contour of the padded grid, so that its edge is the
// boundary that is drawn (but for the corners of the data area, cut by
// half a cell), and SVG files need no embedded image.
func (s shade) Plot(c draw.Canvas, plt *plot.Plot) {
	g := s.d.eval(c, plt)
	trX, trY := plt.Transforms(&c)
	var p vg.Path
	for _, l := range contour(padded{g}) {
		p = l.appendPath(p, trX, trY, true)
	}
	if len(p) > 0 {
		c.SetColor(shadeColor)
		c.Fill(p)
	}
}

// Thumbnail implements plot.Thumbnailer.
func (shade) Thumbnail(c *draw.Canvas) {
	c.FillPolygon(shadeColor, c.ClipPolygonXY([]vg.Point{
		c.Min, {X: c.Max.X, Y: c.Min.Y}, c.Max, {X: c.Min.X, Y: c.Max.Y},
	}))
}

// boundary draws the contour f = 0 of a domain.
type boundary struct{ d *domain }

// boundaryStyle is the line of the contour f = 0.
var boundaryStyle = draw.LineStyle{Color: boundaryColor, Width: vg.Points(1.2)}

// Plot implements plot.Plotter.
func (b boundary) Plot(c draw.Canvas, plt *plot.Plot) {
	g := b.d.eval(c, plt)
	trX, trY := plt.Transforms(&c)
	c.SetLineStyle(boundaryStyle)
	for _, l := range contour(g) {
		c.Stroke(l.appendPath(nil, trX, trY, l.closed))
	}
}

// Thumbnail implements plot.Thumbnailer: the shaded domain and its
// boundary.
func (b boundary) Thumbnail(c *draw.Canvas) {
	shade(b).Thumbnail(c)
	y := c.Center().Y
	c.StrokeLine2(boundaryStyle, c.Min.X, y, c.Max.X, y)
}

// polyline is a piece of the contour f = 0 in data coordinates, with the
// side f ≥ 0 on its left; closed means its last point joins its first.
type polyline struct {
	pts    [][2]float64
	closed bool
}

// appendPath appends l to p as a subpath in canvas coordinates, mapped by
// trX and trY, closed if close is set, and returns the extended path.
func (l polyline) appendPath(p vg.Path, trX, trY func(float64) vg.Length, close bool) vg.Path {
	for k, pt := range l.pts {
		q := vg.Point{X: trX(pt[0]), Y: trY(pt[1])}
		if k == 0 {
			p.Move(q)
		} else {
			p.Line(q)
		}
	}
	if close {
		p.Close()
	}
	return p
}

// padded is a grid with a ring of points added around it, half a cell
// outside the data area, where f < 0: its contour is made of closed loops
// only. The value at a point of the ring is minus that of its neighbour
// on the grid when that is inside, so the crossing between them lies
// halfway, on the border of the data area; elsewhere it is −1.
type padded struct{ g *grid }

var _ plotter.GridXYZ = padded{}

func (p padded) Dims() (c, r int) { return p.g.nx + 2, p.g.ny + 2 }
func (p padded) X(c int) float64  { return p.g.X(c - 1) }
func (p padded) Y(r int) float64  { return p.g.Y(r - 1) }
func (p padded) Z(c, r int) float64 {
	i, j := c-1, r-1
	if i >= 0 && i < p.g.nx && j >= 0 && j < p.g.ny {
		return p.g.Z(i, j)
	}
	if z := p.g.Z(min(max(i, 0), p.g.nx-1), min(max(j, 0), p.g.ny-1)); z > 0 {
		return -z
	}
	return -1
}

// contour returns the level set f = 0 of g as polylines with the side
// f ≥ 0 on their left, by marching squares: a grid point is inside when
// f ≥ 0, every grid line between an inside and an outside point is crossed
// once, at the zero of the linear interpolation of f along it, and the
// crossings of each grid cell are joined by segments that separate its
// inside corners from its outside ones. A cell whose corners alternate (a
// saddle) is resolved by the mean of its corners: the corners on the other
// side of 0 from the mean are cut off. Each segment runs from the crossing
// where the cell's border, taken counter-clockwise, goes from inside to
// outside, to the one where it comes back in; so a crossing is left by the
// segment of one of its cells and entered by that of the other, the
// segments chain into polylines, and loops around a part of the domain run
// counter-clockwise and loops around a hole clockwise (the nonzero fill
// rule then fills the domain). Open polylines, which end on the border of
// the grid, come first, in the order of their first crossing, then closed
// loops; so the result is a deterministic function of g.
//
// Crossings are numbered: the horizontal grid line from (i, j) to (i+1, j)
// is j·(nx−1)+i, and the vertical one from (i, j) to (i, j+1) is
// (nx−1)·ny + j·nx + i.
func contour(g plotter.GridXYZ) []polyline {
	nx, ny := g.Dims()
	in := func(i, j int) bool { return g.Z(i, j) >= 0 }
	hz := (nx - 1) * ny
	h := func(i, j int) int { return j*(nx-1) + i }
	v := func(i, j int) int { return hz + j*nx + i }

	// next is the crossing each crossing is joined to, −1 for none, and
	// entered tells whether a segment ends at it.
	next := make([]int32, hz+nx*(ny-1))
	for k := range next {
		next[k] = -1
	}
	entered := make([]bool, len(next))
	join := func(from, to int) {
		next[from] = int32(to)
		entered[to] = true
	}
	for j := range ny - 1 {
		for i := range nx - 1 {
			// Corners counter-clockwise from the lower left, and the grid
			// line side[k] from corner k to corner k+1.
			corner := [4]bool{in(i, j), in(i+1, j), in(i+1, j+1), in(i, j+1)}
			side := [4]int{h(i, j), v(i+1, j), h(i, j+1), v(i, j)}
			var out, back []int // sides going out and coming back in
			for k := range 4 {
				switch a, b := corner[k], corner[(k+1)%4]; {
				case a && !b:
					out = append(out, k)
				case !a && b:
					back = append(back, k)
				}
			}
			switch len(out) {
			case 1:
				join(side[out[0]], side[back[0]])
			case 2:
				mean := (g.Z(i, j) + g.Z(i+1, j) + g.Z(i+1, j+1) + g.Z(i, j+1)) / 4
				for k := range 4 {
					// Corner k lies between side[k−1] and side[k].
					if corner[k] == (mean >= 0) {
						continue
					}
					if corner[k] {
						join(side[k], side[(k+3)%4])
					} else {
						join(side[(k+3)%4], side[k])
					}
				}
			}
		}
	}

	// point returns the crossing k in data coordinates.
	point := func(k int) [2]float64 {
		var i0, j0, i1, j1 int
		if k < hz {
			i0, j0 = k%(nx-1), k/(nx-1)
			i1, j1 = i0+1, j0
		} else {
			i0, j0 = (k-hz)%nx, (k-hz)/nx
			i1, j1 = i0, j0+1
		}
		z0, z1 := g.Z(i0, j0), g.Z(i1, j1)
		t := z0 / (z0 - z1) // z0 and z1 lie on opposite sides of 0
		x0, y0, x1, y1 := g.X(i0), g.Y(j0), g.X(i1), g.Y(j1)
		return [2]float64{x0 + t*(x1-x0), y0 + t*(y1-y0)}
	}
	seen := make([]bool, len(next))
	trace := func(start int) polyline {
		var l polyline
		for k := start; ; {
			seen[k] = true
			l.pts = append(l.pts, point(k))
			k = int(next[k])
			if k < 0 {
				return l
			}
			if k == start {
				l.closed = true
				return l
			}
		}
	}
	var lines []polyline
	for k := range next {
		// An open polyline starts at a crossing no segment enters.
		if !entered[k] && next[k] >= 0 {
			lines = append(lines, trace(k))
		}
	}
	for k := range next {
		if !seen[k] && next[k] >= 0 {
			lines = append(lines, trace(k))
		}
	}
	return lines
}
