package kernel

import (
	"math"
	"slices"
)

// termsLeaf is the largest number of support vectors a leaf of Terms holds.
const termsLeaf = 8

// termsProbe is the number of support vectors NewTerms queries to decide
// whether the index saves work, and termsWorth the largest mean share of
// the support vectors a query may evaluate for the index to be kept.
const (
	termsProbe = 64
	termsWorth = 0.5
)

// Terms indexes the support vectors of a kernel expansion
// Σⱼ αⱼ exp(−γ‖x − svⱼ‖²) with positive coefficients, so that a query
// evaluates only the terms that matter at x: those within CutOff,
// in the exponent, of the largest (as MeanShiftCutTo does). With
// uⱼ = γ‖x − svⱼ‖² − ln αⱼ a term has the value e^(−uⱼ); a k-d tree over
// the support vectors keeps, per cell, the largest ln αⱼ, so a cell whose
// box is so far from x that every term in it has u > min u + CutOff is
// skipped. Low-dimensional data with a narrow kernel, where a point sees
// a few of the B support vectors, then cost a few terms per point instead
// of B. A Terms is safe for concurrent queries with separate scratch.
type Terms struct {
	sv    []float64 // support vectors in tree order
	lnA   []float64 // ln αⱼ in tree order
	alpha []float64 // αⱼ in tree order
	orig  []int32   // index of each tree-order support vector in the model
	d     int
	gamma float64
	// gammas, when not nil, is the width of each tree-order term; gamma
	// is then the smallest, which bounds every term of a cell from the
	// cell's distance.
	gammas []float64
	nodes  []termsNode
}

// termsNode is a cell of the tree: a range of the tree-order support
// vectors, the largest ln α in it, and its split (dim −1 for a leaf); its
// left child is the next node.
type termsNode struct {
	split  float64
	maxLnA float64
	lo, hi int32
	dim    int32
	right  int32
}

// NewTerms returns the index of the expansion with support vectors sv
// (row-major, d columns), coefficients alpha and kernel parameter gamma, or
// nil when the index does not apply or would not pay: when a coefficient is
// not positive and finite, or when the queries at termsProbe of the support
// vectors themselves (an even spread of them: evaluations at the data, where
// the support vectors lie) evaluate more than termsWorth of the terms on
// average, as in high dimension, where no cell is far. It panics if len(sv)
// is not len(alpha)·d.
func NewTerms(sv []float64, d int, alpha []float64, gamma float64) *Terms {
	return NewTermsEach(sv, d, alpha, gamma, nil)
}

// NewTermsEach is NewTerms for the expansion Σⱼ αⱼ exp(−γⱼ‖x − svⱼ‖²) with
// a width γⱼ = gammas[j] per support vector, all at least gamma (nil
// gammas: every γⱼ = gamma). A cell is skipped by the bound of the
// smallest width: γⱼ‖x − svⱼ‖² ≥ gamma·(the cell's squared distance to x)
// for every term in it, so the same terms are kept as with exact widths.
// It returns nil, as NewTerms does, and also when a γⱼ is below gamma or
// not finite.
func NewTermsEach(sv []float64, d int, alpha []float64, gamma float64, gammas []float64) *Terms {
	b := len(alpha)
	if d < 1 || len(sv) != b*d {
		panic("assign: bad support vectors")
	}
	if b == 0 || b > math.MaxInt32 || !(gamma > 0) || math.IsInf(gamma, 1) {
		return nil
	}
	for _, a := range alpha {
		if !(a > 0) || math.IsInf(a, 1) {
			return nil
		}
	}
	if gammas != nil {
		if len(gammas) != b {
			panic("assign: bad widths")
		}
		for _, g := range gammas {
			if !(g >= gamma) || math.IsInf(g, 1) {
				return nil
			}
		}
	}
	idx := make([]int32, b)
	for i := range idx {
		idx[i] = int32(i)
	}
	t := &Terms{d: d, gamma: gamma}
	t.build(sv, idx, 0, b)
	t.orig = idx
	t.sv = make([]float64, 0, len(sv))
	t.alpha = make([]float64, b)
	t.lnA = make([]float64, b)
	for k, i := range idx {
		t.sv = append(t.sv, sv[int(i)*d:int(i)*d+d]...)
		t.alpha[k] = alpha[i]
		t.lnA[k] = math.Log(alpha[i])
	}
	if gammas != nil {
		t.gammas = make([]float64, b)
		for k, i := range idx {
			t.gammas[k] = gammas[i]
		}
	}
	t.fillMax(0)

	// Keep the index only where it saves work.
	s := t.NewScratch()
	probes := min(b, termsProbe)
	evaluated := 0
	for p := range probes {
		i := p * b / probes
		t.Owner(sv[i*d:i*d+d], s)
		evaluated += s.evaluated
	}
	if float64(evaluated) > termsWorth*float64(probes)*float64(b) {
		return nil
	}
	return t
}

