package figure

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"strings"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/internal/atomicfile"
)

// DPI is the resolution of PNG files.
const DPI = 150

// PanelSize is the width and height of one panel drawn by Panels.
const PanelSize = 4 * vg.Inch

// MinSize and MaxSize bound the width and height of the image Save
// writes: below an inch nothing is legible, and 200 inches, far beyond any
// page, keep a PNG below 30,000 pixels a side at DPI.
const (
	MinSize = MinInches * vg.Inch
	MaxSize = MaxInches * vg.Inch
)

// MinInches and MaxInches are MinSize and MaxSize in inches.
const (
	MinInches = 1
	MaxInches = 200
)

// Inches returns the length of v inches, for the sizes of Save.
func Inches(v float64) vg.Length { return vg.Length(v) * vg.Inch }

// ErrFormat is wrapped by the error of Format, Save and Panels for a file
// name that ends neither in .png nor in .svg.
var ErrFormat = errors.New("figure: the file name must end in .png or .svg")

// Format returns the image format of the file path from its extension,
// case ignored: "png" or "svg". For any other name it returns an error
// wrapping ErrFormat.
func Format(path string) (string, error) {
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".png", ".svg":
		return ext[1:], nil
	}
	return "", fmt.Errorf("%w: %q", ErrFormat, path)
}

// Save draws plots side by side, in one row of equal tiles, on a w×h image
// and writes it to the file path, as PNG (at DPI dots per inch) or SVG by
// the extension of path (see Format). An SVG file embeds its font
// (Liberation, about 350 KB), so that text is measured and drawn alike
// everywhere. The file is written to a temporary file and renamed, so a
// failed Save leaves an existing file unchanged.
//
// Save gives every plot an equal aspect ratio, a unit as long on the y axis
// as on the x axis, by widening the shorter of its axis ranges about its
// centre: the Gaussian kernel is isotropic, so the domain of novelty is only
// seen undistorted that way. It changes the axis ranges of the plots.
//
// It returns an error, before writing anything, if no plot is given, a
// plot is nil, or w or h is outside [MinSize, MaxSize].
func Save(path string, w, h vg.Length, plots ...*plot.Plot) error {
	return save(path, "", w, h, plots)
}

// A Panel is one plot of a figure made by Panels.
type Panel struct {
	// Title is drawn above the panel, such as the name of the method.
	Title string
	// X holds the points, one row each; it must have 2 columns.
	X mat.Matrix
	// Labels holds the cluster of each row of X, negative for outliers;
	// nil draws every point as cluster 0.
	Labels []int
	// Model, if not nil, adds its domain of novelty, boundary and support
	// vectors as drawn by Domain; nil draws the points alone, as Clusters.
	Model *svclust.Model
}

// Panels draws panels side by side, each PanelSize square, under the title
// (none if ""), and writes the figure to the file path as Save does: the
// paper's visual experiments show its method beside C-means and fuzzy
// C-means on the same data this way. All panels get the same axis ranges,
// the union of their own, so that they compare at a glance. It returns an
// error for a bad file name, a panel that Domain or Clusters rejects, and
// an empty panels.
func Panels(path, title string, panels []Panel) error {
	if len(panels) == 0 {
		return errors.New("figure: no panels")
	}
	if _, err := Format(path); err != nil {
		return err
	}
	plots := make([]*plot.Plot, len(panels))
	for i, pn := range panels {
		opt := &Options{Title: pn.Title}
		var err error
		if pn.Model != nil {
			plots[i], err = Domain(pn.Model, pn.X, pn.Labels, opt)
		} else {
			plots[i], err = Clusters(pn.X, pn.Labels, opt)
		}
		if err != nil {
			if pn.Title != "" {
				return fmt.Errorf("panel %q: %w", pn.Title, err)
			}
			return fmt.Errorf("panel %d: %w", i+1, err)
		}
	}
	unionRange(plots)
	w, h := PanelSize*vg.Length(len(panels)), PanelSize
	if title != "" {
		h += titleHeight
	}
	return save(path, title, w, h, plots)
}

// titleHeight is the height of the band that holds the title of Panels.
const titleHeight = 0.4 * vg.Inch

// titleStyle is the style of the title of Panels.
var titleStyle = text.Style{
	Color:   color.Black,
	Font:    font.From(plot.DefaultFont, 14),
	XAlign:  draw.XCenter,
	YAlign:  draw.YCenter,
	Handler: plot.DefaultTextHandler,
}

// unionRange sets the axis ranges of every plot to the union of them all.
func unionRange(plots []*plot.Plot) {
	xmin, xmax := math.Inf(1), math.Inf(-1)
	ymin, ymax := math.Inf(1), math.Inf(-1)
	for _, p := range plots {
		xmin, xmax = min(xmin, p.X.Min), max(xmax, p.X.Max)
		ymin, ymax = min(ymin, p.Y.Min), max(ymax, p.Y.Max)
	}
	for _, p := range plots {
		p.X.Min, p.X.Max = xmin, xmax
		p.Y.Min, p.Y.Max = ymin, ymax
	}
}

