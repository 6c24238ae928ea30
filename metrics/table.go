package metrics

import "math"

// Table is the contingency table of classes × clusters built one point at
// a time, for labellings too long to hold in memory: its size is the number
// of classes times the number of clusters, whatever the number of points.
// The zero value is an empty table.
//
// Table numbers the labels in order of first appearance as the functions
// of this package do, so [Table.Scores] after adding truth[i], pred[i] for
// every i is bit for bit the external part of Evaluate(nil, 0, truth, pred).
type Table struct {
	n        int
	classes  map[int]int // code of each class label
	clusters map[int]int // code of each cluster label
	counts   [][]int     // counts[i][j] = N_ij; a row may be shorter than the number of clusters
	outliers bool        // the cluster label −1 occurred
}

// Add counts one point of class truth in cluster pred.
func (t *Table) Add(truth, pred int) {
	if t.classes == nil {
		t.classes = make(map[int]int)
		t.clusters = make(map[int]int)
	}
	i, ok := t.classes[truth]
	if !ok {
		i = len(t.classes)
		t.classes[truth] = i
		t.counts = append(t.counts, nil)
	}
	j, ok := t.clusters[pred]
	if !ok {
		j = len(t.clusters)
		t.clusters[pred] = j
		t.outliers = t.outliers || pred == outlier
	}
	row := t.counts[i]
	for len(row) <= j {
		row = append(row, 0)
	}
	row[j]++
	t.counts[i] = row
	t.n++
}

// Len returns the number of points added.
func (t *Table) Len() int { return t.n }

// Scores returns purity, Rand, ARI and NMI of the points added, and the
// number of clusters other than the outliers (−1), as [Evaluate] computes
// them; DB and Compactness, which need the data, are NaN. With no points
// every index is NaN.
func (t *Table) Scores() Scores {
	nan := math.NaN()
	s := Scores{Purity: nan, Rand: nan, ARI: nan, NMI: nan, DB: nan, Compactness: nan}
	k1, k2 := len(t.classes), len(t.clusters)
	s.Clusters = k2
	if t.outliers {
		s.Clusters--
	}
	if t.n == 0 {
		return s
	}
	c := contingency{n: t.n, rows: make([]int, k1), cols: make([]int, k2), dense: make([]int, k1*k2)}
	for i, row := range t.counts {
		for j, v := range row {
			c.dense[i*k2+j] = v
			c.rows[i] += v
			c.cols[j] += v
		}
	}
	c.fill(&s)
	return s
}
