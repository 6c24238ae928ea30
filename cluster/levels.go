package cluster

import (
	"cmp"
	"gonum.org/v1/gonum/mat"
	"math"
	"slices"
	"time"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/internal/assign"
	"github.com/svclust/svclust/internal/kernel"
	"github.com/svclust/svclust/internal/parallel"
	"github.com/svclust/svclust/internal/unionfind"
)

// DefaultMinShare sets the smallest cluster of the LevelTree rule when
// Config.MinSize is 0: max(5, ⌈0.0075·N⌉) points. Five is HDBSCAN's
// default min_cluster_size; the share keeps the number of clusters from
// growing with N, as five points would on a million rows. A branch of the
// level tree counts its rows above the level where it splits off, and a
// cluster loses some of its rows to that count (its tails below the
// valley, and rows near a touching neighbour owned by the neighbour's
// support vectors): at a share of 1 % the hundred clusters of 1 % of the
// generated kind Birch (BIRCH's DS1 layout) came out as 19–37 clusters
// (mean ARI 0.35, 0.31 and 0.22 at n = 3000, 10,000 and 100,000, data
// seeds 1–3); at 0.75 % as 89–100 (0.89, 0.97, 0.97). Over the 16
// generated kinds the mean ARI was 0.883, 0.886 and 0.877 at n = 1000
// for 1 %, 0.75 % and 0.5 %, and 0.918, 0.927 and 0.910 at n = 3000 (the
// same at n = 300, where the share is below five rows); the paper's 15
// sets gave the same NMI at 1 % and 0.75 %. The cost is Line3 at n = 3000
// (0.91 → 0.52): pieces of its one-dimensional blobs between 0.75 % and
// 1 % of the rows become clusters (README, "How the smallest cluster was
// chosen").
const DefaultMinShare = 0.0075

// DefaultRippleZ is the significance a cluster of the LevelTree rule needs
// to stay apart from the cluster it meets, when Config.RippleZ is 0
// (see Config.RippleZ). It was chosen on generated data of 300, 1,000 and
// 3,000 points, with one global kernel width (README, "How the ripple
// threshold was chosen"): higher values join real clusters of small data
// sets, lower ones keep more ripples of the density estimate.
const DefaultRippleZ = 1.5

// DefaultLevelPower is the power p of f + 1 on which the LevelTree rule
// measures the excess of mass of its clusters when Config.LevelPower
// is 0 and C is automatic (f + 1 is then a kernel density estimate): a
// cluster's stability is Σ over its rows of (f + 1)^p between its birth and
// its exit. HDBSCAN measures it in λ = 1/(core distance), which in d
// dimensions goes as the density to the power 1/d; on the density itself
// (p = 1) the tops of dense clusters, where a kernel estimate's error
// grows with f + 1, weigh most, and its ripples there outweigh the
// levels below. Calibrated on the generated kinds (dataset.AllKinds, data
// seeds 1–5 at n = 1000, 1–3 at n = 300 and 3000; README, "How the level
// power was chosen"): mean ARI at n = 300, 1000, 3000 was 0.850, 0.915,
// 0.942 at p = 1; 0.858, 0.925, 0.956 at 0.9; 0.853, 0.940, 0.957 at 0.75,
// which merged stretched and touching blobs (Aniso 0.916 → 0.839 at n =
// 1000, Touch20 0.477 → 0.312 at n = 300); 0.6 and ½ merged them more
// (Touch20 0.695 against 0.907 at n = 1000). 0.9 gains on thin and
// one-dimensional shapes (Line3, Spirals3, Circles) and loses at most
// 0.016 (Touch20 at n = 3000); the paper's 15 sets give the same NMI at
// 0.9, 0.75 and 1.
const DefaultLevelPower = 0.9

// defaultMinSize is the smallest cluster when Config.MinSize is 0.
func defaultMinSize(n int) int {
	return max(5, int(math.Ceil(DefaultMinShare*float64(n))))
}

// levelTree is the outcome of the LevelTree rule on a data set.
type levelTree struct {
	svCluster []int     // the cluster of each support vector
	birth     []float64 // the level of f at which each cluster appears
	stability []float64 // each selected cluster's excess of mass
	clusters  int
	ripples   int // clusters of the selection joined as ripples
	modes     int
	fx        []float64 // f at each row; nil without Outliers once the levels hold it
	owner     []int32   // each row's support vector (see eachOwner)
	terms     *assign.Terms
}

// modeEdge links modes i and j, connected at level h.
type modeEdge struct {
	h    float64
	i, j int
}

// dnode is a node of the single-linkage tree of the modes: leaves (l < 0)
// are modes, inner nodes join their children at level h.
type dnode struct {
	l, r int
	h    float64
}

