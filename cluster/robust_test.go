package cluster

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/dataset"
)

// TestConcurrentPredictScore: a Partition is documented safe for
// concurrent use by Predict, and its Model by Score, as a worker that loads
// a model once and labels rows in parallel uses them. Many goroutines call
// both, with several worker counts, on a freshly clustered partition and on
// one loaded from JSON, by both rules (the Components rule searches trees
// over the equilibria, the anchors and the strip, built with the
// Partition); every result must equal the serial one bit for bit. Run under
// -race by .ci/run, the test also checks that they share no unsynchronised
// state.
func TestConcurrentPredictScore(t *testing.T) {
	ds := generated(t, dataset.Gauss3, 300)
	m, err := svclust.Train(ds.X, &svclust.Config{Budget: 20, Seed: 3, MaxIter: 3000})
	if err != nil {
		t.Fatal(err)
	}
	// anchorMin −1: anchors on the Components strip, so that their tree is searched too.
	for _, cc := range []Config{{}, {Rule: Components}, {Rule: Components, All: true}} {
		cl, err := fit(m, ds.X, &cc, limits{anchorMin: -1})
		if err != nil {
			t.Fatal(err)
		}
		if cc.Rule == Components && (cl.Partition.anchors == 0 || (!cc.All && cl.Partition.stripTree == nil)) {
			t.Fatalf("%+v: %d anchors, strip tree %v: a search tree is untested", cc, cl.Partition.anchors, cl.Partition.stripTree != nil)
		}
		b, err := json.Marshal(cl.Partition)
		if err != nil {
			t.Fatal(err)
		}
		var loaded Partition
		if err := json.Unmarshal(b, &loaded); err != nil {
			t.Fatal(err)
		}
		wantScore := m.Score(nil, ds.X, 1)
		wantLabels := cl.Partition.Predict(nil, ds.X, 1)
		if !slices.Equal(wantLabels, cl.Labels) {
			t.Fatalf("%+v: Predict differs from Cluster", cc)
		}
		for name, p := range map[string]*Partition{"clustered": cl.Partition, "loaded": &loaded} {
			var wg sync.WaitGroup
			errs := make(chan string, 64)
			for g := range 16 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					w := g%3 + 1
					if s := p.Model().Score(nil, ds.X, w); !sameBits(s, wantScore) {
						errs <- "Score with " + strconv.Itoa(w) + " workers differs"
					}
					if l := p.Predict(nil, ds.X, w); !slices.Equal(l, wantLabels) {
						errs <- "Predict with " + strconv.Itoa(w) + " workers differs"
					}
				}()
			}
			wg.Wait()
			close(errs)
			for e := range errs {
				t.Errorf("%+v, %s partition: %s from the serial result", cc, name, e)
			}
		}
	}
}

func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// TestDegenerateData: one row, or identical rows, are legitimate data.
func TestDegenerateData(t *testing.T) {
	for name, x := range map[string]*mat.Dense{
		"one row":   mat.NewDense(1, 3, []float64{1, 2, 3}),
		"identical": mat.NewDense(4, 2, []float64{1, 1, 1, 1, 1, 1, 1, 1}),
	} {
		m, err := svclust.Train(x, &svclust.Config{Budget: 2})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		cl, err := Fit(m, x, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if cl.Clusters != 1 {
			t.Errorf("%s: %d clusters, want 1", name, cl.Clusters)
		}
	}
}
