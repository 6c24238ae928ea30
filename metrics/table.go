package metrics

import "math"

// Table is the contingency table of classes × clusters built one point at
// a time, for labellings too long to hold in memory. It stores only the
// cells that hold points, so its size grows with the number of non-empty
// cells (at most the number of points, and at most classes × clusters),
// plus the numbers of classes and clusters. The zero value is an empty
// table.
//
// Table numbers the labels in order of first appearance as the functions
// of this package do, so [Table.Validity] after adding truth[i], pred[i] for
// every i is bit for bit the external part of Evaluate(nil, truth, pred).
type Table struct {
	n        int
	classes  map[int]int    // code of each class label
	clusters map[int]int    // code of each cluster label
	counts   map[uint64]int // counts[cell(i, j)] = N_ij > 0
	outliers bool           // the cluster label −1 occurred
}

// maxCode bounds the codes of classes and of clusters, so that cell can
// pack two codes into one key. Reaching it would take 2³² distinct labels,
// whose codes alone would fill hundreds of gigabytes.
const maxCode = 1 << 32

// cell returns the key of the counts of class i in cluster j.
func cell(i, j int) uint64 { return uint64(i)<<32 | uint64(j) }

// Add counts one point of class truth in cluster pred. It panics if
// there are more than 2³² distinct classes or clusters.
func (t *Table) Add(truth, pred int) {
	if t.classes == nil {
		t.classes = make(map[int]int)
		t.clusters = make(map[int]int)
		t.counts = make(map[uint64]int)
	}
	i, ok := t.classes[truth]
	if !ok {
		i = len(t.classes)
		if uint64(i) == maxCode {
			panic("metrics: Table with more than 2³² classes")
		}
		t.classes[truth] = i
	}
	j, ok := t.clusters[pred]
	if !ok {
		j = len(t.clusters)
		if uint64(j) == maxCode {
			panic("metrics: Table with more than 2³² clusters")
		}
		t.clusters[pred] = j
		t.outliers = t.outliers || pred == outlier
	}
	t.counts[cell(i, j)]++
	t.n++
}

// Len returns the number of points added.
func (t *Table) Len() int { return t.n }

// Validity returns purity, Rand, ARI and NMI of the points added, and the
// number of clusters other than the outliers (−1), as [Evaluate] computes
// them; DB and Compactness, which need the data, are NaN. With no points
// every index is NaN.
//
// Validity lays the table out as Evaluate does: as a dense classes × clusters
// array when that holds at most max(4N, 4096) cells, and otherwise as the
// sorted list of the N points' cells.
func (t *Table) Validity() Validity {
	nan := math.NaN()
	s := Validity{Purity: nan, Rand: nan, ARI: nan, NMI: nan, DB: nan, Compactness: nan}
	k1, k2 := len(t.classes), len(t.clusters)
	s.Clusters = k2
	if t.outliers {
		s.Clusters--
	}
	if t.n == 0 {
		return s
	}
	c := makeContingency(t.n, k1, k2, auto)
	for key, v := range t.counts {
		c.add(int(key>>32), int(key&(maxCode-1)), v)
	}
	c.finish()
	c.fill(&s)
	return s
}