// save is Save with a title over the row of plots.
func save(path, title string, w, h vg.Length, plots []*plot.Plot) error {
	if len(plots) == 0 {
		return errors.New("figure: no plots")
	}
	for i, p := range plots {
		if p == nil {
			return fmt.Errorf("figure: plot %d is nil", i+1)
		}
	}
	if !(w >= MinSize && w <= MaxSize && h >= MinSize && h <= MaxSize) {
		return fmt.Errorf("figure: the image size %v×%v: each side must be in [%v, %v] (1 to 200 inches)", w, h, MinSize, MaxSize)
	}
	format, err := Format(path)
	if err != nil {
		return err
	}
	var cw vg.CanvasWriterTo
	switch format {
	case "png":
		cw = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(DPI))}
	case "svg":
		cw = vgsvg.NewWith(vgsvg.UseWH(w, h), vgsvg.EmbedFonts(true))
	}
	dc := draw.New(cw)
	// SVG has no background of its own; the plots fill only their tiles.
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	if title != "" {
		th := min(titleHeight, h/2)
		dc.FillText(titleStyle, vg.Point{X: dc.Center().X, Y: dc.Max.Y - th/2}, title)
		dc.Max.Y -= th
	}
	tiles := draw.Tiles{Rows: 1, Cols: len(plots), PadX: vg.Points(6), PadTop: vg.Points(4), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(8)}
	for i, p := range plots {
		c := tiles.At(dc, i, 0)
		equalAspect(p, c)
		drawPlot(p, c)
	}
	return atomicfile.WriteFile(path, func(wr io.Writer) error {
		_, err := cw.WriteTo(wr)
		return err
	})
}

// unitScale is the linear scale of an axis drawn in the data's own units
// while the model lives in a scaled space where one data unit is mul
// units: equalAspect then equalises the model's units, in which the
// Gaussian kernel is isotropic.
type unitScale struct{ mul float64 }

// Normalize implements plot.Normalizer as plot.LinearScale does.
func (unitScale) Normalize(min, max, x float64) float64 { return (x - min) / (max - min) }

// unitsOf returns the model units per data unit of axis a: its unitScale's,
// else 1.
func unitsOf(a *plot.Axis) float64 {
	if u, ok := a.Scale.(unitScale); ok && u.mul > 0 && !math.IsInf(u.mul, 0) {
		return u.mul
	}
	return 1
}

// equalAspect widens the shorter axis range of p about its centre so that
// a model unit has the same length on both axes of its data area in c (a
// data unit, unless the axes are unitScales). The data area depends on the
// tick labels, which depend on the ranges, so it repeats until the ratio
// holds to 0.1% (the tick labels settle after a widening or two).
func equalAspect(p *plot.Plot, c draw.Canvas) {
	ux, uy := unitsOf(&p.X), unitsOf(&p.Y)
	for range 5 {
		dc := p.DataCanvas(c)
		w, h := float64(dc.Max.X-dc.Min.X), float64(dc.Max.Y-dc.Min.Y)
		// The ranges in model units.
		xr, yr := (p.X.Max-p.X.Min)*ux, (p.Y.Max-p.Y.Min)*uy
		if !(w > 0 && h > 0 && xr > 0 && yr > 0) {
			return
		}
		// Data units per length unit on each axis.
		sx, sy := xr/w, yr/h
		if math.Abs(sx-sy) <= 1e-3*max(sx, sy) {
			return
		}
		if sx < sy {
			widen(&p.X.Min, &p.X.Max, sy*w/ux)
		} else {
			widen(&p.Y.Min, &p.Y.Max, sx*h/uy)
		}
	}
}

// widen sets the range [*lo, *hi] to width about its centre.
func widen(lo, hi *float64, width float64) {
	mid := (*lo + *hi) / 2
	*lo, *hi = mid-width/2, mid+width/2
}

// legendBackground is the translucent white behind a legend, so that it
// stays legible over the data.
var legendBackground = color.NRGBA{0xff, 0xff, 0xff, 0xd8}

// drawPlot draws p on c, with its legend, if any, on a translucent box in
// the corner of the data area. (plot.Draw draws a legend straight over the
// data.)
func drawPlot(p *plot.Plot, c draw.Canvas) {
	leg := p.Legend
	p.Legend = plot.NewLegend()
	p.Draw(c)
	p.Legend = leg
	dc := p.DataCanvas(c)
	// Legend.Rectangle gives the size but not the place (it ignores the
	// offsets, and swaps left and right); newPlot puts the legend in the
	// top right corner, where Legend.Draw starts the first entry a font
	// descent below the top.
	size := leg.Rectangle(dc).Size()
	if size.X <= 0 {
		return // no entries
	}
	top := dc.Max.Y + leg.YOffs - leg.TextStyle.FontExtents().Descent
	right := dc.Max.X + leg.XOffs
	pad := vg.Points(3)
	box := vg.Rectangle{
		Min: vg.Point{X: right - size.X - pad, Y: top - size.Y - pad},
		Max: vg.Point{X: right + pad, Y: top + pad},
	}
	dc.SetColor(legendBackground)
	dc.Fill(box.Path())
	leg.Draw(dc)
}
