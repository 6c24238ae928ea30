package metrics

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestTruth checks that both forms of Truth give back the classes and that
// Assess with a Truth is Evaluate's external part.
func TestTruth(t *testing.T) {
	t.Parallel()
	for _, classes := range []int{3, 1<<16 + 1} {
		labels := make([]int, 200)
		pred := make([]int, len(labels))
		for i := range labels {
			labels[i] = (i * 7919) % classes % 200
			pred[i] = i%4 - 1
		}
		tr := NewTruth(labels, classes)
		if tr.Len() != len(labels) {
			t.Fatalf("%d classes: Len %d, want %d", classes, tr.Len(), len(labels))
		}
		for i, c := range labels {
			if tr.Class(i) != c {
				t.Fatalf("%d classes: Class(%d) = %d, want %d", classes, i, tr.Class(i), c)
			}
		}
		got, want := Assess(nil, tr, pred, Indices{}), Evaluate(nil, labels, pred)
		if got.ARI != want.ARI || got.NMI != want.NMI || got.Clusters != want.Clusters {
			t.Errorf("%d classes: Assess %+v, Evaluate %+v", classes, got, want)
		}
		if !math.IsNaN(got.DB) || !math.IsNaN(got.Compactness) {
			t.Errorf("%d classes: internal indices %v, %v not asked for", classes, got.DB, got.Compactness)
		}
	}
}

// TestTruthUnlabelled checks that Assess leaves the unlabelled rows of
// either form of Truth out of the external indices, and only those: its
// indices are Evaluate's on the labelled rows alone, its clusters and
// internal indices those of every row.
func TestTruthUnlabelled(t *testing.T) {
	t.Parallel()
	x := mat.NewDense(12, 1, []float64{0, 0.1, 0.2, 0.3, 5, 5.1, 5.2, 5.3, 9, 9.1, 9.2, 9.3})
	pred := []int{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, -1}
	labels := []int{0, 0, Unlabelled, 0, 1, 1, 1, Unlabelled, 2, 2, 1, 2}
	var keptTruth, keptPred []int
	for i, c := range labels {
		if c != Unlabelled {
			keptTruth = append(keptTruth, c)
			keptPred = append(keptPred, pred[i])
		}
	}
	want := Evaluate(nil, keptTruth, keptPred)
	all := Evaluate(x, nil, pred)
	for _, classes := range []int{3, 1 << 16} {
		tr := NewTruth(labels, classes)
		if tr.Unlabelled() != 2 || tr.Class(2) != Unlabelled || tr.Class(3) != 0 {
			t.Fatalf("%d classes: Unlabelled %d, Class(2) %d, Class(3) %d", classes, tr.Unlabelled(), tr.Class(2), tr.Class(3))
		}
		got := Assess(x, tr, pred, Indices{DaviesBouldin: true})
		if got.ARI != want.ARI || got.NMI != want.NMI || got.Purity != want.Purity || got.Rand != want.Rand {
			t.Errorf("%d classes: Assess %+v, want the external indices of %+v", classes, got, want)
		}
		if got.Clusters != 3 || got.Unlabelled != 2 || got.DB != all.DB {
			t.Errorf("%d classes: clusters %d, unlabelled %d, DB %v; want 3, 2, %v", classes, got.Clusters, got.Unlabelled, got.DB, all.DB)
		}
	}
	// Counted as a class, the two rows would change the ARI: the test
	// could fail.
	if counted := AdjustedRand(labels, pred); counted == want.ARI {
		t.Fatalf("the unlabelled rows do not change the ARI (%v): the test cannot fail", counted)
	}
	none := Assess(nil, NewTruth([]int{Unlabelled, Unlabelled}, 0), []int{0, 1}, Indices{})
	if !math.IsNaN(none.ARI) || none.Unlabelled != 2 || none.Clusters != 2 {
		t.Errorf("no labelled row: %+v, want NaN indices, 2 unlabelled, 2 clusters", none)
	}
}

// TestValidityUnlabelledJSON checks that the count of unlabelled rows
// goes through JSON and is left out when 0.
func TestValidityUnlabelledJSON(t *testing.T) {
	t.Parallel()
	v := Validity{ARI: 0.5, NMI: 0.5, Purity: 1, Rand: 1, DB: math.NaN(), Compactness: math.NaN(), Clusters: 2, Unlabelled: 7}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var back Validity
	if err := json.Unmarshal(b, &back); err != nil || back.Unlabelled != 7 || back.Clusters != 2 {
		t.Fatalf("%s read back as %+v, %v", b, back, err)
	}
	v.Unlabelled = 0
	if b, _ := json.Marshal(v); strings.Contains(string(b), "unlabelled") {
		t.Errorf("0 unlabelled rows written: %s", b)
	}
}