// build makes the subtree of idx[lo:hi] as Tree.build does, splitting the
// widest dimension at the median, and returns its node.
func (t *Terms) build(sv []float64, idx []int32, lo, hi int) int32 {
	id := int32(len(t.nodes))
	t.nodes = append(t.nodes, termsNode{lo: int32(lo), hi: int32(hi), dim: -1})
	if hi-lo <= termsLeaf {
		return id
	}
	dim, split, ok := MedianSplit(sv, t.d, idx[lo:hi])
	if !ok {
		return id // all equal: one leaf, however many
	}
	mid := lo + (hi-lo)/2
	t.build(sv, idx, lo, mid)
	right := t.build(sv, idx, mid, hi)
	t.nodes[id].dim, t.nodes[id].split, t.nodes[id].right = int32(dim), split, right
	return id
}

// fillMax sets maxLnA of node id and its subtree and returns it.
func (t *Terms) fillMax(id int32) float64 {
	nd := &t.nodes[id]
	m := math.Inf(-1)
	if nd.dim < 0 {
		for _, v := range t.lnA[nd.lo:nd.hi] {
			m = max(m, v)
		}
	} else {
		m = max(t.fillMax(id+1), t.fillMax(nd.right))
	}
	t.nodes[id].maxLnA = m
	return m
}

// TermsScratch is the scratch space of one goroutine's queries.
type TermsScratch struct {
	off       []float64 // offset of x from the current cell, per dimension
	cand      []int32   // tree-order indices of the terms kept so far
	u         []float64 // their u
	e         []float64 // their γⱼ‖x − svⱼ‖², then the kept terms' kernel values
	umin      float64
	evaluated int // terms evaluated by the last query
	// The terms MassRadius gathered: squared distances, coefficients,
	// their sum, the bound and how many the last shrink kept.
	hd, ha []float64
	mass   float64
	bound  float64
	kept   int
}

// NewScratch returns scratch space for Owner.
func (t *Terms) NewScratch() *TermsScratch {
	return &TermsScratch{off: make([]float64, t.d)}
}

// Owner returns the sum of the terms of the expansion at x that lie within
// CutOff, in the exponent, of the largest (every term above
// e⁻⁴⁰ ≈ 4·10⁻¹⁸ of the largest; the others, at most B of them, change the
// sum by less than B·4·10⁻¹⁸ of it), and the index in the model of the
// largest term αⱼk(x, svⱼ), computed as αⱼ·exp(−γ‖x − svⱼ‖²) and, among
// equal ones, the lowest index: the argmax of a full pass over the terms,
// which is always among those kept. The sum adds the kept terms in the
// tree's order, so it may differ from the full pass in its last bits.
func (t *Terms) Owner(x []float64, s *TermsScratch) (sum float64, owner int) {
	return t.owner(x, s, nil, nil)
}

