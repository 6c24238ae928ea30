package sample

import "math/rand/v2"

// Reservoir is a uniform random sample of at most K of the rows of a
// stream whose length is not known in advance: Algorithm R. Row i,
// counted from 0, is kept when i < K, and otherwise replaces slot j of the
// full sample when j, drawn by rnd.IntN(i+1), is below K. After n rows
// every set of min(n, K) rows is equally likely to be the sample, and when
// n ≤ K the sample is every row, in order, with no draw.
//
//	J. S. Vitter. Random sampling with a reservoir. ACM Transactions on
//	Mathematical Software 11(1), 1985.
//
// The sample depends on the order of the rows; [BottomK] does not. A
// Reservoir is not safe for concurrent use.
type Reservoir struct {
	k, d, n int
	rows    []float64 // row-major, min(n, k) rows
	rnd     *rand.Rand
}

// NewReservoir returns an empty sample of at most k rows of d values,
// drawn from rnd. It panics if k < 0 or d < 1.
func NewReservoir(k, d int, rnd *rand.Rand) *Reservoir {
	if k < 0 || d < 1 {
		panic(badCount)
	}
	return &Reservoir{k: k, d: d, rnd: rnd}
}

// Add offers row to the sample, which copies it if it enters. It panics if
// len(row) is not the d of NewReservoir.
func (r *Reservoir) Add(row []float64) {
	if len(row) != r.d {
		panic(badRow)
	}
	if r.n < r.k {
		r.rows = append(r.rows, row...)
	} else if j := r.rnd.IntN(r.n + 1); j < r.k {
		copy(r.rows[j*r.d:(j+1)*r.d], row)
	}
	r.n++
}

// Seen returns the number of rows added.
func (r *Reservoir) Seen() int { return r.n }

// All reports whether the sample is every row added, in order: at most K
// rows were added.
func (r *Reservoir) All() bool { return r.n <= r.k }

// Rows returns the sample, min(Seen, K) rows of d values, row-major. The
// slice is the Reservoir's own: the caller may change the values (scale
// them in place, say), and a later Add may change or move them.
func (r *Reservoir) Rows() []float64 { return r.rows }

// badRow is the panic message of Add for a row of the wrong length.
const badRow = "sample: row length does not match the Reservoir"
