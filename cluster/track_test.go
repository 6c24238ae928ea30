package cluster_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
)

// blobs returns n rows of the Gaussians of spread 0.5 at centres, drawn
// in turn, with a fixed pseudo-random sequence from seed.
func blobs(n int, seed uint64, centres ...[2]float64) *mat.Dense {
	x := mat.NewDense(n, 2, nil)
	s := seed*2654435761 + 1
	u := func() float64 { // a small LCG: the test needs no quality
		s = s*6364136223846793005 + 1442695040888963407
		return (float64(s>>11) + 0.5) / (1 << 53)
	}
	for i := range n {
		c := centres[i%len(centres)]
		r, t := math.Sqrt(-2*math.Log(u())), 2*math.Pi*u()
		x.Set(i, 0, c[0]+0.5*r*math.Cos(t))
		x.Set(i, 1, c[1]+0.5*r*math.Sin(t))
	}
	return x
}

func fitUpdate(t *testing.T, m *svclust.Model, x *mat.Dense, forget float64) (*svclust.Model, cluster.Partition) {
	t.Helper()
	var err error
	if m == nil {
		m, err = svclust.Train(x, &svclust.Config{Seed: 1})
	} else {
		m, err = svclust.Update(context.Background(), m, x, &svclust.UpdateConfig{Forget: forget})
	}
	if err != nil {
		t.Fatal(err)
	}
	fit := cluster.Fit
	if m.Training.Batches > 0 {
		fit = cluster.FitUpdate
	}
	cl, err := fit(m, x, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m, cl.Partition
}

var (
	c0, c1, c2 = [2]float64{0, 0}, [2]float64{4, 0}, [2]float64{2, 3.5}
)

func TestTrackStationary(t *testing.T) {
	if testing.Short() {
		t.Skip("seconds of updates")
	}
	m, p := fitUpdate(t, nil, blobs(900, 1, c0, c1, c2), 0)
	ids := []int(nil)
	probe := blobs(300, 99, c0, c1, c2)
	before := p.Predict(nil, probe, 0)
	for k := range 4 {
		m2, p2 := fitUpdate(t, m, blobs(900, uint64(k+2), c0, c1, c2), 0)
		l, err := cluster.Track(p, ids, p2, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Born)+len(l.Died)+len(l.Merged)+len(l.Split) > 0 || l.Next != 3 {
			t.Fatalf("update %d: events %+v on a stationary stream", k+1, l)
		}
		after := p2.Predict(nil, probe, 0)
		for i, c := range after {
			if l.IDs[c] != before[i] {
				t.Fatalf("update %d: row %d was cluster %d, now %d", k+1, i, before[i], l.IDs[c])
			}
		}
		m, p, ids = m2, p2, l.IDs
	}
}

func TestTrackBornDied(t *testing.T) {
	if testing.Short() {
		t.Skip("seconds of updates")
	}
	m, p := fitUpdate(t, nil, blobs(900, 1, c0, c1), 0)
	// A third blob appears.
	m, p2 := fitUpdate(t, m, blobs(900, 2, c0, c1, c2), 0)
	l, err := cluster.Track(p, nil, p2, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if p2.Clusters() != 3 || !slices.Equal(l.Born, []int{2}) || len(l.Died)+len(l.Merged)+len(l.Split) > 0 {
		t.Fatalf("a blob appears: %d clusters, lineage %+v; want one born, id 2", p2.Clusters(), l)
	}
	// The first blob vanishes: clustered on batches without its rows and
	// the support vectors (FitUpdate), its cluster lives while the model
	// holds it and dies (or merges into the one that takes its region)
	// once its support vectors have faded. With λ = 0.72/S for the S
	// steps of an update, its third of the weight falls by e^−0.72 an update,
	// below the smallest cluster's share of the rows clustered (0.0075 of
	// 900 rows and about as many support rows, over the ~600 support
	// vectors: 0.02) after four updates; six are run.
	ids, next := l.IDs, l.Next
	p = p2
	var died []int
	for k := range 6 {
		m2, p3 := fitUpdate(t, m, blobs(900, uint64(k+3), c1, c2), 0.72/float64(svclust.UpdateSteps(900)))
		l, err := cluster.Track(p, ids, p3, next, 0)
		if err != nil {
			t.Fatal(err)
		}
		next = l.Next
		died = append(died, l.Died...)
		for _, mg := range l.Merged {
			if slices.Contains(mg.From, 0) && mg.Into != 0 {
				died = append(died, 0) // merged into the cluster that took its place
			}
		}
		m, p, ids = m2, p3, l.IDs
	}
	want := ids
	if !slices.Equal(died, []int{0}) || p.Clusters() != 2 || slices.Contains(want, 0) {
		t.Errorf("a blob vanishes: died %v, %d clusters with ids %v; want cluster 0 to end once", died, p.Clusters(), want)
	}
}

func TestTrackMergeSplit(t *testing.T) {
	x := blobs(900, 1, c0, c1, c2)
	three, err := svclust.Train(x, &svclust.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	a, err := cluster.Fit(three, x, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The same model with clusters of at least 500 rows: one.
	b, err := cluster.Fit(three, x, &cluster.Levels{MinSize: 500})
	if err != nil {
		t.Fatal(err)
	}
	if a.Clusters != 3 || b.Clusters != 1 {
		t.Fatalf("%d and %d clusters, want 3 and 1", a.Clusters, b.Clusters)
	}
	m, err := cluster.Track(a.Partition, nil, b.Partition, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Merged) != 1 || len(m.Merged[0].From) != 3 || m.Merged[0].Into != m.IDs[0] {
		t.Errorf("3 clusters into 1: %+v", m)
	}
	s, err := cluster.Track(b.Partition, nil, a.Partition, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Split) != 1 || s.Split[0].From != 0 || len(s.Split[0].Into) != 3 || s.Next != 3 {
		t.Errorf("1 cluster into 3: %+v", s)
	}
	if _, err := cluster.Track(a.Partition, []int{0, 0, 1}, b.Partition, 0, 0); err == nil {
		t.Error("repeated ids: no error")
	}
	if _, err := cluster.Track(a.Partition, nil, b.Partition, 2, 0); err == nil {
		t.Error("next id in use: no error")
	}
	if _, err := cluster.Track(nil, nil, b.Partition, 0, 0); err == nil {
		t.Error("nil partition: no error")
	}
}

// TestFitUpdateKeepsAbsentClusters: a model of a1 (20 Gaussian clusters,
// $SVCLUST_CALIB, default ../../shared/calibration) updated without
// forgetting with the rows of one class only is clustered on that batch
// and its support vectors (FitUpdate): the clusters the batch has no row
// of are still those the model holds, so none dies, none is born and
// none merges. Clustered on the batch alone, 18 of 18 died and one was
// born; with the ripple test's T the update's steps alone, clusters 2
// and 3 merged (as they still do for a batch of class 2 or 3, whose rows
// weigh on the valley between them).
func TestFitUpdateKeepsAbsentClusters(t *testing.T) {
	if testing.Short() {
		t.Skip("a fit of 3,000 rows")
	}
	dir := os.Getenv("SVCLUST_CALIB")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "calibration")
	}
	ds, err := dataset.ReadFile(filepath.Join(dir, "a1.csv"), dataset.ReadOptions{})
	if err != nil {
		t.Skipf("no calibration sets: %v", err)
	}
	dataset.FitScaler(ds.X, dataset.ScaleZScore).Transform(ds.X)
	m, err := svclust.Train(ds.X, &svclust.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	cl, err := cluster.Fit(m, ds.X, nil)
	if err != nil {
		t.Fatal(err)
	}
	var rows []int
	for i, l := range ds.Labels {
		if l == 0 {
			rows = append(rows, i)
		}
	}
	_, d := ds.X.Dims()
	batch := mat.NewDense(len(rows), d, nil)
	for k, i := range rows {
		batch.SetRow(k, ds.X.RawRowView(i))
	}
	u, err := svclust.Update(context.Background(), m, batch, nil)
	if err != nil {
		t.Fatal(err)
	}
	ucl, err := cluster.FitUpdate(u, batch, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ucl.Labels) != len(rows) || len(ucl.OutlierScores) != len(rows) {
		t.Fatalf("%d labels and %d scores for %d rows", len(ucl.Labels), len(ucl.OutlierScores), len(rows))
	}
	l, err := cluster.Track(cl.Partition, nil, ucl.Partition, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Died) > 0 || len(l.Born) > 0 || len(l.Merged) > 0 || len(l.Split) > 0 {
		t.Errorf("%d clusters, then %d: born %v, died %v, merged %v, split %v; want no event", cl.Clusters, ucl.Clusters, l.Born, l.Died, l.Merged, l.Split)
	}
}

// TestSupportRows: every row is one of the support vectors, and support
// vector i appears round(B·|αᵢ|/Σ|α|) times, as SupportRows says.
func TestSupportRows(t *testing.T) {
	x := blobs(600, 1, c0, c1, c2)
	m, err := svclust.Train(x, &svclust.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	sr := cluster.SupportRows(m)
	if sr == nil {
		t.Fatal("no support rows")
	}
	sv := m.SupportVectors()
	b := len(m.Alpha)
	count := make([]int, b)
	k, _ := sr.Dims()
	for r := range k {
		found := false
		for i := range b {
			if mat.Equal(sr.RowView(r), sv.RowView(i)) {
				count[i]++
				found = true
				break
			}
		}
		if !found {
			t.Fatalf("support row %d is no support vector", r)
		}
	}
	var sum float64
	for _, a := range m.Alpha {
		sum += math.Abs(a)
	}
	for i, a := range m.Alpha {
		if want := int(math.Round(float64(b) * math.Abs(a) / sum)); count[i] != want {
			t.Errorf("support vector %d (α %v) appears %d times, want round(B·|α|/Σ|α|) = %d", i, a, count[i], want)
		}
	}
}
