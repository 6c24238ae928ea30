package cluster

import (
	"cmp"
	"math"
	"slices"

	"github.com/svclust/svclust/internal/assign"
	"github.com/svclust/svclust/internal/eom"
	"github.com/svclust/svclust/internal/kernel"
	"github.com/svclust/svclust/internal/parallel"
	"github.com/svclust/svclust/internal/unionfind"
)

// modeEdges returns the edges between each mode and its nb nearest modes
// (every pair when nb < 0 or nb ≥ nm−1), each at the smallest f of its
// m-point segment, sorted from the highest level down (ties by i, then j).
// With terms (NewTermsOf(f), nil for none) f is evaluated on the terms
// within kernel.CutOff of the largest, as the assignment pass does: in low
// dimension a point of a segment sees a few of the support vectors.
func modeEdges(f *kernel.Field, terms *kernel.Terms, reps []float64, nm, d, nb, mm, w int) []modeEdge {
	var pairs [][2]int
	dist := make([]float64, nm)
	idx := make([]int, nm)
	for i := range nm {
		if nb < 0 || nb >= nm-1 {
			for j := i + 1; j < nm; j++ {
				pairs = append(pairs, [2]int{i, j})
			}
			continue
		}
		kernel.SqDistRowTo(dist, reps[i*d:i*d+d], reps)
		for j := range idx {
			idx[j] = j
		}
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(dist[a], dist[b]) })
		k := 0
		for _, j := range idx {
			if j == i {
				continue
			}
			if k == nb {
				break
			}
			pairs = append(pairs, [2]int{min(i, j), max(i, j)})
			k++
		}
	}
	slices.SortFunc(pairs, func(a, b [2]int) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	pairs = slices.Compact(pairs)
	edges := make([]modeEdge, len(pairs))
	parallel.For(len(pairs), 16, w, func(_, lo, hi int) {
		buf := make([]float64, d)
		value := f.Value
		if terms != nil {
			s := terms.NewScratch()
			value = func(x []float64) float64 {
				sum, _ := terms.Owner(x, s)
				return sum - 1
			}
		}
		for k := lo; k < hi; k++ {
			i, j := pairs[k][0], pairs[k][1]
			edges[k] = modeEdge{assign.SegmentMin(value, reps[i*d:i*d+d], reps[j*d:j*d+d], buf, mm), i, j}
		}
	})
	slices.SortStableFunc(edges, func(a, b modeEdge) int { return cmp.Compare(b.h, a.h) })
	return edges
}

// rippleZ returns the significance of the branch of the level tree made of
// the given modes, met by a higher branch at level h: with nₐ the rows of
// those modes at f ≥ h,
//
//	z = Σ (f − h) / Σ (f + 1) · √(nₐ / (1 + sgd)),
//
// the sums over those nₐ rows; levels and prefix hold the sorted levels of
// the rows of each mode and their prefix sums. Where f + 1 is proportional
// to a kernel density estimate (automatic C), the first factor is the
// share of the branch's mass above the level h, i.e. the rows it holds
// beyond a flat density at h, relative to its rows; a count of nₐ rows has
// Poisson noise √nₐ, so z is that excess in standard errors. The SGD's own
// sampling of T of the N rows adds a variance N/T times the data's: sgd is
// N/T (0 when T is unknown). It returns 0 when no row is above h.
func rippleZ(modes []int, levels, prefix [][]float64, h, sgd float64) float64 {
	var na int
	var ex, tot float64
	for _, k := range modes {
		lv, pf := levels[k], prefix[k]
		i, _ := slices.BinarySearch(lv, h)
		c := len(lv) - i
		sum := pf[len(lv)] - pf[i]
		na += c
		ex += sum - float64(c)*h
		tot += sum + float64(c)
	}
	if na == 0 || !(tot > 0) {
		return 0
	}
	return ex / tot * math.Sqrt(float64(na)/(1+sgd))
}

