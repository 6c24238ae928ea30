package metrics

import (
	"math"
	"testing"
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
