package cluster

import (
	"math"
	"slices"

	"github.com/svclust/svclust/internal/unionfind"
)

// saddleAlpha is the one-sided level of the saddle test of bimodalPath
// before Bonferroni's correction: 2.5 %, z = 1.96 for one estimate.
const saddleAlpha = 0.025

// divide refines the clusters of modeCluster (the selection of condense
// without the significance test, ripples joined) by those of sigCluster
// (the selection of the tree condensed with it): a cluster that sigCluster
// divides into parts keeps apart two parts only when their rows have two
// modes along the path between them (bimodalPath); parts not so kept
// apart, directly or through other parts, stay together. rows lists the
// rows of each mode, data holds the rows (d features), reps the points of
// the modes and peak f at each. Parts keep the cluster's birth and take
// the excess of mass of their cluster of sigCluster. It returns the new
// cluster of each mode, births and stabilities.
func divide(modeCluster, sigCluster []int, birth, stab, sigStab []float64, rows [][]int, data, reps, peak []float64, d int) ([]int, []float64, []float64) {
	k := len(birth)
	// The parts of each cluster: its modes grouped by sigCluster.
	type part struct {
		c, s  int
		modes []int
	}
	var parts []part
	index := map[[2]int]int{}
	for m, c := range modeCluster {
		if c < 0 {
			continue
		}
		key := [2]int{c, sigCluster[m]}
		i, ok := index[key]
		if !ok {
			i = len(parts)
			index[key] = i
			parts = append(parts, part{c: c, s: sigCluster[m]})
		}
		parts[i].modes = append(parts[i].modes, m)
	}
	byCluster := make([][]int, k)
	for i, p := range parts {
		byCluster[p.c] = append(byCluster[p.c], i)
	}
	u := unionfind.New(len(parts))
	for _, ps := range byCluster {
		if len(ps) < 2 {
			continue
		}
		for a := range ps {
			for b := a + 1; b < len(ps); b++ {
				i, j := ps[a], ps[b]
				if u.Find(i) == u.Find(j) {
					continue // already together
				}
				if !bimodalPath(parts[i].modes, parts[j].modes, rows, data, reps, peak, d) {
					ri, rj := u.Find(i), u.Find(j)
					if ri != rj {
						u[max(ri, rj)] = min(ri, rj)
					}
				}
			}
		}
	}
	// Number the groups in the order of their clusters, then of parts.
	id := make([]int, len(parts))
	var nb, ns []float64
	for c := range k {
		seen := map[int]int{}
		for _, i := range byCluster[c] {
			r := u.Find(i)
			if g, ok := seen[r]; ok {
				id[i] = g
				if len(byCluster[c]) > 1 {
					ns[g] += sigStab[parts[i].s]
				}
				continue
			}
			g := len(nb)
			seen[r], id[i] = g, g
			nb = append(nb, birth[c])
			if len(byCluster[c]) > 1 {
				ns = append(ns, sigStab[parts[i].s])
			} else {
				ns = append(ns, stab[c])
			}
		}
	}
	out := make([]int, len(modeCluster))
	for m := range out {
		out[m] = -1
	}
	for i, p := range parts {
		for _, m := range p.modes {
			out[m] = id[i]
		}
	}
	// A cluster left whole keeps its excess of mass.
	for c := range k {
		if ps := byCluster[c]; len(ps) > 1 {
			whole := true
			for _, i := range ps[1:] {
				whole = whole && id[i] == id[ps[0]]
			}
			if whole {
				ns[id[ps[0]]] = stab[c]
			}
		}
	}
	return out, nb, ns
}

// bimodalPath reports whether the rows of the modes a and b have two
// modes along the path between them: the path joins the highest mode of a
// (by peak, f at each mode's point in reps) to the highest of b through
// the tree of shortest links among the points of a's and b's modes, so it
// follows the data, also along a curved arm (a straight line between two
// parts of an arm crosses the empty side of the curve and would make a
// valley of it). The estimate is a Gaussian kernel density estimate of the
// m rows in all d dimensions with the isotropic bandwidth of the
// normal-reference rule, h = σ·(4/((d+2)·m))^(1/(d+4)), σ² the mean over
// the dimensions of min(s, IQR/1.34)²; from the rows of both parts, it
// oversmooths a mixture and so errs towards one mode. Evaluated at points
// h/4 apart along the path (at most 256), its lowest value, the valley,
// must lie below the lower of the highest values on either side of it,
// the peaks, by z standard errors of their difference,
// √((f̂_peak + f̂_valley)·R(K)/(m·h^d)) with R(K) = (2√π)^(−d); z is the
// one-sided normal quantile at saddleAlpha divided by the number of
// independent estimates along the path, about its length over h
// (Bonferroni's correction, since the valley and the peaks are extremes
// among them). The cost is the rows times the points on the path, linear
// in the rows.
func bimodalPath(a, b []int, rows [][]int, data, reps, peak []float64, d int) bool {
	top := func(ms []int) int {
		t := ms[0]
		for _, m := range ms {
			if peak[m] > peak[t] {
				t = m
			}
		}
		return t
	}
	path := treePath(a, b, top(a), top(b), reps, d)
	x := partRows(a, b, rows, data, d)
	f, h, length := kdeAlong(path, x, d)
	if f == nil {
		return false
	}
	iv := 0
	for i := range f {
		if f[i] < f[iv] {
			iv = i
		}
	}
	pk := min(slices.Max(f[:iv+1]), slices.Max(f[iv:]))
	return significantValley(pk, f[iv], h, length, len(x)/d, d)
}