// joinRipples joins the clusters that the excess-of-mass selection keeps
// apart although the valley between them is within the noise of the
// density estimate. It follows the links from the highest level down, as
// linkage does; where a link at level h joins two branches, the one with
// the lower peak (peak holds f at each mode) is a ripple of the other when
// its rippleZ is below z, and then every cluster among its modes joins the
// cluster of the other branch's mode at the link. Joined clusters take the
// lowest of their birth levels and the sum of their excess of mass, and
// keep the order of their first member. It returns the new cluster of
// each mode, birth levels and stabilities.
func joinRipples(modeCluster []int, edges []modeEdge, peak []float64, levels, prefix [][]float64, birth, stab []float64, z, sgd float64) ([]int, []float64, []float64) {
	nm, k := len(modeCluster), len(birth)
	u := unionfind.New(nm)
	top := slices.Clone(peak) // the peak of each branch, by its root
	members := make([][]int, nm)
	for i := range members {
		members[i] = []int{i}
	}
	same := unionfind.New(k) // clusters joined so far
	for _, e := range edges {
		ri, rj := u.Find(e.i), u.Find(e.j)
		if ri == rj {
			continue
		}
		young, old, at := rj, ri, e.i
		if top[ri] < top[rj] || top[ri] == top[rj] && ri > rj {
			young, old, at = ri, rj, e.j
		}
		if rippleZ(members[young], levels, prefix, e.h, sgd) < z {
			for _, mo := range members[young] {
				a, b := same.Find(modeCluster[mo]), same.Find(modeCluster[at])
				if a != b {
					same[max(a, b)] = min(a, b)
				}
			}
		}
		u[young] = old
		members[old] = append(members[old], members[young]...)
		members[young] = nil
	}
	id := make([]int, k)
	var nb, ns []float64
	for c := range k {
		r := same.Find(c)
		if r == c {
			id[c] = len(nb)
			nb = append(nb, birth[c])
			ns = append(ns, stab[c])
			continue
		}
		id[c] = id[r]
		nb[id[c]] = min(nb[id[c]], birth[c])
		ns[id[c]] += stab[c]
	}
	out := make([]int, nm)
	for i, c := range modeCluster {
		out[i] = id[c]
	}
	return out, nb, ns
}

// linkage builds the single-linkage tree of the nm modes from edges sorted
// from the highest level down (Kruskal's algorithm for the maximum
// spanning forest). Leaves are 0 … nm−1; the components left apart are
// joined at level low. It returns the nodes and the root.
func linkage(edges []modeEdge, nm int, low float64) ([]dnode, int) {
	dn := make([]dnode, nm, 2*nm)
	for i := range dn {
		dn[i] = dnode{-1, -1, math.Inf(1)}
	}
	u := unionfind.New(nm)
	node := make([]int, nm) // the tree node of each set, by its root
	for i := range node {
		node[i] = i
	}
	join := func(a, b int, h float64) {
		ra, rb := u.Find(a), u.Find(b)
		if ra == rb {
			return
		}
		dn = append(dn, dnode{node[ra], node[rb], h})
		u[rb] = ra
		node[ra] = len(dn) - 1
	}
	for _, e := range edges {
		join(e.i, e.j, e.h)
	}
	for i := 1; i < nm; i++ {
		join(0, i, low)
	}
	return dn, node[u.Find(0)]
}

// condensed is the condensed cluster tree of HDBSCAN (Campello et al.
// 2013) read on the levels of f: a cluster is born at the level where its
// branch splits from its sibling into two parts of at least MinSize rows
// each, loses the rows of smaller branches on its way up, and dies where it
// splits again.
type condensed struct {
	clusters []ctCluster
}

type ctCluster struct {
	birth    float64
	stab     float64 // excess of mass: Σ over its rows of g(exit level) − g(birth)
	children []int
	nodes    []int // the tree nodes whose leaves belong to it and no child
}

// prefixSums returns, for each sorted slice of levels, the prefix sums of
// g over it, with a leading 0.
func prefixSums(levels [][]float64, g func(float64) float64) [][]float64 {
	prefix := make([][]float64, len(levels))
	for j, lv := range levels {
		prefix[j] = make([]float64, len(lv)+1)
	}
	prefixSumsTo(prefix, levels, g)
	return prefix
}

// prefixSumsTo writes into prefix, made by prefixSums for the same levels,
// the prefix sums of g over each slice of levels.
func prefixSumsTo(prefix, levels [][]float64, g func(float64) float64) {
	for j, lv := range levels {
		p := prefix[j]
		for k, v := range lv {
			p[k+1] = p[k] + g(v)
		}
	}
}

// identity is the g of levelPower when the excess of mass is measured on
// f itself.
func identity(v float64) float64 { return v }

