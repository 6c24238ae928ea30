package cluster

import (
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// TrackShare is the share of a cluster's support-vector weight that must
// flow along a link for [Track] to link two clusters: a fifth, chosen a
// priori (not fitted to a benchmark), so that a cluster splits or merges
// into at most five parts and a few support vectors that change sides
// make no link.
const TrackShare = 0.2

// Lineage says how the clusters of a partition continue those of the one
// before it, as [Track] finds them: a stable id per cluster and what was
// born, died, merged and split.
type Lineage struct {
	// IDs holds the stable id of each cluster of the new partition (its
	// cluster c is cluster IDs[c] of the stream), and Next the id the
	// next new cluster will get.
	IDs  []int
	Next int
	// Born holds the ids of the new clusters linked to no old one, and
	// Died those of the old clusters linked to no new one.
	Born, Died []int
	// Merged lists each new cluster linked to several old ones, and Split
	// each old cluster linked to several new ones, by stable id.
	Merged []Merge
	Split  []Split
}

// Merge is a new cluster (Into) linked to several old ones (From).
type Merge struct {
	From []int `json:"from"`
	Into int   `json:"into"`
}

// Split is an old cluster (From) linked to several new ones (Into).
type Split struct {
	From int   `json:"from"`
	Into []int `json:"into"`
}

// Track matches the clusters of next, a partition of an updated model, to
// those of prev, whose cluster c has the stable id prevIDs[c] (nil means
// c itself), by the support vectors each cluster owns: each old support
// vector, weighted by |αᵢ| of the old model, is labelled by both
// partitions, which says where an old cluster's weight went; each new
// support vector, weighted by |αᵢ| of the new model, is labelled by both,
// which says where a new cluster's weight came from. Old cluster i and
// new cluster j are linked when at least TrackShare of i's old weight went
// to j and at least TrackShare of j's new weight came from i (rows
// labelled −1, outliers, count for neither). A new cluster takes the id of
// the old one when each is the other's heaviest link (by the sum of both
// weights); every other new cluster gets a new id, from next (0 means one
// above the largest of prevIDs). The support vectors are labelled in the
// input space, on workers goroutines (0 means GOMAXPROCS).
//
// It returns an error for a nil partition, prevIDs of another length than
// prev's clusters or with repeated ids, a next at or below an id of
// prevIDs, and partitions of models of different dimensions.
func Track(prev Partition, prevIDs []int, next Partition, nextID, workers int) (*Lineage, error) {
	if prev == nil || next == nil {
		return nil, fmt.Errorf("cluster: Track: nil partition")
	}
	pm, nm := prev.Model(), next.Model()
	if pm.Dim() != nm.Dim() {
		return nil, fmt.Errorf("cluster: Track: partitions of %d and %d features", pm.Dim(), nm.Dim())
	}
	kp, kn := prev.Clusters(), next.Clusters()
	if prevIDs == nil {
		prevIDs = make([]int, kp)
		for c := range prevIDs {
			prevIDs[c] = c
		}
	}
	if len(prevIDs) != kp {
		return nil, fmt.Errorf("cluster: Track: %d ids for %d clusters", len(prevIDs), kp)
	}
	top := -1
	for c, id := range prevIDs {
		if id < 0 || slices.Contains(prevIDs[:c], id) {
			return nil, fmt.Errorf("cluster: Track: id %d negative or repeated", id)
		}
		top = max(top, id)
	}
	if nextID == 0 {
		nextID = top + 1
	}
	if nextID <= top {
		return nil, fmt.Errorf("cluster: Track: next id %d, not above the ids in use (up to %d)", nextID, top)
	}
	// out[i][j]: old weight of old cluster i labelled j by next; in[i][j]:
	// new weight of new cluster j labelled i by prev.
	out, in := grid(kp, kn), grid(kp, kn)
	flow := func(sv *mat.Dense, alpha []float64, w [][]float64) {
		a := prev.Predict(nil, sv, workers)
		b := next.Predict(nil, sv, workers)
		for k, al := range alpha {
			if a[k] >= 0 && b[k] >= 0 {
				w[a[k]][b[k]] += max(al, -al)
			}
		}
	}
	flow(pm.SupportVectors(), pm.Alpha, out)
	flow(nm.SupportVectors(), nm.Alpha, in)
	linked := grid(kp, kn)
	for i := range kp {
		so := sum(out[i])
		for j := range kn {
			var si float64
			for r := range kp {
				si += in[r][j]
			}
			if so > 0 && si > 0 && out[i][j] >= TrackShare*so && in[i][j] >= TrackShare*si {
				linked[i][j] = out[i][j]/so + in[i][j]/si
			}
		}
	}
	best := func(i, j int) (bi, bj int) { // heaviest link of old i, of new j
		bi, bj = -1, -1
		for c := range kn {
			if linked[i][c] > 0 && (bi < 0 || linked[i][c] > linked[i][bi]) {
				bi = c
			}
		}
		for r := range kp {
			if linked[r][j] > 0 && (bj < 0 || linked[r][j] > linked[bj][j]) {
				bj = r
			}
		}
		return bi, bj
	}
	l := &Lineage{IDs: make([]int, kn)}
	for j := range kn {
		l.IDs[j] = -1
		for i := range kp {
			if bi, bj := best(i, j); bi == j && bj == i {
				l.IDs[j] = prevIDs[i]
			}
		}
	}
	for j := range kn {
		if l.IDs[j] < 0 {
			l.IDs[j] = nextID
			nextID++
		}
	}
	l.Next = nextID
	for j := range kn {
		var from []int
		for i := range kp {
			if linked[i][j] > 0 {
				from = append(from, prevIDs[i])
			}
		}
		switch {
		case len(from) == 0:
			l.Born = append(l.Born, l.IDs[j])
		case len(from) > 1:
			l.Merged = append(l.Merged, Merge{From: from, Into: l.IDs[j]})
		}
	}
	for i := range kp {
		var into []int
		for j := range kn {
			if linked[i][j] > 0 {
				into = append(into, l.IDs[j])
			}
		}
		switch {
		case len(into) == 0:
			l.Died = append(l.Died, prevIDs[i])
		case len(into) > 1:
			l.Split = append(l.Split, Split{From: prevIDs[i], Into: into})
		}
	}
	return l, nil
}

func grid(r, c int) [][]float64 {
	g := make([][]float64, r)
	for i := range g {
		g[i] = make([]float64, c)
	}
	return g
}

func sum(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s
}
