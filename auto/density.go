package auto

import (
	"math"
	"slices"

	"github.com/svclust/svclust/internal/kernel"
	"github.com/svclust/svclust/internal/parallel"
)

// maxDensity returns the largest kernel density (1/s)Σⱼ k(x, xⱼ) over the s
// rows x of smp.
//
// Where an index of the rows pays (kernel.NewTerms: low dimension, a
// kernel narrow next to the data's extent), each row's sum runs over the
// rows within kernel.CutOff of its largest term, as objective's and Score's
// sums do (maxDensityTerms). Elsewhere (maxDensityPairs) the result is
// kernel.Sum's maximum: each pair's kernel value is computed once and counts for both rows
// (k(x, y) = k(y, x) to the bit), which gives every row's sum in another
// order: a row's sum over its later rows, in fixed chunks of rows, plus,
// per worker, the values of its earlier rows. Sums of s nonnegative terms
// in any two orders differ by less than 2(s−1)·2⁻⁵³ of their value
// (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., §4.2),
// far below maxDensityTol for s ≤ SampleRows, so the rows whose sum in
// that order comes within maxDensityTol of the largest include every row
// whose kernel.Sum is the largest; only those are summed again by
// kernel.Sum. The result is therefore kernel.Sum's maximum, for any
// number of workers. A NaN value (coordinates beyond the range of
// float64) leaves it to maxDensityRows.
func maxDensity(smp []float64, s, d int, gamma float64, w int) float64 {
	ones := unitWeights(s)
	if t := kernel.NewTerms(smp, d, ones, gamma); t != nil {
		return maxDensityTerms(t, smp, s, d, w)
	}
	return maxDensityPairs(smp, ones, d, gamma, w)
}

// unitWeights returns s coefficients of 1: those of the kernel density
// Σⱼ k(x, xⱼ) as a kernel expansion.
func unitWeights(s int) []float64 {
	ones := make([]float64, s)
	for i := range ones {
		ones[i] = 1
	}
	return ones
}

// maxDensityPairs is maxDensity by pairs, ones its unitWeights:
// kernel.Sum's maximum.
func maxDensityPairs(smp, ones []float64, d int, gamma float64, w int) float64 {
	s := len(ones)
	const chunk = 64
	w = min(parallel.Workers(w), parallel.Chunks(s, chunk))
	free := make(chan []float64, w)
	lower := make([][]float64, w) // per worker: the values of earlier rows, then scratch
	for k := range lower {
		lower[k] = make([]float64, 2*s)
		free <- lower[k]
	}
	sum := make([]float64, s) // row i's sum over itself and its later rows
	parallel.For(s, chunk, w, func(_, lo, hi int) {
		l := <-free
		defer func() { free <- l }()
		for i := lo; i < hi; i++ {
			row := kernel.RowTo(l[s:2*s-i-1], smp[i*d:i*d+d], smp[(i+1)*d:], gamma)
			v := kernel.OfSqDist(0, gamma)
			for j, k := range row {
				v += k
				l[i+1+j] += k
			}
			sum[i] = v
		}
	})
	top := math.Inf(-1)
	for i := range sum {
		for _, l := range lower {
			sum[i] += l[i]
		}
		if math.IsNaN(sum[i]) {
			return maxDensityRows(smp, ones, d, gamma, w)
		}
		top = max(top, sum[i])
	}
	best := math.Inf(-1)
	for i, v := range sum {
		if v >= top*(1-maxDensityTol) {
			best = max(best, kernel.Sum(smp[i*d:i*d+d], smp, ones, gamma)/float64(s))
		}
	}
	return best
}

// maxDensityTol is the relative distance below the largest approximate
// sum of maxDensity within which a row is summed again exactly: valid
// while 2(s−1)·2⁻⁵³ ≪ maxDensityTol, that is for samples of up to about
// 10⁵ rows (SampleRows is 2,000).
const maxDensityTol = 1e-9

// maxDensityRows is maxDensity with every row summed by kernel.Sum, ones
// its unitWeights.
func maxDensityRows(smp, ones []float64, d int, gamma float64, w int) float64 {
	s := len(ones)
	dens := make([]float64, s)
	parallel.For(s, 64, w, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			dens[i] = kernel.Sum(smp[i*d:i*d+d], smp, ones, gamma) / float64(s)
		}
	})
	return slices.Max(dens)
}

// maxDensityTerms is maxDensity with each row's sum over the terms t keeps
// (the index of the s rows of smp, with coefficients 1).
func maxDensityTerms(t *kernel.Terms, smp []float64, s, d, w int) float64 {
	dens := make([]float64, s)
	parallel.For(s, 64, w, func(_, lo, hi int) {
		sc := t.NewScratch()
		for i := lo; i < hi; i++ {
			v, _ := t.Owner(smp[i*d:i*d+d], sc)
			dens[i] = v / float64(s)
		}
	})
	return slices.Max(dens)
}