// levelPower returns the function g(f) = (f + 1)^p on whose values the
// Levels rule measures excess of mass, p being cfg.LevelPower or
// DefaultLevelPower when it is 0; or identity, with onF true, for the
// levels of f themselves, when p is 1 or C was given (cAuto false: f + 1
// is then not a density estimate). Levels below −1, possible only with
// coefficients of both signs, count as −1.
func levelPower(cfg *Levels, cAuto bool) (g func(float64) float64, onF bool) {
	p := cfg.LevelPower
	if p == 0 {
		p = DefaultLevelPower
	}
	if p == 1 || !cAuto {
		return identity, true
	}
	return func(v float64) float64 { return math.Pow(max(v+1, 0), p) }, false
}

// condense builds the condensed tree of dn from root, whose cluster is
// born at level low; levels holds the sorted levels of the rows of each
// mode and prefix the prefix sums of g over them (see levelPower), on
// which excess of mass is measured. Levels, births and the tree's heights
// stay levels of f; only the masses are of g.
func condense(dn []dnode, root int, levels, prefix [][]float64, g func(float64) float64, minSize int, low float64) *condensed {
	return condenseSig(dn, root, levels, prefix, g, minSize, low, nil)
}

// condenseSig is condense with, when sig is not nil, the significance
// test of sig at each split (see significance).
func condenseSig(dn []dnode, root int, levels, prefix [][]float64, g func(float64) float64, minSize int, low float64, sig *significance) *condensed {
	ct := &condensed{}
	var leaves func(v int, out []int) []int
	leaves = func(v int, out []int) []int {
		if dn[v].l < 0 {
			return append(out, v)
		}
		return leaves(dn[v].r, leaves(dn[v].l, out))
	}
	// above counts the rows of subtree v at level ≥ t.
	above := func(v int, t float64) int {
		c := 0
		for _, lf := range leaves(v, nil) {
			k, _ := slices.BinarySearch(levels[lf], t)
			c += len(levels[lf]) - k
		}
		return c
	}
	// mass is Σ max(0, min(g(f), g(top)) − g(base)) over the rows of
	// subtree v.
	mass := func(v int, base, top float64) float64 {
		var s float64
		gb, gt := g(base), g(top)
		for _, lf := range leaves(v, nil) {
			lv, p := levels[lf], prefix[lf]
			i, _ := slices.BinarySearch(lv, base)
			j, _ := slices.BinarySearch(lv, top)
			j = max(i, j)
			s += p[j] - p[i] - float64(j-i)*gb
			if j < len(lv) { // top is finite: the rows above it count g(top) − g(base)
				s += float64(len(lv)-j) * (gt - gb)
			}
		}
		return s
	}
	// split reports whether a node joining l and r at level h is a split
	// of the cluster: always, without sig; with it, only when the branch
	// of the lower peak stands out of the noise.
	split := func(l, r int, h float64) bool {
		if sig == nil {
			return true
		}
		ml, mr := leaves(l, nil), leaves(r, nil)
		young := ml
		if sig.top(mr) < sig.top(ml) {
			young = mr
		}
		z := rippleZ(young, levels, sig.prefixF, h, sig.sgd)
		return z >= sig.z
	}
	var walk func(v int, base float64) int
	var grow func(v int, base float64, c *ctCluster)
	walk = func(v int, base float64) int {
		id := len(ct.clusters)
		ct.clusters = append(ct.clusters, ctCluster{})
		c := ctCluster{birth: base}
		grow(v, base, &c)
		ct.clusters[id] = c
		return id
	}
	grow = func(v int, base float64, c *ctCluster) {
		for {
			c.nodes = append(c.nodes, v)
			if dn[v].l < 0 {
				c.stab += mass(v, base, math.Inf(1))
				return
			}
			h, l, r := dn[v].h, dn[v].l, dn[v].r
			sl, sr := above(l, h), above(r, h)
			if sl >= minSize && sr >= minSize {
				if split(l, r, h) {
					c.stab += mass(v, base, h)
					c.children = append(c.children, walk(l, h), walk(r, h))
					return
				}
				// A ripple: the cluster goes on in both branches.
				grow(l, base, c)
				v = r
				continue
			}
			if sl < minSize && sr < minSize {
				c.stab += mass(v, base, h)
				c.nodes = append(c.nodes, l, r)
				return
			}
			small, big := r, l
			if sl < minSize {
				small, big = l, r
			}
			c.stab += mass(small, base, h)
			c.nodes = append(c.nodes, small)
			v = big
		}
	}
	walk(root, low)
	return ct
}

