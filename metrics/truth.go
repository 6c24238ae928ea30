package metrics

import (
	"gonum.org/v1/gonum/mat"
)

// Truth is the ground-truth class of each row of a data set, kept
// compactly: in 2 bytes a row when there are fewer than 65,536 classes,
// else in 4, instead of the 8 of an []int, which matters when a row holds
// only a few values. A row may be unlabelled ([Unlabelled]). The zero
// value holds no rows.
type Truth struct {
	c16        []uint16
	c32        []int32
	unlabelled int
}

// Unlabelled is the class of a row whose true class is unknown, as
// dataset.Read gives a missing label. [Assess] leaves such rows out of the
// external indices.
const Unlabelled = -1

// unlabelled16 stands for Unlabelled in Truth.c16.
const unlabelled16 = 1<<16 - 1

// NewTruth returns the classes labels, numbered 0 to classes−1 (as
// dataset.Read numbers them) or [Unlabelled]. It panics if a label is
// outside that range.
func NewTruth(labels []int, classes int) *Truth {
	t := &Truth{}
	if classes < unlabelled16 {
		t.c16 = make([]uint16, len(labels))
		for i, c := range labels {
			if t.check(c, classes) {
				t.c16[i] = uint16(c)
			} else {
				t.c16[i] = unlabelled16
			}
		}
		return t
	}
	// A class number is below the number of rows, which is far below 2³¹
	// for any data set that fits in memory.
	t.c32 = make([]int32, len(labels))
	for i, c := range labels {
		t.check(c, classes)
		t.c32[i] = int32(c)
	}
	return t
}

// check reports whether c is a class, counts it if it is Unlabelled, and
// panics if it is neither.
func (t *Truth) check(c, classes int) bool {
	if c == Unlabelled {
		t.unlabelled++
		return false
	}
	if c < 0 || c >= classes {
		panic("metrics: class out of range")
	}
	return true
}

// Len returns the number of rows.
func (t *Truth) Len() int { return len(t.c16) + len(t.c32) }

// Unlabelled returns the number of rows whose class is [Unlabelled].
func (t *Truth) Unlabelled() int { return t.unlabelled }

// Class returns the class of row i, or [Unlabelled].
func (t *Truth) Class(i int) int {
	if t.c16 != nil {
		if c := t.c16[i]; c != unlabelled16 {
			return int(c)
		}
		return Unlabelled
	}
	return int(t.c32[i])
}

// Indices says which internal indices [Assess] computes. Davies–Bouldin
// takes O(n·d) time and compactness O(Σ_k n_k²·d), which dominates a fit
// of 20,000 points, so a caller asks only for those it shows.
type Indices struct {
	DaviesBouldin bool
	Compactness   bool // computed only up to CompactnessLimit rows
}

// CompactnessLimit is the largest number of rows for which [Assess]
// computes the compactness index, whose cost grows with the square of the
// cluster sizes: 20,000 points in one cluster already take 2·10⁸
// distances.
const CompactnessLimit = 20_000

// Assess returns the indices of the clustering pred of the rows of x
// against truth (nil when there is none), as [Evaluate] computes them,
// except that the internal indices want leaves out are NaN, and so is
// Compactness above CompactnessLimit rows. The external indices leave the
// unlabelled rows of truth out, and Validity.Unlabelled counts them; with
// no labelled row they are NaN. The internal indices cover every row. It
// panics if truth or x does not have len(pred) rows.
func Assess(x mat.Matrix, truth *Truth, pred []int, want Indices) Validity {
	var s Validity
	if truth != nil {
		if truth.Len() != len(pred) {
			panic("metrics: label length mismatch")
		}
		var t Table
		for i, l := range pred {
			if c := truth.Class(i); c != Unlabelled {
				t.Add(c, l)
			}
		}
		s = t.Validity()
		// The number of clusters counts every row's.
		s.Clusters = NumClusters(pred)
		s.Unlabelled = truth.Unlabelled()
	} else {
		s = Evaluate(nil, nil, pred)
	}
	if want.DaviesBouldin {
		s.DB = DaviesBouldin(x, pred)
	}
	if want.Compactness && len(pred) <= CompactnessLimit {
		s.Compactness = Compactness(x, pred)
	}
	return s
}
