package cluster

import (
	"cmp"
	"math"
	"slices"

	"github.com/svclust/svclust/internal/unionfind"
)

// bisectMaxDim is the most features bisect works in: two. In three the
// cut splits rings and other thin curves (its valleys there are the
// estimate's noise) more often than it separates blobs the level tree
// joined (docs/defaults.md, "Cuts where the level tree has no split").
const bisectMaxDim = 2

// kdeSample is the most rows of a cluster the estimate of bisect is made
// of: a stride sample, so that the cost of a cut does not grow with N
// (the sample of every quadratic step, rankSample).
const kdeSample = rankSample

// bisect divides the clusters of modeCluster where the level tree of f
// has no significant split, by the level tree of a smoother estimate: a
// Gaussian kernel density estimate of the cluster's rows (bandwidth of
// the normal-reference rule, see bimodalPath) evaluated at its modes'
// points and along the links between neighbouring modes (edges), each
// link weighted by the lowest value on it. The tree of highest links
// (the maximin paths, so a valley is the lowest point of the best path
// between two modes, not of a straight line) is cut at the link whose
// value lies furthest, in standard errors, below the lower of the highest
// modes on its two sides, when that is significant (significantValley,
// corrected for the length of the tree path between those two modes) and
// each side has at least minSize rows; each side is then divided again
// with an estimate of its own rows. Each part keeps its cluster's birth
// and the share of its excess of mass its rows have. It returns the new
// cluster of each mode, births and stabilities.
func bisect(modeCluster []int, birth, stab []float64, edges []modeEdge, rows [][]int, data, reps []float64, d, minSize int) ([]int, []float64, []float64) {
	k := len(birth)
	byCluster := make([][]int, k)
	for m, c := range modeCluster {
		if c >= 0 {
			byCluster[c] = append(byCluster[c], m)
		}
	}
	out := slices.Clone(modeCluster)
	var nb, ns []float64
	for c, ms := range byCluster {
		if len(ms) == 0 {
			continue
		}
		parts := kdeSplit(ms, edges, rows, data, reps, d, minSize)
		total := float64(modeRows(ms, rows))
		for _, p := range parts {
			g := len(nb)
			nb = append(nb, birth[c])
			ns = append(ns, stab[c]*float64(modeRows(p, rows))/total)
			for _, m := range p {
				out[m] = g
			}
		}
	}
	return out, nb, ns
}

// modeRows returns the number of rows of the modes ms.
func modeRows(ms []int, rows [][]int) int {
	var s int
	for _, m := range ms {
		s += len(rows[m])
	}
	return s
}