// owner is Owner, adding each kept term also to part[group[j]] when group
// is not nil (OwnerParts).
func (t *Terms) owner(x []float64, s *TermsScratch, group []int, part []float64) (sum float64, owner int) {
	s.cand, s.u, s.e = s.cand[:0], s.u[:0], s.e[:0]
	s.umin = math.Inf(1)
	s.evaluated = 0
	clear(s.off)
	t.visit(0, 0, x, s)
	if len(s.cand) == 0 {
		// Only a NaN in x keeps no term (u is NaN for all): f is NaN,
		// and the owner the first support vector, as in a full pass,
		// where no NaN term compares larger than another.
		return math.NaN(), 0
	}
	best, bi := math.Inf(-1), math.MaxInt
	lim := s.umin + CutOff
	// The kept terms' exponents, compacted in order, then their kernel
	// values four at a time: OfSqDist(SqDist(x, svⱼ), γⱼ)
	// to the bit, since e holds γⱼ·SqDist as OfSqDist forms it.
	kept := 0
	for k := range s.cand {
		if s.u[k] <= lim {
			s.cand[kept], s.u[kept], s.e[kept] = s.cand[k], s.u[k], s.e[k]
			kept++
		}
	}
	s.cand, s.u, s.e = s.cand[:kept], s.u[:kept], s.e[:kept]
	ExpNegTo(s.e)
	for k, c := range s.cand {
		v := t.alpha[c] * s.e[k]
		sum += v
		o := int(t.orig[c])
		if group != nil {
			part[group[o]] += v
		}
		if v > best || v == best && o < bi {
			best, bi = v, o
		}
	}
	if best <= 0 {
		// Every term underflows: the owner is the smallest u, the
		// largest ln αⱼ − γ‖x − svⱼ‖² of a full pass, lowest index first.
		bi = math.MaxInt
		for k, c := range s.cand {
			if o := int(t.orig[c]); s.u[k] == s.umin && o < bi {
				bi = o
			}
		}
	}
	return sum, bi
}

// width returns the γ of tree-order term k.
func (t *Terms) width(k int32) float64 {
	if t.gammas != nil {
		return t.gammas[k]
	}
	return t.gamma
}

// visit searches node id, whose cell is at squared distance rd from x
// (Arya and Mount's incremental distance, as in Tree.Nearest), nearer
// child first, skipping a cell none of whose terms can come within CutOff
// of the smallest u found so far.
func (t *Terms) visit(id int32, rd float64, x []float64, s *TermsScratch) {
	nd := &t.nodes[id]
	if t.gamma*rd-nd.maxLnA > s.umin+CutOff {
		return
	}
	if nd.dim < 0 {
		d := t.d
		for k := nd.lo; k < nd.hi; k++ {
			e := t.width(k) * SqDist(x, t.sv[int(k)*d:int(k)*d+d])
			u := e - t.lnA[k]
			s.evaluated++
			if u <= s.umin+CutOff {
				s.cand = append(s.cand, k)
				s.u = append(s.u, u)
				s.e = append(s.e, e)
				s.umin = min(s.umin, u)
			}
		}
		return
	}
	diff := x[nd.dim] - nd.split
	near, far := id+1, nd.right
	if diff >= 0 {
		near, far = far, near
	}
	t.visit(near, rd, x, s)
	old := s.off[nd.dim]
	s.off[nd.dim] = diff
	t.visit(far, rd-old*old+diff*diff, x, s)
	s.off[nd.dim] = old
}