// significance is the test of condense's splits: a split whose branch
// of the lower peak has a rippleZ below z (on prefixF, the prefix sums of
// f) is a ripple, and the cluster goes on in both branches.
type significance struct {
	z, sgd  float64
	prefixF [][]float64
	peak    []float64 // f at each mode
}

// top returns the highest peak among modes.
func (s *significance) top(modes []int) float64 {
	t := math.Inf(-1)
	for _, m := range modes {
		t = max(t, s.peak[m])
	}
	return t
}

// selectClusters chooses the clusters of largest total excess of mass
// with none inside another (HDBSCAN's "eom" selection, eom.Select); the
// root is chosen only when it has no children. It returns the cluster of
// each mode (−1 for the modes of no chosen cluster), the birth level of
// each chosen cluster and its excess of mass.
func (ct *condensed) selectClusters(dn []dnode, nm int) (modeCluster []int, birth, stab []float64) {
	cs := ct.clusters
	parent := make([]int, len(cs))
	stability := make([]float64, len(cs))
	parent[0] = -1
	for c := range cs {
		stability[c] = cs[c].stab
		for _, k := range cs[c].children {
			parent[k] = c
		}
	}
	selected := eom.Select(parent, stability)
	if len(cs) == 1 {
		selected[0] = true
	}
	modeCluster = make([]int, nm)
	for i := range modeCluster {
		modeCluster[i] = -1
	}
	for c := range cs {
		if !selected[c] {
			continue
		}
		ct.mark(dn, c, modeCluster, len(birth))
		birth = append(birth, cs[c].birth)
		stab = append(stab, cs[c].stab)
	}
	return modeCluster, birth, stab
}

// mark sets the modes of cluster c and its descendants to label.
func (ct *condensed) mark(dn []dnode, c int, modeCluster []int, label int) {
	var leaves func(v int)
	leaves = func(v int) {
		if dn[v].l < 0 {
			modeCluster[v] = label
			return
		}
		leaves(dn[v].l)
		leaves(dn[v].r)
	}
	for _, v := range ct.clusters[c].nodes {
		leaves(v)
	}
	for _, k := range ct.clusters[c].children {
		ct.mark(dn, k, modeCluster, label)
	}
}

// spread gives every mode of no chosen cluster (−1) a cluster: edges, in
// order from the highest level down, join the modes into components, and
// when a component without a cluster meets one with, all its modes take
// the cluster of the mode the edge reaches: the cluster they are connected
// to at the highest level. A mode whose component meets none (when the
// edges between near neighbours leave it apart from every chosen cluster)
// takes the cluster of the nearest mode that has one, the modes being the
// rows of the row-major reps of dimension d.
func spread(modeCluster []int, edges []modeEdge, reps []float64, d int) {
	nm := len(modeCluster)
	u := unionfind.New(nm)
	members := make([][]int, nm)
	for i := range members {
		members[i] = []int{i}
	}
	// A component has a cluster when its modes all have one.
	for _, e := range edges {
		ri, rj := u.Find(e.i), u.Find(e.j)
		if ri == rj {
			continue
		}
		switch ci, cj := modeCluster[e.i], modeCluster[e.j]; {
		case ci >= 0 && cj < 0:
			for _, k := range members[rj] {
				modeCluster[k] = ci
			}
		case ci < 0 && cj >= 0:
			for _, k := range members[ri] {
				modeCluster[k] = cj
			}
		}
		u[rj] = ri
		members[ri] = append(members[ri], members[rj]...)
		members[rj] = nil
	}
	var labelled []int
	for i, c := range modeCluster {
		if c >= 0 {
			labelled = append(labelled, i)
		}
	}
	for i, c := range modeCluster {
		if c >= 0 {
			continue
		}
		best, bd := 0, math.Inf(1) // cluster 0 if none has a cluster
		for _, j := range labelled {
			if dd := kernel.SqDist(reps[i*d:i*d+d], reps[j*d:j*d+d]); dd < bd {
				best, bd = modeCluster[j], dd
			}
		}
		modeCluster[i] = best
	}
}