// kdeSplit divides the modes ms as bisect describes and returns the parts.
func kdeSplit(ms []int, edges []modeEdge, rows [][]int, data, reps []float64, d, minSize int) [][]int {
	if len(ms) < 2 || modeRows(ms, rows) < 2*minSize {
		return [][]int{ms}
	}
	x := partRows(ms, nil, rows, data, d)
	if m := len(x) / d; m > kdeSample {
		// A stride sample of kdeSample rows.
		y := make([]float64, 0, kdeSample*d)
		for i := range kdeSample {
			r := i * m / kdeSample
			y = append(y, x[r*d:r*d+d]...)
		}
		x = y
	}
	h := silverman(x, d)
	if !(h > 0) {
		return [][]int{ms}
	}
	m := len(x) / d
	local := make(map[int]int, len(ms))
	for i, mo := range ms {
		local[mo] = i
	}
	norm := float64(m) * math.Pow(2*math.Pi*h*h, float64(d)/2)
	kde := func(pt []float64) float64 {
		var v float64
		for r := range m {
			v += math.Exp(-sqDist(pt, x[r*d:r*d+d]) / (2 * h * h))
		}
		return v / norm
	}
	top := make([]float64, len(ms)) // the estimate at each mode
	for i, mo := range ms {
		top[i] = kde(reps[mo*d : mo*d+d])
	}
	type link struct {
		i, j int
		w, l float64 // the lowest estimate on the link, its length
	}
	var links []link
	pt := make([]float64, d)
	for _, e := range edges {
		i, ok1 := local[e.i]
		j, ok2 := local[e.j]
		if !ok1 || !ok2 {
			continue
		}
		p, q := reps[e.i*d:e.i*d+d], reps[e.j*d:e.j*d+d]
		l := math.Sqrt(sqDist(p, q))
		ns := min(64, max(1, int(math.Ceil(l/(h/4)))))
		w := min(top[i], top[j])
		for s := 1; s < ns; s++ {
			u := float64(s) / float64(ns)
			for t := range pt {
				pt[t] = p[t] + u*(q[t]-p[t])
			}
			w = min(w, kde(pt))
		}
		links = append(links, link{i, j, w, l})
	}
	// The tree of highest links.
	slices.SortFunc(links, func(a, b link) int { return cmp.Compare(b.w, a.w) })
	u := unionfind.New(len(ms))
	adj := make([][]int, len(ms)) // indices into tree
	var tree []link
	for _, e := range links {
		ri, rj := u.Find(e.i), u.Find(e.j)
		if ri == rj {
			continue
		}
		u[max(ri, rj)] = min(ri, rj)
		adj[e.i] = append(adj[e.i], len(tree))
		adj[e.j] = append(adj[e.j], len(tree))
		tree = append(tree, e)
	}
	// side marks the modes reached from start without crossing link cut.
	side := func(start, cut int) []bool {
		in := make([]bool, len(ms))
		in[start] = true
		stack := []int{start}
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, t := range adj[v] {
				if t == cut {
					continue
				}
				o := tree[t].i
				if o == v {
					o = tree[t].j
				}
				if !in[o] {
					in[o] = true
					stack = append(stack, o)
				}
			}
		}
		return in
	}
	// pathLength is the length of the tree path from a to b (within one
	// component).
	pathLength := func(a, b int) float64 {
		dist := map[int]float64{a: 0}
		stack := []int{a}
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, t := range adj[v] {
				o := tree[t].i
				if o == v {
					o = tree[t].j
				}
				if _, ok := dist[o]; !ok {
					dist[o] = dist[v] + tree[t].l
					stack = append(stack, o)
				}
			}
		}
		return dist[b]
	}
	best, bestStat := -1, 0.0
	var bestSide []bool
	for t, e := range tree {
		in := side(e.i, t)
		other := side(e.j, t)
		var ra, rb int
		pa, pb := -1, -1
		for v := range ms {
			switch {
			case in[v]:
				ra += len(rows[ms[v]])
				if pa < 0 || top[v] > top[pa] {
					pa = v
				}
			case other[v]:
				rb += len(rows[ms[v]])
				if pb < 0 || top[v] > top[pb] {
					pb = v
				}
			}
		}
		if ra < minSize || rb < minSize {
			continue
		}
		pk := min(top[pa], top[pb])
		if !significantValley(pk, e.w, h, pathLength(pa, pb), m, d) {
			continue
		}
		if s := (pk - e.w) / valleySE(pk, e.w, h, m, d); best < 0 || s > bestStat {
			best, bestStat, bestSide = t, s, in
		}
	}
	if best < 0 {
		return [][]int{ms}
	}
	var a, b []int
	for v, mo := range ms {
		if bestSide[v] {
			a = append(a, mo)
		} else {
			b = append(b, mo)
		}
	}
	return append(kdeSplit(a, edges, rows, data, reps, d, minSize), kdeSplit(b, edges, rows, data, reps, d, minSize)...)
}

// silverman returns the normal-reference bandwidth of the rows x (d
// features each) for a Gaussian kernel in d dimensions (see bimodalPath),
// 0 for fewer than 4 rows.
func silverman(x []float64, d int) float64 {
	m := len(x) / d
	if m < 4 {
		return 0
	}
	var s2 float64
	col := make([]float64, m)
	for j := range d {
		var mu, ss float64
		for i := range m {
			col[i] = x[i*d+j]
			mu += col[i]
		}
		mu /= float64(m)
		for _, v := range col {
			ss += (v - mu) * (v - mu)
		}
		sd := math.Sqrt(ss / float64(m-1))
		slices.Sort(col)
		if iqr := (col[m*3/4] - col[m/4]) / 1.34; iqr > 0 {
			sd = min(sd, iqr)
		}
		s2 += sd * sd
	}
	return math.Sqrt(s2/float64(d)) * math.Pow(4/(float64(d+2)*float64(m)), 1/float64(d+4))
}
