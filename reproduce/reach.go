package reproduce

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/svclust/svclust/internal/kernel"
	"github.com/svclust/svclust/internal/parallel"
)

// Reach bounds how much of a data set the domain of novelty f ≥ 0 of the
// paper's objective can hold at each γ of the grid, for the largest C of
// the grid.
//
// At the optimum of J(w) = ½‖w‖² + (C/N) Σᵢ max(0, 1 − wᵀφ(xᵢ)), w =
// Σᵢ βᵢ φ(xᵢ) with 0 ≤ βᵢ ≤ C/N (the box constraint of the dual, from the
// stationarity of the Lagrangian in ξᵢ), and the Gaussian kernel is
// positive, so
//
//	f(x) = Σᵢ βᵢ k(xᵢ, x) − 1 ≤ C · (1/N) Σᵢ k(xᵢ, x) − 1.
//
// A point x can therefore lie in the domain only if the mean kernel value
// (1/N) Σᵢ k(xᵢ, x) is at least 1/C. The budgeted variants approximate this
// optimum; their coefficients are not boxed, but the weight they carry
// near x still comes from the samples drawn near x. The clusters are the
// pieces of the domain that hold equilibria; a point outside it takes the
// cluster of its nearest strip point, so a class that the domain cannot
// hold at the γ that separates it is merged into a neighbouring cluster.
type Reach struct {
	Dataset string `json:"dataset"`
	// C is the largest C of the grid.
	C float64 `json:"C"`
	// Gammas is the grid of γ; All[i] is the share of the points whose
	// mean kernel value at Gammas[i] is at least 1/C, and Worst[i] the
	// smallest such share of any class.
	Gammas []float64 `json:"gammas"`
	All    []float64 `json:"all"`
	Worst  []float64 `json:"worst_class"`
}

// Reach computes the Reach of d for the grids of p, on p.Workers
// goroutines. It takes O(N²·d) time per γ and O(N) memory, so it is meant
// for the data sets of at most SmallLimit points.
func (p *Protocol) Reach(d *Data) Reach {
	gammas := orDefault(p.Gammas, Grid)
	c := slices.Max(orDefault(p.Cs, Grid))
	n, dim := d.X.Dims()
	x := d.X.RawMatrix().Data
	if d.X.RawMatrix().Stride != dim {
		panic("reproduce: Reach needs a compact matrix")
	}
	ones := make([]float64, n)
	for i := range ones {
		ones[i] = 1
	}
	size := make([]int, d.Classes)
	for _, l := range d.Labels {
		size[l]++
	}
	r := Reach{Dataset: d.Name, C: c, Gammas: gammas}
	in := make([]bool, n)
	for _, g := range gammas {
		parallel.For(n, 16, p.workers(n), func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				in[i] = kernel.Sum(x[i*dim:i*dim+dim], x, ones, g)/float64(n) >= 1/c
			}
		})
		count := make([]int, d.Classes)
		total := 0
		for i, ok := range in {
			if ok {
				count[d.Labels[i]]++
				total++
			}
		}
		worst := 1.0
		for k, s := range size {
			if s > 0 {
				worst = math.Min(worst, float64(count[k])/float64(s))
			}
		}
		r.All = append(r.All, float64(total)/float64(n))
		r.Worst = append(r.Worst, worst)
	}
	return r
}

// AddReach sets r.Reach to the Reach of every data set of r.Compare(),
// read from dir with r's protocol. Data sets that cannot be read are left
// out, and their errors are returned, joined.
func (r *Report) AddReach(dir string) error {
	r.Reach = nil
	var errs []error
	for _, c := range r.Compare() {
		d, err := Load(dir, Lookup(c.Dataset), r.Protocol.Scale)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		r.Reach = append(r.Reach, r.Protocol.Reach(d))
	}
	return errors.Join(errs...)
}

// writeReach writes the section of the report that explains, with Reach,
// why the grid of C limits the budgeted methods.
func writeReach(w io.Writer, rs []Reach) {
	fmt.Fprintf(w, "## Why the grid of C limits the budgeted methods\n\n")
	fmt.Fprintf(w, "At the optimum of the paper's objective the coefficients lie in [0, C/N] (the box of its dual), so f(x) ≤ C·(1/N)Σᵢk(xᵢ, x) − 1: ")
	fmt.Fprintf(w, "a point can lie in the domain f ≥ 0 only where the mean kernel value is at least 1/C. ")
	fmt.Fprintf(w, "Each cell is the share of the points where that holds at that γ and the largest C of the grid, then, after the slash, the smallest such share of any class (reproduce.Reach). ")
	fmt.Fprintf(w, "The clusters are the pieces of the domain that hold equilibria; a point outside it takes the cluster of its nearest strip point, so a class none of whose points can be in the domain at a γ is, at that γ, merged into a neighbouring cluster. ")
	fmt.Fprintf(w, "A low share for the worst class at the γ that separate the classes means that no C of the grid can find them all.\n\n")
	gammas := rs[0].Gammas
	fmt.Fprintf(w, "| Dataset | C |")
	for _, g := range gammas {
		fmt.Fprintf(w, " γ = %s |", fmtG(g))
	}
	fmt.Fprintf(w, "\n|---|---|%s\n", strings.Repeat("---|", len(gammas)))
	for _, r := range rs {
		fmt.Fprintf(w, "| %s | %s |", Lookup(r.Dataset).Title, fmtG(r.C))
		for i := range gammas {
			// Rows of another grid of γ (not made by AddReach) are
			// left blank rather than shown under the wrong γ.
			if slices.Equal(r.Gammas, gammas) {
				fmt.Fprintf(w, " %.2f / %.2f |", r.All[i], r.Worst[i])
			} else {
				fmt.Fprintf(w, " |")
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
}
