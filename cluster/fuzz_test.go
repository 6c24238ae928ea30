package cluster

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/internal/jsonkeys"
)

// fuzzModel returns the JSON of a small clustered model, the seed of the
// model-file fuzz target.
func fuzzModel(f *testing.F, all bool) []byte {
	ds, err := dataset.Generate(dataset.Gauss3, 60, 1)
	if err != nil {
		f.Fatal(err)
	}
	m, err := svclust.Train(ds.X, &svclust.Config{Budget: 6, MaxIter: 300})
	if err != nil {
		f.Fatal(err)
	}
	cl, err := Fit(m, ds.X, &Config{All: all})
	if err != nil {
		f.Fatal(err)
	}
	b, err := json.Marshal(cl.Partition)
	if err != nil {
		f.Fatal(err)
	}
	return b
}

// FuzzModelJSON: loading any bytes as a model never panics, and a model
// that loads has no key twice in one object (issue 13: the last one won),
// scores finite values, predicts labels in range and saves to the same
// JSON.
func FuzzModelJSON(f *testing.F) {
	for _, all := range []bool{false, true} {
		good := fuzzModel(f, all)
		f.Add(good)
		f.Add(good[:len(good)/2])
		f.Add(bytes.Replace(good, []byte(`"version":1`), []byte(`"version":2`), 1))
		f.Add(bytes.Replace(good, []byte(`"dim":2`), []byte(`"dim":1000000000`), 1))
		for _, dup := range [][2]string{
			{`"gamma":`, `"gamma":-1,"gamma":`},
			{`"dim":`, `"dim":2,"dim":`},
			{`"iterations":`, `"iterations":0,"iterations":`},
		} {
			b := bytes.Replace(good, []byte(dup[0]), []byte(dup[1]), 1)
			var m svclust.Model
			if bytes.Equal(b, good) || json.Unmarshal(b, &m) == nil {
				f.Errorf("a second %s was accepted", dup[0])
			}
			f.Add(b)
		}
	}
	f.Add([]byte(`{}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, in []byte) {
		var m svclust.Model
		if err := json.Unmarshal(in, &m); err != nil {
			return
		}
		if err := jsonkeys.Check(bytes.NewReader(in)); err != nil {
			t.Fatalf("a model with a duplicate key loaded: %v", err)
		}
		d := m.Dim()
		x := mat.NewDense(3, d, nil)
		for i := 0; i < 3; i++ {
			for j := 0; j < d; j++ {
				x.Set(i, j, float64(i-j))
			}
		}
		for _, v := range m.Score(nil, x, 1) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("score %v", v)
			}
		}
		var p Partition
		perr := json.Unmarshal(in, &p)
		switch {
		case perr == nil:
			for _, l := range p.Predict(nil, x, 1) {
				if l < -1 || l >= p.Clusters() {
					t.Fatalf("label %d outside [-1, %d)", l, p.Clusters())
				}
			}
			// Its JSON is the file's model with its partition.
			pout, err := json.Marshal(&p)
			if err != nil {
				t.Fatalf("a loaded partition does not save: %v", err)
			}
			var again Partition
			if err := json.Unmarshal(pout, &again); err != nil {
				t.Fatalf("a saved partition does not load: %v", err)
			}
			if pout2, _ := json.Marshal(&again); !bytes.Equal(pout, pout2) {
				t.Fatalf("partition: save, load, save is not stable")
			}
		case !errors.Is(perr, ErrNotClustered):
			t.Fatalf("a model file loads as a svclust.Model but not as a Partition: %v", perr)
		}
		out, err := json.Marshal(&m)
		if err != nil {
			t.Fatalf("a loaded model does not save: %v", err)
		}
		var again svclust.Model
		if err := json.Unmarshal(out, &again); err != nil {
			t.Fatalf("a saved model does not load: %v", err)
		}
		if out2, _ := json.Marshal(&again); !bytes.Equal(out, out2) {
			t.Fatalf("save, load, save is not stable")
		}
	})
}

// FuzzPipeline runs svclust.Train, Cluster and Predict on tiny data and settings
// decoded from the input: no panic, one label per row, labels in range, and
// Predict reproduces Cluster.
func FuzzPipeline(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, uint8(3), uint8(2), uint8(0))
	f.Add([]byte{0, 0, 0, 0, 0, 0}, uint8(0), uint8(1), uint8(1))
	f.Add([]byte{255, 0, 255, 0, 1, 1, 128, 3}, uint8(1), uint8(2), uint8(2))
	f.Fuzz(func(t *testing.T, vals []byte, budget, dim, strat uint8) {
		d := int(dim%3) + 1
		n := min(len(vals)/d, 16)
		if n < 1 {
			return
		}
		x := mat.NewDense(n, d, nil)
		for i := 0; i < n; i++ {
			for j := 0; j < d; j++ {
				x.Set(i, j, float64(int(vals[i*d+j])-128)/16)
			}
		}
		cfg := &svclust.Config{Budget: int(budget % 6), MaxIter: 500, Seed: uint64(strat), Workers: 2}
		switch strat % 4 {
		case 0:
			cfg.Maintainer = svclust.Removal{}
		case 1:
			cfg.Maintainer = svclust.Projection{K: 2}
			if cfg.Budget == 1 {
				cfg.Budget = 2
			}
		case 2:
			cfg.Maintainer = svclust.Projection{Pick: svclust.Random}
		case 3:
			cfg.Maintainer = svclust.Merge{}
		}
		m, err := svclust.Train(x, cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, cc := range []*Config{nil, {All: true, Outliers: true}} {
			cl, err := Fit(m, x, cc)
			if err != nil {
				t.Fatal(err)
			}
			if len(cl.Labels) != n {
				t.Fatalf("%d labels for %d rows", len(cl.Labels), n)
			}
			for _, l := range cl.Labels {
				if l < -1 || l >= cl.Clusters {
					t.Fatalf("label %d outside [-1, %d)", l, cl.Clusters)
				}
			}
			if p := cl.Partition.Predict(nil, x, 1); !slices.Equal(p, cl.Labels) {
				t.Fatalf("Predict %v differs from Cluster %v", p, cl.Labels)
			}
		}
	})
}
