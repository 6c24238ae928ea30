package auto

import (
	"math"
	"slices"

	"github.com/svclust/svclust/internal/kernel"
	"github.com/svclust/svclust/internal/parallel"
)

// kthNeighbour returns the median over the s rows of smp of the distance
// to the k-th nearest other row (the farthest one when s ≤ k). Duplicates
// count, as in HDBSCAN's core distance; only when they make that median 0
// is it taken over the rows for which the distance is positive, and when
// there are none (every row has k duplicates, as in discrete data), over
// the distances to the nearest distinct row. It returns 0 when no two rows
// are at a positive distance.
func kthNeighbour(smp []float64, s, d, k, w int) float64 {
	r, _ := kthNeighbours(smp, s, d, k, k, w)
	return r
}

// kthNeighbours returns kthNeighbour for k and for k2 ≥ k, from one pass
// over the pairs of rows. Each pair's squared distance is computed once
// and counts for both rows (SqDist(x, y) = SqDist(y, x) to the bit: the
// differences only change sign), half the work of a distance row per row:
// blocks of knnBlock rows are paired in fixed chunks, and each worker
// keeps, per row, the k2 smallest distances it met and the smallest
// positive one. Those are order statistics and a minimum, which do not
// depend on the order in which the pairs are met, so the result does not
// depend on the number of workers and equals that of a selection over each
// row's full distance row (kthNeighboursRows). A NaN distance, which only
// coordinates beyond the range of float64 give, leaves the result to
// kthNeighboursRows, whose selection then defines it.
func kthNeighbours(smp []float64, s, d, k, k2, w int) (float64, float64) {
	if s < 2 {
		return 0, 0
	}
	k, k2 = min(k, s-1), min(k2, s-1)
	blocks := parallel.Chunks(s, knnBlock)
	pairs := blocks * (blocks + 1) / 2
	w = min(parallel.Workers(w), pairs)
	free := make(chan *knnLists, w)
	all := make([]*knnLists, w)
	for i := range all {
		all[i] = newKnnLists(s, k2)
		free <- all[i]
	}
	parallel.For(pairs, 1, w, func(c, _, _ int) {
		l := <-free
		defer func() { free <- l }()
		if l.nan {
			return
		}
		bi, bj := blockPair(c, blocks)
		ihi := min(s, (bi+1)*knnBlock)
		jlo, jhi := bj*knnBlock, min(s, (bj+1)*knnBlock)
		for i := bi * knnBlock; i < ihi; i++ {
			lo := jlo
			if bi == bj {
				lo = i + 1 // each pair once, never a row with itself
			}
			if lo >= jhi {
				continue
			}
			dist := kernel.SqDistRowTo(l.dist[:jhi-lo], smp[i*d:i*d+d], smp[lo*d:jhi*d])
			for jj, v := range dist {
				if v != v {
					l.nan = true
					return
				}
				if !(v >= l.lim[i]) {
					l.keep(i, v)
				}
				if !(v >= l.lim[lo+jj]) {
					l.keep(lo+jj, v)
				}
			}
		}
	})
	for _, l := range all {
		if l.nan {
			return kthNeighboursRows(smp, s, d, k, k2, w)
		}
	}
	// Row i's k2 smallest over all workers: the k2 smallest of the
	// union of each worker's k2 smallest.
	l := all[0]
	for _, o := range all[1:] {
		for i := range s {
			for _, v := range o.near[i*k2 : i*k2+int(o.cnt[i])] {
				l.keep(i, v)
			}
			l.distinct[i] = min(l.distinct[i], o.distinct[i])
		}
	}
	kth := make([]float64, s)
	kth2 := make([]float64, s)
	for i := range s {
		kth[i], kth2[i] = l.near[i*k2+k-1], l.near[i*k2+k2-1]
	}
	return medianDistance(kth, l.distinct), medianDistance(kth2, slices.Clone(l.distinct))
}

// knnBlock is the number of rows of a block of kthNeighbours: a block of
// 64 rows of 128 features is 64 KiB, which stays in cache while the
// distances from each row of the other block are computed.
const knnBlock = 64

// blockPair returns the c-th pair (bi ≤ bj) of blocks of kthNeighbours
// among blocks blocks, row by row of the upper triangle.
func blockPair(c, blocks int) (bi, bj int) {
	for bi = 0; c >= blocks-bi; bi++ {
		c -= blocks - bi
	}
	return bi, bi + c
}