// clusterLevels assigns the rows of data by the LevelTree rule (see
// LevelTree): every support vector follows its trajectory to a mode of f,
// modes are joined at the level their segment test reaches, clusters are
// chosen from that tree by excess of mass, ripples are joined (with an
// automatic C; see Config.RippleZ), and each row takes the cluster
// of its support vector (see eachOwner).
func clusterLevels(m *svclust.Model, data []float64, n, d int, cfg *Config, minSize, mm, w int) *levelTree {
	f := fieldOf(m)
	b := len(m.Alpha)
	eq := slices.Clone(svData(m))
	trajectories(f, eq, nil, w, nil)
	reps := assign.Merge(eq, d, mergeTol*f.Scale())
	nm := len(reps) / d
	tree := assign.NewTree(reps, d)
	svMode := make([]int, b)
	for i := range b {
		svMode[i], _ = tree.Nearest(eq[i*d : i*d+d])
	}

	lt := &levelTree{fx: make([]float64, n), owner: make([]int32, n), modes: nm, terms: f.Terms()}
	f.EachOwner(mat.NewDense(n, d, data), lt.terms, w, progressOf(cfg.Progress, n), func(i int, f float64, o int32) {
		lt.fx[i], lt.owner[i] = f, o
	})
	// The levels of f at the rows of each mode, sorted, with prefix sums.
	// One allocation of exactly n levels, cut per mode after a count:
	// appending per mode would leave up to as much again in grown
	// slices' garbage (8 MB a million rows).
	count := make([]int, nm)
	for _, o := range lt.owner {
		count[svMode[o]]++
	}
	all := make([]float64, n)
	levels := make([][]float64, nm)
	for j, k := range count {
		levels[j], all = all[:0:k], all[k:]
	}
	for i, o := range lt.owner {
		j := svMode[o]
		levels[j] = append(levels[j], lt.fx[i])
	}
	// The lowest level: below every row and every link (see below).
	low := slices.Min(lt.fx)
	if !cfg.Outliers {
		// Only labels with outliers read f at a row again; the levels
		// hold it now, so the 8 bytes a row are freed before the prefix
		// sums take as much (1M moons fit: peak RSS 63,640 → 55,416 KiB).
		lt.fx = nil
	}
	for _, lv := range levels {
		slices.Sort(lv)
	}
	// The excess of mass is measured on g(f) = (f + 1)^p (see
	// DefaultLevelPower), the ripples' significance on f: prefix sums of
	// g for the selection, then of f in the same slices (a million rows:
	// 8 MB, once).
	g, onF := levelPower(cfg, m.Choice.CAuto)
	prefix := prefixSums(levels, g)
	nb := cfg.Neighbors
	if nb == 0 {
		nb = DefaultNeighbors
	}
	edges := modeEdges(f, reps, nm, d, nb, mm, w)
	// The lowest level: below every row and every link, so that the
	// components left apart join beneath everything else.
	if len(edges) > 0 {
		low = min(low, edges[len(edges)-1].h)
	}
	dn, root := linkage(edges, nm, low)
	ct := condense(dn, root, levels, prefix, g, minSize, low)
	modeCluster, birth, stab := ct.selectClusters(dn, nm)
	spread(modeCluster, edges, reps, d)
	if z := cfg.RippleZ; z >= 0 && m.Choice.CAuto && len(birth) > 1 {
		if z == 0 {
			z = DefaultRippleZ
		}
		if !onF {
			prefixSumsTo(prefix, levels, identity) // the sums of f, in place of g's
		}
		peak := make([]float64, nm)
		for i := range peak {
			peak[i] = f.Value(reps[i*d : i*d+d])
		}
		var sgd float64 // N/T: the SGD's sampling noise relative to the data's
		if t := m.Stats.Iterations; t > 0 {
			sgd = float64(n) / float64(t)
		}
		k := len(birth)
		modeCluster, birth, stab = joinRipples(modeCluster, edges, peak, levels, prefix, birth, stab, z, sgd)
		lt.ripples = k - len(birth)
	}

	lt.svCluster = make([]int, b)
	for i := range b {
		lt.svCluster[i] = modeCluster[svMode[i]]
	}
	lt.birth, lt.stability, lt.clusters = birth, stab, len(birth)
	return lt
}

