package metrics

import "slices"

// coder numbers the distinct labels of a labelling 0, …, k−1 in order of
// first appearance. Every sum over groups therefore runs in the same order
// under any relabelling of the values, so relabelled partitions get
// identical scores, bit for bit. It looks codes up without storing one per
// point.
type coder struct {
	k   int
	lo  int
	idx []int // code+1 of label lo+i, or 0 for a label that does not occur
	m   map[int]int
}

// newCoder numbers the labels.
func newCoder(labels []int) *coder {
	c := &coder{}
	if len(labels) == 0 {
		return c
	}
	lo, hi := labels[0], labels[0]
	for _, l := range labels[1:] {
		lo = min(lo, l)
		hi = max(hi, l)
	}
	// The unsigned difference cannot overflow, even for lo = MinInt and hi = MaxInt.
	span := uint64(hi) - uint64(lo)
	if span <= uint64(2*len(labels)+64) {
		// The labels are close to 0, …, k−1 (as clusterers produce them),
		// so a slice lookup does the job without a map.
		c.lo = lo
		c.idx = make([]int, span+1)
		for _, l := range labels {
			if p := &c.idx[uint64(l)-uint64(lo)]; *p == 0 {
				c.k++
				*p = c.k
			}
		}
		return c
	}
	c.m = make(map[int]int)
	for _, l := range labels {
		if _, ok := c.m[l]; !ok {
			c.m[l] = len(c.m)
		}
	}
	c.k = len(c.m)
	return c
}

// code returns the code of l, or −1 if l does not occur.
func (c *coder) code(l int) int {
	if c.m != nil {
		if v, ok := c.m[l]; ok {
			return v
		}
		return -1
	}
	if u := uint64(l) - uint64(c.lo); u < uint64(len(c.idx)) {
		return c.idx[u] - 1
	}
	return -1
}

// Table layouts for newContingency.
const (
	auto   = iota // dense when that is cheap, else sparse
	dense         // always a k₁×k₂ array
	sparse        // always sorted cell codes
)

// denseMin is the table size up to which a dense table is always used.
// Below it, a k₁×k₂ array costs less than sorting the N cell codes.
const denseMin = 1 << 12

// contingency is the table of counts N_ij of points in class i of truth
// and cluster j of pred, with its margins.
type contingency struct {
	n    int
	rows []int // rows[i] = size of class i
	cols []int // cols[j] = size of cluster j

	// Exactly one of dense and cells is non-nil.
	dense []int // dense[i*len(cols)+j] = N_ij
	cells []int // i*len(cols)+j for each point, sorted
}

// newContingency returns the contingency table of truth against pred in
// the given layout (see makeContingency).
func newContingency(truth, pred []int, layout int) contingency {
	n := len(truth)
	tc, pc := newCoder(truth), newCoder(pred)
	c := makeContingency(n, tc.k, pc.k, layout)
	for i := range n {
		c.add(tc.code(truth[i]), pc.code(pred[i]), 1)
	}
	c.finish()
	return c
}

// makeContingency returns an empty table for n points in k1 classes and k2
// clusters in the given layout, to be filled by add and then finish. With
// the auto layout it uses a dense array when k₁k₂ ≤ max(4N, denseMin),
// which takes O(N + k₁k₂) time, and otherwise sorts the cell codes in
// O(N log N) time, since a dense table would then be mostly empty. Both
// newContingency and Table.Validity make their tables here, so for the same
// labels they choose the same layout.
func makeContingency(n, k1, k2, layout int) contingency {
	c := contingency{n: n, rows: make([]int, k1), cols: make([]int, k2)}
	if layout == dense || (layout == auto && k1*k2 <= max(4*n, denseMin)) {
		c.dense = make([]int, k1*k2)
	} else {
		c.cells = make([]int, 0, n)
	}
	return c
}

// add counts m more points of class i in cluster j. The points added to
// a table must number c.n in all.
func (c *contingency) add(i, j, m int) {
	c.rows[i] += m
	c.cols[j] += m
	code := i*len(c.cols) + j
	if c.dense != nil {
		c.dense[code] += m
		return
	}
	for range m {
		c.cells = append(c.cells, code)
	}
}

// finish makes the table ready for use once every point has been added.
func (c *contingency) finish() {
	// Row-major cell codes sort into the same order in which the dense
	// layout visits its cells, so both layouts give the same sums, whatever
	// the order in which the cells were added.
	slices.Sort(c.cells)
}

// each calls fn(i, j, N_ij) for every non-zero cell in row-major order.
func (c *contingency) each(fn func(i, j, nij int)) {
	k2 := len(c.cols)
	if c.dense != nil {
		for i := range c.rows {
			for j, v := range c.dense[i*k2 : (i+1)*k2] {
				if v != 0 {
					fn(i, j, v)
				}
			}
		}
		return
	}
	for s := 0; s < len(c.cells); {
		code := c.cells[s]
		e := s + 1
		for e < len(c.cells) && c.cells[e] == code {
			e++
		}
		fn(code/k2, code%k2, e-s)
		s = e
	}
}

// comb2 returns m choose 2, the number of pairs among m points.
func comb2(m int) int { return m * (m - 1) / 2 }

// pairs returns the pair counts of the table: same is the number of pairs
// in the same class and the same cluster (TP), and a and b are the numbers
// of pairs in the same class and in the same cluster, Σ_i C(rows_i, 2) and
// Σ_j C(cols_j, 2).
func (c *contingency) pairs() (same, a, b int) {
	c.each(func(_, _, nij int) { same += comb2(nij) })
	for _, r := range c.rows {
		a += comb2(r)
	}
	for _, v := range c.cols {
		b += comb2(v)
	}
	return same, a, b
}