// valleySE is the standard error of the difference of two estimates pk
// and v of a kernel density estimate of m rows in d dimensions with
// bandwidth h.
func valleySE(pk, v, h float64, m, d int) float64 {
	return math.Sqrt((pk + v) * math.Pow(2*math.Sqrt(math.Pi), -float64(d)) / (float64(m) * math.Pow(h, float64(d))))
}

// significantValley reports whether the valley v of a kernel density
// estimate of m rows in d dimensions with bandwidth h lies below the lower
// peak pk by z standard errors of their difference, z at saddleAlpha
// corrected for the length/h independent estimates along a path of that
// length (see bimodalPath).
func significantValley(pk, v, h, length float64, m, d int) bool {
	se := valleySE(pk, v, h, m, d)
	// The valley and the peaks are extremes among about length/h
	// independent estimates: the level is Bonferroni's over them.
	z := math.Sqrt2 * math.Erfinv(1-2*saddleAlpha/max(1, length/h))
	return v < pk-z*se
}

// treePath returns the points of the path from mode ta to mode tb through
// Prim's tree of the points (reps) of the modes a and b, which hold them.
func treePath(a, b []int, ta, tb int, reps []float64, d int) [][]float64 {
	modes := append(slices.Clone(a), b...)
	k := len(modes)
	dist := make([]float64, k)
	parent := make([]int, k)
	in := make([]bool, k)
	root := slices.Index(modes, ta)
	for i := range dist {
		dist[i], parent[i] = math.Inf(1), -1
	}
	dist[root] = 0
	for range k {
		u := -1
		for i := range k {
			if !in[i] && (u < 0 || dist[i] < dist[u]) {
				u = i
			}
		}
		in[u] = true
		pu := reps[modes[u]*d : modes[u]*d+d]
		for i := range k {
			if in[i] {
				continue
			}
			if e := sqDist(pu, reps[modes[i]*d:modes[i]*d+d]); e < dist[i] {
				dist[i], parent[i] = e, u
			}
		}
	}
	var path [][]float64
	for i := slices.Index(modes, tb); i >= 0; i = parent[i] {
		path = append(path, reps[modes[i]*d:modes[i]*d+d])
	}
	return path
}

// partRows returns the rows (d features each, from data) of the modes a
// and b, one after another.
func partRows(a, b []int, rows [][]int, data []float64, d int) []float64 {
	var x []float64
	for _, ms := range [][]int{a, b} {
		for _, m := range ms {
			for _, i := range rows[m] {
				x = append(x, data[i*d:i*d+d]...)
			}
		}
	}
	return x
}

// kdeAlong evaluates the Gaussian kernel density estimate of the rows x
// (d features each) along path, at points h/4 apart (at most 256), with
// the bandwidth h of the normal-reference rule (see bimodalPath); it
// returns the values, h and the path's length, or nil for fewer than 4
// rows, a path of one point or a zero bandwidth.
func kdeAlong(path [][]float64, x []float64, d int) ([]float64, float64, float64) {
	m := len(x) / d
	if m < 4 || len(path) < 2 {
		return nil, 0, 0
	}
	h := silverman(x, d)
	if !(h > 0) {
		return nil, 0, 0
	}
	var length float64
	for i := 1; i < len(path); i++ {
		length += math.Sqrt(sqDist(path[i-1], path[i]))
	}
	step := max(h/4, length/256)
	norm := float64(m) * math.Pow(2*math.Pi*h*h, float64(d)/2)
	var f []float64
	pt := make([]float64, d)
	for i := 1; i < len(path); i++ {
		p, q := path[i-1], path[i]
		l := math.Sqrt(sqDist(p, q))
		ns := max(1, int(math.Ceil(l/step)))
		last := 0
		if i == len(path)-1 {
			last = 1
		}
		for s := range ns + last {
			u := float64(s) / float64(ns)
			for j := range pt {
				pt[j] = p[j] + u*(q[j]-p[j])
			}
			var v float64
			for r := range m {
				v += math.Exp(-sqDist(pt, x[r*d:r*d+d]) / (2 * h * h))
			}
			f = append(f, v/norm)
		}
	}
	return f, h, length
}

// sqDist returns the squared distance between x and y.
func sqDist(x, y []float64) float64 {
	var s float64
	for j, v := range x {
		s += (v - y[j]) * (v - y[j])
	}
	return s
}