// modeEdges returns the edges between each mode and its nb nearest modes
// (every pair when nb < 0 or nb ≥ nm−1), each at the smallest f of its
// m-point segment, sorted from the highest level down (ties by i, then j).
func modeEdges(f *assign.Field, reps []float64, nm, d, nb, mm, w int) []modeEdge {
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
		for k := lo; k < hi; k++ {
			i, j := pairs[k][0], pairs[k][1]
			edges[k] = modeEdge{f.SegmentMin(reps[i*d:i*d+d], reps[j*d:j*d+d], buf, mm), i, j}
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
// LevelTree rule measures excess of mass, p being cfg.LevelPower or
// DefaultLevelPower when it is 0; or identity, with onF true, for the
// levels of f themselves, when p is 1 or C was given (cAuto false: f + 1
// is then not a density estimate). Levels below −1, possible only with
// coefficients of both signs, count as −1.
func levelPower(cfg *Config, cAuto bool) (g func(float64) float64, onF bool) {
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
	var walk func(v int, base float64) int
	walk = func(v int, base float64) int {
		id := len(ct.clusters)
		ct.clusters = append(ct.clusters, ctCluster{})
		c := ctCluster{birth: base}
		for {
			c.nodes = append(c.nodes, v)
			if dn[v].l < 0 {
				c.stab += mass(v, base, math.Inf(1))
				break
			}
			h, l, r := dn[v].h, dn[v].l, dn[v].r
			sl, sr := above(l, h), above(r, h)
			if sl >= minSize && sr >= minSize {
				c.stab += mass(v, base, h)
				c.children = []int{walk(l, h), walk(r, h)}
				break
			}
			if sl < minSize && sr < minSize {
				c.stab += mass(v, base, h)
				c.nodes = append(c.nodes, l, r)
				break
			}
			small, big := r, l
			if sl < minSize {
				small, big = l, r
			}
			c.stab += mass(small, base, h)
			c.nodes = append(c.nodes, small)
			v = big
		}
		ct.clusters[id] = c
		return id
	}
	walk(root, low)
	return ct
}

// selectClusters chooses the clusters of largest total excess of mass
// with none inside another (HDBSCAN's "eom" selection); the root is chosen
// only when it has no children. It returns the cluster of each mode (−1
// for the modes of no chosen cluster), the birth level of each chosen
// cluster and its excess of mass.
func (ct *condensed) selectClusters(dn []dnode, nm int) (modeCluster []int, birth, stab []float64) {
	cs := ct.clusters
	selected := make([]bool, len(cs))
	var eom func(c int) float64
	eom = func(c int) float64 {
		if len(cs[c].children) == 0 {
			selected[c] = true
			return cs[c].stab
		}
		var sum float64
		for _, k := range cs[c].children {
			sum += eom(k)
		}
		if c != 0 && cs[c].stab >= sum {
			ct.deselect(selected, c)
			selected[c] = true
			return cs[c].stab
		}
		return sum
	}
	eom(0)
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

// deselect clears selected for c and all its descendants.
func (ct *condensed) deselect(selected []bool, c int) {
	selected[c] = false
	for _, k := range ct.clusters[c].children {
		ct.deselect(selected, k)
	}
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

// clusterTree is Fit with the LevelTree rule.
func clusterTree(m *svclust.Model, data []float64, n, d int, cfg *Config, mm, w int, start time.Time) *Result {
	minSize := cfg.MinSize
	if minSize == 0 {
		minSize = defaultMinSize(n)
	}
	lt := clusterLevels(m, data, n, d, cfg, minSize, mm, w)
	p := &Partition{
		model: m, rule: LevelTree, svCluster: lt.svCluster, birth: lt.birth,
		outliers: cfg.Outliers, segM: mm, clusters: lt.clusters, terms: lt.terms,
	}
	labels := make([]int, n)
	for i, o := range lt.owner {
		var f float64 // read only with outliers, when lt.fx is kept
		if lt.fx != nil {
			f = lt.fx[i]
		}
		labels[i] = p.levelLabel(f, o)
	}
	return &Result{
		Partition: p,
		Labels:    labels, Clusters: lt.clusters, Equilibria: lt.modes,
		MinSize: minSize, Stability: lt.stability, Ripples: lt.ripples,
		Runtime: time.Since(start),
	}
}

// predictTree is Predict with the LevelTree rule: one pass of B kernel
// terms per row, as Score.
func (p *Partition) predictTree(dst []int, x mat.Matrix, workers int) {
	fieldOf(p.model).EachOwner(x, p.terms, parallel.Workers(workers), nil, func(i int, f float64, o int32) {
		dst[i] = p.levelLabel(f, o)
	})
}

// levelLabel is the LevelTree label of a point with f(x) = f whose support
// vector is owner: the owner's cluster, or −1 with Outliers below the
// level at which that cluster is born.
func (p *Partition) levelLabel(f float64, owner int32) int {
	c := p.svCluster[owner]
	if p.outliers && f < p.birth[c] {
		return -1
	}
	return c
}
