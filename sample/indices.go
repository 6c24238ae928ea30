package sample

import (
	"math/rand/v2"
	"slices"
)

// Indices returns m distinct indices of 0..n−1, drawn uniformly without
// replacement, in the order drawn: the first m steps of a Fisher-Yates
// shuffle of 0..n−1, step i swapping entry i with entry i + rnd.IntN(n−i).
// The shuffle is sparse (a map holds the entries it moved), so memory and
// time are O(m), not O(n). It panics if m < 0 or m > n.
//
//	D. E. Knuth. The Art of Computer Programming, vol. 2, 3rd ed.,
//	§3.4.2, Algorithm P. Addison-Wesley, 1997.
func Indices(n, m int, rnd *rand.Rand) []int {
	if m < 0 || m > n {
		panic(badCount)
	}
	out := make([]int, m)
	moved := make(map[int]int, 2*m) // entry of the permutation, where it is not the identity
	at := func(i int) int {
		if v, ok := moved[i]; ok {
			return v
		}
		return i
	}
	for i := range m {
		j := i + rnd.IntN(n-i)
		pi, pj := at(i), at(j)
		moved[i], moved[j] = pj, pi
		out[i] = pj
	}
	return out
}

// Rows returns m of the n rows of d values of data (row-major), drawn by
// [Indices] from rnd, in the order drawn, as a new row-major slice. It
// panics if m < 0, m > n or len(data) < n·d.
func Rows(data []float64, n, d, m int, rnd *rand.Rand) []float64 {
	if len(data) < n*d {
		panic(badLength)
	}
	out := make([]float64, 0, m*d)
	for _, i := range Indices(n, m, rnd) {
		out = append(out, data[i*d:i*d+d]...)
	}
	return out
}

// SortedIndices returns min(n, m) distinct indices of 0..n−1 drawn
// uniformly without replacement, in increasing order: every index, with no
// draw, when n ≤ m, else the first m entries of rnd.Perm(n). It is not
// [Indices] sorted: rand.Perm shuffles all n entries, last first, so it
// draws other indices from the same source, in O(n) memory and time. tune
// draws its samples this way, and its results depend on the draws. It
// panics if m < 0.
func SortedIndices(n, m int, rnd *rand.Rand) []int {
	if m < 0 {
		panic(badCount)
	}
	if n <= m {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	out := rnd.Perm(n)[:m]
	slices.Sort(out)
	return out
}

// The panic messages of the package, for a programming error.
const (
	badCount  = "sample: sample size out of range"
	badLength = "sample: data shorter than n rows"
)
