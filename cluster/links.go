package cluster

import (
	"math"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/internal/hdbscan"
)

// Constants of the rank-based links (docs/defaults.md, "Rank-based
// links").
const (
	// rankSample is the most rows the mutual-reachability tree is built
	// on, stride-sampled: O(rankSample²·q) time and O(rankSample·q)
	// memory whatever N is. It is Choose's sample size.
	rankSample = 2000
	// rankMinPts is the neighbour whose distance is a sampled row's core
	// distance (HDBSCAN's minPts): a larger one smooths the k-NN density
	// the tree follows; chosen on the 12 high-dimensional generated kinds
	// among 5, 10, 20 and 40 (docs/defaults.md, "Rank-based links").
	rankMinPts = 20
	// rankMinDim is the fewest kernel dimensions of a projected model
	// whose modes the rank-based links group. In one dimension a
	// mutual-reachability tree has no second path around a chance gap
	// between sampled rows and splits the data into dozens of pieces.
	rankMinDim = 2
)

// rankLinks reports whether the modes of f for the model m, clustered
// in d kernel dimensions, are grouped by the rank-based links: an
// automatic C, a Subspace of at least rankMinDim dimensions, and
// Levels.LevelLinks not set.
func (cfg *Levels) rankLinks(m *svclust.Model, d int) bool {
	return !cfg.LevelLinks && m.Subspace != nil && d >= rankMinDim && m.Choice.CAuto
}

// rankClusters groups the nm modes of f by HDBSCAN's mutual-reachability
// tree on a stride sample of at most rankSample rows of data (n rows of
// d values in the kernel's space): each sampled row gets an HDBSCAN
// cluster (its noise the nearest clustered row's), and each mode the
// cluster most of its sampled rows have (owner gives a row's support
// vector, svMode its mode); modes no sampled row reaches take a cluster
// through the edges (spread). A cluster's birth is the highest level
// of f at which it meets another, its stability the sampled rows it
// holds. It returns nil when the tree has fewer than two clusters.
func rankClusters(data []float64, n, d int, owner []int32, svMode []int, nm int, edges []modeEdge, reps []float64, low float64, minPts, w int) (modeCluster []int, birth, stab []float64) {
	s := min(n, rankSample)
	if s < 2*max(minPts, 5) {
		return nil, nil, nil
	}
	smp := make([]float64, s*d)
	rows := make([]int, s)
	for i := range s {
		r := int(int64(i) * int64(n) / int64(s))
		rows[i] = r
		copy(smp[i*d:i*d+d], data[r*d:r*d+d])
	}
	mcs := max(5, int(math.Ceil(DefaultMinShare*float64(s))))
	labels, st := hdbscan.Cluster(smp, d, minPts, mcs, w)
	if len(st) < 2 {
		return nil, nil, nil
	}
	hdbscan.NoiseToNearest(labels, smp, d, w)
	k := len(st)
	votes := make([]int, nm*k)
	for i, r := range rows {
		votes[svMode[owner[r]]*k+labels[i]]++
	}
	modeCluster = make([]int, nm)
	number := make([]int, k)
	for c := range number {
		number[c] = -1
	}
	var count []float64
	for j := range nm {
		best, bv := -1, 0
		for c := range k {
			if v := votes[j*k+c]; v > bv {
				best, bv = c, v
			}
		}
		if best < 0 {
			modeCluster[j] = -1
			continue
		}
		if number[best] < 0 {
			number[best] = len(count)
			count = append(count, 0)
		}
		modeCluster[j] = number[best]
		for c := range k {
			count[number[best]] += float64(votes[j*k+c])
		}
	}
	if len(count) < 2 {
		return nil, nil, nil
	}
	spread(modeCluster, edges, reps, d)
	birth = make([]float64, len(count))
	for c := range birth {
		birth[c] = low
	}
	for _, e := range edges {
		a, b := modeCluster[e.i], modeCluster[e.j]
		if a != b {
			birth[a], birth[b] = max(birth[a], e.h), max(birth[b], e.h)
		}
	}
	return modeCluster, birth, count
}