// MassRadius returns the smallest squared distance ‖x − svⱼ‖² within
// which the coefficients αⱼ of the support vectors sum to at least need
// (the largest squared distance when they never do): a k-nearest-neighbour
// distance weighted by the coefficients. It searches the tree nearer
// child first, gathering the terms nearer than a bound; whenever the
// gathered terms hold need and have doubled since the last time, the
// bound becomes their radius (WeightedRadius) and the farther ones are
// dropped, and a cell beyond the bound is skipped. The result is one of
// the squared distances SqDist gives, the one a sort of all B of
// them would reach; only the rounding of the sums against need depends on
// the order of the search.
func (t *Terms) MassRadius(x []float64, s *TermsScratch, need float64) float64 {
	s.hd, s.ha, s.mass = s.hd[:0], s.ha[:0], 0
	s.bound, s.kept = math.Inf(1), 0
	s.evaluated = 0
	clear(s.off)
	t.massVisit(0, 0, x, s, need)
	if len(s.hd) == 0 {
		return math.NaN() // a NaN in x
	}
	return WeightedRadius(s.hd, s.ha, need)
}

// massVisit is visit for MassRadius.
func (t *Terms) massVisit(id int32, rd float64, x []float64, s *TermsScratch, need float64) {
	if rd >= s.bound {
		return
	}
	nd := &t.nodes[id]
	if nd.dim < 0 {
		d := t.d
		for k := nd.lo; k < nd.hi; k++ {
			d2 := SqDist(x, t.sv[int(k)*d:int(k)*d+d])
			s.evaluated++
			if !(d2 < s.bound) {
				continue
			}
			s.hd, s.ha = append(s.hd, d2), append(s.ha, t.alpha[k])
			s.mass += t.alpha[k]
			if s.mass >= need && len(s.hd) >= 2*s.kept+16 {
				s.shrink(need)
			}
		}
		return
	}
	diff := x[nd.dim] - nd.split
	near, far := id+1, nd.right
	if diff >= 0 {
		near, far = far, near
	}
	t.massVisit(near, rd, x, s, need)
	old := s.off[nd.dim]
	s.off[nd.dim] = diff
	t.massVisit(far, rd-old*old+diff*diff, x, s, need)
	s.off[nd.dim] = old
}

// shrink sets the bound of MassRadius to the radius of the gathered
// terms, which hold need, and keeps those within it.
func (s *TermsScratch) shrink(need float64) {
	s.bound = WeightedRadius(s.hd, s.ha, need)
	k := 0
	s.mass = 0
	for i, d2 := range s.hd {
		if d2 <= s.bound {
			s.hd[k], s.ha[k] = d2, s.ha[i]
			s.mass += s.ha[i]
			k++
		}
	}
	s.hd, s.ha, s.kept = s.hd[:k], s.ha[:k], k
}

// WeightedRadius returns the smallest of the values d2[i] such that the
// weights w[j] (all > 0) of the j with d2[j] ≤ it sum to at least need
// (the largest d2 when they never do) by a selection that reorders d2 and w
// together: O(len(d2)) expected. The sums are made in an order fixed by
// the inputs, so equal inputs give equal results. It panics if d2 is
// empty or the lengths differ.
func WeightedRadius(d2, w []float64, need float64) float64 {
	if len(d2) == 0 || len(w) != len(d2) {
		panic("assign: WeightedRadius of bad lengths")
	}
	lo, hi := 0, len(d2)
	for {
		if hi-lo == 1 {
			return d2[lo]
		}
		// Median of three as the pivot, then a three-way partition of
		// [lo, hi) into below, equal to and above it.
		a, b, c := d2[lo], d2[lo+(hi-lo)/2], d2[hi-1]
		p := max(min(a, b), min(max(a, b), c))
		lt, i, gt := lo, lo, hi
		var below, equal float64
		for i < gt {
			switch v := d2[i]; {
			case v < p:
				d2[lt], d2[i] = d2[i], d2[lt]
				w[lt], w[i] = w[i], w[lt]
				below += w[lt]
				lt++
				i++
			case v > p:
				gt--
				d2[gt], d2[i] = d2[i], d2[gt]
				w[gt], w[i] = w[i], w[gt]
			default:
				equal += w[i]
				i++
			}
		}
		switch {
		case below >= need:
			hi = lt
		case below+equal >= need || gt == hi:
			return p
		default:
			need -= below + equal
			lo = gt
		}
	}
}