// knnLists is one worker's part of kthNeighbours: for each of s rows,
// the k smallest squared distances to the rows it paired it with,
// ascending, and the smallest positive one (+Inf when none).
type knnLists struct {
	k        int
	near     []float64 // row i's at near[i*k : i*k+cnt[i]]
	cnt      []int32
	distinct []float64
	// lim[i] is the least distance at and above which keep changes
	// nothing for row i: the larger of its k-th smallest and the smallest
	// positive one, or NaN until k are kept, so that !(v >= lim[i]) holds
	// for every v then, +Inf included.
	lim  []float64
	dist []float64 // scratch of knnBlock distances
	nan  bool      // a distance was NaN
}

func newKnnLists(s, k int) *knnLists {
	l := &knnLists{k: k, near: make([]float64, s*k), cnt: make([]int32, s),
		distinct: make([]float64, s), lim: make([]float64, s), dist: make([]float64, knnBlock)}
	for i := range l.distinct {
		l.distinct[i], l.lim[i] = math.Inf(1), math.NaN()
	}
	return l
}

// keep counts the squared distance v, not NaN, for row i.
func (l *knnLists) keep(i int, v float64) {
	if v > 0 && v < l.distinct[i] {
		l.distinct[i] = v
	}
	near := l.near[i*l.k : i*l.k+l.k]
	n := int(l.cnt[i])
	if n == l.k {
		if v >= near[n-1] {
			return
		}
		n-- // the largest drops out
	} else {
		l.cnt[i]++
	}
	// Insert v among the n kept, ascending.
	j := n
	for j > 0 && near[j-1] > v {
		near[j] = near[j-1]
		j--
	}
	near[j] = v
	if int(l.cnt[i]) == l.k {
		l.lim[i] = max(near[l.k-1], l.distinct[i])
	}
}

// kthNeighboursRows is kthNeighbours from each row's full distance row, a
// selection in each: every distance is computed twice.
func kthNeighboursRows(smp []float64, s, d, k, k2, w int) (float64, float64) {
	kth := make([]float64, s)
	kth2 := make([]float64, s)
	distinct := make([]float64, s) // squared distance to the nearest distinct row, or +Inf
	parallel.For(s, 16, w, func(_, lo, hi int) {
		dist := make([]float64, s)
		for i := lo; i < hi; i++ {
			kernel.SqDistRowTo(dist, smp[i*d:i*d+d], smp)
			dist[i] = math.Inf(1)
			distinct[i] = math.Inf(1)
			for _, v := range dist {
				if v > 0 && v < distinct[i] {
					distinct[i] = v
				}
			}
			// After selecting the k2-th smallest, the k2 − 1 before it
			// are the smaller ones, among which the k-th is selected.
			kth2[i] = quickSelect(dist, k2-1)
			kth[i] = kth2[i]
			if k < k2 {
				kth[i] = quickSelect(dist[:k2-1], k-1)
			}
		}
	})
	return medianDistance(kth, distinct), medianDistance(kth2, slices.Clone(distinct))
}

// medianDistance returns the median of the squared distances kth, or the
// fallbacks of kthNeighbour, as a distance. It reorders kth and distinct.
func medianDistance(kth, distinct []float64) float64 {
	s := len(kth)
	for _, v := range [][]float64{kth, distinct} {
		pos := slices.DeleteFunc(slices.Clone(v), func(x float64) bool { return !(x > 0) || math.IsInf(x, 1) })
		if len(pos) == 0 {
			continue
		}
		slices.Sort(v)
		if m := v[s/2]; m > 0 && !math.IsInf(m, 1) || math.IsNaN(m) {
			return math.Sqrt(m)
		}
		slices.Sort(pos)
		return math.Sqrt(pos[len(pos)/2])
	}
	return 0
}

// allEqual reports whether every row of the row-major smp equals the
// first.
func allEqual(smp []float64, d int) bool {
	for i := d; i < len(smp); i += d {
		if !slices.Equal(smp[:d], smp[i:i+d]) {
			return false
		}
	}
	return true
}

// quickSelect returns the k-th smallest value of v (from 0), reordering v.
func quickSelect(v []float64, k int) float64 {
	lo, hi := 0, len(v)-1
	for lo < hi {
		p := v[(lo+hi)/2]
		i, j := lo, hi
		for i <= j {
			for v[i] < p {
				i++
			}
			for v[j] > p {
				j--
			}
			if i <= j {
				v[i], v[j] = v[j], v[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return v[k]
		}
	}
	return v[k]
}