// Offsets holds a value vⱼ ≥ 0 per support vector for MinPlus, in the
// tree's order, with the least of them in each cell.
type Offsets struct {
	v, node []float64
}

// NewOffsets returns the Offsets of v, indexed as the model's support
// vectors. It panics if v does not have one value per support vector.
func (t *Terms) NewOffsets(v []float64) *Offsets {
	if len(v) != len(t.orig) {
		panic("assign: offsets of the wrong length")
	}
	o := &Offsets{v: make([]float64, len(v)), node: make([]float64, len(t.nodes))}
	for k, j := range t.orig {
		o.v[k] = v[j]
	}
	for id := len(t.nodes) - 1; id >= 0; id-- {
		nd := &t.nodes[id]
		o.node[id] = slices.Min(o.v[nd.lo:nd.hi])
	}
	return o
}

// MinPlus returns the least of √(‖x − svⱼ‖² + r2) + vⱼ over the support
// vectors, the offsets vⱼ of o: the distance from x, lifted r2 off the
// support vectors' space, to the nearest ball of radius vⱼ around a
// support vector. It searches the tree nearer child first and skips a
// cell that cannot beat the least found so far. A full pass gives the
// same value: each candidate is computed alike and the minimum is exact.
func (t *Terms) MinPlus(x []float64, r2 float64, o *Offsets, s *TermsScratch) float64 {
	s.bound = math.Inf(1)
	s.evaluated = 0
	clear(s.off)
	t.minVisit(0, 0, x, r2, o, s)
	return s.bound
}

// minVisit is visit for MinPlus.
func (t *Terms) minVisit(id int32, rd float64, x []float64, r2 float64, o *Offsets, s *TermsScratch) {
	if math.Sqrt(rd+r2)+o.node[id] >= s.bound {
		return
	}
	nd := &t.nodes[id]
	if nd.dim < 0 {
		d := t.d
		for k := nd.lo; k < nd.hi; k++ {
			s.evaluated++
			if v := math.Sqrt(SqDist(x, t.sv[int(k)*d:int(k)*d+d])+r2) + o.v[k]; v < s.bound {
				s.bound = v
			}
		}
		return
	}
	diff := x[nd.dim] - nd.split
	near, far := id+1, nd.right
	if diff >= 0 {
		near, far = far, near
	}
	t.minVisit(near, rd, x, r2, o, s)
	old := s.off[nd.dim]
	s.off[nd.dim] = diff
	t.minVisit(far, rd-old*old+diff*diff, x, r2, o, s)
	s.off[nd.dim] = old
}

// MedianSplit chooses the split of a k-d tree cell (of Terms' index and
// of package assign's Tree) holding the points idx
// of pts (d columns): the dimension of the widest range of coordinates (the
// first among equal ones), along which it sorts idx (ties by index), and the
// coordinate of the median, idx[len(idx)/2], in it. It reports false, and
// leaves idx as it is, when all the points are equal.
func MedianSplit(pts []float64, d int, idx []int32) (dim int, split float64, ok bool) {
	width := -1.0
	for j := range d {
		mn, mx := pts[int(idx[0])*d+j], pts[int(idx[0])*d+j]
		for _, i := range idx {
			v := pts[int(i)*d+j]
			mn, mx = min(mn, v), max(mx, v)
		}
		if mx-mn > width {
			dim, width = j, mx-mn
		}
	}
	if width <= 0 {
		return 0, 0, false
	}
	slices.SortFunc(idx, func(a, b int32) int {
		va, vb := pts[int(a)*d+dim], pts[int(b)*d+dim]
		switch {
		case va < vb:
			return -1
		case va > vb:
			return 1
		}
		return int(a - b)
	})
	return dim, pts[int(idx[len(idx)/2])*d+dim], true
}
